#pragma once

#include <mcp/client/client.h>

#include <QObject>
#include <QTest>

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
