#include "jsonparser.h"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define MCP_JSON_SSE2 1
#endif

namespace Mcp {
namespace {

using ObjectT = Json::object_t;
using ArrayT = Json::array_t;
// store() looks keys up as string_views.
static_assert(std::is_same_v<Json::object_comparator_t, std::less<>>);

constexpr const char *DepthMessage = "nesting deeper than MaxJsonDepth";

inline bool isWhitespace(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline bool isDigit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

inline int hexValue(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Length of the well-formed UTF-8 sequence starting at p (its first byte is >= 0x80), or 0.
// These are the ranges of RFC 3629's table, which is also what nlohmann's lexer checks: no
// overlongs (C0, C1, E0 80..9F, F0 80..8F), no UTF-16 surrogates (ED A0..BF), nothing above
// U+10FFFF (F4 90.., F5..FF), and no sequence cut short by the end of the text.
inline std::size_t utf8SequenceLength(const unsigned char *p, const unsigned char *end)
{
    const unsigned char c = p[0];
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    std::size_t length;
    if (c < 0xC2) {
        return 0;
    } else if (c < 0xE0) {
        length = 2;
    } else if (c < 0xF0) {
        length = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c < 0xF5) {
        length = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (static_cast<std::size_t>(end - p) < length)
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (std::size_t i = 2; i < length; ++i) {
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    }
    return length;
}

void appendUtf8(std::string &out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        const char bytes[]
                = {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
        out.append(bytes, 2);
    } else if (cp < 0x10000) {
        const char bytes[] = {static_cast<char>(0xE0 | (cp >> 12)),
                              static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                              static_cast<char>(0x80 | (cp & 0x3F))};
        out.append(bytes, 3);
    } else {
        const char bytes[] = {static_cast<char>(0xF0 | (cp >> 18)),
                              static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                              static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                              static_cast<char>(0x80 | (cp & 0x3F))};
        out.append(bytes, 4);
    }
}

// std::from_chars reports result_out_of_range without telling which way the number left the
// range of double. nlohmann (strtod + isfinite) rejects overflow but accepts underflow as
// (-)0.0, so tell them apart by the decimal magnitude: out-of-range numbers are either
// >= ~1e308 or < ~1e-323, so the sign of "position of the first significant digit + exponent"
// decides. `p` points at the grammar-checked number (sign, digits, fraction, exponent).
bool magnitudeOverflows(const char *p, const char *end)
{
    if (*p == '-')
        ++p;
    long long position = 0; // decimal exponent of the first significant digit, plus one
    bool significant = false;
    for (; p < end && isDigit(*p); ++p) {
        if (*p != '0')
            significant = true;
        if (significant)
            ++position;
    }
    if (p < end && *p == '.') {
        for (++p; p < end && isDigit(*p); ++p) {
            if (significant)
                continue;
            if (*p != '0')
                significant = true;
            else
                --position;
        }
    }
    long long exponent = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        ++p;
        const bool negative = *p == '-';
        if (*p == '-' || *p == '+')
            ++p;
        // Saturate: anything beyond a billion is as good as infinite here.
        for (; p < end && isDigit(*p); ++p) {
            if (exponent < 1'000'000'000)
                exponent = exponent * 10 + (*p - '0');
        }
        if (negative)
            exponent = -exponent;
    }
    return position + exponent > 0;
}

class Parser
{
public:
    explicit Parser(std::string_view text)
        : m_begin(text.data())
        , m_p(text.data())
        , m_end(text.data() + text.size())
    {
    }

    bool run();
    Json takeResult() { return std::move(m_root); }
    std::size_t errorOffset() const { return static_cast<std::size_t>(m_errorAt - m_begin); }
    const char *errorMessage() const { return m_errorMessage; }

private:
    bool fail(const char *at, const char *message)
    {
        m_errorAt = at;
        m_errorMessage = message;
        return false;
    }

    void skipWhitespace()
    {
        while (m_p < m_end && isWhitespace(static_cast<unsigned char>(*m_p)))
            ++m_p;
    }

    Json &store(Json &&value);
    bool parseKey();
    bool parseString(std::string_view &out, std::string &scratch);
    bool parseEscape(std::string &out);
    bool parseHex4(std::uint32_t &value);
    bool parseNumber();
    bool parseLiteral(const char *word, std::size_t length);

    const char *const m_begin;
    const char *m_p;
    const char *const m_end;
    const char *m_errorAt = nullptr;
    const char *m_errorMessage = nullptr;

    Json m_root;
    // The open containers, innermost last. Pointers stay valid: std::map nodes never move, and
    // an array only grows (and reallocates) while it is the innermost container, at which point
    // no pointer to one of its elements is on the stack.
    Json *m_stack[MaxJsonDepth];
    int m_depth = 0;
    // The pending key of the innermost object. It is stored once its value is parsed (a scalar)
    // or opened (a container), so a key with escapes needs a buffer apart from the value's.
    std::string_view m_key;
    std::string m_keyScratch;
    std::string m_valueScratch;
};

// Puts a completed (or just opened) value where the grammar says it goes: the root, the end
// of the innermost array, or under the pending key (m_key) of the innermost object.
Json &Parser::store(Json &&value)
{
    if (m_depth == 0) {
        m_root = std::move(value);
        return m_root;
    }
    Json &parent = *m_stack[m_depth - 1];
    if (parent.is_array()) {
        ArrayT &array = *parent.get_ptr<ArrayT *>();
        array.push_back(std::move(value));
        return array.back();
    }
    // object_t's comparator is std::less<>, so the key can be looked up as a view; the node's
    // std::string is built once, in place.
    ObjectT &object = *parent.get_ptr<ObjectT *>();
    auto hint = object.end();
    // Generated JSON often has sorted keys; then the end is the right place and insertion is
    // O(1) instead of a tree search.
    if (!object.empty() && !(std::string_view(object.rbegin()->first) < m_key)) {
        hint = object.lower_bound(m_key);
        if (hint != object.end() && hint->first == m_key) {
            // nlohmann assigns through operator[], so the last of duplicate keys wins.
            hint->second = std::move(value);
            return hint->second;
        }
    }
    return object
            .emplace_hint(hint, std::piecewise_construct,
                          std::forward_as_tuple(m_key.data(), m_key.size()),
                          std::forward_as_tuple(std::move(value)))
            ->second;
}

bool Parser::parseKey()
{
    skipWhitespace();
    if (m_p == m_end)
        return fail(m_p, "unexpected end of input; expected string literal");
    if (*m_p != '"')
        return fail(m_p, "expected string literal");
    ++m_p;
    if (!parseString(m_key, m_keyScratch))
        return false;
    skipWhitespace();
    if (m_p == m_end)
        return fail(m_p, "unexpected end of input; expected ':'");
    if (*m_p != ':')
        return fail(m_p, "expected ':'");
    ++m_p;
    return true;
}

// Called after the opening quote. Sets `out` to the string's contents: a view into the text if
// the string has no escapes (the common case: nothing is copied here), else into `scratch`.
// Runs of bytes that need no translation (printable ASCII and well-formed UTF-8) are copied in
// one go; only escapes are handled byte by byte.
bool Parser::parseString(std::string_view &out, std::string &scratch)
{
    const char *run = m_p;
    bool escaped = false;
    for (;;) {
#ifdef MCP_JSON_SSE2
        // Sixteen bytes at a time: stop at '"', '\\', or any byte that is < 0x20 or >= 0x80
        // (one signed comparison catches both: bytes >= 0x80 are negative as int8).
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i backslash = _mm_set1_epi8('\\');
        const __m128i space = _mm_set1_epi8(0x20);
        while (m_end - m_p >= 16) {
            const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m_p));
            const __m128i special = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)),
                    _mm_cmplt_epi8(chunk, space));
            const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(special));
            if (mask != 0) {
                m_p += std::countr_zero(mask);
                break;
            }
            m_p += 16;
        }
#endif
        while (m_p < m_end) {
            const unsigned char c = static_cast<unsigned char>(*m_p);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
                break;
            ++m_p;
        }
        if (m_p == m_end)
            return fail(m_p, "unexpected end of input; missing closing quote");
        const unsigned char c = static_cast<unsigned char>(*m_p);
        if (c == '"') {
            if (escaped) {
                scratch.append(run, m_p);
                out = scratch;
            } else {
                out = std::string_view(run, static_cast<std::size_t>(m_p - run));
            }
            ++m_p;
            return true;
        }
        if (c == '\\') {
            if (!escaped) {
                scratch.clear();
                escaped = true;
            }
            scratch.append(run, m_p);
            if (!parseEscape(scratch))
                return false;
            run = m_p;
            continue;
        }
        if (c < 0x20)
            return fail(m_p, "control character in string; must be escaped");
        // Non-ASCII: validate the sequence, but keep it in the current run.
        const std::size_t length
                = utf8SequenceLength(reinterpret_cast<const unsigned char *>(m_p),
                                     reinterpret_cast<const unsigned char *>(m_end));
        if (length == 0)
            return fail(m_p, "invalid UTF-8 in string");
        m_p += length;
    }
}

bool Parser::parseHex4(std::uint32_t &value)
{
    if (m_end - m_p < 4) {
        // Point at the first byte that is not a hex digit, or at the end.
        while (m_p < m_end && hexValue(static_cast<unsigned char>(*m_p)) >= 0)
            ++m_p;
        return fail(m_p, m_p == m_end ? "unexpected end of input in \\u escape"
                                      : "\\u must be followed by 4 hex digits");
    }
    value = 0;
    for (int i = 0; i < 4; ++i) {
        const int digit = hexValue(static_cast<unsigned char>(m_p[i]));
        if (digit < 0)
            return fail(m_p + i, "\\u must be followed by 4 hex digits");
        value = (value << 4) | static_cast<std::uint32_t>(digit);
    }
    m_p += 4;
    return true;
}

// Called at the backslash; appends the escaped character to `out`.
bool Parser::parseEscape(std::string &out)
{
    const char *escape = m_p;
    ++m_p;
    if (m_p == m_end)
        return fail(m_p, "unexpected end of input; missing closing quote");
    char c = *m_p++;
    switch (c) {
    case '"':
    case '\\':
    case '/':
        break;
    case 'b':
        c = '\b';
        break;
    case 'f':
        c = '\f';
        break;
    case 'n':
        c = '\n';
        break;
    case 'r':
        c = '\r';
        break;
    case 't':
        c = '\t';
        break;
    case 'u': {
        std::uint32_t cp;
        if (!parseHex4(cp))
            return false;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return fail(escape, "low surrogate \\uDC00..\\uDFFF without a high surrogate");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            // nlohmann wants the low half immediately, as another \u escape.
            if (m_end - m_p < 2 || m_p[0] != '\\' || m_p[1] != 'u')
                return fail(m_p, "high surrogate \\uD800..\\uDBFF must be followed by a low one");
            m_p += 2;
            std::uint32_t low;
            if (!parseHex4(low))
                return false;
            if (low < 0xDC00 || low > 0xDFFF)
                return fail(m_p - 6,
                            "high surrogate \\uD800..\\uDBFF must be followed by a low one");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, cp);
        return true;
    }
    default:
        return fail(escape, "invalid string escape");
    }
    out.push_back(c);
    return true;
}

bool Parser::parseLiteral(const char *word, std::size_t length)
{
    for (std::size_t i = 0; i < length; ++i) {
        if (m_p + i == m_end)
            return fail(m_p + i, "unexpected end of input in literal");
        if (m_p[i] != word[i])
            return fail(m_p + i, "invalid literal");
    }
    m_p += length;
    return true;
}

// RFC 8259 number grammar, then nlohmann's type choice: an integer (no fraction, no exponent)
// that fits uint64 (non-negative) or int64 (negative) stays an integer, everything else is a
// double as strtod would round it.
bool Parser::parseNumber()
{
    const char *start = m_p;
    const bool negative = *m_p == '-';
    if (negative)
        ++m_p;
    if (m_p == m_end)
        return fail(m_p, "unexpected end of input in number");

    std::uint64_t magnitude = 0;
    std::size_t integerDigits = 0;
    if (*m_p == '0') {
        // A leading zero ends the integer part; a digit after it is then a syntax error at
        // the caller, as in nlohmann.
        ++m_p;
        integerDigits = 1;
    } else if (isDigit(*m_p)) {
        const char *digits = m_p;
        // 19 digits always fit uint64; the 20th needs an overflow check, more never fit.
        while (m_p < m_end && isDigit(*m_p) && m_p - digits < 19)
            magnitude = magnitude * 10 + static_cast<unsigned>(*m_p++ - '0');
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
        integerDigits = static_cast<std::size_t>(m_p - digits);
        if (integerDigits == 20) {
            const unsigned last = static_cast<unsigned>(digits[19] - '0');
            if (magnitude > (std::numeric_limits<std::uint64_t>::max() - last) / 10)
                integerDigits = 21; // does not fit: treat as too long
            else
                magnitude = magnitude * 10 + last;
        }
    } else {
        return fail(m_p, "invalid number; expected digit");
    }

    bool isInteger = true;
    if (m_p < m_end && *m_p == '.') {
        isInteger = false;
        ++m_p;
        if (m_p == m_end)
            return fail(m_p, "unexpected end of input in number");
        if (!isDigit(*m_p))
            return fail(m_p, "invalid number; expected digit after '.'");
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    }
    if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
        isInteger = false;
        ++m_p;
        if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
            ++m_p;
        if (m_p == m_end)
            return fail(m_p, "unexpected end of input in number");
        if (!isDigit(*m_p))
            return fail(m_p, "invalid number; expected digit in exponent");
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    }

    if (isInteger && integerDigits <= 20) {
        if (!negative) {
            store(Json(static_cast<Json::number_unsigned_t>(magnitude)));
            return true;
        }
        constexpr std::uint64_t minMagnitude = std::uint64_t(1) << 63;
        if (magnitude <= minMagnitude) {
            // Modular conversion (well-defined in C++20) also covers INT64_MIN.
            store(Json(static_cast<Json::number_integer_t>(0 - magnitude)));
            return true;
        }
    }

    double value = 0;
    const auto [end, ec] = std::from_chars(start, m_p, value);
    if (ec == std::errc::result_out_of_range) {
        if (magnitudeOverflows(start, m_p))
            return fail(start, "number overflow");
        value = negative ? -0.0 : 0.0;
    } else if (ec != std::errc() || end != m_p) {
        return fail(start, "invalid number"); // unreachable: the grammar was checked above
    }
    store(Json(static_cast<Json::number_float_t>(value)));
    return true;
}

bool Parser::run()
{
    // nlohmann skips a UTF-8 byte order mark at the very start (not after whitespace) and
    // rejects a partial one.
    if (m_p < m_end && static_cast<unsigned char>(*m_p) == 0xEF) {
        if (m_end - m_p < 3 || static_cast<unsigned char>(m_p[1]) != 0xBB
            || static_cast<unsigned char>(m_p[2]) != 0xBF)
            return fail(m_p, "invalid byte order mark");
        m_p += 3;
    }

    for (;;) {
        // A value is expected.
        skipWhitespace();
        if (m_p == m_end)
            return fail(m_p, "unexpected end of input; expected value");
        switch (*m_p) {
        case '{':
        case '[': {
            const bool isObject = *m_p == '{';
            if (m_depth == MaxJsonDepth)
                return fail(m_p, DepthMessage);
            ++m_p;
            Json &container = store(Json(isObject ? Json::value_t::object : Json::value_t::array));
            skipWhitespace();
            if (m_p < m_end && *m_p == (isObject ? '}' : ']')) {
                ++m_p;
                break; // empty: complete already
            }
            m_stack[m_depth++] = &container;
            if (isObject && !parseKey())
                return false;
            continue;
        }
        case '"': {
            ++m_p;
            std::string_view string;
            if (!parseString(string, m_valueScratch))
                return false;
            store(Json(string)); // builds the string_t in place from the view
            break;
        }
        case 't':
            if (!parseLiteral("true", 4))
                return false;
            store(Json(true));
            break;
        case 'f':
            if (!parseLiteral("false", 5))
                return false;
            store(Json(false));
            break;
        case 'n':
            if (!parseLiteral("null", 4))
                return false;
            store(Json(nullptr));
            break;
        case '-':
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
        case '8':
        case '9':
            if (!parseNumber())
                return false;
            break;
        default:
            return fail(m_p, "unexpected character; expected value");
        }

        // A value is complete: close every container whose end follows, until a ',' asks for
        // the next value or the root is done.
        for (;;) {
            if (m_depth == 0) {
                skipWhitespace();
                // nlohmann's lexer takes a NUL byte for the end of input, even before the end.
                if (m_p != m_end && *m_p != '\0')
                    return fail(m_p, "unexpected content after the JSON value");
                return true;
            }
            skipWhitespace();
            if (m_p == m_end)
                return fail(m_p, "unexpected end of input; expected ',' or closing bracket");
            const bool inObject = m_stack[m_depth - 1]->is_object();
            if (*m_p == ',') {
                ++m_p;
                if (inObject && !parseKey())
                    return false;
                break;
            }
            if (*m_p != (inObject ? '}' : ']'))
                return fail(m_p, inObject ? "expected ',' or '}'" : "expected ',' or ']'");
            ++m_p;
            --m_depth;
        }
    }
}

} // namespace

Json parseJson(std::string_view text, JsonParseError *error)
{
    Parser parser(text);
    if (parser.run())
        return parser.takeResult();
    if (error) {
        error->offset = parser.errorOffset();
        error->message = parser.errorMessage();
    }
    return Json(Json::value_t::discarded);
}

} // namespace Mcp
