#pragma once

#include <mcp/client/client.h>

#include <QObject>
#include <QTest>
#include <QTimer>

#include <optional>

// Waits (event loop running) until the client is Ready, Failed or Closed; false when it is
// still on its way after `timeoutMs`.
inline bool settle(Mcp::Client *client, int timeoutMs = 15000)
{
    return QTest::qWaitFor(
            [client] {
                return client->state() == Mcp::Client::State::Ready
                       || client->state() == Mcp::Client::State::Failed
                       || client->state() == Mcp::Client::State::Closed;
            },
            timeoutMs);
}

// Calls an MCP tool through a connected client and waits (event loop running) for the
// result; nullopt without a client or when no answer came within `timeoutMs`.
inline std::optional<Mcp::ToolResult> callAndWait(Mcp::Client *client, const std::string &tool,
                                                  Mcp::Json args, int timeoutMs)
{
    if (!client)
        return std::nullopt;
    std::optional<Mcp::ToolResult> result;
    QObject context;
    client->callTool(tool, std::move(args), &context,
                     [&](Mcp::ToolResult r) { result = std::move(r); });
    (void)QTest::qWaitFor([&] { return result.has_value(); }, timeoutMs);
    return result;
}

// The timer with which `client` opens subscriptions/listen again after a stream broke off:
// the one child timer running for the first retry's second (ListenRetryMs). Ask right after a
// break, while it runs; the same timer serves every later retry, so a test keeps it to show
// that no retry is pending ("not asked again" without waiting for a retry that might come).
inline QTimer *listenRetryTimer(Mcp::Client *client)
{
    for (QTimer *timer : client->findChildren<QTimer *>(Qt::FindDirectChildrenOnly)) {
        if (timer->isActive() && timer->interval() == 1000)
            return timer;
    }
    return nullptr;
}
