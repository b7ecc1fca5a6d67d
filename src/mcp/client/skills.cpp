#include "skills.h"

#include <mcp/wire/jsonmember.h>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QRegularExpression>

namespace Mcp::Skills {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Skills", text);
}

// A YAML scalar as JSON: quoted strings, true/false, null/~, numbers, else a plain string.
std::optional<Json> scalar(QString text)
{
    text = text.trimmed();
    if (text.isEmpty() || text == QLatin1String("~") || text == QLatin1String("null"))
        return Json();
    if (text.size() >= 2 && text.startsWith(QLatin1Char('"')) && text.endsWith(QLatin1Char('"'))) {
        // A double-quoted YAML string is a JSON string for the escapes skills use.
        Json parsed = Json::parse(text.toStdString(), nullptr, false);
        if (parsed.is_string())
            return parsed;
        return std::nullopt;
    }
    if (text.size() >= 2 && text.startsWith(QLatin1Char('\''))
        && text.endsWith(QLatin1Char('\''))) {
        return Json(text.mid(1, text.size() - 2)
                            .replace(QLatin1String("''"), QLatin1String("'"))
                            .toStdString());
    }
    // Block scalars, flow collections, anchors, tags: not read (so not comparable).
    static const QRegularExpression unsupported(QStringLiteral("^[|>\\[{&*!]"));
    if (unsupported.match(text).hasMatch())
        return std::nullopt;
    if (text == QLatin1String("true") || text == QLatin1String("false"))
        return Json(text == QLatin1String("true"));
    static const QRegularExpression integer(QStringLiteral("^[-+]?[0-9]+$"));
    static const QRegularExpression real(
            QStringLiteral("^[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?$"));
    bool ok = false;
    if (integer.match(text).hasMatch()) {
        const qlonglong value = text.toLongLong(&ok);
        if (ok)
            return Json(value);
    }
    if (real.match(text).hasMatch()) {
        const double value = text.toDouble(&ok);
        if (ok)
            return Json(value);
    }
    // A comment after a plain scalar is not part of it.
    const qsizetype comment = text.indexOf(QLatin1String(" #"));
    if (comment >= 0)
        text = text.left(comment).trimmed();
    return Json(text.toStdString());
}

int indentOf(const QString &line)
{
    int indent = 0;
    while (indent < line.size() && line.at(indent) == QLatin1Char(' '))
        ++indent;
    return indent;
}

} // namespace

bool offered(const Json &serverCapabilities)
{
    return jsonMember(jsonMember(serverCapabilities, "extensions"), Extension).is_object();
}

QString Entry::name() const
{
    return stringMember(frontmatter, "name");
}

QString Entry::description() const
{
    return stringMember(frontmatter, "description");
}

const File *Entry::file(const QString &fileUri) const
{
    for (const File &f : files) {
        if (f.uri == fileUri)
            return &f;
    }
    return nullptr;
}

std::vector<Entry> readList(const Json &result, QStringList *problems)
{
    std::vector<Entry> entries;
    Json list = jsonMember(result, "skills");
    if (list.is_null() && jsonMember(result, "skill").is_object())
        list = Json::array({jsonMember(result, "skill")});
    if (!list.is_array()) {
        if (problems)
            *problems << tr("the result has no list of skills");
        return entries;
    }
    static const QRegularExpression digest(QStringLiteral("^sha256:[0-9a-f]{64}$"));
    for (const Json &item : list) {
        Entry entry;
        entry.uri = stringMember(item, "uri");
        entry.frontmatter = jsonMember(item, "frontmatter");
        QString why;
        if (!entry.uri.startsWith(QLatin1String("skill://")))
            why = tr("its uri is not a skill:// URI");
        else if (!entry.frontmatter.is_object() || entry.name().isEmpty())
            why = tr("its frontmatter has no name");
        const Json &resources = jsonMember(item, "resources");
        if (why.isEmpty() && resources.is_string() && resources.get<std::string>() == "dynamic") {
            entry.dynamic = true;
        } else if (why.isEmpty() && resources.is_array()) {
            if (resources.size() > std::size_t(MaxFilesPerSkill))
                why = tr("it lists more than 512 files");
            qint64 total = 0;
            for (const Json &resource : resources) {
                if (!why.isEmpty())
                    break;
                File file{stringMember(resource, "uri"), stringMember(resource, "digest"), -1};
                const Json &size = jsonMember(resource, "size");
                if (size.is_number_integer())
                    file.size = size.get<qint64>();
                if (file.uri.isEmpty() || !digest.match(file.digest).hasMatch() || file.size < 0)
                    why = tr("a file's uri, digest or size is missing or malformed");
                total += std::max<qint64>(0, file.size);
                entry.files.push_back(std::move(file));
            }
            if (why.isEmpty() && total > MaxSkillBytes)
                why = tr("its files add up to more than 16 MiB");
            if (why.isEmpty() && !entry.file(entry.uri))
                why = tr("its files do not include its SKILL.md");
        } else if (why.isEmpty()) {
            why = tr("it lists no files");
        }
        if (!why.isEmpty()) {
            if (problems)
                *problems << QStringLiteral("%1: %2").arg(
                        entry.uri.isEmpty() ? QStringLiteral("?") : entry.uri, why);
            continue;
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

std::optional<Json> parseFrontmatter(const QByteArray &bytes, QString *error)
{
    QString text = QString::fromUtf8(bytes);
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    static const QRegularExpression block(
            QStringLiteral("\\A---\\r?\\n(.*?)\\r?\\n---[ \\t]*(?:\\r?\\n|\\z)"),
            QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = block.match(text);
    if (!match.hasMatch()) {
        *error = tr("it has no frontmatter");
        return std::nullopt;
    }
    Json out = Json::object();
    std::string parentKey; // the key whose nested mapping or list follows
    const QStringList lines = match.captured(1).split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = lines.at(i);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(QLatin1Char('#')))
            continue;
        const int indent = indentOf(line);
        const QString body = line.mid(indent);
        const auto fail = [&](const QString &why) {
            *error = tr("frontmatter line %1: %2").arg(i + 2).arg(why);
            return std::nullopt;
        };
        if (line.startsWith(QLatin1Char('\t')))
            return fail(tr("indented with a tab"));
        if (indent > 0) {
            if (parentKey.empty())
                return fail(tr("indented without a key above it"));
            Json &parent = out[parentKey];
            if (body.startsWith(QLatin1String("- ")) || body == QLatin1String("-")) {
                if (parent.is_null())
                    parent = Json::array();
                if (!parent.is_array())
                    return fail(tr("a list item inside a mapping"));
                auto value = scalar(body.mid(1));
                if (!value)
                    return fail(tr("a value this reader does not take"));
                parent.push_back(*value);
                continue;
            }
            const qsizetype colon = body.indexOf(QLatin1Char(':'));
            if (colon <= 0 || (colon + 1 < body.size() && body.at(colon + 1) != QLatin1Char(' ')))
                return fail(tr("not a key: value line"));
            if (parent.is_null())
                parent = Json::object();
            if (!parent.is_object())
                return fail(tr("a key inside a list"));
            const QString rest = body.mid(colon + 1).trimmed();
            if (rest.isEmpty())
                return fail(tr("nesting deeper than one level"));
            auto value = scalar(rest);
            if (!value)
                return fail(tr("a value this reader does not take"));
            parent[body.left(colon).trimmed().toStdString()] = *value;
            continue;
        }
        const qsizetype colon = body.indexOf(QLatin1Char(':'));
        if (colon <= 0 || (colon + 1 < body.size() && body.at(colon + 1) != QLatin1Char(' ')))
            return fail(tr("not a key: value line"));
        const std::string key = body.left(colon).trimmed().toStdString();
        if (out.contains(key))
            return fail(tr("a key given twice"));
        const QString rest = body.mid(colon + 1).trimmed();
        if (rest.isEmpty()) {
            out[key] = nullptr; // a nested mapping or list may follow
            parentKey = key;
            continue;
        }
        auto value = scalar(rest);
        if (!value)
            return fail(tr("a value this reader does not take"));
        out[key] = *value;
        parentKey.clear();
    }
    return out;
}

std::optional<QByteArray> contentBytes(const Json &readResult, const QString &uri, QString *error)
{
    const Json &contents = jsonMember(readResult, "contents");
    if (!contents.is_array()) {
        *error = tr("the read result has no contents");
        return std::nullopt;
    }
    for (const Json &content : contents) {
        if (stringMember(content, "uri") != uri)
            continue;
        const Json &text = jsonMember(content, "text");
        if (text.is_string())
            return QByteArray::fromStdString(text.get<std::string>());
        const Json &blob = jsonMember(content, "blob");
        if (blob.is_string()) {
            auto decoded = QByteArray::fromBase64Encoding(
                    QByteArray::fromStdString(blob.get<std::string>()),
                    QByteArray::AbortOnBase64DecodingErrors);
            if (decoded)
                return *decoded;
            *error = tr("its blob is not base64");
            return std::nullopt;
        }
    }
    *error = tr("the read result holds nothing for %1").arg(uri);
    return std::nullopt;
}

QString verify(const Entry &entry, const QString &uri, const QByteArray &bytes)
{
    if (entry.dynamic)
        return tr("the server lists no digests for this skill, so it cannot be verified");
    const File *file = entry.file(uri);
    if (!file)
        return tr("%1 is not one of the skill's listed files").arg(uri);
    if (bytes.size() != file->size)
        return tr("%1 is %2 bytes, the listing says %3").arg(uri).arg(bytes.size()).arg(file->size);
    const QString digest
            = QStringLiteral("sha256:")
              + QString::fromLatin1(
                      QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    if (digest != file->digest)
        return tr("%1 does not match the listed digest").arg(uri);
    if (uri != entry.uri)
        return {};
    QString error;
    const auto frontmatter = parseFrontmatter(bytes, &error);
    if (!frontmatter)
        return tr("%1: %2").arg(uri, error);
    // Every key of either side, absent counting as null.
    QStringList differing;
    for (const auto &[key, value] : frontmatter->items()) {
        if (jsonMember(entry.frontmatter, key.c_str()) != value)
            differing << QString::fromStdString(key);
    }
    for (const auto &[key, value] : entry.frontmatter.items()) {
        if (!frontmatter->contains(key) && !value.is_null())
            differing << QString::fromStdString(key);
    }
    if (!differing.isEmpty())
        return tr("%1's frontmatter differs from the listing in: %2")
                .arg(uri, differing.join(QStringLiteral(", ")));
    return {};
}

} // namespace Mcp::Skills
