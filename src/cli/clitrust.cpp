#include "cli.h"
#include "cliinternal.h"

#include <engine/approval/auditlog.h>
#include <engine/policy/truststore.h>
#include <engine/secrets/processenvironment.h>

#include <QDir>
#include <QFileInfo>

using namespace Mcp;

namespace Cli {

using namespace Internal;

int Application::cmdTrust()
{
    bool revoke = false;
    QStringList names;
    for (const QString &arg : std::as_const(m_args)) {
        if (arg == QLatin1String("--revoke"))
            revoke = true;
        else if (arg.startsWith(QLatin1String("--")))
            return usageError(QStringLiteral("trust: unknown option '%1'").arg(arg));
        else
            names << arg;
    }
    if (!m_configFile.isEmpty())
        return usageError(QStringLiteral("trust: a --config file is yours and needs no trust; "
                                         "trust applies to the workspace's .mcp.json"));
    if (!loadConfig())
        return InvalidConfig;
    // A damaged file was reported by loadConfig(); trusting now would overwrite what it held.
    if (!m_session->trustError().isEmpty() && !revoke)
        return InvalidConfig;
    const McpConfig &config = m_session->config();
    Engine::TrustStore &trust = m_session->trustStore();
    QString error;

    QList<const ServerConfig *> chosen;
    QList<const Engine::A2A::Peer *> agents;
    const Engine::A2A::Peers &peers = m_session->peers();
    for (const QString &name : std::as_const(names)) {
        const ServerConfig *server = config.find(name);
        const Engine::A2A::Peer *peer = peers.find(name);
        if (!server && !peer) {
            err(QStringLiteral("no server named '%1' in %2/.mcp.json, and no agent of that name "
                               "in %2/.a2a.json")
                        .arg(name, m_workspace));
            return Usage;
        }
        const bool serverNeedsTrust = server && Engine::TrustStore::needsTrust(*server);
        const bool agentNeedsTrust = peer && peer->origin == ConfigOrigin::Workspace;
        if (!serverNeedsTrust && !agentNeedsTrust) {
            err(QStringLiteral("'%1' is defined in %2, your own configuration: it needs no "
                               "trust")
                        .arg(name, server ? server->sourceFile : peer->sourceFile));
            return Usage;
        }
        if (serverNeedsTrust)
            chosen << server;
        if (agentNeedsTrust)
            agents << peer;
    }
    if (names.isEmpty()) {
        for (const ServerConfig &server : config.servers) {
            if (Engine::TrustStore::needsTrust(server))
                chosen << &server;
        }
        for (const Engine::A2A::Peer &peer : peers.peers) {
            if (peer.origin == ConfigOrigin::Workspace)
                agents << &peer;
        }
        if (chosen.isEmpty() && agents.isEmpty()) {
            err(QStringLiteral("%1/.mcp.json defines no servers and %1/.a2a.json no agents: "
                               "nothing to trust")
                        .arg(m_workspace));
            return Ok;
        }
    }
    for (const ServerConfig *server : std::as_const(chosen)) {
        const bool ok = revoke ? trust.revoke(m_workspace, server->name, &error)
                               : trust.trust(m_workspace, *server, &error);
        if (!ok) {
            err(error);
            return InvalidConfig;
        }
        if (revoke) {
            out(QStringLiteral("no longer trusted: %1\n").arg(server->name));
            continue;
        }
        out(QStringLiteral("trusted %1: %2\n")
                    .arg(server->name, Engine::TrustStore::commandLine(*server)));
        for (const QString &request : Engine::TrustStore::requests(*server))
            out(QStringLiteral("  %1\n").arg(request));
    }
    for (const Engine::A2A::Peer *peer : std::as_const(agents)) {
        const bool ok
                = revoke ? trust.revokeAgent(m_workspace, peer->name, &error)
                         : trust.trustAgent(m_workspace, peer->name, peer->definition, &error);
        if (!ok) {
            err(error);
            return InvalidConfig;
        }
        if (revoke) {
            out(QStringLiteral("no longer trusted: agent %1\n").arg(peer->name));
            continue;
        }
        const Json &definition = peer->definition;
        out(QStringLiteral("trusted agent %1: %2\n")
                    .arg(peer->name,
                         QString::fromStdString(definition.value("url", std::string()))));
        if (definition.contains("headers") && definition["headers"].is_object()
            && !definition["headers"].empty()) {
            QStringList headerNames;
            for (const auto &[key, value] : definition["headers"].items())
                headerNames << QString::fromStdString(key);
            out(QStringLiteral("  sends the headers %1 with every request\n")
                        .arg(headerNames.join(QLatin1String(", "))));
        }
    }
    return Ok;
}

int Application::cmdAudit()
{
    int tail = 20;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        if (arg == QLatin1String("--json")) {
            m_json = true;
        } else if (takeValue(m_args, i, QStringLiteral("--tail"), &value)) {
            bool ok = false;
            tail = value.toInt(&ok);
            if (!ok || tail < 1)
                return usageError(tr("--tail needs a positive whole number"));
        } else {
            return usageError(tr("audit: unexpected argument '%1'").arg(arg));
        }
    }
    const QString path = Engine::AuditLog::defaultPath();
    QString error;
    const std::vector<Json> records
            = Engine::AuditLog::readRecords(path, Engine::AuditLog::DefaultReadBytes, &error);
    if (!error.isEmpty()) {
        err(tr("%1: cannot read: %2").arg(path, error));
        return ServerFailed;
    }
    const std::size_t first = records.size() > std::size_t(tail) ? records.size() - tail : 0;
    for (std::size_t i = first; i < records.size(); ++i)
        out((m_json ? jsonText(records[i], -1) : Engine::AuditLog::describe(records[i]))
            + QLatin1Char('\n'));
    if (records.empty() && !m_json)
        err(tr("the audit log %1 is empty").arg(path));
    return Ok;
}

int Application::cmdConfigCheck()
{
    if (m_args.size() > 1)
        return usageError(QStringLiteral("config check takes at most one FILE"));
    const QProcessEnvironment env = Engine::ProcessEnvironment::original();
    McpConfig config;
    QString described;
    if (m_args.size() == 1) {
        const QString file = m_args.first();
        if (!QFileInfo::exists(file)) {
            err(QStringLiteral("%1: no such file").arg(file));
            return InvalidConfig;
        }
        if (QFileInfo(file).fileName().endsWith(QLatin1String("a2a.json")))
            return checkPeers(Engine::A2A::loadPeersFile(file, env, ConfigOrigin::User), file);
        config = Engine::loadConfigFile(file, env);
        described = file;
    } else {
        config = Engine::loadConfig(m_workspace, m_configFile, env);
        described = m_configFile.isEmpty() ? QDir(m_workspace).filePath(QStringLiteral(".mcp.json"))
                                           : m_configFile;
    }
    for (const ConfigError &error : std::as_const(config.errors))
        err(error.toString());
    for (const ServerConfig &server : std::as_const(config.servers)) {
        if (!server.error.isEmpty())
            err(QStringLiteral("%1:%2:1: warning: server '%3': %4")
                        .arg(server.sourceFile)
                        .arg(server.line)
                        .arg(server.name, server.error));
    }
    if (!config.errors.isEmpty())
        return InvalidConfig;
    out(QStringLiteral("%1: ok (%2 servers)\n").arg(described).arg(config.servers.size()));
    if (m_args.isEmpty()) {
        const QString peersFile = QDir(m_workspace).filePath(QStringLiteral(".a2a.json"));
        const Engine::A2A::Peers peers = Engine::A2A::loadPeers(m_workspace, env);
        if (!peers.peers.isEmpty() || !peers.errors.isEmpty() || QFileInfo::exists(peersFile))
            return checkPeers(peers, peersFile);
    }
    return Ok;
}

int Application::checkPeers(const Engine::A2A::Peers &peers, const QString &described)
{
    for (const ConfigError &error : peers.errors)
        err(error.toString());
    for (const Engine::A2A::Peer &peer : peers.peers) {
        if (!peer.error.isEmpty())
            err(QStringLiteral("%1:%2:1: warning: %3")
                        .arg(peer.sourceFile)
                        .arg(peer.line)
                        .arg(peer.error));
    }
    if (!peers.errors.isEmpty())
        return InvalidConfig;
    out(QStringLiteral("%1: ok (%2 agents)\n").arg(described).arg(peers.peers.size()));
    return Ok;
}

int Application::cmdConfigImport()
{
    if (m_args.size() != 2)
        return usageError(QStringLiteral("config import needs KIND FILE "
                                         "(KIND: claude-desktop, vscode or cursor)"));
    const auto kind = ConfigLoader::importKindFromName(m_args.at(0));
    if (!kind)
        return usageError(
                QStringLiteral("unknown import kind '%1' (claude-desktop, vscode, cursor)")
                        .arg(m_args.at(0)));
    // The loader's reader: a FIFO or device named here is refused instead of read forever.
    ConfigLoader::FileContents contents = ConfigLoader::readFile(m_args.at(1));
    if (!contents.exists && contents.error.isEmpty())
        contents.error = tr("no such file");
    if (!contents.error.isEmpty()) {
        err(QStringLiteral("%1: %2").arg(m_args.at(1), contents.error));
        return InvalidConfig;
    }
    const auto result = Engine::importConfig(*kind, contents.bytes, m_args.at(1));
    for (const ConfigError &error : result.errors)
        err(error.toString());
    for (const QString &note : result.notes)
        err(QStringLiteral("note: %1").arg(note));
    out(QString::fromUtf8(result.text));
    if (!result.text.endsWith('\n'))
        out(QStringLiteral("\n"));
    return result.errors.isEmpty() ? Ok : InvalidConfig;
}

} // namespace Cli
