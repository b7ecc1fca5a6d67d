// libFuzzer target for the SSE parser: the input is fed in chunks whose size comes from the
// first byte, with a small event cap so the oversize path runs often. Invariant: chunking
// changes nothing (the same events, ids and retry values as feeding it whole).
#include <mcp/wire/sseparser.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {
std::vector<std::string> parse(const uint8_t *data, size_t size, size_t chunk, qsizetype cap)
{
    std::vector<std::string> out;
    Mcp::SseParser parser(cap);
    parser.setEventSink([&](const Mcp::SseEvent &e) {
        out.push_back(e.id.toStdString() + '\x1f' + e.event.toStdString() + '\x1f'
                      + e.data.toStdString() + '\x1f' + std::to_string(e.retryMs.value_or(-1)));
    });
    parser.setErrorSink([&](const QString &) { out.emplace_back("error"); });
    for (size_t i = 0; i < size; i += chunk)
        parser.feed(QByteArrayView(reinterpret_cast<const char *>(data) + i,
                                   qsizetype(std::min(chunk, size - i))));
    out.push_back("last-id:" + parser.lastEventId().toStdString());
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const size_t chunk = 1 + data[0] % 32;
    const qsizetype cap = 16 + data[1] % 256;
    data += 2;
    size -= 2;
    if (parse(data, size, chunk, cap) != parse(data, size, size ? size : 1, cap))
        __builtin_trap();
    return 0;
}
