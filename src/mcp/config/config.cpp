#include "config.h"

#include <mcp/wire/safetext.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace Mcp {

namespace {

using json = nlohmann::json;

// Every message of the loader shares this translation context (lupdate reads it from the
// macro). Untranslated, the English text is what `switchboard-cli config check` prints.
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Mcp::ConfigLoader)
};

// The defaults a server gets when its file says nothing: 30 s to start (initialize answered),
// 60 s per tool call; toJson() leaves them out.
constexpr int kDefaultTimeoutMs = 60000;
constexpr int kDefaultStartupTimeoutMs = 30000;

// Positions are only looked up for values this deep (settings.json → mcp → servers → name →
// tools → tool → risk is 6 segments); deeper values are never reported, so not indexed.
constexpr size_t kIndexedDepth = 6;

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

std::string childPointer(const std::string &parent, std::string_view key)
{
    std::string result = parent;
    result += '/';
    for (char c : key) {
        if (c == '~')
            result += "~0";
        else if (c == '/')
            result += "~1";
        else
            result += c;
    }
    return result;
}

std::string childPointer(const std::string &parent, size_t index)
{
    return parent + '/' + std::to_string(index);
}

// Values quoted in messages are cut: a message is one line in a list, and the value may be
// a megabyte long.
constexpr qsizetype kMaxQuotedChars = 60;

QString quoted(QStringView value)
{
    // Messages reach terminals: a control character in a name must be shown, not acted on.
    if (value.size() <= kMaxQuotedChars)
        return escapeControlCharacters(value);
    return escapeControlCharacters(value.left(kMaxQuotedChars)) + QStringLiteral("...");
}

bool isUtf8Continuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

bool startsWithBom(const QByteArray &text)
{
    return text.startsWith("\xEF\xBB\xBF");
}

// Maps JSON pointers to the byte offset where their value starts, and byte offsets to
// line/column. nlohmann_json keeps no positions, so the text is scanned once more. The scan
// only tracks strings and brackets, so it is safe on any bytes; its map is meaningful once
// nlohmann_json has accepted the same text. It also enforces kMaxNestingDepth before
// nlohmann_json builds anything.
class PositionIndex
{
public:
    // `collection`: the top-level member whose members are named entries (servers, agents);
    // a duplicate key inside one of them names it.
    explicit PositionIndex(const QByteArray &text, std::string collection = "mcpServers")
        : m_text(text)
        , m_collection(std::move(collection))
    {
        m_lineStarts.push_back(0);
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text.at(i) == '\n')
                m_lineStarts.push_back(i + 1);
        }
        scan();
    }

    // A key written twice in one object: nlohmann_json keeps the last value silently.
    struct Duplicate
    {
        qsizetype offset = 0;      // the second occurrence's opening quote
        qsizetype firstOffset = 0; // the first one's
        std::string key;
        std::string server; // the server it is inside of (or the server name itself), if any
    };

    bool tooDeep() const { return m_tooDeepOffset >= 0; }
    const std::vector<Duplicate> &duplicates() const { return m_duplicates; }

    // Offset of the opening quote of the key whose value `pointer` names; -1 if not seen.
    qsizetype keyOffsetOf(const std::string &pointer) const
    {
        const auto it = m_keyOffsets.find(pointer);
        return it == m_keyOffsets.end() ? -1 : it->second;
    }
    qsizetype tooDeepOffset() const { return m_tooDeepOffset; }

    // -1 if the pointer was not seen.
    qsizetype offsetOf(const std::string &pointer) const
    {
        const auto it = m_offsets.find(pointer);
        return it == m_offsets.end() ? -1 : it->second;
    }

    // 1-based line and column (in code points) of a byte offset; the end of the text is a
    // valid position (for "unexpected end of input").
    std::pair<int, int> location(qsizetype offset) const
    {
        offset = std::clamp<qsizetype>(offset, 0, m_text.size());
        const auto next = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
        const auto line = int(next - m_lineStarts.begin());
        qsizetype start = *(next - 1);
        if (start == 0 && startsWithBom(m_text) && offset >= 3)
            start = 3; // editors do not show the byte order mark
        int column = 1;
        for (qsizetype i = start; i < offset; ++i) {
            if (!isUtf8Continuation(m_text.at(i)))
                ++column;
        }
        return {line, column};
    }

    // Byte offset of UTF-16 unit `unit` of the decoded string whose opening quote is at
    // `quote`; lets an error point inside a string even when escapes come before it.
    qsizetype offsetInString(qsizetype quote, qsizetype unit) const
    {
        const qsizetype n = m_text.size();
        qsizetype pos = quote + 1;
        qsizetype units = 0;
        while (pos < n && m_text.at(pos) != '"' && units < unit) {
            const auto c = static_cast<unsigned char>(m_text.at(pos));
            if (c == '\\') {
                pos += (pos + 1 < n && m_text.at(pos + 1) == 'u') ? 6 : 2;
                units += 1;
            } else {
                const int length = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
                pos += length;
                units += length == 4 ? 2 : 1; // outside the BMP: a surrogate pair in QString
            }
        }
        return std::min(pos, n);
    }

private:
    struct Frame
    {
        bool object = false;
        std::string pointer; // empty below kIndexedDepth: nothing there is looked up
        size_t index = 0;
        std::string key;
        bool expectKey = true;
        std::unordered_map<std::string, qsizetype> keys; // object keys seen, at their offsets
    };

    static bool isDelimiter(char c)
    {
        switch (c) {
        case ' ':
        case '\t':
        case '\n':
        case '\r':
        case ',':
        case ':':
        case '[':
        case ']':
        case '{':
        case '}':
        case '"':
            return true;
        default:
            return false;
        }
    }

    void scan()
    {
        std::vector<Frame> stack;
        const char *d = m_text.constData();
        const qsizetype n = m_text.size();
        qsizetype i = startsWithBom(m_text) ? 3 : 0;

        const auto valuePointer = [&stack]() -> std::string {
            if (stack.empty())
                return {};
            const Frame &top = stack.back();
            return top.object ? childPointer(top.pointer, top.key)
                              : childPointer(top.pointer, top.index);
        };
        const auto record = [&](qsizetype at) {
            if (stack.size() <= kIndexedDepth)
                m_offsets[valuePointer()] = at;
        };

        while (i < n) {
            const char c = d[i];
            switch (c) {
            case ' ':
            case '\t':
            case '\n':
            case '\r':
            case ':':
                ++i;
                break;
            case ',':
                if (!stack.empty()) {
                    if (stack.back().object)
                        stack.back().expectKey = true;
                    else
                        ++stack.back().index;
                }
                ++i;
                break;
            case '{':
            case '[': {
                if (stack.size() >= size_t(ConfigLoader::kMaxNestingDepth)) {
                    m_tooDeepOffset = i;
                    return;
                }
                std::string pointer;
                if (stack.size() <= kIndexedDepth) {
                    pointer = valuePointer();
                    m_offsets[pointer] = i;
                }
                stack.push_back(Frame{c == '{', std::move(pointer), 0, {}, true, {}});
                ++i;
                break;
            }
            case '}':
            case ']':
                if (!stack.empty())
                    stack.pop_back();
                ++i;
                break;
            case '"': {
                qsizetype end = i + 1;
                while (end < n && d[end] != '"')
                    end += d[end] == '\\' ? 2 : 1;
                end = std::min(end, n);
                if (!stack.empty() && stack.back().object && stack.back().expectKey) {
                    Frame &top = stack.back();
                    top.expectKey = false;
                    // Every key is decoded (not only indexed ones): duplicates are refused at
                    // any depth.
                    top.key = decodeKey(d + i, d + std::min(end + 1, n));
                    if (stack.size() <= kIndexedDepth)
                        m_keyOffsets[childPointer(top.pointer, top.key)] = i;
                    const auto [seen, added] = top.keys.try_emplace(top.key, i);
                    if (!added)
                        recordDuplicate(stack, i, seen->second);
                } else {
                    record(i);
                }
                i = end + 1;
                break;
            }
            default: // a number or literal; runs to the next delimiter
                record(i);
                while (i < n && !isDelimiter(d[i]))
                    ++i;
                break;
            }
        }
    }

    void recordDuplicate(const std::vector<Frame> &stack, qsizetype offset, qsizetype first)
    {
        Duplicate duplicate{offset, first, stack.back().key, {}};
        // {"mcpServers": {NAME: {...}}}: stack[0] is the root, stack[1] the servers object.
        if (stack.size() >= 2 && stack[0].object && stack[0].key == m_collection && stack[1].object)
            duplicate.server = stack[1].key;
        m_duplicates.push_back(std::move(duplicate));
    }

    static std::string decodeKey(const char *begin, const char *end)
    {
        // Most keys have no escapes: their bytes between the quotes are the key.
        if (end - begin >= 2 && end[-1] == '"' && !std::memchr(begin, '\\', size_t(end - begin)))
            return std::string(begin + 1, end - 1);
        const json decoded = json::parse(begin, end, nullptr, /*allow_exceptions=*/false);
        return decoded.is_string() ? decoded.get<std::string>() : std::string(begin, end);
    }

    QByteArray m_text;
    std::string m_collection;
    std::vector<qsizetype> m_lineStarts;
    std::unordered_map<std::string, qsizetype> m_offsets;
    std::unordered_map<std::string, qsizetype> m_keyOffsets;
    std::vector<Duplicate> m_duplicates;
    qsizetype m_tooDeepOffset = -1;
};

// Where errors go, and how a JSON pointer becomes a line and column.
struct Context
{
    const PositionIndex &index;
    QString file;
    QList<ConfigError> &errors;
    // False when strings were rewritten (import): then an offset inside a string would point
    // at the wrong character, so errors point at the string itself.
    bool preciseStringOffsets = true;

    qsizetype offsetOf(std::string pointer) const
    {
        // Unknown pointers fall back to the nearest indexed parent.
        for (;;) {
            const qsizetype offset = index.offsetOf(pointer);
            if (offset >= 0 || pointer.empty())
                return offset;
            const auto slash = pointer.rfind('/');
            pointer.erase(slash == std::string::npos ? 0 : slash);
        }
    }

    // Where UTF-16 unit `unit` of the string (key or value) starting at `stringOffset` is.
    qsizetype insideString(qsizetype stringOffset, qsizetype unit) const
    {
        if (!preciseStringOffsets || stringOffset < 0)
            return stringOffset;
        return index.offsetInString(stringOffset, unit);
    }

    // UTF-16 unit `unit` of the key of the value `pointer` names; that value (or a parent)
    // if the key was not seen.
    qsizetype inKey(const std::string &pointer, qsizetype unit) const
    {
        const qsizetype offset = index.keyOffsetOf(pointer);
        return offset >= 0 ? insideString(offset, unit) : offsetOf(pointer);
    }

    // UTF-16 unit `unit` of the string value `pointer` names (the value itself if it was not
    // indexed exactly).
    qsizetype inValue(const std::string &pointer, qsizetype unit) const
    {
        const qsizetype exact = index.offsetOf(pointer);
        return exact >= 0 ? insideString(exact, unit) : offsetOf(pointer);
    }

    void addAt(qsizetype offset, const QString &server, const QString &message) const
    {
        ConfigError error;
        error.file = file;
        if (offset >= 0) {
            const auto [line, column] = index.location(offset);
            error.line = line;
            error.column = column;
        }
        error.server = server;
        error.message = server.isEmpty() ? message
                                         : Text::tr("server '%1': %2").arg(quoted(server), message);
        errors.append(error);
    }

    void add(const std::string &pointer, const QString &server, const QString &message) const
    {
        addAt(offsetOf(pointer), server, message);
    }

    int lineOf(const std::string &pointer) const
    {
        const qsizetype offset = offsetOf(pointer);
        return offset >= 0 ? index.location(offset).first : 0;
    }
};

} // namespace

void ConfigLoader::sortErrors(QList<ConfigError> &errors)
{
    std::stable_sort(errors.begin(), errors.end(), [](const ConfigError &a, const ConfigError &b) {
        return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
}

namespace {

using ConfigLoader::sortErrors;

// nlohmann_json's syntax messages, worded through tr() so a translated UI shows them in its
// language; in English the text stays exactly as the library wrote it. Wording this does not
// know (a newer library) passes through unchanged.
// Shape: "syntax error [while parsing CONTEXT ]- PROBLEM[; expected TOKEN]", where PROBLEM is
// "unexpected TOKEN" or one of the lexer's messages.
const char *const SyntaxContexts[] = {
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "value"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "object key"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "object separator"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "array"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "object"),
};
// Longest first where one is the start of another.
const char *const SyntaxTokens[] = {
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "'[', '{', or a literal"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "true literal"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "false literal"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "null literal"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "string literal"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "number literal"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "end of input"),
        "'['",
        "'{'",
        "']'",
        "'}'",
        "':'",
        "','",
};
const char *const LexerProblems[] = {
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "invalid string: ill-formed UTF-8 byte"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "invalid string: missing closing quote"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader",
                          "invalid string: '\\u' must be followed by 4 hex digits"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "invalid string: surrogate U+D800..U+DBFF must "
                                               "be followed by U+DC00..U+DFFF"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader",
                          "invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader",
                          "invalid string: forbidden character after backslash"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "invalid number; expected digit after '-'"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "invalid number; expected digit after '.'"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader",
                          "invalid number; expected '+', '-', or digit after exponent"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader",
                          "invalid number; expected digit after exponent sign"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "invalid literal"),
        QT_TRANSLATE_NOOP("Mcp::ConfigLoader", "invalid BOM; must be 0xEF 0xBB 0xBF if given"),
};

// Takes a known phrase off the front of `text`; its translation, or a null string.
template<size_t N>
QString takePhrase(QStringView *text, const char *const (&phrases)[N])
{
    for (const char *phrase : phrases) {
        const QLatin1String english(phrase);
        if (text->startsWith(english)) {
            *text = text->mid(english.size());
            return Text::tr(phrase);
        }
    }
    return QString();
}

QString translatedSyntax(const QString &english)
{
    QStringView rest(english);
    const QLatin1String start("syntax error ");
    if (!rest.startsWith(start))
        return english;
    rest = rest.mid(start.size());
    QString context;
    if (rest.startsWith(QLatin1String("while parsing "))) {
        rest = rest.mid(14);
        context = takePhrase(&rest, SyntaxContexts);
        if (context.isNull() || !rest.startsWith(u' '))
            return english;
        rest = rest.mid(1);
    }
    if (!rest.startsWith(QLatin1String("- ")))
        return english;
    rest = rest.mid(2);
    QString problem;
    if (rest.startsWith(QLatin1String("unexpected "))) {
        rest = rest.mid(11);
        const QString token = takePhrase(&rest, SyntaxTokens);
        if (token.isNull())
            return english;
        problem = Text::tr("unexpected %1").arg(token);
    } else {
        problem = takePhrase(&rest, LexerProblems);
        if (problem.isNull()) {
            // "invalid string: control character U+000A (LF) must be escaped to \u000A or \n"
            static const QRegularExpression control(QStringLiteral(
                    "^invalid string: control character (U\\+[0-9A-F]{4}) \\((\\w+)\\) must be "
                    "escaped to ([^\\s;]+)(?: or ([^\\s;]+))?"));
            const QRegularExpressionMatch match = control.match(rest);
            if (!match.hasMatch())
                return english;
            const QString escapes
                    = match.captured(4).isEmpty()
                              ? match.captured(3)
                              : Text::tr("%1 or %2").arg(match.captured(3), match.captured(4));
            problem = Text::tr("invalid string: control character %1 (%2) must be escaped to %3")
                              .arg(match.captured(1), match.captured(2), escapes);
            rest = rest.mid(match.capturedLength());
        }
    }
    QString expected;
    if (rest.startsWith(QLatin1String("; expected "))) {
        rest = rest.mid(11);
        expected = takePhrase(&rest, SyntaxTokens);
        if (expected.isNull())
            return english;
    }
    if (!rest.isEmpty())
        return english;
    QString message
            = context.isNull()
                      ? Text::tr("syntax error - %1").arg(problem)
                      : Text::tr("syntax error while parsing %1 - %2").arg(context, problem);
    if (!expected.isNull())
        message = Text::tr("%1; expected %2").arg(message, expected);
    return message;
}

// nlohmann_json's messages start with "[json.exception.parse_error.101] parse error at line
// 1, column 8: " (its own, byte-based position) and may quote a whole megabyte of input after
// "last read:"; keep the description and the expectation only.
QString syntaxMessage(const std::string &what)
{
    std::string message = what;
    if (const auto column = message.find("column "); column != std::string::npos) {
        if (const auto colon = message.find(": ", column); colon != std::string::npos)
            message.erase(0, colon + 2);
    }
    if (const auto lastRead = message.find("; last read: "); lastRead != std::string::npos) {
        const auto expected = message.rfind("; expected ");
        std::string tail = expected != std::string::npos && expected > lastRead
                                   ? message.substr(expected)
                                   : std::string();
        message.erase(lastRead);
        message += tail;
    }
    return translatedSyntax(fromStd(message));
}

// Parses `text` into `root`; false (with an error) on any syntax problem.
bool parseJson(const QByteArray &text, const Context &ctx, json &root)
{
    if (text.size() > ConfigLoader::kMaxConfigBytes) {
        ctx.addAt(-1, QString(),
                  Text::tr("the file is larger than %1 KiB; this is not a configuration file")
                          .arg(ConfigLoader::kMaxConfigBytes / 1024));
        return false;
    }
    // nlohmann_json takes a NUL byte for the end of input and would accept "{}\0garbage".
    if (const qsizetype nul = text.indexOf('\0'); nul >= 0) {
        ctx.addAt(nul, QString(),
                  Text::tr("NUL byte: JSON text must be UTF-8 (was the file saved as "
                           "UTF-16?)"));
        return false;
    }
    if (ctx.index.tooDeep()) {
        ctx.addAt(ctx.index.tooDeepOffset(), QString(),
                  Text::tr("nesting deeper than %1 levels").arg(ConfigLoader::kMaxNestingDepth));
        return false;
    }
    try {
        root = json::parse(text.cbegin(), text.cend());
        return true;
    } catch (const json::parse_error &e) {
        // e.byte counts the bytes read, including the offending one: 1-based.
        const qsizetype offset = e.byte > 0 ? qsizetype(e.byte) - 1 : 0;
        ctx.addAt(offset, QString(), syntaxMessage(e.what()));
    } catch (const std::exception &e) {
        ctx.addAt(-1, QString(), Text::tr("cannot parse: %1").arg(QString::fromUtf8(e.what())));
    }
    return false;
}

// nlohmann_json kept the last of each duplicate key; the user may have meant the first. Returns
// the entries (servers) with a duplicate key.
// `entryFormat` ("agent '%1': %2"): how a problem inside an entry is worded; empty: a server's.
QSet<QString> reportDuplicates(const Context &ctx, const QString &entryFormat = QString())
{
    QSet<QString> duplicated;
    for (const PositionIndex::Duplicate &duplicate : ctx.index.duplicates()) {
        const QString server = fromStd(duplicate.server);
        const QString message
                = Text::tr("duplicate key '%1' (first at line %2); a key may appear only once "
                           "in an object")
                          .arg(quoted(fromStd(duplicate.key)))
                          .arg(ctx.index.location(duplicate.firstOffset).first);
        if (entryFormat.isEmpty() || server.isEmpty()) {
            ctx.addAt(duplicate.offset, server, message);
        } else {
            ctx.addAt(duplicate.offset, QString(), entryFormat.arg(quoted(server), message));
            ctx.errors.last().server = server;
        }
        if (!server.isEmpty())
            duplicated.insert(server);
    }
    return duplicated;
}

using ConfigLoader::Expansion;

bool isVariableName(QStringView name)
{
    if (name.isEmpty())
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        const bool letter = (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || c == u'_';
        if (!letter && !(i > 0 && c >= u'0' && c <= u'9'))
            return false;
    }
    return true;
}

Expansion expand(const QString &text, const QProcessEnvironment &env)
{
    Expansion result;
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype start = text.indexOf(QLatin1String("${"), i);
        if (start < 0) {
            result.value += QStringView(text).mid(i);
            break;
        }
        result.value += QStringView(text).mid(i, start - i);
        const qsizetype close = text.indexOf(u'}', start + 2);
        if (close < 0) {
            result.syntaxError = Text::tr("unterminated '${': add the closing '}'");
            result.syntaxErrorIndex = start;
            return result;
        }
        const QStringView inner = QStringView(text).mid(start + 2, close - start - 2);
        const qsizetype dash = inner.indexOf(QLatin1String(":-"));
        const QStringView name = dash < 0 ? inner : inner.left(dash);
        if (!isVariableName(name)) {
            result.syntaxError = Text::tr("'${%1}' is not a variable reference; use ${NAME} or "
                                          "${NAME:-default} (letters, digits, '_')")
                                         .arg(quoted(inner));
            result.syntaxErrorIndex = start;
            return result;
        }
        const QString value = env.value(name.toString());
        if (!value.isEmpty()) {
            result.value += value;
            result.substituted << value;
        } else if (dash >= 0) {
            result.value += inner.mid(dash + 2);
        } else if (result.missingVariable.isEmpty()) {
            result.missingVariable = name.toString();
            result.missingIsEmpty = env.contains(result.missingVariable);
        }
        i = close + 1;
    }
    return result;
}

QString typeNames()
{
    //: The values "type" accepts: keep the quoted words as they are.
    return Text::tr("\"stdio\", \"http\", \"streamable-http\" or \"sse\"");
}

QString jsonTypeName(const json &value)
{
    switch (value.type()) {
    case json::value_t::null:
        return QStringLiteral("null");
    case json::value_t::object:
        //: A JSON value's type, completing "'%1' must be %2, not %3".
        return Text::tr("an object");
    case json::value_t::array:
        return Text::tr("a list");
    case json::value_t::string:
        return Text::tr("a string");
    case json::value_t::boolean:
        return Text::tr("a boolean");
    default:
        return Text::tr("a number");
    }
}

QString codePoint(QChar c)
{
    return QStringLiteral("%1").arg(c.unicode(), 4, 16, QLatin1Char('0')).toUpper();
}

QString controlCharacterMessage(const QString &field, QChar c)
{
    return Text::tr("'%1' contains the control character U+%2; names, commands, arguments and "
                    "variable names must not contain control characters")
            .arg(field, codePoint(c));
}

bool isServerNameCharacter(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_'
           || u == '.' || u == '-';
}

// [A-Za-z0-9_.-]{1,64}, and not "builtin": a name that shows in tool names, prompts and
// terminals exactly as written, and that cannot pass for the built-in tools' source.
void checkServerName(const Context &ctx, const QString &name, const std::string &pointer)
{
    if (name.isEmpty()) {
        ctx.add(pointer, name, Text::tr("a server name must not be empty"));
        return;
    }
    if (const qsizetype control = indexOfControlCharacter(name); control >= 0) {
        ctx.addAt(ctx.inKey(pointer, control), name,
                  Text::tr("the server name contains the control character U+%1")
                          .arg(codePoint(name.at(control))));
        return;
    }
    const auto bad = std::find_if_not(name.cbegin(), name.cend(), isServerNameCharacter);
    if (bad != name.cend()) {
        ctx.addAt(ctx.inKey(pointer, bad - name.cbegin()), name,
                  Text::tr("a server name may only contain letters A-Z and a-z, digits, '_', "
                           "'.' and '-' (not '%1')")
                          .arg(name.mid(bad - name.cbegin(), bad->isHighSurrogate() ? 2 : 1)));
    } else if (name.size() > ConfigLoader::kMaxServerNameLength) {
        ctx.addAt(ctx.inKey(pointer, 0), name,
                  Text::tr("a server name may be at most %1 characters long, not %2")
                          .arg(ConfigLoader::kMaxServerNameLength)
                          .arg(name.size()));
    } else if (name.compare(QLatin1String("builtin"), Qt::CaseInsensitive) == 0) {
        ctx.addAt(ctx.inKey(pointer, 0), name,
                  Text::tr("the name '%1' is reserved for Switchboard's built-in tools; choose "
                           "another name")
                          .arg(name));
    }
}

// "sandbox": true/false, or {"network": bool, "write": ["path", ...]}. Unknown keys are errors:
// a misspelt "network" must not leave the network open unnoticed. `expand` registers a `write`
// entry for ${VAR} expansion.
void checkSandbox(const Context &ctx, const QString &name, const json &node,
                  const std::string &pointer, bool stdio, SandboxPolicy &policy,
                  const std::function<void(QString, std::string, QString, QString *)> &expand)
{
    const auto wrongType = [&](const std::string &where, const QString &field,
                               const QString &expected, const json &got) {
        ctx.add(where, name,
                Text::tr("'%1' must be %2, not %3").arg(field, expected, jsonTypeName(got)));
    };
    if (!stdio) {
        ctx.add(pointer, name,
                Text::tr("'sandbox' applies only to stdio servers (a program "
                         "Switchboard starts)"));
        return;
    }
    if (node.is_boolean()) {
        policy.enabled = node.get<bool>();
        return;
    }
    if (!node.is_object()) {
        wrongType(pointer, QStringLiteral("sandbox"),
                  Text::tr("true, false or an object such as {\"network\": false, \"write\": "
                           "[\"out\"]}"),
                  node);
        return;
    }
    policy.enabled = true;
    for (const auto &[key, item] : node.items()) {
        const std::string where = childPointer(pointer, key);
        const QString path = QStringLiteral("sandbox.") + fromStd(key);
        if (key == "network") {
            if (item.is_boolean())
                policy.network = item.get<bool>();
            else
                wrongType(where, path, Text::tr("true or false"), item);
        } else if (key == "write") {
            if (!item.is_array()) {
                wrongType(where, path, Text::tr("a list of folders"), item);
                continue;
            }
            policy.write.resize(qsizetype(item.size()));
            for (size_t i = 0; i < item.size(); ++i) {
                const QString entryPath = QStringLiteral("sandbox.write[%1]").arg(i);
                if (!item[i].is_string())
                    wrongType(childPointer(where, i), entryPath, Text::tr("a string"), item[i]);
                else if (item[i].get_ref<const std::string &>().empty())
                    ctx.add(childPointer(where, i), name,
                            Text::tr("'%1' must not be empty").arg(entryPath));
                else
                    expand(entryPath, childPointer(where, i), fromStd(item[i].get<std::string>()),
                           &policy.write[qsizetype(i)]);
            }
        } else {
            ctx.add(where, name,
                    Text::tr("unknown key '%1' in 'sandbox'; expected \"network\" "
                             "or \"write\"")
                            .arg(fromStd(key)));
        }
    }
}

// Checks one server's settings and builds its ServerConfig. Every problem is reported (not
// only the first), with the field named, so one `config check` shows them all. std::nullopt
// when the server has config errors. With `forImport`, variables are only checked for syntax.
std::optional<ServerConfig> checkServer(const Context &ctx, const std::string &nameUtf8,
                                        const json &value, const std::string &pointer,
                                        const QProcessEnvironment &env,
                                        const ConfigLoader::ServerCheck &check)
{
    const QString name = fromStd(nameUtf8);
    const qsizetype errorsBefore = ctx.errors.size();
    const auto fail = [&](const std::string &at, const QString &message) {
        ctx.add(at, name, message);
    };
    const auto at = [&pointer](const char *key) {
        return childPointer(pointer, key);
    };
    const auto wrongType = [&](const std::string &where, const QString &field,
                               const QString &expected, const json &got) {
        fail(where, Text::tr("'%1' must be %2, not %3").arg(field, expected, jsonTypeName(got)));
    };

    checkServerName(ctx, name, pointer);
    if (!value.is_object()) {
        wrongType(pointer, name, Text::tr("an object with \"command\" or \"url\""), value);
        return std::nullopt;
    }
    const auto field = [&value](const char *key) -> const json * {
        const auto it = value.find(key);
        return it == value.end() ? nullptr : &*it;
    };

    ServerConfig server;
    server.name = name;
    server.sourceFile = ctx.file;
    server.line = ctx.lineOf(pointer);
    server.definition = value;

    // Strings to expand, in the order their missing variables are reported.
    struct Expandable
    {
        QString fieldPath;
        std::string pointer;
        QString raw;
        qsizetype unitOffset = 0; // where `raw` starts inside the JSON string ("KEY=" before it)
        QString *target;
        // Part of the command line (command, args, url): no control characters. A NUL would
        // cut an argument short of what the user was shown; an ESC could rewrite the screen
        // that shows it.
        bool commandLine = false;
    };
    std::vector<Expandable> expandables;

    // type, command, url
    std::optional<TransportType> declaredType;
    QString declaredTypeName;
    if (const json *type = field("type")) {
        if (!type->is_string()) {
            wrongType(at("type"), QStringLiteral("type"), Text::tr("a string: ") + typeNames(),
                      *type);
        } else {
            declaredTypeName = fromStd(type->get<std::string>());
            if (declaredTypeName == QLatin1String("stdio"))
                declaredType = TransportType::Stdio;
            else if (declaredTypeName == QLatin1String("http")
                     || declaredTypeName == QLatin1String("streamable-http"))
                declaredType = TransportType::Http;
            else if (declaredTypeName == QLatin1String("sse"))
                declaredType = TransportType::Sse;
            else
                fail(at("type"), Text::tr("unknown type '%1'; expected %2")
                                         .arg(quoted(declaredTypeName), typeNames()));
        }
    }
    const json *command = field("command");
    const json *url = field("url");
    for (const auto &[key, node] : {std::pair{"command", command}, std::pair{"url", url}}) {
        if (!node)
            continue;
        const QString fieldName = QLatin1String(key);
        if (!node->is_string())
            wrongType(at(key), fieldName, Text::tr("a string"), *node);
        else if (node->get_ref<const std::string &>().empty())
            fail(at(key), Text::tr("'%1' must not be empty").arg(fieldName));
        else
            expandables.push_back(
                    {fieldName, at(key), fromStd(node->get<std::string>()), 0,
                     key == std::string_view("command") ? &server.command : &server.url, true});
    }
    if (command && url) {
        fail(pointer, Text::tr("has both 'command' and 'url'; a server is either a program "
                               "to start (stdio) or an HTTP endpoint, not both"));
    } else if (!command && !url) {
        fail(pointer, Text::tr("needs 'command' (a program to start) or 'url' (an HTTP "
                               "endpoint)"));
    } else if (declaredType) {
        if (*declaredType == TransportType::Stdio && !command)
            fail(at("type"), Text::tr("type 'stdio' needs 'command', not 'url'"));
        else if (*declaredType != TransportType::Stdio && !url)
            fail(at("type"),
                 Text::tr("type '%1' needs 'url', not 'command'").arg(declaredTypeName));
    }
    server.type = declaredType.value_or(command ? TransportType::Stdio : TransportType::Http);

    // args
    if (const json *args = field("args")) {
        if (!args->is_array()) {
            wrongType(at("args"), QStringLiteral("args"), Text::tr("a list of strings"), *args);
        } else {
            server.args.resize(qsizetype(args->size()));
            for (size_t i = 0; i < args->size(); ++i) {
                const json &arg = (*args)[i];
                const QString path = QStringLiteral("args[%1]").arg(i);
                if (!arg.is_string())
                    wrongType(childPointer(at("args"), i), path, Text::tr("a string"), arg);
                else
                    expandables.push_back({path, childPointer(at("args"), i),
                                           fromStd(arg.get<std::string>()), 0,
                                           &server.args[qsizetype(i)], true});
            }
        }
    }

    // env: an object, or a list of "KEY=VALUE"
    if (const json *envNode = field("env")) {
        if (envNode->is_object()) {
            for (const auto &[key, item] : envNode->items()) {
                const QString qkey = fromStd(key);
                const std::string where = childPointer(at("env"), key);
                if (const qsizetype control = indexOfControlCharacter(qkey); control >= 0)
                    ctx.addAt(ctx.inKey(where, control), name,
                              controlCharacterMessage(QStringLiteral("env.") + quoted(qkey),
                                                      qkey.at(control)));
                if (!item.is_string())
                    wrongType(where, QStringLiteral("env.") + qkey, Text::tr("a string"), item);
                else
                    expandables.push_back({QStringLiteral("env.") + qkey, where,
                                           fromStd(item.get<std::string>()), 0, &server.env[qkey]});
            }
        } else if (envNode->is_array()) {
            for (size_t i = 0; i < envNode->size(); ++i) {
                const json &item = (*envNode)[i];
                const std::string where = childPointer(at("env"), i);
                const QString path = QStringLiteral("env[%1]").arg(i);
                if (!item.is_string()) {
                    wrongType(where, path, Text::tr("a \"KEY=VALUE\" string"), item);
                    continue;
                }
                const QString entry = fromStd(item.get<std::string>());
                const qsizetype equals = entry.indexOf(u'=');
                if (equals <= 0) {
                    fail(where, Text::tr("'%1' must look like \"KEY=VALUE\", not \"%2\"")
                                        .arg(path, quoted(entry)));
                    continue;
                }
                const QString key = entry.left(equals);
                if (const qsizetype control = indexOfControlCharacter(key); control >= 0) {
                    ctx.addAt(ctx.inValue(where, control), name,
                              controlCharacterMessage(path, key.at(control)));
                    continue;
                }
                server.env[key]; // the slot must exist before pointers into the map are taken
                expandables.push_back({QStringLiteral("env.") + key, where, entry.mid(equals + 1),
                                       equals + 1, &server.env[key]});
            }
        } else {
            wrongType(at("env"), QStringLiteral("env"),
                      Text::tr("an object or a list of \"KEY=VALUE\" strings"), *envNode);
        }
    }

    // headers
    if (const json *headers = field("headers")) {
        if (!headers->is_object()) {
            wrongType(at("headers"), QStringLiteral("headers"), Text::tr("an object of strings"),
                      *headers);
        } else {
            for (const auto &[key, item] : headers->items()) {
                const QString qkey = fromStd(key);
                const std::string where = childPointer(at("headers"), key);
                if (const qsizetype control = indexOfControlCharacter(qkey); control >= 0)
                    ctx.addAt(ctx.inKey(where, control), name,
                              controlCharacterMessage(QStringLiteral("headers.") + quoted(qkey),
                                                      qkey.at(control)));
                if (!item.is_string())
                    wrongType(where, QStringLiteral("headers.") + qkey, Text::tr("a string"), item);
                else
                    expandables.push_back({QStringLiteral("headers.") + qkey, where,
                                           fromStd(item.get<std::string>()), 0,
                                           &server.headers[qkey]});
            }
        }
    }

    // oauth: sign-in settings of a remote server (kept in the definition as written)
    if (const json *oauth = field("oauth")) {
        const std::string where = at("oauth");
        if (server.type == TransportType::Stdio) {
            fail(where, Text::tr("'oauth' applies only to remote servers (\"url\")"));
        } else if (!oauth->is_object()) {
            wrongType(where, QStringLiteral("oauth"), Text::tr("an object"), *oauth);
        } else {
            OAuthSettings &settings = server.oauth;
            settings.present = true;
            for (const auto &member : oauth->items()) {
                // Named, not bound: the lambda below takes them (clang refuses a binding).
                const std::string &key = member.key();
                const json &item = member.value();
                const std::string itemAt = childPointer(where, key);
                const QString path = QStringLiteral("oauth.") + fromStd(key);
                const auto text = [&](QString *target, bool expanded) {
                    if (!item.is_string() || item.get_ref<const std::string &>().empty()) {
                        wrongType(itemAt, path, Text::tr("a string that is not empty"), item);
                        return;
                    }
                    if (expanded)
                        expandables.push_back(
                                {path, itemAt, fromStd(item.get<std::string>()), 0, target});
                    else
                        *target = fromStd(item.get<std::string>());
                };
                if (key == "clientId") {
                    text(&settings.clientId, false);
                } else if (key == "clientSecret") {
                    text(&settings.clientSecret, true);
                } else if (key == "privateKeyFile") {
                    text(&settings.privateKeyFile, true);
                } else if (key == "clientMetadataUrl") {
                    text(&settings.clientMetadataUrl, false);
                    if (!settings.clientMetadataUrl.isEmpty()
                        && !settings.clientMetadataUrl.startsWith(QLatin1String("https://")))
                        fail(itemAt, Text::tr("'oauth.clientMetadataUrl' must be an https URL"));
                } else if (key == "grant") {
                    text(&settings.grant, false);
                    if (!settings.grant.isEmpty()
                        && settings.grant != QLatin1String("authorization_code")
                        && settings.grant != QLatin1String("client_credentials"))
                        fail(itemAt, Text::tr("'oauth.grant' must be \"authorization_code\" "
                                              "or \"client_credentials\""));
                } else if (key == "scopes") {
                    bool ok = item.is_array();
                    for (const json &scope : ok ? item : json::array()) {
                        ok = ok && scope.is_string()
                             && !scope.get_ref<const std::string &>().empty();
                        if (ok)
                            settings.scopes << fromStd(scope.get<std::string>());
                    }
                    if (!ok)
                        fail(itemAt, Text::tr("'oauth.scopes' must be a list of scope names "
                                              "(strings that are not empty)"));
                } else {
                    fail(itemAt, Text::tr("unknown key '%1' in 'oauth'; expected \"clientId\", "
                                          "\"clientSecret\", \"scopes\", "
                                          "\"clientMetadataUrl\", \"grant\" or "
                                          "\"privateKeyFile\"")
                                         .arg(fromStd(key)));
                }
            }
            if (settings.grant == QLatin1String("client_credentials")
                && (settings.clientId.isEmpty()
                    || (settings.clientSecret.isEmpty() && settings.privateKeyFile.isEmpty())))
                fail(where, Text::tr("'oauth' with \"grant\": \"client_credentials\" needs "
                                     "\"clientId\" and \"clientSecret\" or "
                                     "\"privateKeyFile\""));
        }
    }

    // disabled, inheritEnv
    for (const auto &[key, target] :
         {std::pair{"disabled", &server.disabled}, std::pair{"inheritEnv", &server.inheritEnv}}) {
        if (const json *node = field(key)) {
            if (node->is_boolean())
                *target = node->get<bool>();
            else
                wrongType(at(key), QLatin1String(key), Text::tr("true or false"), *node);
        }
    }

    // timeout, startupTimeout
    for (const auto &[key, target] : {std::pair{"timeout", &server.timeoutMs},
                                      std::pair{"startupTimeout", &server.startupTimeoutMs}}) {
        const json *node = field(key);
        if (!node)
            continue;
        const QString fieldName = QLatin1String(key);
        if (!node->is_number()) {
            wrongType(at(key), fieldName, Text::tr("a number of seconds"), *node);
            continue;
        }
        const double seconds = node->get<double>();
        if (!(seconds > 0)) {
            fail(at(key), Text::tr("'%1' must be a positive number of seconds").arg(fieldName));
        } else if (seconds > ConfigLoader::kMaxTimeoutSeconds) {
            fail(at(key), Text::tr("'%1' must be at most %2 seconds (one day)")
                                  .arg(fieldName)
                                  .arg(ConfigLoader::kMaxTimeoutSeconds));
        } else {
            *target = std::max(1, int(std::lround(seconds * 1000)));
            if (target == &server.timeoutMs)
                server.timeoutSet = true;
        }
    }

    // The keys a layer above the protocol reads (the engine's approval policy).
    if (check) {
        for (const ConfigLoader::FieldProblem &problem : check(value))
            fail(pointer + problem.pointer, problem.message);
    }

    if (const json *sandbox = field("sandbox"))
        checkSandbox(ctx, name, *sandbox, at("sandbox"), server.type == TransportType::Stdio,
                     server.sandbox,
                     [&](QString path, std::string where, QString raw, QString *to) {
                         expandables.push_back({path, where, raw, 0, to});
                     });

    // Variables last: a syntax error is a config error, a missing value only fails the server.
    for (const Expandable &item : expandables) {
        if (item.commandLine) {
            if (const qsizetype control = indexOfControlCharacter(item.raw); control >= 0) {
                ctx.addAt(ctx.inValue(item.pointer, item.unitOffset + control), name,
                          controlCharacterMessage(item.fieldPath, item.raw.at(control)));
                continue;
            }
        }
        const Expansion expansion = expand(item.raw, env);
        if (!expansion.syntaxError.isEmpty()) {
            const qsizetype offset
                    = ctx.inValue(item.pointer, item.unitOffset + expansion.syntaxErrorIndex);
            ctx.addAt(offset, name,
                      Text::tr("in '%1': %2").arg(item.fieldPath, expansion.syntaxError));
            continue;
        }
        *item.target = expansion.value;
        const qsizetype expandedControl
                = item.commandLine ? indexOfControlCharacter(expansion.value) : -1;
        if (expandedControl >= 0 && server.error.isEmpty()) {
            // The variable's value is the user's environment, not the file: the server fails
            // (like an unset variable) instead of the whole file.
            server.error
                    = Text::tr("a variable put the control character U+%1 into %2")
                              .arg(codePoint(expansion.value.at(expandedControl)), item.fieldPath);
        }
        if (item.fieldPath.startsWith(QLatin1String("env."))
            || item.fieldPath.startsWith(QLatin1String("headers."))
            || item.fieldPath == QLatin1String("oauth.clientSecret"))
            server.expandedSecrets << expansion.substituted;
        if (!expansion.missingVariable.isEmpty() && server.error.isEmpty()) {
            server.error = Text::tr("environment variable %1 is %2 (used in %3)")
                                   .arg(expansion.missingVariable,
                                        expansion.missingIsEmpty ? Text::tr("empty")
                                                                 : Text::tr("not set"),
                                        item.fieldPath);
        }
    }

    if (ctx.errors.size() > errorsBefore)
        return std::nullopt;
    return server;
}

// The members of a server's definition that ServerConfig does not hold (the engine's policy
// keys, extensions), as written: toJson() carries them over and operator== compares them.
json foreignMembers(const json &definition)
{
    static constexpr std::string_view kOwnKeys[]
            = {"type",    "command",  "args",           "env",    "inheritEnv", "sandbox", "url",
               "headers", "disabled", "startupTimeout", "timeout"};
    json result = json::object();
    if (definition.is_object()) {
        for (const auto &[key, value] : definition.items()) {
            if (std::find(std::begin(kOwnKeys), std::end(kOwnKeys), key) == std::end(kOwnKeys))
                result[key] = value;
        }
    }
    return result;
}

json secondsJson(int ms)
{
    if (ms % 1000 == 0)
        return ms / 1000;
    return ms / 1000.0;
}

// JSONC (VS Code's settings.json and mcp.json) → JSON, byte for byte the same length so that
// positions stay right: comments and trailing commas become spaces, newlines are kept.
QByteArray stripJsonc(const QByteArray &input)
{
    QByteArray text = input;
    const qsizetype n = text.size();
    char *d = text.data();

    // Pass 1: comments.
    for (qsizetype i = 0; i < n;) {
        if (d[i] == '"') {
            ++i;
            while (i < n && d[i] != '"')
                i += d[i] == '\\' ? 2 : 1;
            ++i;
        } else if (d[i] == '/' && i + 1 < n && d[i + 1] == '/') {
            while (i < n && d[i] != '\n')
                d[i++] = ' ';
        } else if (d[i] == '/' && i + 1 < n && d[i + 1] == '*') {
            d[i++] = ' ';
            d[i++] = ' ';
            while (i < n && !(d[i] == '*' && i + 1 < n && d[i + 1] == '/')) {
                if (d[i] != '\n')
                    d[i] = ' ';
                ++i;
            }
            for (int k = 0; k < 2 && i < n; ++k)
                d[i++] = ' ';
        } else {
            ++i;
        }
    }
    // Pass 2: trailing commas.
    for (qsizetype i = 0; i < n;) {
        if (d[i] == '"') {
            ++i;
            while (i < n && d[i] != '"')
                i += d[i] == '\\' ? 2 : 1;
            ++i;
        } else if (d[i] == ',') {
            qsizetype next = i + 1;
            while (next < n
                   && (d[next] == ' ' || d[next] == '\t' || d[next] == '\n' || d[next] == '\r'))
                ++next;
            if (next < n && (d[next] == '}' || d[next] == ']'))
                d[i] = ' ';
            i = next;
        } else {
            ++i;
        }
    }
    return text;
}

// "github-token" → "GITHUB_TOKEN": a name ${...} accepts.
QString inputVariableName(const QString &id)
{
    QString name;
    for (const QChar c : id) {
        const bool alnum
                = (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9');
        name += alnum ? c.toUpper() : QChar(u'_');
    }
    if (name.isEmpty() || name.at(0).isDigit())
        name.prepend(u'_');
    return name;
}

// Rewrites the other clients' ${...} forms into ours inside every string of `value`.
struct VariableRewriter
{
    ConfigLoader::ImportKind kind;
    QMap<QString, QString> inputDefaults; // VS Code input id → default value
    QMap<QString, QString> usedInputs;    // input id → variable name

    QString rewrite(const QString &text)
    {
        QString out;
        qsizetype i = 0;
        while (i < text.size()) {
            const qsizetype start = text.indexOf(QLatin1String("${"), i);
            const qsizetype close = start < 0 ? -1 : text.indexOf(u'}', start + 2);
            if (close < 0) { // nothing (more) to rewrite; checkServer reports a bad "${"
                out += QStringView(text).mid(i);
                break;
            }
            out += QStringView(text).mid(i, start - i);
            const QString inner = text.mid(start + 2, close - start - 2);
            if (kind == ConfigLoader::ImportKind::ClaudeDesktop) {
                out += QStringView(text).mid(start, close + 1 - start);
            } else if (inner.startsWith(QLatin1String("env:"))) {
                out += QStringLiteral("${%1}").arg(inner.mid(4));
            } else if (inner == QLatin1String("workspaceFolder")) {
                out += u'.';
            } else if (inner == QLatin1String("userHome")) {
                out += QStringLiteral("${HOME}");
            } else if (kind == ConfigLoader::ImportKind::VsCode
                       && inner.startsWith(QLatin1String("input:"))) {
                const QString id = inner.mid(6);
                const QString variable = inputVariableName(id);
                usedInputs.insert(id, variable);
                const QString fallback = inputDefaults.value(id);
                // A default containing '}' would end the reference early; leave it out.
                if (!fallback.isEmpty() && !fallback.contains(u'}'))
                    out += QStringLiteral("${%1:-%2}").arg(variable, fallback);
                else
                    out += QStringLiteral("${%1}").arg(variable);
            } else {
                out += QStringView(text).mid(start, close + 1 - start);
            }
            i = close + 1;
        }
        return out;
    }

    json rewrite(const json &value)
    {
        if (value.is_string())
            return rewrite(fromStd(value.get<std::string>())).toStdString();
        if (value.is_array() || value.is_object()) {
            json copy = value;
            for (auto &item : copy)
                item = rewrite(item);
            return copy;
        }
        return value;
    }
};

} // namespace

QString transportTypeName(TransportType type)
{
    switch (type) {
    case TransportType::Stdio:
        return QStringLiteral("stdio");
    case TransportType::Http:
        return QStringLiteral("http");
    case TransportType::Sse:
        break;
    }
    return QStringLiteral("sse");
}

QString ConfigError::toString() const
{
    QString result = file.isEmpty() ? QStringLiteral("<input>") : file;
    if (line > 0) {
        result += u':' + QString::number(line);
        if (column > 0)
            result += u':' + QString::number(column);
    }
    return result + QStringLiteral(": ") + message;
}

bool ServerConfig::operator==(const ServerConfig &other) const
{
    return name == other.name && type == other.type && command == other.command
           && args == other.args && env == other.env && inheritEnv == other.inheritEnv
           && sandbox == other.sandbox && url == other.url && headers == other.headers
           && disabled == other.disabled && timeoutMs == other.timeoutMs
           && startupTimeoutMs == other.startupTimeoutMs && error == other.error
           && untrusted == other.untrusted
           && foreignMembers(definition) == foreignMembers(other.definition);
}

nlohmann::json ServerConfig::toJson() const
{
    const auto stringMap = [](const QMap<QString, QString> &map) {
        json object = json::object();
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            object[it.key().toStdString()] = it.value().toStdString();
        return object;
    };
    const auto stringList = [](const QStringList &list) {
        json array = json::array();
        for (const QString &item : list)
            array.push_back(item.toStdString());
        return array;
    };

    json result = json::object();
    if (type == TransportType::Stdio) {
        result["command"] = command.toStdString();
        if (!args.isEmpty())
            result["args"] = stringList(args);
        if (!env.isEmpty())
            result["env"] = stringMap(env);
        if (inheritEnv)
            result["inheritEnv"] = true;
        if (sandbox.enabled)
            result["sandbox"] = sandbox.toJson();
    } else {
        result["type"] = transportTypeName(type).toStdString();
        result["url"] = url.toStdString();
        if (!headers.isEmpty())
            result["headers"] = stringMap(headers);
    }
    if (disabled)
        result["disabled"] = true;
    if (timeoutSet || timeoutMs != kDefaultTimeoutMs)
        result["timeout"] = secondsJson(timeoutMs);
    if (startupTimeoutMs != kDefaultStartupTimeoutMs)
        result["startupTimeout"] = secondsJson(startupTimeoutMs);
    result.update(foreignMembers(definition));
    return result;
}

const ServerConfig *McpConfig::find(const QString &name) const
{
    for (const ServerConfig &server : servers) {
        if (server.name == name)
            return &server;
    }
    return nullptr;
}

namespace ConfigLoader {

QString wrongTypeMessage(const QString &field, const QString &expected, const nlohmann::json &got)
{
    return Text::tr("'%1' must be %2, not %3").arg(field, expected, jsonTypeName(got));
}

QString quotedValue(QStringView value)
{
    return quoted(value);
}

std::string memberPointer(const std::string &parent, std::string_view key)
{
    return childPointer(parent, key);
}

McpConfig parse(const QByteArray &text, const QString &fileName, const QProcessEnvironment &env,
                const ServerCheck &check)
{
    McpConfig config;
    const PositionIndex index(text.size() > kMaxConfigBytes ? QByteArray() : text);
    const Context ctx{index, fileName, config.errors};
    json root;
    if (!parseJson(text, ctx, root))
        return config;

    const QSet<QString> duplicated = reportDuplicates(ctx); // none of them is started

    if (!root.is_object()) {
        ctx.add({}, QString(),
                Text::tr("the top level must be an object: {\"mcpServers\": {...}}, not %1")
                        .arg(jsonTypeName(root)));
        return config;
    }
    if (const auto secrets = root.find("secretVariables"); secrets != root.end()) {
        static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        bool valid = secrets->is_array();
        if (valid) {
            for (const json &item : *secrets) {
                const QString text = item.is_string()
                                             ? QString::fromStdString(item.get<std::string>())
                                             : QString();
                valid = valid && name.match(text).hasMatch();
                if (valid)
                    config.secretVariables << text;
            }
        }
        if (!valid) {
            config.secretVariables.clear();
            ctx.add("/secretVariables", QString(),
                    Text::tr("'secretVariables' must be a list of variable names, such as "
                             "[\"GITHUB_TOKEN\"]"));
        }
    }
    const auto servers = root.find("mcpServers");
    if (servers == root.end())
        return config;
    if (!servers->is_object()) {
        ctx.add("/mcpServers", QString(),
                Text::tr("'mcpServers' must be an object mapping server names to their "
                         "settings, not %1")
                        .arg(jsonTypeName(*servers)));
        return config;
    }
    for (const auto &[name, value] : servers->items()) {
        auto server = checkServer(ctx, name, value, childPointer("/mcpServers", name), env, check);
        if (server && !duplicated.contains(server->name))
            config.servers.append(std::move(*server));
    }
    std::sort(config.servers.begin(), config.servers.end(),
              [](const ServerConfig &a, const ServerConfig &b) { return a.name < b.name; });
    checkNameClashes(config);
    sortErrors(config.errors);
    return config;
}

LocatedJson parseLocated(const QByteArray &text, const QString &fileName,
                         const std::string &collection, const QString &entryFormat)
{
    LocatedJson result;
    auto index = std::make_shared<PositionIndex>(
            text.size() > kMaxConfigBytes ? QByteArray() : text, collection);
    const Context ctx{*index, fileName, result.errors};
    if (!parseJson(text, ctx, result.root)) {
        result.root = nlohmann::json(nlohmann::json::value_t::discarded);
        return result;
    }
    result.duplicated = reportDuplicates(ctx, entryFormat);
    result.errorAt = [index, fileName](const std::string &pointer, const QString &entry,
                                       const QString &message) {
        QList<ConfigError> errors;
        Context{*index, fileName, errors}.add(pointer, QString(), message);
        errors.first().server = entry;
        return errors.first();
    };
    return result;
}

Expansion expandVariables(const QString &text, const QProcessEnvironment &env)
{
    return expand(text, env);
}

FileContents readFile(const QString &path)
{
    FileContents result;
    const auto fail = [&result](const QString &message) {
        result.bytes.clear();
        result.error = message;
        return result;
    };
    const QString notRegular = Text::tr("is not a regular file (a FIFO, device or socket, or a "
                                        "link to one); a configuration must be a plain file");
    const QString isDirectory = Text::tr("is a directory, not a configuration file");
#ifdef Q_OS_UNIX
    // stat() first, so that a device is never even opened (opening one can have effects);
    // O_NONBLOCK so that a FIFO swapped in after the stat() cannot block the open(); fstat()
    // of what was opened, so that such a swap is still refused.
    const QByteArray native = QFile::encodeName(path);
    const auto kind = [&](const struct stat &st) -> std::optional<QString> {
        if (S_ISDIR(st.st_mode))
            return isDirectory;
        if (!S_ISREG(st.st_mode))
            return notRegular;
        return std::nullopt;
    };
    struct stat st;
    if (::stat(native.constData(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return result;
        result.exists = true;
        return fail(Text::tr("cannot read the file: %1")
                            .arg(QString::fromLocal8Bit(std::strerror(errno))));
    }
    result.exists = true;
    if (const auto problem = kind(st))
        return fail(*problem);
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(Text::tr("cannot read the file: %1")
                            .arg(QString::fromLocal8Bit(std::strerror(errno))));
    const auto closeFd = qScopeGuard([fd] { ::close(fd); });
    if (::fstat(fd, &st) != 0)
        return fail(Text::tr("cannot read the file: %1")
                            .arg(QString::fromLocal8Bit(std::strerror(errno))));
    if (const auto problem = kind(st))
        return fail(*problem);
    // One byte over the cap is enough for parse() to refuse the file without reading it all.
    result.bytes.resize(kMaxConfigBytes + 1);
    qsizetype total = 0;
    while (total < result.bytes.size()) {
        const ssize_t n
                = ::read(fd, result.bytes.data() + total, size_t(result.bytes.size() - total));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(Text::tr("cannot read the file: %1")
                                .arg(QString::fromLocal8Bit(std::strerror(errno))));
        if (n == 0)
            break;
        total += n;
    }
    result.bytes.truncate(total);
#else
    const QFileInfo info(path);
    if (!info.exists())
        return result;
    result.exists = true;
    if (info.isDir())
        return fail(isDirectory);
    if (!info.isFile())
        return fail(notRegular);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(Text::tr("cannot read the file: %1").arg(file.errorString()));
    result.bytes = file.read(kMaxConfigBytes + 1);
#endif
    return result;
}

McpConfig loadFile(const QString &path, const QProcessEnvironment &env, ConfigOrigin origin,
                   const ServerCheck &check)
{
    const FileContents contents = readFile(path);
    if (!contents.exists)
        return {};
    if (!contents.error.isEmpty()) {
        McpConfig config;
        ConfigError error;
        error.file = path;
        error.message = contents.error;
        config.errors.append(error);
        return config;
    }
    McpConfig config = parse(contents.bytes, path, env, check);
    for (ServerConfig &server : config.servers)
        server.origin = origin;
    return config;
}

void checkNameClashes(McpConfig &config)
{
    QHash<QString, const ServerConfig *> byPrefix;
    QSet<QString> clashing;
    for (const ServerConfig &server : std::as_const(config.servers)) {
        const QString prefix = toolNamePart(server.name);
        const ServerConfig *first = byPrefix.value(prefix);
        if (!first) {
            byPrefix.insert(prefix, &server);
            continue;
        }
        ConfigError error;
        error.file = server.sourceFile;
        error.line = server.line;
        error.server = server.name;
        error.message = Text::tr("server '%2' would give its tools the same names as server "
                                 "'%1' (%3): both become mcp__%4__...; rename one of them")
                                .arg(quoted(first->name), quoted(server.name),
                                     first->sourceFile == server.sourceFile
                                             ? Text::tr("line %1").arg(first->line)
                                             : QStringLiteral("%1:%2")
                                                       .arg(first->sourceFile)
                                                       .arg(first->line),
                                     prefix);
        config.errors.append(error);
        // One of the user's own servers stays; a workspace's must not switch it off.
        const bool firstMine = first->origin == ConfigOrigin::User;
        const bool secondMine = server.origin == ConfigOrigin::User;
        if (!firstMine || secondMine)
            clashing.insert(first->name);
        if (!secondMine || firstMine)
            clashing.insert(server.name);
    }
    config.servers.removeIf(
            [&clashing](const ServerConfig &server) { return clashing.contains(server.name); });
}

QString userConfigPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QStringLiteral("/switchboard/mcp.json");
}

McpConfig merge(const McpConfig &user, const McpConfig &workspace, ConfigOrigin workspaceOrigin)
{
    McpConfig result;
    result.errors = user.errors + workspace.errors;
    result.secretVariables = user.secretVariables;
    if (workspaceOrigin == ConfigOrigin::CommandLine) {
        QSet<QString> workspaceNames;
        for (const ServerConfig &server : workspace.servers)
            workspaceNames.insert(server.name);
        for (const ConfigError &error : workspace.errors) {
            if (!error.server.isEmpty())
                workspaceNames.insert(error.server);
        }
        result.servers = workspace.servers;
        for (const ServerConfig &server : user.servers) {
            if (!workspaceNames.contains(server.name))
                result.servers.append(server);
        }
    } else {
        result.servers = user.servers;
        for (const ServerConfig &server : workspace.servers) {
            const ServerConfig *mine = user.find(server.name);
            if (!mine) {
                result.servers.append(server);
                continue;
            }
            ConfigError clash;
            clash.file = server.sourceFile;
            clash.line = server.line;
            clash.server = server.name;
            clash.message
                    = Text::tr("server '%1': your own configuration (%2) already defines a server "
                               "of this name; this folder's definition is ignored (rename it here "
                               "to use both)")
                              .arg(server.name, QDir::toNativeSeparators(mine->sourceFile));
            result.errors.append(clash);
        }
    }
    std::sort(result.servers.begin(), result.servers.end(),
              [](const ServerConfig &a, const ServerConfig &b) { return a.name < b.name; });
    checkNameClashes(result); // "a-b" here and "a_b" there would share tool names
    return result;
}

QList<VariableReference> variableReferences(const json &definition)
{
    static const QRegularExpression reference(
            QStringLiteral("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\\}"));
    QList<VariableReference> found;
    const auto scan = [&found](const json &value, const QString &field) {
        if (!value.is_string())
            return;
        const QString text = QString::fromStdString(value.get<std::string>());
        for (auto it = reference.globalMatch(text); it.hasNext();)
            found.append({it.next().captured(1), field});
    };
    if (!definition.is_object())
        return found;
    if (const auto it = definition.find("command"); it != definition.end())
        scan(*it, QStringLiteral("command"));
    if (const auto it = definition.find("args"); it != definition.end() && it->is_array()) {
        for (size_t i = 0; i < it->size(); ++i)
            scan((*it)[i], QStringLiteral("args[%1]").arg(i));
    }
    if (const auto it = definition.find("env"); it != definition.end()) {
        if (it->is_object()) {
            for (const auto &[name, value] : it->items())
                scan(value, QStringLiteral("env.") + QString::fromStdString(name));
        } else if (it->is_array()) {
            for (const json &item : *it) {
                const QString entry = item.is_string()
                                              ? QString::fromStdString(item.get<std::string>())
                                              : QString();
                scan(item, QStringLiteral("env.") + entry.section(QLatin1Char('='), 0, 0));
            }
        }
    }
    if (const auto it = definition.find("url"); it != definition.end())
        scan(*it, QStringLiteral("url"));
    if (const auto it = definition.find("headers"); it != definition.end() && it->is_object()) {
        for (const auto &[name, value] : it->items())
            scan(value, QStringLiteral("headers.") + QString::fromStdString(name));
    }
    return found;
}

QString privateVariableMessage(const QString &variable, const QString &field)
{
    return Text::tr("a workspace's file may not read ${%1} (in %2): it holds a secret of yours "
                    "(a provider key, or a variable your own configuration lists in "
                    "\"secretVariables\"); define it in your own configuration (%3) if it "
                    "should have it")
            .arg(variable, field, QDir::toNativeSeparators(userConfigPath()));
}

void refusePrivateVariables(McpConfig &config, const QStringList &privateVariables)
{
    if (privateVariables.isEmpty())
        return;
    for (auto it = config.servers.begin(); it != config.servers.end();) {
        std::optional<VariableReference> refused;
        if (it->origin == ConfigOrigin::Workspace) {
            for (const VariableReference &reference : variableReferences(it->definition)) {
                if (privateVariables.contains(reference.name)) {
                    refused = reference;
                    break;
                }
            }
        }
        if (!refused) {
            ++it;
            continue;
        }
        ConfigError error;
        error.file = it->sourceFile;
        error.line = it->line;
        error.server = it->name;
        error.message
                = Text::tr("server '%1': %2")
                          .arg(it->name, privateVariableMessage(refused->name, refused->field));
        config.errors.append(error);
        it = config.servers.erase(it);
    }
    sortErrors(config.errors);
}

McpConfig load(const QString &workspaceDir, const QString &overrideFile,
               const QProcessEnvironment &env, const ServerCheck &check,
               const QStringList &privateVariables)
{
    const QString userFile = userConfigPath();
    const QString workspaceFile = overrideFile.isEmpty()
                                          ? QDir(workspaceDir).filePath(QStringLiteral(".mcp.json"))
                                          : overrideFile;
    const ConfigOrigin origin
            = overrideFile.isEmpty() ? ConfigOrigin::Workspace : ConfigOrigin::CommandLine;
    McpConfig workspace = loadFile(workspaceFile, env, origin, check);
    // A file named on the command line must exist; a workspace without .mcp.json is normal.
    if (!overrideFile.isEmpty() && !QFileInfo::exists(overrideFile)) {
        ConfigError error;
        error.file = overrideFile;
        error.message = Text::tr("file not found");
        workspace.errors.append(error);
    }
    // The workspace may be the config folder itself; one file is not merged over itself.
    const QString canonicalUser = QFileInfo(userFile).canonicalFilePath();
    if (!canonicalUser.isEmpty() && canonicalUser == QFileInfo(workspaceFile).canonicalFilePath()) {
        for (ServerConfig &server : workspace.servers)
            server.origin = ConfigOrigin::User;
        return workspace;
    }
    const McpConfig user = loadFile(userFile, env, ConfigOrigin::User, check);
    refusePrivateVariables(workspace, privateVariables + user.secretVariables);
    return merge(user, workspace, origin);
}

std::optional<ImportKind> importKindFromName(QStringView name)
{
    for (const ImportKind kind :
         {ImportKind::ClaudeDesktop, ImportKind::VsCode, ImportKind::Cursor}) {
        if (name == importKindName(kind))
            return kind;
    }
    return std::nullopt;
}

QString importKindName(ImportKind kind)
{
    switch (kind) {
    case ImportKind::ClaudeDesktop:
        return QStringLiteral("claude-desktop");
    case ImportKind::VsCode:
        return QStringLiteral("vscode");
    case ImportKind::Cursor:
        break;
    }
    return QStringLiteral("cursor");
}

ImportResult importConfig(ImportKind kind, const QByteArray &text, const QString &fileName,
                          const ServerCheck &check)
{
    ImportResult result;
    json output = {{"mcpServers", json::object()}};
    const auto finish = [&]() {
        sortErrors(result.errors);
        // Strings were validated as UTF-8 by the parser; `replace` only guarantees no throw.
        result.text = QByteArray::fromStdString(
                              output.dump(2, ' ', false, json::error_handler_t::replace))
                      + '\n';
        return result;
    };

    const QByteArray clean = text.size() > kMaxConfigBytes ? text : stripJsonc(text);
    const PositionIndex index(text.size() > kMaxConfigBytes ? QByteArray() : clean);
    Context ctx{index, fileName, result.errors};
    ctx.preciseStringOffsets = false;
    json root;
    if (!parseJson(clean, ctx, root))
        return finish();
    if (!root.is_object()) {
        ctx.add({}, QString(),
                Text::tr("the top level must be an object, not %1").arg(jsonTypeName(root)));
        return finish();
    }

    // Where the servers live: Claude Desktop and Cursor use "mcpServers"; VS Code's mcp.json
    // uses "servers" (+ "inputs"), its settings.json "mcp": {"servers"} or "mcp.servers".
    std::string serversPointer;
    std::string inputsPointer;
    if (kind == ImportKind::VsCode) {
        if (root.contains("servers")) {
            serversPointer = "/servers";
            inputsPointer = "/inputs";
        } else if (root.contains("mcp") && root["mcp"].is_object()) {
            serversPointer = "/mcp/servers";
            inputsPointer = "/mcp/inputs";
        } else if (root.contains("mcp.servers")) {
            serversPointer = "/mcp.servers";
            inputsPointer = "/mcp.inputs";
        }
    } else if (root.contains("mcpServers")) {
        serversPointer = "/mcpServers";
    }
    const json::json_pointer servers(serversPointer.empty() ? "/mcpServers" : serversPointer);
    if (serversPointer.empty() || !root.contains(servers)) {
        ctx.add({}, QString(),
                kind == ImportKind::VsCode
                        ? Text::tr("no \"servers\" object (mcp.json) or \"mcp\": "
                                   "{\"servers\"} (settings.json): is this a VS Code file?")
                        : Text::tr("no \"mcpServers\" object: is this a %1 file?")
                                  .arg(kind == ImportKind::Cursor
                                               ? QStringLiteral("Cursor")
                                               : QStringLiteral("Claude Desktop")));
        return finish();
    }
    const json &serversNode = root.at(servers);
    if (!serversNode.is_object()) {
        ctx.add(serversPointer, QString(),
                Text::tr("'%1' must be an object mapping server names to their settings, "
                         "not %2")
                        .arg(fromStd(servers.back()), jsonTypeName(serversNode)));
        return finish();
    }

    VariableRewriter rewriter{kind, {}, {}};
    QMap<QString, QString> inputDescriptions;
    if (!inputsPointer.empty() && root.contains(json::json_pointer(inputsPointer))) {
        const json &inputs = root.at(json::json_pointer(inputsPointer));
        if (!inputs.is_array()) {
            ctx.add(inputsPointer, QString(),
                    Text::tr("'inputs' must be a list, not %1").arg(jsonTypeName(inputs)));
        } else {
            for (const json &input : inputs) {
                if (!input.is_object() || !input.contains("id") || !input["id"].is_string())
                    continue;
                const QString id = fromStd(input["id"].get<std::string>());
                if (input.contains("description") && input["description"].is_string())
                    inputDescriptions[id] = fromStd(input["description"].get<std::string>());
                if (input.contains("default") && input["default"].is_string())
                    rewriter.inputDefaults[id] = fromStd(input["default"].get<std::string>());
            }
        }
    }

    const QProcessEnvironment noVariables;
    for (const auto &[name, value] : serversNode.items()) {
        const json converted = rewriter.rewrite(value);
        if (checkServer(ctx, name, converted, childPointer(serversPointer, name), noVariables,
                        check))
            output["mcpServers"][name] = converted;
    }
    for (auto it = rewriter.usedInputs.cbegin(); it != rewriter.usedInputs.cend(); ++it) {
        const QString description = inputDescriptions.value(it.key());
        result.notes.append(
                Text::tr("input '%1'%2 is now the environment variable %3; set it before "
                         "starting Switchboard")
                        .arg(it.key(),
                             description.isEmpty() ? QString()
                                                   : QStringLiteral(" (%1)").arg(description),
                             it.value()));
    }
    return finish();
}

} // namespace ConfigLoader

} // namespace Mcp
