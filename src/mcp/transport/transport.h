#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Mcp {

// The revisions without initialize or sessions (every request carries its version in _meta),
// newest first.
inline constexpr const char *ModernProtocolVersions[] = {"2026-07-28"};

// Tool parameters that travel as HTTP headers too (2026-07-28, x-mcp-header): per tool, the
// property path in the arguments and the header's name after "Mcp-Param-".
struct ParameterHeader
{
    std::vector<std::string> path;
    std::string name;
};
using ParameterHeaders = std::unordered_map<std::string, std::vector<ParameterHeader>>;

// Which way a message went, as seen by a traffic tap.
enum class TrafficDirection { Sent, Received };

// Moves JSON-RPC messages to and from one MCP server and nothing else: no request table and
// no protocol state beyond what the wire itself needs (an HTTP session id). Concrete
// transports: StdioTransport (a child process), HttpTransport (Streamable HTTP) and
// SseTransport (the legacy HTTP+SSE). The Client and the Manager speak to this interface
// only. Owned by the Client that speaks through it.
class Transport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Begins connecting; emits started() or closed(reason). Called once.
    virtual void start() = 0;
    // Sends one serialized message (no trailing newline). Dropped silently after closed().
    virtual void send(std::string message) = 0;
    // Orderly shutdown; closed() follows (possibly after the staged timers run out).
    virtual void close() = 0;
    virtual bool isOpen() const = 0;
    // True once closed() has been emitted.
    virtual bool isFinished() const = 0;
    // The protocol version the session negotiated (HTTP sends it as MCP-Protocol-Version on
    // every later request). Stdio needs nothing.
    virtual void setProtocolVersion(const std::string &version) { Q_UNUSED(version) }
    // Whether tool parameters marked x-mcp-header go out as headers (HTTP in 2026-07-28).
    // Such a transport must never call a tool whose declarations are invalid: the Client
    // leaves those out of its tool list.
    virtual bool sendsParameterHeaders() const { return false; }
    virtual void setParameterHeaders(std::shared_ptr<const ParameterHeaders> headers)
    {
        Q_UNUSED(headers)
    }
    // One line for the user: what this transport talks to ("node server.js", a URL).
    virtual QString describe() const = 0;
    // The session the server assigned (HTTP's Mcp-Session-Id), empty where there is none.
    virtual QString sessionId() const { return QString(); }

    // Where a request's failure that is the transport's own goes (an HTTP 500 on one POST, a
    // stream that ended before the response): that request fails, the connection stays.
    using FailureHandler = std::function<void(const Json &id, const RpcError &error)>;
    void setFailureHandler(FailureHandler handler) { m_failureHandler = std::move(handler); }

    // Where received messages go: one consumer (the Client), which may move from them, so a
    // 5 MB tools/list result is never copied. A handler rather than a signal for that reason.
    using MessageHandler = std::function<void(Json &&message)>;
    void setMessageHandler(MessageHandler handler) { m_messageHandler = std::move(handler); }

    // An optional observer of the raw traffic (the protocol log): every message sent, as
    // serialized, and every line received, before it is parsed. The text is only valid during
    // the call; the tap copies what it keeps. Without a tap the cost is one test per message.
    // It must not send, close or set another tap from inside the call.
    using TrafficTap = std::function<void(TrafficDirection direction, std::string_view text)>;
    void setTrafficTap(TrafficTap tap) { m_trafficTap = std::move(tap); }
    bool hasTrafficTap() const { return bool(m_trafficTap); }

signals:
    void started();
    // A message over the transport's size cap was dropped. `id` is the JSON-RPC id read from
    // its first or last bytes, or null when it could not be told.
    void messageTooLarge(qint64 bytes, const Mcp::Json &id);
    // Something worth a line in the server's log that does not end the connection.
    void warning(const QString &text);
    // The connection is over. `reason` is empty for an orderly close we asked for.
    void closed(const QString &reason);
    // The server wants credentials (HTTP 401, or 403 with insufficient_scope): `challenge` is
    // its WWW-Authenticate header. The request that met it has failed with
    // ErrorCode::AuthenticationRequired. Sign-in plugs in here.
    void authorizationRequired(const QString &challenge);
    // A line about the transport's own doings, for the protocol log: an HTTP request and the
    // status it got ("POST → 200 text/event-stream (tools/call)"). Header values are never in
    // it. Emitted only while a traffic tap is set, so it costs nothing otherwise.
    void note(const QString &text);
    // The server forgot the session (HTTP 404 on a session) and a new one was set up in its
    // place, without the Client's help: requests were retried once, nothing was lost. Not a
    // crash: the Manager's restart budget does not count it.
    void sessionRenewed();

protected:
    void deliver(Json &&message)
    {
        if (m_messageHandler)
            m_messageHandler(std::move(message));
    }
    // closed(reason) from the event loop, never from inside the call that decided it.
    void closeLater(const QString &reason)
    {
        QMetaObject::invokeMethod(
                this, [this, reason] { emit closed(reason); }, Qt::QueuedConnection);
    }
    void failRequest(const Json &id, RpcError error)
    {
        error.local = true;
        if (m_failureHandler)
            m_failureHandler(id, error);
    }
    void tap(TrafficDirection direction, std::string_view text)
    {
        if (m_trafficTap)
            m_trafficTap(direction, text);
    }

private:
    MessageHandler m_messageHandler;
    FailureHandler m_failureHandler;
    TrafficTap m_trafficTap;
};

// Reads the "id" of a JSON-RPC message from a sample of its first and last bytes, as the
// common serializers write it (first member, or last member). Null if not found.
Json guessMessageId(std::string_view head, std::string_view tail);

} // namespace Mcp
