#pragma once

// What the files of Mcp::Client share (internal to src/mcp/client): the client's log, the
// vocabulary of 2026-07-28 (its _meta keys and its own errors) and picking a modern version.
// The class is declared in client.h; its jobs are in client.cpp (the table of pending requests,
// timeouts, message dispatch), clienthandshake.cpp (initialize, the era probe, the _meta every
// modern request carries), clienttools.cpp (listing and calling tools), clientresend.cpp
// (requests sent again under a new id), clientsubscriptions.cpp (subscriptions/listen, watched
// resources, the log level) and clienttasks.cpp (tool calls that become tasks).

#include "client.h"

#include <QLoggingCategory>
#include <QString>

#include <string>

Q_DECLARE_LOGGING_CATEGORY(lcClient)

namespace Mcp::ClientInternal {

inline QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// The first of `offered` (an array of version strings) that is a modern version we speak, or
// empty.
std::string pickModernVersion(const Json &offered);

// The _meta keys of 2026-07-28 (basic/index).
inline constexpr const char *MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char *MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char *MetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr const char *MetaServerInfo = "io.modelcontextprotocol/serverInfo";
inline constexpr const char *MetaSubscriptionId = "io.modelcontextprotocol/subscriptionId";
inline constexpr const char *MetaLogLevel = "io.modelcontextprotocol/logLevel";
// 2026-07-28's own errors (basic/index): a header that disagrees with the
// body, a client capability the server requires, a version it does not speak (data.supported
// lists those it does).
inline constexpr int HeaderMismatch = -32020;
inline constexpr int MissingClientCapability = -32021;
inline constexpr int UnsupportedProtocolVersion = -32022;

} // namespace Mcp::ClientInternal
