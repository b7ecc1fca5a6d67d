// libFuzzer target for the NDJSON framer (and the oversize id guess): the input is fed in
// chunks whose sizes come from the input itself, with a small cap so the oversize path runs
// often. Invariants: chunking changes nothing (the same input fed whole gives the same lines
// and drops), the framer never holds more than the cap, and the oversize samples stay small.
#include <mcp/transport/transport.h>
#include <mcp/wire/ndjsonframer.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {
struct Run
{
    std::vector<std::string> lines;
    std::int64_t dropped = 0;
};

Run frame(const uint8_t *data, size_t size, size_t chunk, std::int64_t cap)
{
    Run run;
    Mcp::NdjsonFramer framer(cap);
    framer.setLineSink([&](std::string_view line) { run.lines.emplace_back(line); });
    framer.setOversizeSink([&](const Mcp::NdjsonFramer::Oversize &d) {
        run.dropped += d.bytes;
        if (d.head.size() > Mcp::NdjsonFramer::OversizeSampleBytes
            || d.tail.size() > Mcp::NdjsonFramer::OversizeSampleBytes)
            __builtin_trap();
        (void)Mcp::guessMessageId(d.head, d.tail);
    });
    for (size_t i = 0; i < size; i += chunk) {
        framer.feed(reinterpret_cast<const char *>(data) + i, std::min(chunk, size - i));
        if (framer.pendingBytes() > size_t(cap))
            __builtin_trap();
    }
    framer.finish();
    return run;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const size_t chunk = 1 + data[0] % 64;
    const std::int64_t cap = 1 + data[1] % 200;
    data += 2;
    size -= 2;
    const Run chunked = frame(data, size, chunk, cap);
    const Run whole = frame(data, size, size ? size : 1, cap);
    if (chunked.lines != whole.lines || chunked.dropped != whole.dropped)
        __builtin_trap();
    (void)Mcp::guessMessageId(std::string_view(reinterpret_cast<const char *>(data), size),
                              std::string_view(reinterpret_cast<const char *>(data), size));
    return 0;
}
