// libFuzzer target for the recovery of a tool call's arguments while the model writes them
// (Mcp::Apps::partialArguments): any bytes, which a model streams. Invariants: no crash; the
// result is null or an object; an input that is itself a whole JSON object (nested within the
// bound) is recovered as exactly that object; and each of its prefixes gives an object too.
#include "fuzzcheck.h"

#include <mcp/apps/partialinput.h>

#include <cstdint>

using namespace Mcp;

namespace {

int depth(const Json &json)
{
    int deepest = 0;
    if (json.is_structured()) {
        for (const Json &member : json)
            deepest = std::max(deepest, depth(member));
        return deepest + 1;
    }
    return 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const Json partial = Apps::partialArguments(text);
    check(partial.is_null() || partial.is_object());
    const Json whole = Json::parse(text, nullptr, false);
    if (!whole.is_object() || depth(whole) >= Apps::MaxPartialDepth)
        return 0;
    check(partial == whole);
    // Cut anywhere past its opening brace, a whole object still gives an object (the leading
    // whitespace the parser skipped counts as part of the cut).
    const std::size_t open = text.find('{');
    for (std::size_t cut = open + 1; cut < text.size() && cut < open + 4096; cut += 1 + cut / 64)
        check(Apps::partialArguments(text.substr(0, cut)).is_object());
    return 0;
}
