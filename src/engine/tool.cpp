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

QString describeBlock(const Json &block)
{
    const QString type = stringField(block, "type");
    if (type == QLatin1String("text"))
        return stringField(block, "text");
    if (type == QLatin1String("image") || type == QLatin1String("audio"))
        return summarizeBinary(type, block, "data");
    if (type == QLatin1String("resource_link")) {
        QStringList parts{type};
        for (const char *key : {"name", "uri"}) {
            const QString value = stringField(block, key);
            if (!value.isEmpty())
                parts << value;
        }
        return QLatin1Char('[') + parts.join(QLatin1Char(' ')) + QLatin1Char(']');
    }
    if (type == QLatin1String("resource")) {
        const Json resource = block.value("resource", Json::object());
        const QString uri = stringField(resource, "uri");
        if (resource.is_object() && resource.contains("text")) // embedded text: the model reads it
            return QStringLiteral("[resource %1]\n%2").arg(uri, stringField(resource, "text"));
        return summarizeBinary(QStringLiteral("resource ") + uri, resource, "blob");
    }
    return QStringLiteral("[%1]").arg(type.isEmpty() ? QStringLiteral("unknown content") : type);
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
    QStringList parts;
    if (content.is_array()) {
        for (const Json &block : content)
            parts << describeBlock(block);
    }
    QString joined = parts.join(QLatin1Char('\n'));
    if (maxChars < 0 || joined.size() <= maxChars)
        return joined;
    qsizetype keep = maxChars;
    // Never split a surrogate pair: half a character is not valid UTF-16 (nor UTF-8 later).
    if (keep > 0 && joined.at(keep - 1).isHighSurrogate())
        --keep;
    const qsizetype cut = joined.size() - keep;
    joined.truncate(keep);
    return joined + QLatin1Char('\n')
           + QCoreApplication::translate(
                   "Engine::ToolOutput",
                   "… [cut: %n more characters; the full output is in the UI]", nullptr, int(cut));
}

} // namespace Engine
