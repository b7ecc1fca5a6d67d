#pragma once

#include <engine/truststore.h>
#include <mcp/config.h>
#include <ui/mainwindow.h>

#include <QDir>
#include <QProcessEnvironment>
#include <QString>

// Options for a MainWindow under test: the workspace, and everything the window would
// otherwise keep in the user's own folders (conversations, settings, audit log, keychain
// entries) under `dataDir` (and the trust decisions in `dataDir`/trust.json), so a test never
// reads or changes them.
inline Ui::MainWindowOptions testWindowOptions(const QString &workspace, const QString &dataDir,
                                               const QString &conversations
                                               = QStringLiteral("conversations"))
{
    Ui::MainWindowOptions options;
    options.workspace = QDir(workspace).canonicalPath();
    options.conversationFolder = QDir(dataDir).filePath(conversations);
    options.settingsFile = QDir(dataDir).filePath(QStringLiteral("settings.ini"));
    options.auditLogFile = QDir(dataDir).filePath(QStringLiteral("audit.jsonl"));
    options.keychainService = QStringLiteral("switchboard-test");
    options.trustFile = QDir(dataDir).filePath(QStringLiteral("trust.json"));
    return options;
}

// Trusts every server of the workspace's .mcp.json, as the user would in the trust banner,
// so that a test about something else finds its servers running. False if nothing could be
// written.
inline bool trustWorkspace(const Ui::MainWindowOptions &options)
{
    const Mcp::McpConfig config = Mcp::ConfigLoader::load(options.workspace, options.configFile,
                                                          QProcessEnvironment::systemEnvironment());
    Engine::TrustStore store(options.trustFile);
    if (!store.load())
        return false;
    for (const Mcp::ServerConfig &server : config.servers) {
        if (Engine::TrustStore::needsTrust(server) && !store.trust(options.workspace, server))
            return false;
    }
    return true;
}
