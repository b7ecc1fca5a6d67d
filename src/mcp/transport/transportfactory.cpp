#include "transportfactory.h"

#include "httptransport.h"
#include "ssetransport.h"
#include "stdiotransport.h"

namespace Mcp {

Transport *createTransport(const ServerConfig &config, const QString &workspaceDir,
                           const TransportSettings &settings)
{
    switch (config.type) {
    case TransportType::Stdio: {
        StdioOptions stdio;
        stdio.program = config.command;
        stdio.arguments = config.args;
        stdio.workingDirectory = workspaceDir;
        stdio.environment = config.env;
        stdio.inheritEnvironment = config.inheritEnv;
        stdio.sandbox = config.sandbox;
        stdio.sandboxProgram = settings.stdio.sandboxProgram;
        stdio.shutdownStageMs = settings.stdio.shutdownStageMs;
        stdio.maxMessageBytes = settings.maxMessageBytes;
        return new StdioTransport(stdio);
    }
    case TransportType::Http:
    case TransportType::Sse: {
        HttpOptions http;
        http.serverName = config.name;
        http.url = QUrl(config.url);
        http.headers = config.headers;
        http.maxMessageBytes = settings.maxMessageBytes;
        http.closeTimeoutMs = settings.http.closeTimeoutMs;
        if (config.type == TransportType::Sse)
            return new SseTransport(http);
        if (settings.http.authorizerFor)
            http.authorizer = settings.http.authorizerFor(config);
        return new HttpTransport(http);
    }
    }
    Q_UNREACHABLE();
    return nullptr;
}

} // namespace Mcp
