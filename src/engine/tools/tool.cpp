#include "tool.h"

#include <QCoreApplication>

namespace Engine {

namespace {

// Content block fields are UTF-8 std::strings in nlohmann's JSON; absent or non-string
// fields read as empty rather than throwing (a server may send anything).
QString stringField(const Json &object, const char *key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string())
        return {};
    return QString::fromStdString(it->get_ref<const std::string &>());
}

std::size_t stringFieldSize(const Json &object, const char *key)
{
    if (!object.is_object())
        return 0;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string())
        return 0;
    return it->get_ref<const std::string &>().size();
}

// Binary blocks are summarized: the model cannot use base64 as text, but it should know
// that something was there and how big it was.
QString summarizeBinary(const QString &type, const Json &block, const char *dataKey)
{
    QStringList parts{type};
    const QString mime = stringField(block, "mimeType");
    if (!mime.isEmpty())
        parts << mime;
    // A plain variable: lupdate 6.4 hangs on a comma inside the count argument.
    const int bytes = int(stringFieldSize(block, dataKey));
    return QStringLiteral("[%1, %2]")
            .arg(parts.join(QLatin1Char(' ')),
                 QCoreApplication::translate("Engine::ToolOutput", "%n bytes base64", nullptr,
                                             bytes));
}

// UTF-16 code units that `utf8` decodes to (two for a character past U+FFFF), counted without
// decoding it.
qsizetype utf16Length(std::string_view utf8)
{
    qsizetype units = 0;
    for (const char c : utf8) {
        const auto byte = static_cast<unsigned char>(c);
        units += ((byte & 0xC0) != 0x80) + (byte >= 0xF0);
    }
    return units;
}

// A block as the model reads it, converting at most `maxBytes` of a text (cut on a character
// boundary): a 20 MB result is never decoded whole only to keep its first 32,000 characters.
struct Described
{
    QString text;
    qsizetype units = 0; // of the whole description, cut or not
};

Described describeText(const QString &prefix, const Json &object, const char *key,
                       std::size_t maxBytes)
{
    Described described{prefix, prefix.size()};
    const auto it = object.is_object() ? object.find(key) : object.end();
    if (!object.is_object() || it == object.end() || !it->is_string())
        return described;
    const std::string &text = it->get_ref<const std::string &>();
    if (text.size() <= maxBytes) {
        described.text += QString::fromStdString(text);
        described.units = described.text.size();
        return described;
    }
    std::size_t end = maxBytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    described.text += QString::fromUtf8(text.data(), qsizetype(end));
    described.units += utf16Length(text);
    return described;
}

Described describeBlock(const Json &block, std::size_t maxBytes)
{
    const QString type = stringField(block, "type");
    if (type == QLatin1String("text"))
        return describeText(QString(), block, "text", maxBytes);
    QString summary;
    if (type == QLatin1String("image") || type == QLatin1String("audio")) {
        summary = summarizeBinary(type, block, "data");
    } else if (type == QLatin1String("resource_link")) {
        QStringList parts{type};
        for (const char *key : {"name", "uri"}) {
            const QString value = stringField(block, key);
            if (!value.isEmpty())
                parts << value;
        }
        summary = QLatin1Char('[') + parts.join(QLatin1Char(' ')) + QLatin1Char(']');
    } else if (type == QLatin1String("resource")) {
        const Json resource = block.value("resource", Json::object());
        const QString uri = stringField(resource, "uri");
        if (resource.is_object() && resource.contains("text")) // embedded text: the model reads it
            return describeText(QStringLiteral("[resource %1]\n").arg(uri), resource, "text",
                                maxBytes);
        summary = summarizeBinary(QStringLiteral("resource ") + uri, resource, "blob");
    } else {
        summary = QStringLiteral("[%1]").arg(type.isEmpty() ? QStringLiteral("unknown content")
                                                            : type);
    }
    return {summary, summary.size()};
}

} // namespace

ToolOutput ToolOutput::text(const QString &text, bool isError)
{
    ToolOutput output;
    output.content = Json::array({Json{{"type", "text"}, {"text", text.toStdString()}}});
    output.isError = isError;
    return output;
}

QString ToolOutput::modelText(int maxChars) const
{
    QString joined;
    qsizetype total = 0; // UTF-16 units of the whole text, of which `joined` may hold a head
    if (content.is_array()) {
        bool first = true;
        for (const Json &block : content) {
            if (!first) {
                joined += QLatin1Char('\n');
                ++total;
            }
            first = false;
            // A UTF-16 unit takes at most 3 bytes of UTF-8: this many bytes fill what is left.
            const std::size_t maxBytes
                    = maxChars < 0
                              ? std::string::npos
                              : std::size_t(std::max<qsizetype>(0, maxChars - joined.size())) * 3
                                        + 4;
            Described described = describeBlock(block, maxBytes);
            joined += described.text;
            total += described.units;
        }
    }
    if (maxChars < 0 || total <= maxChars)
        return joined;
    qsizetype keep = std::min<qsizetype>(maxChars, joined.size());
    // Never split a surrogate pair: half a character is not valid UTF-16 (nor UTF-8 later).
    if (keep > 0 && joined.at(keep - 1).isHighSurrogate())
        --keep;
    const qsizetype cut = total - keep;
    joined.truncate(keep);
    return joined + QLatin1Char('\n')
           + QCoreApplication::translate(
                   "Engine::ToolOutput",
                   "… [cut: %n more characters; the full output is in the UI]", nullptr, int(cut));
}

std::vector<Attachment> ToolOutput::modelAttachments(const QString &toolName) const
{
    std::vector<Attachment> attachments;
    if (!content.is_array())
        return attachments;
    int images = 0;
    int sounds = 0;
    for (const Json &block : content) {
        if (int(attachments.size()) >= Attachment::MaxPerToolResult)
            break;
        const QString type = stringField(block, "type");
        const bool image = type == QLatin1String("image");
        if (!image && type != QLatin1String("audio"))
            continue;
        Attachment attachment;
        attachment.mimeType = stringField(block, "mimeType").toLower();
        if (image ? !Attachment::isModelImageType(attachment.mimeType)
                  : !attachment.mimeType.startsWith(QLatin1String("audio/"))) {
            continue;
        }
        // Base64 is 4/3 of the bytes: a block too big to send is not decoded at all.
        const std::size_t encoded = stringFieldSize(block, "data");
        if (encoded == 0 || encoded > std::size_t(Attachment::MaxImageBytes) / 3 * 4 + 4)
            continue;
        const std::string &data = block.at("data").get_ref<const std::string &>();
        auto decoded
                = QByteArray::fromBase64Encoding(QByteArray(data.data(), qsizetype(data.size())),
                                                 QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded || (*decoded).isEmpty() || (*decoded).size() > Attachment::MaxImageBytes)
            continue;
        attachment.data = std::move(*decoded);
        attachment.name = image ? QStringLiteral("%1 image %2").arg(toolName).arg(++images)
                                : QStringLiteral("%1 audio %2").arg(toolName).arg(++sounds);
        attachments.push_back(std::move(attachment));
    }
    return attachments;
}

const Mcp::Apps::ToolUi &Tool::appUi() const
{
    static const Mcp::Apps::ToolUi none;
    return none;
}

} // namespace Engine
