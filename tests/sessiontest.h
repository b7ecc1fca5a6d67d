#pragma once

#include <engine/session.h>

#include <QDir>
#include <QFile>

#include <memory>

// A loaded Session on `workspace` with no servers and every file of the user's (trust,
// approvals, audit log) under `dataDir`, so a test never reads or changes the user's own.
inline std::unique_ptr<Engine::Session> makeTestSession(const QString &workspace,
                                                        const QString &dataDir)
{
    const QDir data(dataDir);
    const QString config = data.filePath(QStringLiteral("no-servers.json"));
    QFile file(config);
    if (!file.exists() && file.open(QIODevice::WriteOnly))
        file.write("{\"mcpServers\": {}}");
    Engine::SessionOptions options;
    options.workspace = workspace;
    options.configFile = config;
    options.trustFile = data.filePath(QStringLiteral("trust.json"));
    options.approvalsFile = data.filePath(QStringLiteral("approvals.json"));
    options.auditLogFile = data.filePath(QStringLiteral("audit.jsonl"));
    auto session = std::make_unique<Engine::Session>(options);
    session->load();
    return session;
}
