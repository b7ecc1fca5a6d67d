// The configuration loader's positions: where a JSON pointer is in the text (line and column),
// nlohmann_json's syntax errors in our words, duplicate keys, and parseLocated().
#include "configinternal.h"

#include <mcp/wire/safetext.h>

#include <QRegularExpression>

#include <algorithm>
#include <cstring>
#include <memory>
#include <tuple>

namespace Mcp::ConfigLoader::Internal {

namespace {

// Positions are only looked up for values this deep (settings.json → mcp → servers → name →
// tools → tool → risk is 6 segments); deeper values are never reported, so not indexed.
constexpr size_t kIndexedDepth = 6;

// Values quoted in messages are cut: a message is one line in a list, and the value may be
// a megabyte long.
constexpr qsizetype kMaxQuotedChars = 60;

bool isUtf8Continuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

bool startsWithBom(const QByteArray &text)
{
    return text.startsWith("\xEF\xBB\xBF");
}

bool isDelimiter(char c)
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

std::string decodeKey(const char *begin, const char *end)
{
    // Most keys have no escapes: their bytes between the quotes are the key.
    if (end - begin >= 2 && end[-1] == '"' && !std::memchr(begin, '\\', size_t(end - begin)))
        return std::string(begin + 1, end - 1);
    const json decoded = json::parse(begin, end, nullptr, /*allow_exceptions=*/false);
    return decoded.is_string() ? decoded.get<std::string>() : std::string(begin, end);
}

} // namespace

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

QString quoted(QStringView value)
{
    // Messages reach terminals: a control character in a name must be shown, not acted on.
    if (value.size() <= kMaxQuotedChars)
        return escapeControlCharacters(value);
    return escapeControlCharacters(value.left(kMaxQuotedChars)) + QStringLiteral("...");
}

PositionIndex::PositionIndex(const QByteArray &text, std::string collection)
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

std::pair<int, int> PositionIndex::location(qsizetype offset) const
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

qsizetype PositionIndex::offsetInString(qsizetype quote, qsizetype unit) const
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

struct PositionIndex::Frame
{
    bool object = false;
    std::string pointer; // empty below kIndexedDepth: nothing there is looked up
    size_t index = 0;
    std::string key;
    bool expectKey = true;
    std::unordered_map<std::string, qsizetype> keys; // object keys seen, at their offsets
};

void PositionIndex::scan()
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

void PositionIndex::recordDuplicate(const std::vector<Frame> &stack, qsizetype offset,
                                    qsizetype first)
{
    Duplicate duplicate{offset, first, stack.back().key, {}};
    // {"mcpServers": {NAME: {...}}}: stack[0] is the root, stack[1] the servers object.
    if (stack.size() >= 2 && stack[0].object && stack[0].key == m_collection && stack[1].object)
        duplicate.server = stack[1].key;
    m_duplicates.push_back(std::move(duplicate));
}

qsizetype Context::offsetOf(std::string pointer) const
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

qsizetype Context::insideString(qsizetype stringOffset, qsizetype unit) const
{
    if (!preciseStringOffsets || stringOffset < 0)
        return stringOffset;
    return index.offsetInString(stringOffset, unit);
}

qsizetype Context::inKey(const std::string &pointer, qsizetype unit) const
{
    const qsizetype offset = index.keyOffsetOf(pointer);
    return offset >= 0 ? insideString(offset, unit) : offsetOf(pointer);
}

qsizetype Context::inValue(const std::string &pointer, qsizetype unit) const
{
    const qsizetype exact = index.offsetOf(pointer);
    return exact >= 0 ? insideString(exact, unit) : offsetOf(pointer);
}

void Context::addAt(qsizetype offset, const QString &server, const QString &message) const
{
    ConfigError error;
    error.file = file;
    if (offset >= 0) {
        const auto [line, column] = index.location(offset);
        error.line = line;
        error.column = column;
    }
    error.server = server;
    error.message
            = server.isEmpty() ? message : Text::tr("server '%1': %2").arg(quoted(server), message);
    errors.append(error);
}

void Context::add(const std::string &pointer, const QString &server, const QString &message) const
{
    addAt(offsetOf(pointer), server, message);
}

int Context::lineOf(const std::string &pointer) const
{
    const qsizetype offset = offsetOf(pointer);
    return offset >= 0 ? index.location(offset).first : 0;
}

namespace {

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

} // namespace

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

QSet<QString> reportDuplicates(const Context &ctx, const QString &entryFormat)
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

} // namespace Mcp::ConfigLoader::Internal

namespace Mcp::ConfigLoader {

using namespace Internal;

void sortErrors(QList<ConfigError> &errors)
{
    std::stable_sort(errors.begin(), errors.end(), [](const ConfigError &a, const ConfigError &b) {
        return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
}

QString quotedValue(QStringView value)
{
    return quoted(value);
}

std::string memberPointer(const std::string &parent, std::string_view key)
{
    return childPointer(parent, key);
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

} // namespace Mcp::ConfigLoader
