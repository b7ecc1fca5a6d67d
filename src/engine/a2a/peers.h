#pragma once

#include "client.h"

#include <mcp/config/config.h>

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// The agents the user (or a workspace) names: `a2a.json` in the user's config folder and
// `.a2a.json` in the workspace, both {"agents": {"NAME": {"url": "...", "headers": {...},
// "timeout": 300}}}. Read like the MCP configuration: errors at their line and column, `${VAR}`
// expanded in the URL and the headers, a name in both files taken from the user's, and a
// workspace's agent usable only once the user trusts it (Engine::TrustStore, "agents").
namespace Engine::A2A {

struct Peer
{
    QString name;
    QUrl url;
    QMap<QString, QString> headers; // expanded: credentials
    int timeoutMs = DefaultTimeoutMs;
    QString description;
    Mcp::ConfigOrigin origin = Mcp::ConfigOrigin::User;
    QString sourceFile;
    int line = 0;
    nlohmann::json definition; // as written (what trust is keyed by)
    // Non-empty: the peer cannot be used, and why (a variable is not set).
    QString error;
    bool untrusted = false;        // a workspace's, not trusted in its present form
    QStringList substitutedValues; // the variables' values put into it: secrets

    static constexpr int DefaultTimeoutMs = 300 * 1000;
    Endpoint endpoint() const;
};

struct Peers
{
    QList<Peer> peers; // sorted by name
    QList<Mcp::ConfigError> errors;
    const Peer *find(const QString &name) const;
    QStringList names() const;
    // Every value a variable put into a peer (header tokens): kept out of logs and the model.
    QStringList secrets() const;
};

// Reads one file's text; `origin` is stamped on every peer. A workspace's agent whose url or
// headers read one of `privateVariables` is refused with an error (a cloned repository must
// not route your keys to its own agent).
Peers parsePeers(const QByteArray &text, const QString &fileName, const QProcessEnvironment &env,
                 Mcp::ConfigOrigin origin, const QStringList &privateVariables = {});
// A missing file is no peers and no error.
Peers loadPeersFile(const QString &path, const QProcessEnvironment &env, Mcp::ConfigOrigin origin,
                    const QStringList &privateVariables = {});
// QStandardPaths::GenericConfigLocation + "/switchboard/a2a.json".
QString userPeersPath();
// The user's file and the workspace's `.a2a.json` (origin Workspace), merged: a name in both
// is the user's, and the workspace's definition gets an error. The workspace's agents may not
// read the provider keys nor the user's "secretVariables" (their mcp.json).
Peers loadPeers(const QString &workspaceDir, const QProcessEnvironment &env);

} // namespace Engine::A2A
