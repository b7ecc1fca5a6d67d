#pragma once

#include "requestauthorizer.h"

#include <mcp/config/config.h>
#include <mcp/process/sandbox.h>
#include <mcp/wire/ndjsonframer.h>

#include <QString>

#include <functional>
#include <memory>

namespace Mcp {

class Transport;

// How every transport of a Manager is set up, apart from what each server's config says.
struct TransportSettings
{
    // The largest message taken from a server (a line on stdio, a JSON body or an SSE event
    // over HTTP); a bigger one is dropped with an error.
    std::int64_t maxMessageBytes = NdjsonFramer::DefaultMaxMessageBytes;

    // Child processes (StdioTransport).
    struct Stdio
    {
        int shutdownStageMs = 2000; // StdioOptions::shutdownStageMs
        // bubblewrap for servers with "sandbox": a path, or a name looked up on PATH.
        QString sandboxProgram = QString::fromLatin1(Sandbox::DefaultProgram);
    } stdio;

    // Remote servers (HttpTransport).
    struct Http
    {
        int closeTimeoutMs = 2000; // HttpOptions::closeTimeoutMs
        // Sign-in (HttpOptions::authorizer) for a Streamable HTTP server; none: a 401 fails.
        std::function<std::shared_ptr<RequestAuthorizer>(const ServerConfig &)> authorizerFor;
    } http;
};

// The transport a server's config asks for: a child process for "stdio", Streamable HTTP for
// "http" (falling back to HTTP+SSE for an old server by itself), the legacy HTTP+SSE for
// "sse". The caller owns the result.
Transport *createTransport(const ServerConfig &config, const QString &workspaceDir,
                           const TransportSettings &settings);

} // namespace Mcp
