#include "transport.h"

#include <regex>

namespace Mcp {

Json guessMessageId(std::string_view head, std::string_view tail)
{
    // `{"id":7,` or `{"jsonrpc":"2.0","id":7,` at the start; `"id":7}` at the very end.
    static const std::regex headPattern(
            R"re(^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"[^"\\]*")\s*[,}])re");
    static const std::regex tailPattern(R"re(,\s*"id"\s*:\s*(-?\d+|"[^"\\]*")\s*\}\s*$)re");
    std::match_results<std::string_view::const_iterator> m;
    auto parse = [](const std::string &text) {
        Json id = Json::parse(text, nullptr, false);
        return id.is_discarded() ? Json() : id;
    };
    if (std::regex_search(head.begin(), head.end(), m, headPattern))
        return parse(m[1].str());
    if (std::regex_search(tail.begin(), tail.end(), m, tailPattern))
        return parse(m[1].str());
    return nullptr;
}

} // namespace Mcp
