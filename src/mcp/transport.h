#pragma once

#include "jsonrpc.h"

#include <QObject>
#include <QString>

#include <functional>
#include <string_view>

namespace Mcp {

// Which way a message went, as seen by a traffic tap.
enum class TrafficDirection { Sent, Received };

// Moves JSON-RPC messages to and from one MCP server and nothing else: no session state, no
// request table (that is the Client's). Concrete transports: StdioTransport (a child
// process) and, later, Streamable HTTP. Owned by the Client that speaks through it.
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
    void stderrLine(const QString &line);

protected:
    void deliver(Json &&message)
    {
        if (m_messageHandler)
            m_messageHandler(std::move(message));
    }
    void tap(TrafficDirection direction, std::string_view text)
    {
        if (m_trafficTap)
            m_trafficTap(direction, text);
    }

private:
    MessageHandler m_messageHandler;
    TrafficTap m_trafficTap;
};

// Reads the "id" of a JSON-RPC message from a sample of its first and last bytes, as the
// common serializers write it (first member, or last member). Null if not found.
Json guessMessageId(std::string_view head, std::string_view tail);

} // namespace Mcp
