// Differential libFuzzer target for Mcp::parseJson: on arbitrary bytes it must accept and reject
// exactly what nlohmann::json::parse(first, last, nullptr, false) does, and build the same value
// with the same value_t at every node (nlohmann's operator== calls 1 and 1.0 equal, so it is
// not enough). The one allowed difference: documents nested deeper than MaxJsonDepth, which
// parseJson rejects and nlohmann accepts. Any other difference aborts so libFuzzer keeps the
// input.

#include <mcp/wire/jsonparser.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using Mcp::Json;

[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "fuzz_jsonparser: %s\n", what);
    __builtin_trap();
}

// Same value and same type at every node; doubles compared bit for bit (-0.0 vs 0.0 counts).
// Iterative so that documents at the depth cap cannot exhaust the fuzzer's stack.
bool sameJson(const Json &a, const Json &b)
{
    std::vector<std::pair<const Json *, const Json *>> pending{{&a, &b}};
    while (!pending.empty()) {
        const auto [x, y] = pending.back();
        pending.pop_back();
        if (x->type() != y->type())
            return false;
        switch (x->type()) {
        case Json::value_t::object: {
            const auto &ox = x->get_ref<const Json::object_t &>();
            const auto &oy = y->get_ref<const Json::object_t &>();
            if (ox.size() != oy.size())
                return false;
            for (auto ix = ox.begin(), iy = oy.begin(); ix != ox.end(); ++ix, ++iy) {
                if (ix->first != iy->first)
                    return false;
                pending.emplace_back(&ix->second, &iy->second);
            }
            break;
        }
        case Json::value_t::array: {
            const auto &ax = x->get_ref<const Json::array_t &>();
            const auto &ay = y->get_ref<const Json::array_t &>();
            if (ax.size() != ay.size())
                return false;
            for (std::size_t i = 0; i < ax.size(); ++i)
                pending.emplace_back(&ax[i], &ay[i]);
            break;
        }
        case Json::value_t::number_float: {
            const double dx = x->get<double>();
            const double dy = y->get<double>();
            if (std::memcmp(&dx, &dy, sizeof dx) != 0)
                return false;
            break;
        }
        default:
            if (*x != *y)
                return false;
        }
    }
    return true;
}

// Bracket nesting outside strings; exact for JSON texts, which is all that matters here since
// the depth exemption only applies when nlohmann accepted the input.
int nestingDepth(std::string_view text)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);

    Mcp::JsonParseError error;
    const Json ours = Mcp::parseJson(text, &error);
    const Json theirs = Json::parse(text.begin(), text.end(), nullptr, false);

    if (ours.is_discarded()) {
        if (error.offset > size)
            fail("error offset past the end of the input");
        if (error.message.empty())
            fail("error without a message");
        if (!theirs.is_discarded()) {
            if (error.message.find("MaxJsonDepth") == std::string::npos
                || nestingDepth(text) <= Mcp::MaxJsonDepth)
                fail("parseJson rejected what nlohmann accepts");
        }
        return 0;
    }
    if (theirs.is_discarded())
        fail("parseJson accepted what nlohmann rejects");
    if (!sameJson(ours, theirs))
        fail("parseJson built a different value than nlohmann");
    return 0;
}
