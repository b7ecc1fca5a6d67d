#pragma once

#include <mcp/transport/transport.h>

#include <QTimer>

#include <functional>
#include <vector>

// A Transport for unit tests: records what the client sends and lets the test (or an
// `onSend` hook) answer. No process, no socket.
class ScriptedTransport : public Mcp::Transport
{
    Q_OBJECT
public:
    std::vector<Mcp::Json> sent;
    std::function<void(const Mcp::Json &)> onSend;
    bool open = false;
    bool finished = false;
    int closeCalls = 0;

    void start() override
    {
        QTimer::singleShot(0, this, [this] {
            open = true;
            emit started();
        });
    }
    void send(std::string message) override
    {
        if (!open)
            return;
        sent.push_back(Mcp::Json::parse(message));
        if (onSend)
            onSend(sent.back());
    }
    void close() override
    {
        ++closeCalls;
        if (finished || !open)
            return;
        open = false;
        QTimer::singleShot(0, this, [this] {
            finished = true;
            emit closed(QString());
        });
    }
    bool isOpen() const override { return open; }
    bool isFinished() const override { return finished; }
    QString describe() const override { return QStringLiteral("scripted"); }
    void setProtocolVersion(const std::string &version) override { protocolVersion = version; }
    std::string protocolVersion;

    void receive(Mcp::Json message) { deliver(std::move(message)); }
    void die(const QString &reason)
    {
        open = false;
        finished = true;
        emit closed(reason);
    }

    // Sent messages with this method, in order.
    std::vector<Mcp::Json> sentWith(const std::string &method) const
    {
        std::vector<Mcp::Json> out;
        for (const auto &m : sent) {
            if (m.value("method", "") == method)
                out.push_back(m);
        }
        return out;
    }
    void reply(const Mcp::Json &request, const Mcp::Json &result)
    {
        receive({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", result}});
    }
    // What HttpTransport reports when a modern-era answer stream breaks off.
    void breakStream(const Mcp::Json &request)
    {
        failRequest(request["id"],
                    Mcp::RpcError{Mcp::ErrorCode::StreamBroken,
                                  "the stream ended before the response", nullptr, true});
    }
};
