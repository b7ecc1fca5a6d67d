#include "ndjsonframer.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace Mcp {

NdjsonFramer::NdjsonFramer(std::int64_t maxMessageBytes)
    : m_max(maxMessageBytes)
{
}

void NdjsonFramer::feed(const char *data, std::size_t size)
{
    while (size > 0) {
        const auto *newline = static_cast<const char *>(std::memchr(data, '\n', size));
        const std::size_t partLength = newline ? std::size_t(newline - data) : size;
        const std::string_view part(data, partLength);

        if (m_discarding) {
            discard(part);
            if (newline)
                finishDiscarding();
        } else if (std::int64_t(m_buffer.size() + partLength) > m_max) {
            startDiscarding(part);
            if (newline)
                finishDiscarding();
        } else if (!newline) {
            reserveFor(m_buffer.size() + partLength);
            m_buffer.append(part);
        } else if (m_buffer.empty()) {
            deliver(part); // the common case: a whole line inside one chunk, no copy
        } else {
            reserveFor(m_buffer.size() + partLength);
            m_buffer.append(part);
            std::string line;
            line.swap(m_buffer);
            deliver(line, &line);
        }

        if (!newline)
            return;
        data += partLength + 1;
        size -= partLength + 1;
    }
}

// A long line grows in big steps: doubling a 16 MB buffer copies it, and on some machines the
// page faults of that copy alone stall the event loop for tens of milliseconds. Untouched
// capacity costs address space, not memory.
void NdjsonFramer::reserveFor(std::size_t size)
{
    if (size <= m_buffer.capacity() || size < BigLineBytes)
        return;
    const std::int64_t wanted = std::max<std::int64_t>(std::int64_t(size) * 2, BigLineReserve);
    try {
        m_buffer.reserve(std::size_t(std::min(wanted, std::max<std::int64_t>(m_max, 0) + 1)));
    } catch (const std::bad_alloc &) {
        // The address space is short: grow as std::string does.
    }
}

void NdjsonFramer::finish()
{
    if (m_discarding) {
        finishDiscarding();
    } else if (!m_buffer.empty()) {
        std::string line;
        line.swap(m_buffer);
        deliver(line, &line);
    }
}

void NdjsonFramer::deliver(std::string_view line, std::string *owner)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    m_owner = owner; // set for every line, so it never names an earlier one
    if (m_onLine)
        m_onLine(line);
}

void NdjsonFramer::startDiscarding(std::string_view firstPart)
{
    m_discarding = true;
    m_dropped = {};
    m_dropped.head = m_buffer.substr(0, OversizeSampleBytes);
    if (m_dropped.head.size() < OversizeSampleBytes)
        m_dropped.head.append(firstPart.substr(0, OversizeSampleBytes - m_dropped.head.size()));
    m_dropped.bytes = std::int64_t(m_buffer.size());
    m_dropped.tail = m_buffer.size() > OversizeSampleBytes
                             ? m_buffer.substr(m_buffer.size() - OversizeSampleBytes)
                             : m_buffer;
    std::string().swap(m_buffer); // give the memory back now, not at the next line
    discard(firstPart);
}

void NdjsonFramer::discard(std::string_view part)
{
    m_dropped.bytes += std::int64_t(part.size());
    if (part.size() >= OversizeSampleBytes) {
        m_dropped.tail.assign(part.substr(part.size() - OversizeSampleBytes));
    } else {
        m_dropped.tail.append(part);
        if (m_dropped.tail.size() > OversizeSampleBytes)
            m_dropped.tail.erase(0, m_dropped.tail.size() - OversizeSampleBytes);
    }
}

void NdjsonFramer::finishDiscarding()
{
    m_discarding = false;
    if (!m_dropped.tail.empty() && m_dropped.tail.back() == '\r')
        m_dropped.tail.pop_back();
    Oversize dropped = std::move(m_dropped);
    m_dropped = {};
    if (m_onOversize)
        m_onOversize(dropped);
}

} // namespace Mcp
