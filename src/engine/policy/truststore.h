#pragma once

#include <mcp/config/config.h>

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace Engine {

// Which of a workspace's servers the user has agreed to run. A workspace `.mcp.json` may come
// from a cloned repository, so its servers start only once trusted: per workspace folder
// (canonical path) and per server, keyed by a hash of everything in the server's definition
// that decides what runs and what runs without asking (command, args, env, url, headers,
// sandbox, risk, trust, autoApprove, tools, ... — every member but "disabled", "timeout" and
// "startupTimeout"). A changed definition is untrusted again. Kept in the user's data folder
// (`trust.json`, 0600), never in the workspace. The user's own file and a `--config` file are
// trusted without asking. Owned by whoever loads the configuration (window, CLI); cheap to
// reload.
class TrustStore
{
    Q_DECLARE_TR_FUNCTIONS(Engine::TrustStore)
public:
    /// `path` empty: defaultPath().
    explicit TrustStore(QString path = QString());

    /// QStandardPaths::AppDataLocation + "/trust.json".
    static QString defaultPath();
    QString path() const { return m_path; }

    /// Reads the file; a missing file is no trust at all. False (and no trust) with a message
    /// naming the file when it is unreadable or not what this class writes.
    bool load(QString *error = nullptr);

    /// Whether `server` needs the user's yes at all (it came from a workspace file).
    static bool needsTrust(const Mcp::ServerConfig &server);
    /// SHA-256 (hex) of the server's definition without "disabled", "timeout" and
    /// "startupTimeout", its keys sorted: the same text gives the same hash.
    static QString definitionHash(const Mcp::ServerConfig &server);

    bool isTrusted(const QString &workspace, const Mcp::ServerConfig &server) const;
    /// Records (or drops) trust and saves the file at once. False with a message on a write
    /// error (the decision then holds for this process only).
    bool trust(const QString &workspace, const Mcp::ServerConfig &server, QString *error = nullptr);
    bool revoke(const QString &workspace, const QString &serverName, QString *error = nullptr);

    /// A workspace's A2A agent (`.a2a.json`) is trusted the same way, under "agents", keyed by a
    /// hash of its definition without "timeout" and "description" (its URL and headers decide
    /// where tasks and credentials go).
    static QString agentHash(const nlohmann::json &definition);
    bool isAgentTrusted(const QString &workspace, const QString &name,
                        const nlohmann::json &definition) const;
    bool trustAgent(const QString &workspace, const QString &name, const nlohmann::json &definition,
                    QString *error = nullptr);
    bool revokeAgent(const QString &workspace, const QString &name, QString *error = nullptr);
    /// Marks every workspace server that is not trusted in its present form as `untrusted`;
    /// returns their names.
    QStringList apply(Mcp::McpConfig &config, const QString &workspace) const;

    /// How the server runs, as one line for a person to check: the command line (variables
    /// not expanded, arguments quoted where needed) or the URL.
    static QString commandLine(const Mcp::ServerConfig &server);
    /// What else the definition asks for beyond running, one sentence each (a server that
    /// approves its own tools, lowers their risk, passes environment variables, ...).
    static QStringList requests(const Mcp::ServerConfig &server);

private:
    static QString workspaceKey(const QString &workspace);
    template<size_t N>
    static QString hashOf(const nlohmann::json &definition, const char *const (&ignored)[N]);
    // The hash recorded for `name` in a section ("servers", "agents") of the workspace's entry.
    QString recordedHash(const QString &workspace, const char *section, const QString &name) const;
    bool record(const QString &workspace, const char *section, const QString &name,
                const QString &hash, QString *error);
    bool forget(const QString &workspace, const char *section, const QString &name, QString *error);
    bool save(QString *error);

    QString m_path;
    nlohmann::json m_data; // {"version": 1, "workspaces": {PATH: {"servers": {NAME: HASH},
                           // "agents": {NAME: HASH}}}}
};

} // namespace Engine
