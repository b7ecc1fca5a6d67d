#include "partialinput.h"

#include <string>
#include <vector>

namespace Mcp::Apps {

namespace {

using uchar = unsigned char;

// What a container waits for next. `First`: a key or '}' in an object, a value or ']' in an
// array.
enum class Expect { First, Key, Colon, Value, CommaOrEnd };

struct Level
{
    char closer; // '}' or ']'
    Expect expect;
};

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A string starting at `open` (its quote): the index of its closing quote, or npos when the
// text ends first, with `*kept` then the end of its last whole character (an escape cut short,
// or a high surrogate whose low half has not come, is left out).
std::size_t stringEnd(std::string_view text, std::size_t open, std::size_t *kept)
{
    std::size_t j = open + 1;
    while (j < text.size()) {
        const char c = text[j];
        if (c == '"')
            return j;
        if (c != '\\') {
            ++j;
            continue;
        }
        if (j + 1 >= text.size())
            break;
        if (text[j + 1] != 'u') {
            j += 2;
            continue;
        }
        if (j + 6 > text.size())
            break;
        const std::string_view hex = text.substr(j + 2, 4);
        const bool high = (hex[0] == 'd' || hex[0] == 'D')
                          && (hex[1] == '8' || hex[1] == '9' || hex[1] == 'a' || hex[1] == 'A'
                              || hex[1] == 'b' || hex[1] == 'B');
        if (high && j + 6 == text.size())
            break;
        j += 6;
    }
    std::size_t end = std::min(j, text.size());
    // A UTF-8 character cut short (a stream cut in bytes) is left out too.
    std::size_t lead = end;
    while (lead > open + 1 && end - lead < 4 && (uchar(text[lead - 1]) & 0xC0) == 0x80)
        --lead;
    if (lead > open + 1) {
        const uchar first = uchar(text[lead - 1]);
        const std::size_t length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1;
        if (lead - 1 + length > end)
            end = lead - 1;
    }
    *kept = end;
    return std::string_view::npos;
}

Json objectOf(const std::string &candidate)
{
    Json json = Json::parse(candidate, nullptr, false);
    return json.is_object() ? json : Json();
}

} // namespace

Json partialArguments(std::string_view text)
{
    std::vector<Level> stack;
    // The longest prefix known to close into valid JSON, and the brackets that close it.
    std::size_t safeEnd = 0;
    std::string safeClosers;
    const auto closers = [&stack] {
        std::string out;
        for (auto it = stack.rbegin(); it != stack.rend(); ++it)
            out += it->closer;
        return out;
    };
    const auto markSafe = [&](std::size_t end) {
        safeEnd = end;
        safeClosers = closers();
    };
    // A value ended at `end`: its container waits for a comma or its end.
    const auto valueDone = [&](std::size_t end) {
        if (!stack.empty())
            stack.back().expect = Expect::CommaOrEnd;
        markSafe(end);
    };

    // A byte order mark first is no more than the parser makes of it.
    std::size_t i = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    while (i < text.size() && isSpace(text[i]))
        ++i;
    if (i >= text.size() || text[i] != '{')
        return Json();
    stack.push_back({'}', Expect::First});
    markSafe(++i);

    while (i < text.size() && !stack.empty()) {
        const char c = text[i];
        if (isSpace(c)) {
            ++i;
            continue;
        }
        Level &top = stack.back();
        const bool array = top.closer == ']';
        const bool wantsValue
                = top.expect == Expect::Value || (array && top.expect == Expect::First);
        if (wantsValue) {
            if (c == '{' || c == '[') {
                if (int(stack.size()) >= MaxPartialDepth)
                    break;
                stack.push_back({c == '{' ? '}' : ']', Expect::First});
                markSafe(++i);
            } else if (c == ']' && array && top.expect == Expect::First) {
                stack.pop_back();
                valueDone(++i);
            } else if (c == '"') {
                std::size_t kept = 0;
                const std::size_t end = stringEnd(text, i, &kept);
                if (end == std::string_view::npos) {
                    // A string value being written: kept as far as it goes.
                    const Json json = objectOf(std::string(text.substr(0, kept)) + '"' + closers());
                    if (!json.is_null())
                        return json;
                    break;
                }
                i = end + 1;
                valueDone(i);
            } else {
                // A number or a literal: only once something follows it is it known whole.
                std::size_t j = i;
                while (j < text.size() && !isSpace(text[j]) && text[j] != ',' && text[j] != '}'
                       && text[j] != ']')
                    ++j;
                if (j >= text.size())
                    break;
                const Json token = Json::parse(text.substr(i, j - i), nullptr, false);
                if (token.is_discarded() || !token.is_primitive() || token.is_string())
                    break;
                i = j;
                valueDone(i);
            }
            continue;
        }
        if (top.expect == Expect::First || top.expect == Expect::Key) {
            if (c == '}' && top.expect == Expect::First) {
                stack.pop_back();
                valueDone(++i);
                continue;
            }
            if (c != '"')
                break;
            std::size_t kept = 0;
            const std::size_t end = stringEnd(text, i, &kept);
            if (end == std::string_view::npos)
                break; // a key being written: left out
            top.expect = Expect::Colon;
            i = end + 1;
            continue;
        }
        if (top.expect == Expect::Colon) {
            if (c != ':')
                break;
            top.expect = Expect::Value;
            ++i;
            continue;
        }
        // CommaOrEnd
        if (c == ',') {
            top.expect = array ? Expect::Value : Expect::Key;
            ++i;
        } else if (c == top.closer) {
            stack.pop_back();
            valueDone(++i);
        } else {
            break;
        }
    }
    return objectOf(std::string(text.substr(0, safeEnd)) + safeClosers);
}

} // namespace Mcp::Apps
