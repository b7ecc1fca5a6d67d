#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

namespace Mcp {

// One dispatched server-sent event.
struct SseEvent
{
    QByteArray id;              // the last event ID in effect when this event was dispatched
    QByteArray event;           // the "event" field; empty when absent (the spec's "message")
    QByteArray data;            // "data" lines joined by "\n" (no trailing newline)
    std::optional<int> retryMs; // a valid "retry" field inside this event, if any
};

// Incremental text/event-stream parser (WHATWG HTML, "Server-sent events", parsing rules):
// bytes arrive in arbitrary chunks, lines end in CRLF, LF or CR (a CR ending one chunk and
// an LF starting the next count as one line end), a UTF-8 BOM at the very start is skipped,
// comment lines (":") are ignored, unknown fields are ignored. An event larger than a cap is
// dropped without being stored and reported through the error sink. Owned by whoever reads
// the stream (a model provider's call, the Streamable HTTP transport); buffers are per
// instance. Not a QObject: sinks are plain callbacks, called from inside feed().
class SseParser
{
public:
    // 16 MiB: far above any model delta or MCP message seen in practice, yet bounded so a
    // server that never sends a blank line cannot exhaust memory.
    static constexpr qsizetype DefaultMaxEventBytes = 16 * 1024 * 1024;

    using EventSink = std::function<void(const SseEvent &)>;
    using ErrorSink = std::function<void(const QString &message)>;

    explicit SseParser(qsizetype maxEventBytes = DefaultMaxEventBytes);

    void setEventSink(EventSink sink) { m_onEvent = std::move(sink); }
    void setErrorSink(ErrorSink sink) { m_onError = std::move(sink); }
    void setMaxEventBytes(qsizetype bytes) { m_max = bytes; }
    qsizetype maxEventBytes() const { return m_max; }

    // Feeds a chunk; dispatches every completed event. The sinks must not destroy the parser.
    void feed(QByteArrayView chunk);
    // Starts a new stream (a reconnection): drops partial lines and events and expects a BOM
    // again, but keeps lastEventId() and retryMs(), which outlive one connection by design
    // (they are what a reconnection sends and waits).
    void reset();
    // Forgets everything, including the last event ID and retry time.
    void clear();

    // The last event ID buffer: what a reconnection sends as Last-Event-ID.
    QByteArray lastEventId() const { return m_lastEventId; }
    // The most recent valid "retry" field, if any.
    std::optional<int> retryMs() const { return m_retryMs; }

private:
    void appendToLine(const char *data, qsizetype size);
    void endLine();
    void processLine(QByteArrayView line);
    void dispatch();
    void startDiscarding();

    EventSink m_onEvent;
    ErrorSink m_onError;
    qsizetype m_max;

    QByteArray m_line;
    QByteArray m_data;
    QByteArray m_eventType;
    QByteArray m_idBuffer;
    QByteArray m_lastEventId;
    std::optional<int> m_retryMs;
    std::optional<int> m_eventRetryMs;
    int m_bomMatched = 0; // BOM bytes consumed at stream start
    bool m_bomDone = false;
    bool m_pendingCr = false;  // the previous chunk ended in CR: skip a leading LF
    bool m_discarding = false; // inside an oversize event: skip until a blank line
    bool m_discardLineHasBytes = false;
};

} // namespace Mcp
