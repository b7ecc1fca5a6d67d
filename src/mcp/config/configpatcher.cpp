#include "configpatcher.h"

#include "config.h"

#include <mcp/wire/jsonparser.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace Mcp {

namespace {

// Locates values in JSON text that Mcp::parseJson has already accepted, by byte offset: the
// parser builds values, not positions, and an edit must touch nothing but its own bytes. It
// never reads past the text, so even unvalidated input cannot make it misbehave.
class Scanner
{
public:
    struct Member
    {
        size_t keyBegin = 0; // the opening quote (for array items: unused)
        size_t keyEnd = 0;   // after the closing quote
        size_t valueBegin = 0;
        size_t valueEnd = 0;
        std::string key; // decoded
    };
    struct Container
    {
        size_t open = 0;  // '{' or '['
        size_t close = 0; // '}' or ']'
        std::vector<Member> members;

        // Duplicate keys: the last one wins, as in the parser.
        const Member *find(std::string_view key) const
        {
            for (auto it = members.rbegin(); it != members.rend(); ++it) {
                if (it->key == key)
                    return &*it;
            }
            return nullptr;
        }
    };

    explicit Scanner(std::string_view text)
        : m_s(text)
    {
    }

    char at(size_t p) const { return p < m_s.size() ? m_s[p] : '\0'; }

    size_t skipWhitespace(size_t p) const
    {
        while (p < m_s.size() && isWhitespace(m_s[p]))
            ++p;
        return p;
    }

    // Where the root value starts: after a UTF-8 byte order mark (the parser skips one too).
    size_t rootBegin() const { return skipWhitespace(m_s.starts_with("\xEF\xBB\xBF") ? 3 : 0); }

    Container readObject(size_t open) const { return readContainer(open, true); }

    // The indentation (spaces and tabs) of the line that holds `p`.
    std::string_view lineIndent(size_t p) const
    {
        const size_t newline = p == 0 ? std::string_view::npos : m_s.rfind('\n', p - 1);
        const size_t begin = newline == std::string_view::npos ? 0 : newline + 1;
        size_t end = begin;
        while (end < m_s.size() && (m_s[end] == ' ' || m_s[end] == '\t'))
            ++end;
        return m_s.substr(begin, end - begin);
    }

    std::string_view slice(size_t begin, size_t end) const
    {
        return begin < end ? m_s.substr(begin, end - begin) : std::string_view();
    }

private:
    static bool isWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

    size_t skipString(size_t p) const
    {
        for (++p; p < m_s.size(); ++p) {
            if (m_s[p] == '\\')
                ++p;
            else if (m_s[p] == '"')
                return p + 1;
        }
        return m_s.size();
    }

    // Iterative, so nesting depth costs no stack.
    size_t skipValue(size_t p) const
    {
        const char c = at(p);
        if (c == '"')
            return skipString(p);
        if (c == '{' || c == '[') {
            int depth = 0;
            while (p < m_s.size()) {
                const char d = m_s[p];
                if (d == '"') {
                    p = skipString(p);
                    continue;
                }
                if (d == '{' || d == '[') {
                    ++depth;
                } else if (d == '}' || d == ']') {
                    if (--depth == 0)
                        return p + 1;
                }
                ++p;
            }
            return m_s.size();
        }
        while (p < m_s.size() && !isWhitespace(m_s[p]) && m_s[p] != ',' && m_s[p] != '}'
               && m_s[p] != ']')
            ++p;
        return p;
    }

    std::string decodeKey(size_t begin, size_t end) const
    {
        const std::string_view raw = slice(begin, end);
        if (raw.size() < 2)
            return std::string();
        if (raw.find('\\') == std::string_view::npos)
            return std::string(raw.substr(1, raw.size() - 2));
        const Json decoded = parseJson(raw);
        return decoded.is_string() ? decoded.get<std::string>() : std::string();
    }

    Container readContainer(size_t open, bool object) const
    {
        const char closing = object ? '}' : ']';
        Container c;
        c.open = open;
        c.close = m_s.size();
        size_t p = skipWhitespace(open + 1);
        if (at(p) == closing) {
            c.close = p;
            return c;
        }
        while (p < m_s.size()) {
            Member m;
            if (object) {
                m.keyBegin = p;
                m.keyEnd = skipString(p);
                m.key = decodeKey(m.keyBegin, m.keyEnd);
                p = skipWhitespace(m.keyEnd) + 1; // past ':'
            }
            m.valueBegin = skipWhitespace(p);
            m.valueEnd = skipValue(m.valueBegin);
            c.members.push_back(std::move(m));
            p = skipWhitespace(c.members.back().valueEnd);
            if (at(p) != ',') {
                c.close = p;
                break;
            }
            p = skipWhitespace(p + 1);
        }
        return c;
    }

    std::string_view m_s;
};

// The file as far as the edits need it: the parsed document and where the server's object is.
struct Located
{
    Json root;
    Scanner::Container server;
    Scanner::Member serverMember;
    Scanner::Member mcpServersMember;
};

QString displayName(const QString &fileName)
{
    return QDir::toNativeSeparators(fileName);
}

// 1-based line and column (in code points) of a byte offset, as the config editor shows them.
QString position(std::string_view text, size_t offset)
{
    int line = 1;
    int column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++column;
        }
    }
    return ConfigPatcher::tr("line %1, column %2").arg(line).arg(column);
}

std::optional<Json> parsedObject(std::string_view text, const QString &fileName, QString *error)
{
    auto fail = [&](const QString &why) -> std::optional<Json> {
        if (error)
            *error = ConfigPatcher::tr("Cannot change %1: %2").arg(displayName(fileName), why);
        return std::nullopt;
    };
    if (text.size() > size_t(ConfigLoader::kMaxConfigBytes))
        return fail(ConfigPatcher::tr("the file is larger than %1 KiB.")
                            .arg(ConfigLoader::kMaxConfigBytes / 1024));
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
        return fail(ConfigPatcher::tr("it contains a NUL byte (%1); it must be UTF-8 text.")
                            .arg(position(text, nul)));
    JsonParseError parseError;
    Json root = parseJson(text, &parseError);
    if (root.is_discarded())
        return fail(ConfigPatcher::tr("it is not valid JSON (%1: %2). Fix the file first.")
                            .arg(position(text, parseError.offset),
                                 QString::fromStdString(parseError.message)));
    if (!root.is_object())
        return fail(ConfigPatcher::tr("it is not a JSON object."));
    const auto servers = root.find("mcpServers");
    if (servers != root.end() && !servers->is_object())
        return fail(ConfigPatcher::tr("its \"mcpServers\" is not an object."));
    return root;
}

std::optional<Located> locate(const Scanner &scanner, std::string_view text,
                              const QString &fileName, const QString &server, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = ConfigPatcher::tr("Cannot change %1: %2").arg(displayName(fileName), why);
        return std::nullopt;
    };
    Located located;
    std::optional<Json> parsed = parsedObject(text, fileName, error);
    if (!parsed)
        return std::nullopt;
    located.root = std::move(*parsed);
    const Json *servers = nullptr;
    if (located.root.is_object()) {
        const auto it = located.root.find("mcpServers");
        if (it != located.root.end() && it->is_object())
            servers = &*it;
    }
    if (!servers)
        return fail(ConfigPatcher::tr("it has no \"mcpServers\" object."));
    const auto serverIt = servers->find(server.toStdString());
    if (serverIt == servers->end())
        return fail(ConfigPatcher::tr("server '%1' is not defined in it.").arg(server));
    if (!serverIt->is_object())
        return fail(ConfigPatcher::tr("server '%1' is not an object.").arg(server));

    // The parse above guarantees the shape the scanner walks.
    const Scanner::Container root = scanner.readObject(scanner.rootBegin());
    const Scanner::Member *mcpServers = root.find("mcpServers");
    if (!mcpServers)
        return fail(ConfigPatcher::tr("internal error: \"mcpServers\" not found in the text."));
    const Scanner::Container serverList = scanner.readObject(mcpServers->valueBegin);
    const Scanner::Member *serverMember = serverList.find(server.toStdString());
    if (!serverMember)
        return fail(ConfigPatcher::tr("internal error: server '%1' not found in the text.")
                            .arg(server));
    located.mcpServersMember = *mcpServers;
    located.serverMember = *serverMember;
    located.server = scanner.readObject(serverMember->valueBegin);
    return located;
}

std::string lineEnding(std::string_view text)
{
    return text.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
}

// The text between a member's key and its value (": ", ":", " : "), so new members and values
// are punctuated like their neighbours.
std::string colonOf(const Scanner &scanner, const Scanner::Member &member)
{
    return std::string(scanner.slice(member.keyEnd, member.valueBegin));
}

// Adds `"key": value` as the last member of `object`, copying the separator (comma, line break
// and indentation) that precedes the existing last member.
std::string insertMember(std::string_view text, const Scanner &scanner, const Located &located,
                         const std::string &keyJson, const std::string &valueJson)
{
    const Scanner::Container &object = located.server;
    std::string result(text);
    if (!object.members.empty()) {
        const Scanner::Member &last = object.members.back();
        std::string separator;
        if (object.members.size() >= 2) {
            separator = std::string(scanner.slice(
                    object.members[object.members.size() - 2].valueEnd, last.keyBegin));
        } else if (const std::string_view lead = scanner.slice(object.open + 1, last.keyBegin);
                   !lead.empty()) {
            separator = "," + std::string(lead);
        } else {
            // {"a": 1}: a space after the comma if the file puts one after its colons.
            separator = colonOf(scanner, last).ends_with(' ') ? ", " : ",";
        }
        result.insert(last.valueEnd, separator + keyJson + colonOf(scanner, last) + valueJson);
        return result;
    }

    // An empty object: nothing to copy from, so take the style of the enclosing objects.
    const std::string colon = colonOf(scanner, located.serverMember);
    const std::string_view inner = scanner.slice(object.open + 1, object.close);
    std::string replacement;
    if (inner.find('\n') != std::string_view::npos) {
        const std::string_view serverIndent = scanner.lineIndent(located.serverMember.keyBegin);
        const std::string_view outerIndent = scanner.lineIndent(located.mcpServersMember.keyBegin);
        std::string unit = "  ";
        if (serverIndent.size() > outerIndent.size() && serverIndent.starts_with(outerIndent))
            unit = std::string(serverIndent.substr(outerIndent.size()));
        const std::string newline = lineEnding(text);
        replacement = newline + std::string(serverIndent) + unit + keyJson + colon + valueJson
                      + newline + std::string(serverIndent);
    } else {
        replacement = keyJson + colon + valueJson;
    }
    result.replace(object.open + 1, inner.size(), replacement);
    return result;
}

// Defends the promise that only the intended change is made: the new text must parse to the
// old document with exactly that change applied.
bool verify(const std::string &newText, const Json &expected, const QString &fileName,
            QString *error)
{
    const Json actual = parseJson(newText);
    if (actual == expected)
        return true;
    if (error) {
        *error = ConfigPatcher::tr("Cannot change %1: the edit did not produce the expected "
                                   "document (internal error); the file was left unchanged.")
                         .arg(displayName(fileName));
    }
    return false;
}

std::optional<QByteArray> readConfig(const QString &filePath, QString *error)
{
    // The loader's reader: never blocks on a FIFO or device put in the file's place.
    ConfigLoader::FileContents contents = ConfigLoader::readFile(filePath);
    if (!contents.exists && contents.error.isEmpty())
        contents.error = ConfigPatcher::tr("the file does not exist");
    if (!contents.error.isEmpty()) {
        if (error) {
            *error = ConfigPatcher::tr("Cannot read %1: %2")
                             .arg(displayName(filePath), contents.error);
        }
        return std::nullopt;
    }
    // At most one byte over the cap: enough for the editor to refuse the file.
    return contents.bytes;
}

bool writeConfig(const QString &filePath, const QByteArray &text, QString *error)
{
    QSaveFile file(filePath);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        if (error) {
            *error = ConfigPatcher::tr("Cannot save %1: %2")
                             .arg(displayName(filePath), file.errorString());
        }
        return false;
    }
    return true;
}

bool editFile(const QString &filePath, QString *error,
              const std::function<std::optional<QByteArray>(const QByteArray &)> &edit)
{
    const std::optional<QByteArray> text = readConfig(filePath, error);
    if (!text)
        return false;
    const std::optional<QByteArray> edited = edit(*text);
    if (!edited)
        return false;
    if (*edited == *text)
        return true;
    return writeConfig(filePath, *edited, error);
}

// `value` as JSON, 2-space indented, each line after the first starting with `indent`.
std::string indentedJson(const nlohmann::ordered_json &value, std::string_view indent,
                         const std::string &newline)
{
    const std::string pretty = value.dump(2, ' ', false, Json::error_handler_t::replace);
    std::string out;
    for (const char c : pretty) {
        if (c == '\n')
            out += newline + std::string(indent);
        else
            out += c;
    }
    return out;
}

// Adds `"key": value` as the last member of `object`, whose own key starts at `ownerKey` (the
// line it is on gives the indentation). `value(indent)` writes the value for members indented
// by `indent`.
std::string addMember(std::string_view text, const Scanner &scanner,
                      const Scanner::Container &object, size_t ownerKey, const std::string &keyJson,
                      const std::function<std::string(std::string_view indent)> &value)
{
    const std::string newline = lineEnding(text);
    std::string result(text);
    if (!object.members.empty()) {
        const Scanner::Member &last = object.members.back();
        std::string separator;
        if (object.members.size() >= 2)
            separator = std::string(scanner.slice(
                    object.members[object.members.size() - 2].valueEnd, last.keyBegin));
        else if (const std::string_view lead = scanner.slice(object.open + 1, last.keyBegin);
                 !lead.empty())
            separator = "," + std::string(lead);
        else
            separator = ", ";
        const std::string_view indent = scanner.lineIndent(last.keyBegin);
        result.insert(last.valueEnd,
                      separator + keyJson + std::string(scanner.slice(last.keyEnd, last.valueBegin))
                              + value(indent));
        return result;
    }
    const std::string outer(scanner.lineIndent(ownerKey));
    const std::string inner = outer + "  ";
    result.replace(object.open + 1, object.close - object.open - 1,
                   newline + inner + keyJson + ": " + value(inner) + newline + outer);
    return result;
}

} // namespace

std::optional<QByteArray> ConfigPatcher::withServerAdded(const QByteArray &text,
                                                         const QString &fileName,
                                                         const QString &server,
                                                         const nlohmann::ordered_json &definition,
                                                         QString *error)
{
    const std::string name = server.toStdString();
    const std::string keyJson = Json(name).dump();
    if (QByteArray(text).trimmed().isEmpty()) {
        const nlohmann::ordered_json document{{"mcpServers", {{name, definition}}}};
        const std::string created
                = document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
        return QByteArray(created.data(), qsizetype(created.size()));
    }
    const std::string_view view(text.constData(), size_t(text.size()));
    std::optional<Json> root = parsedObject(view, fileName, error);
    if (!root)
        return std::nullopt;
    Json expected = *root;
    if (expected.contains("mcpServers") && expected["mcpServers"].contains(name)) {
        if (error)
            *error = tr("Cannot add to %1: it already defines a server named '%2'.")
                             .arg(displayName(fileName), server);
        return std::nullopt;
    }
    const std::string newline = lineEnding(view);
    const Scanner scanner(view);
    const Scanner::Container top = scanner.readObject(scanner.rootBegin());
    std::string edited;
    if (const Scanner::Member *servers = top.find("mcpServers")) {
        const Scanner::Container list = scanner.readObject(servers->valueBegin);
        edited = addMember(
                view, scanner, list, servers->keyBegin, keyJson,
                [&](std::string_view indent) { return indentedJson(definition, indent, newline); });
    } else {
        const nlohmann::ordered_json wrapped{{name, definition}};
        edited = addMember(
                view, scanner, top, top.open, "\"mcpServers\"",
                [&](std::string_view indent) { return indentedJson(wrapped, indent, newline); });
    }
    expected["mcpServers"][name]
            = Json::parse(definition.dump(-1, ' ', false, Json::error_handler_t::replace));
    if (!verify(edited, expected, fileName, error))
        return std::nullopt;
    return QByteArray(edited.data(), qsizetype(edited.size()));
}

std::optional<QByteArray> ConfigPatcher::withServerRemoved(const QByteArray &text,
                                                           const QString &fileName,
                                                           const QString &server, QString *error)
{
    const std::string_view view(text.constData(), size_t(text.size()));
    const Scanner scanner(view);
    std::optional<Located> located = locate(scanner, view, fileName, server, error);
    if (!located)
        return std::nullopt;
    const Scanner::Container list = scanner.readObject(located->mcpServersMember.valueBegin);
    size_t index = 0;
    while (index < list.members.size()
           && list.members[index].keyBegin != located->serverMember.keyBegin)
        ++index;
    std::string edited(view);
    if (list.members.size() == 1) {
        edited.erase(list.open + 1, list.close - list.open - 1);
    } else if (index == 0) {
        edited.erase(list.members[0].keyBegin, list.members[1].keyBegin - list.members[0].keyBegin);
    } else {
        edited.erase(list.members[index - 1].valueEnd,
                     list.members[index].valueEnd - list.members[index - 1].valueEnd);
    }
    Json expected = located->root;
    expected["mcpServers"].erase(server.toStdString());
    if (!verify(edited, expected, fileName, error))
        return std::nullopt;
    return QByteArray(edited.data(), qsizetype(edited.size()));
}

std::optional<QByteArray>
ConfigPatcher::withServerReplaced(const QByteArray &text, const QString &fileName,
                                  const QString &server, const nlohmann::ordered_json &definition,
                                  QString *error)
{
    const std::string_view view(text.constData(), size_t(text.size()));
    const Scanner scanner(view);
    std::optional<Located> located = locate(scanner, view, fileName, server, error);
    if (!located)
        return std::nullopt;
    const Scanner::Member &member = located->serverMember;
    std::string edited(view);
    edited.replace(member.valueBegin, member.valueEnd - member.valueBegin,
                   indentedJson(definition, scanner.lineIndent(member.keyBegin), lineEnding(view)));
    Json expected = located->root;
    expected["mcpServers"][server.toStdString()]
            = Json::parse(definition.dump(-1, ' ', false, Json::error_handler_t::replace));
    if (!verify(edited, expected, fileName, error))
        return std::nullopt;
    return QByteArray(edited.data(), qsizetype(edited.size()));
}

bool ConfigPatcher::addServer(const QString &filePath, const QString &server,
                              const nlohmann::ordered_json &definition, QString *error)
{
    const ConfigLoader::FileContents contents = ConfigLoader::readFile(filePath);
    if (!contents.error.isEmpty()) {
        if (error)
            *error = tr("Cannot read %1: %2").arg(displayName(filePath), contents.error);
        return false;
    }
    const std::optional<QByteArray> edited
            = withServerAdded(contents.bytes, filePath, server, definition, error);
    if (!edited)
        return false;
    if (!contents.exists && !QDir().mkpath(QFileInfo(filePath).absolutePath())) {
        if (error)
            *error = tr("Cannot create the folder of %1").arg(displayName(filePath));
        return false;
    }
    return writeConfig(filePath, *edited, error);
}

bool ConfigPatcher::removeServer(const QString &filePath, const QString &server, QString *error)
{
    return editFile(filePath, error, [&](const QByteArray &text) {
        return withServerRemoved(text, filePath, server, error);
    });
}

bool ConfigPatcher::replaceServer(const QString &filePath, const QString &server,
                                  const nlohmann::ordered_json &definition, QString *error)
{
    return editFile(filePath, error, [&](const QByteArray &text) {
        return withServerReplaced(text, filePath, server, definition, error);
    });
}

std::optional<QByteArray> ConfigPatcher::withServerDisabled(const QByteArray &text,
                                                            const QString &fileName,
                                                            const QString &server, bool disabled,
                                                            QString *error)
{
    const std::string_view view(text.constData(), size_t(text.size()));
    const Scanner scanner(view);
    std::optional<Located> located = locate(scanner, view, fileName, server, error);
    if (!located)
        return std::nullopt;

    Json expected = located->root;
    Json &serverJson = expected["mcpServers"][server.toStdString()];
    const std::string value = disabled ? "true" : "false";
    std::string edited;
    if (const Scanner::Member *existing = located->server.find("disabled")) {
        if (serverJson["disabled"] == Json(disabled))
            return text;
        // Whatever was there (even a wrong type) is replaced by the boolean.
        edited = std::string(view);
        edited.replace(existing->valueBegin, existing->valueEnd - existing->valueBegin, value);
    } else {
        if (!disabled)
            return text; // absent means enabled
        edited = insertMember(view, scanner, *located, "\"disabled\"", value);
    }
    serverJson["disabled"] = disabled;
    if (!verify(edited, expected, fileName, error))
        return std::nullopt;
    return QByteArray(edited.data(), qsizetype(edited.size()));
}

bool ConfigPatcher::setServerDisabled(const QString &filePath, const QString &server, bool disabled,
                                      QString *error)
{
    return editFile(filePath, error, [&](const QByteArray &text) {
        return withServerDisabled(text, filePath, server, disabled, error);
    });
}

} // namespace Mcp
