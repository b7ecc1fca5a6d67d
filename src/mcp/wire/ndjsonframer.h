#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace Mcp {

// Splits a byte stream into newline-delimited messages (MCP's stdio framing). Lines have no
// length limit below a cap; a longer line is dropped without being stored (memory stays
// bounded by the cap), and the sink hears its size plus its first and last bytes so the
// owner can tell which request it answered. A trailing "\r" is removed. Owned by one
// transport; buffers are per instance.
class NdjsonFramer
{
public:
    // 64 MiB: the default cap; large enough for a 20 MB tool result, small enough that a runaway
    // server cannot exhaust memory.
    static constexpr std::int64_t DefaultMaxMessageBytes = 64 * 1024 * 1024;
    // How much of a dropped line's head and tail is kept for identifying it.
    static constexpr std::size_t OversizeSampleBytes = 256;

    struct Oversize
    {
        std::int64_t bytes = 0; // the whole line's length
        std::string head;       // first bytes
        std::string tail;       // last bytes
    };

    using LineSink = std::function<void(std::string_view line)>;
    using OversizeSink = std::function<void(const Oversize &)>;

    explicit NdjsonFramer(std::int64_t maxMessageBytes = DefaultMaxMessageBytes);

    void setLineSink(LineSink sink) { m_onLine = std::move(sink); }
    void setOversizeSink(OversizeSink sink) { m_onOversize = std::move(sink); }
    void setMaxMessageBytes(std::int64_t bytes) { m_max = bytes; }
    std::int64_t maxMessageBytes() const { return m_max; }

    // Feeds a chunk; delivers every completed line. Sinks may be called several times.
    void feed(const char *data, std::size_t size);
    // End of stream: delivers an unterminated last line, if any.
    void finish();
    // Bytes of the current unfinished line held in memory.
    std::size_t pendingBytes() const { return m_buffer.size(); }
    // During a line sink's call: the string that holds the line being delivered when it was
    // gathered from several chunks (the sink may move from it, and so keep a 20 MB line
    // without copying it), else null (the line points into the fed chunk).
    std::string *lineOwner() const { return m_owner; }

private:
    static constexpr std::size_t BigLineBytes = 1024 * 1024;
    static constexpr std::int64_t BigLineReserve = 64 * 1024 * 1024;
    void reserveFor(std::size_t size);
    void deliver(std::string_view line, std::string *owner = nullptr);
    void startDiscarding(std::string_view firstPart);
    void discard(std::string_view part);
    void finishDiscarding();

    LineSink m_onLine;
    OversizeSink m_onOversize;
    std::int64_t m_max;
    std::string m_buffer;
    std::string *m_owner = nullptr;
    bool m_discarding = false;
    Oversize m_dropped;
};

} // namespace Mcp
