#pragma once

#include "httpsupport.h"
#include "requestauthorizer.h"
#include "transport.h"

#include <mcp/wire/ndjsonframer.h>
#include <mcp/wire/sseparser.h>

#include <QByteArray>
#include <QMap>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <deque>
#include <memory>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace Mcp {

class SseTransport;

// The QNetworkAccessManager of the calling thread, created on first use and kept for the
// thread's life: every HTTP transport (and sign-in) of a thread shares its connections, its
// HTTP/2 sessions and its proxy settings (the system's). Never used across threads.
QNetworkAccessManager *threadNetworkAccess();

struct HttpOptions
{
    QString serverName; // named in every failure the user may read
    QUrl url;           // the MCP endpoint (http or https)
    // From the config, `${VAR}` already expanded; values are secrets as far as logs go.
    QMap<QString, QString> headers;
    std::int64_t maxMessageBytes = NdjsonFramer::DefaultMaxMessageBytes;
    // A stream that ends before its response is resumed (GET with Last-Event-ID) at most this
    // many times in a row; the server's `retry` field, else this, is the wait before each.
    int maxResumeAttempts = 5;
    int defaultRetryMs = 1000;
    // close(): how long the DELETE that ends the session may take before we stop waiting.
    int closeTimeoutMs = 2000;
    // Sign-in (OAuth): adds credentials to every request, and is asked for new ones when the
    // server answers 401 or 403; the request is then sent again (MaxAuthAttempts at most).
    // None: a 401 or 403 fails the request.
    std::shared_ptr<RequestAuthorizer> authorizer;
};

// Streamable HTTP (MCP 2025-11-25 "Transports"): every message is a POST to one endpoint
// that answers 202 (a notification or a response), JSON, or an SSE stream carrying the
// response and whatever the server sends first (requests, notifications). Keeps the
// Mcp-Session-Id the server assigns and sends it with MCP-Protocol-Version on every later
// request; opens the optional GET stream for server-initiated messages (405 is fine); resumes
// a dropped stream by GET with Last-Event-ID after the server's `retry`; sets up a new session
// by itself when the server forgets the old one (404), retrying the request once; DELETEs
// the session on close. An HTTP failure fails the one request it belongs to (the session
// stays); 401/403 go to the authorizer when there is one (the request is sent again with new
// credentials), else fail it as AuthenticationRequired and emit authorizationRequired(). An old
// server that refuses initialize with 400/404/405 is tried as HTTP+SSE (SseTransport), as the
// spec's backward compatibility says. TLS errors are never ignored. Header values never reach
// a log or an error message.
class HttpTransport : public Transport
{
    Q_OBJECT
public:
    explicit HttpTransport(HttpOptions options, QObject *parent = nullptr);
    ~HttpTransport() override;

    void start() override;
    void send(std::string message) override;
    void close() override;
    bool isOpen() const override { return m_state == State::Open; }
    bool isFinished() const override { return m_state == State::Closed; }
    void setProtocolVersion(const std::string &version) override;
    bool sendsParameterHeaders() const override { return true; }
    void setParameterHeaders(std::shared_ptr<const ParameterHeaders> headers) override
    {
        m_parameterHeaders = std::move(headers);
    }
    QString describe() const override;
    // True once an old server's refusal of initialize made this fall back to HTTP+SSE.
    bool isLegacy() const { return m_legacyStarted; }

    QString sessionId() const override { return QString::fromLatin1(m_sessionId); }
    // The server's own event stream (the GET) is open: what it sends unasked arrives.
    bool isServerStreamOpen() const { return m_serverStreamOpen; }

private:
    enum class State { Idle, Open, Closing, Closed };

    using Outgoing = Http::Outgoing;

    // One POST (or the GET that resumes its stream) and what came back so far.
    struct Exchange
    {
        Outgoing message;
        QPointer<QNetworkReply> reply;
        SseParser sse;
        QByteArray body; // a JSON answer, collected until the end
        bool headersSeen = false;
        bool isSse = false;
        bool answered = false; // the response to message.id arrived
        bool internal = false; // our own initialize for a new session: not delivered
        bool ended = false;    // taken off the list; late signals and events are ignored
        int resumeAttempts = 0;
        std::unique_ptr<QTimer> resumeTimer;
    };
    // Shared: a handler that runs inside an exchange's SSE parser may end the exchange.
    using ExchangeIt = std::shared_ptr<Exchange>;

    static constexpr int MaxAuthAttempts = 3;

    QNetworkRequest makeRequest(const QByteArray &accept, const QByteArray &method) const;
    void post(Outgoing message, bool internal = false);
    void authorizeAndResend(ExchangeIt exchange, const RequestAuthorizer::Refusal &refusal);
    void attach(ExchangeIt exchange);
    void onReadyRead(ExchangeIt exchange);
    void onFinished(ExchangeIt exchange);
    bool readHeaders(ExchangeIt exchange);
    void onSseEvent(ExchangeIt exchange, const SseEvent &event);
    void receive(ExchangeIt exchange, std::string_view text);
    void resume(ExchangeIt exchange);
    void endExchange(ExchangeIt exchange);
    void failExchange(ExchangeIt exchange, int code, const QString &message);
    void renewSession(ExchangeIt exchange);
    void fallBackToLegacy(const Json &initializeId, const QString &failure);
    void onRenewed(bool ok, const QString &why);
    void openServerStream();
    void onServerStreamFinished();
    void abortAll();
    void proceedClosing();
    void finishClosed(const QString &reason);
    void failAndClose(const QString &reason);
    QString where() const;

    HttpOptions m_options;
    State m_state = State::Idle;
    std::vector<ExchangeIt> m_exchanges;
    QByteArray m_sessionId;
    QByteArray m_protocolVersion;
    bool m_modern = false; // the version is of the 2026-07-28 era: no session, headers
    std::shared_ptr<const ParameterHeaders> m_parameterHeaders;
    std::string m_initializeText; // the Client's initialize, replayed for a new session
    bool m_initialized = false;   // notifications/initialized went out
    // A new session is being set up: messages wait here, then go out in order.
    bool m_renewing = false;
    std::deque<Outgoing> m_held;
    // The optional GET stream for server-initiated messages.
    QPointer<QNetworkReply> m_serverStream;
    SseParser m_serverSse;
    bool m_serverStreamRefused = false;
    bool m_serverStreamOpen = false;
    int m_serverStreamAttempts = 0;
    QTimer m_serverStreamTimer;
    QPointer<QNetworkReply> m_delete;
    // An old server: the legacy transport this one hands every message to.
    SseTransport *m_legacy = nullptr;
    bool m_legacyStarted = false;
    QTimer m_closeTimer;
};

} // namespace Mcp
