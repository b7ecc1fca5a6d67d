#pragma once

#include "httptransport.h"
#include "transport.h"

#include <mcp/wire/sseparser.h>

#include <QPointer>
#include <QUrl>

class QNetworkReply;

namespace Mcp {

// The legacy HTTP+SSE transport (MCP 2024-11-05), for `"type": "sse"` servers and for the
// fallback when a Streamable HTTP server turns out to be an old one: a GET opens the event
// stream, whose first event (`endpoint`) names the URL to POST messages to; every answer
// arrives on that stream. The endpoint must have the stream's origin (a server cannot send our
// messages, and the headers with them, elsewhere). The stream ending ends the connection. An
// HTTP failure of one POST fails that request; 401/403 as on Streamable HTTP.
class SseTransport : public Transport
{
    Q_OBJECT
public:
    explicit SseTransport(HttpOptions options, QObject *parent = nullptr);
    ~SseTransport() override;

    void start() override;
    void send(std::string message) override;
    void close() override;
    bool isOpen() const override { return m_state == State::Open; }
    bool isFinished() const override { return m_state == State::Closed; }
    QString describe() const override;
    // Where messages go, once the server named it.
    QUrl endpoint() const { return m_endpoint; }

private:
    enum class State { Idle, Connecting, Open, Closing, Closed };

    void onStreamData();
    void onStreamFinished();
    void onEvent(const SseEvent &event);
    void finishClosed(const QString &reason);
    QString where() const;

    HttpOptions m_options;
    State m_state = State::Idle;
    QPointer<QNetworkReply> m_stream;
    SseParser m_sse;
    QUrl m_endpoint;
    QList<QPointer<QNetworkReply>> m_posts;
    bool m_streamNoted = false;
};

} // namespace Mcp
