#include "sseparser.h"

#include <QCoreApplication>

#include <algorithm>

namespace Mcp {

namespace {

constexpr char Bom[] = "\xEF\xBB\xBF";
constexpr int BomSize = 3;

// The longest "retry" value accepted: a day; larger numbers are ignored as nonsense rather
// than overflowing an int.
constexpr qint64 MaxRetryMs = 24 * 60 * 60 * 1000;

} // namespace

SseParser::SseParser(qsizetype maxEventBytes)
    : m_max(maxEventBytes)
{
}

void SseParser::feed(QByteArrayView chunk)
{
    const char *p = chunk.data();
    qsizetype n = chunk.size();

    // The BOM may itself arrive split across chunks.
    while (!m_bomDone && n > 0) {
        if (*p == Bom[m_bomMatched]) {
            ++p;
            --n;
            if (++m_bomMatched == BomSize)
                m_bomDone = true;
        } else {
            m_bomDone = true;
            if (m_bomMatched > 0) // a partial BOM was data after all (it holds no line ends)
                appendToLine(Bom, m_bomMatched);
        }
    }

    if (m_pendingCr && n > 0) {
        m_pendingCr = false;
        if (*p == '\n') {
            ++p;
            --n;
        }
    }

    while (n > 0) {
        const char *end = p + n;
        const char *eol = std::find_if(p, end, [](char c) { return c == '\n' || c == '\r'; });
        appendToLine(p, eol - p);
        if (eol == end)
            return;
        endLine();
        const char *next = eol + 1;
        if (*eol == '\r') {
            if (next == end)
                m_pendingCr = true;
            else if (*next == '\n')
                ++next;
        }
        n -= next - p;
        p = next;
    }
}

void SseParser::reset()
{
    m_line.clear();
    m_data.clear();
    m_eventType.clear();
    m_idBuffer = m_lastEventId;
    m_eventRetryMs.reset();
    m_bomMatched = 0;
    m_bomDone = false;
    m_pendingCr = false;
    m_discarding = false;
    m_discardLineHasBytes = false;
}

void SseParser::clear()
{
    m_lastEventId.clear();
    m_retryMs.reset();
    reset();
}

void SseParser::appendToLine(const char *data, qsizetype size)
{
    if (size <= 0)
        return;
    if (m_discarding) {
        m_discardLineHasBytes = true;
        return;
    }
    if (m_data.size() + m_eventType.size() + m_line.size() + size > m_max) {
        startDiscarding();
        return;
    }
    m_line.append(data, size);
}

void SseParser::endLine()
{
    if (m_discarding) {
        // Only a blank line ends the oversize event; whatever else it held is gone.
        if (!m_discardLineHasBytes)
            m_discarding = false;
        m_discardLineHasBytes = false;
        return;
    }
    processLine(m_line);
    m_line.clear();
}

void SseParser::processLine(QByteArrayView line)
{
    if (line.isEmpty()) {
        dispatch();
        return;
    }
    if (line.front() == ':')
        return; // a comment: keep-alives and padding

    QByteArrayView field = line;
    QByteArrayView value;
    if (const qsizetype colon = line.indexOf(':'); colon >= 0) {
        field = line.first(colon);
        value = line.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
    }

    if (field == "data") {
        m_data.append(value);
        m_data.append('\n');
    } else if (field == "event") {
        m_eventType = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_idBuffer = value.toByteArray();
    } else if (field == "retry") {
        const bool digits = !value.isEmpty() && std::all_of(value.begin(), value.end(), [](char c) {
            return c >= '0' && c <= '9';
        });
        if (digits && value.size() <= 10) {
            const qint64 ms = value.toByteArray().toLongLong();
            if (ms <= MaxRetryMs) {
                m_retryMs = int(ms);
                m_eventRetryMs = int(ms);
            }
        }
    }
    // Any other field is ignored, as the spec requires.
}

void SseParser::dispatch()
{
    m_lastEventId = m_idBuffer;
    if (m_data.isEmpty()) {
        m_eventType.clear();
        m_eventRetryMs.reset();
        return;
    }
    SseEvent event;
    event.id = m_lastEventId;
    event.event = std::move(m_eventType);
    m_data.chop(1); // the newline after the last data line
    event.data = std::move(m_data);
    event.retryMs = m_eventRetryMs;
    m_data = QByteArray();
    m_eventType = QByteArray();
    m_eventRetryMs.reset();
    if (m_onEvent)
        m_onEvent(event);
}

void SseParser::startDiscarding()
{
    m_discarding = true;
    m_discardLineHasBytes = true;
    m_line = QByteArray(); // give the memory back now
    m_data = QByteArray();
    m_eventType.clear();
    m_eventRetryMs.reset();
    if (m_onError) {
        m_onError(QCoreApplication::translate("Mcp::SseParser",
                                              "event stream: an event exceeded %1 bytes and was "
                                              "dropped")
                          .arg(m_max));
    }
}

} // namespace Mcp
