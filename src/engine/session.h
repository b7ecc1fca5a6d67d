#pragma once

#include <engine/approval/auditlog.h>
#include <engine/approval/toolrunner.h>
#include <engine/llm/providerconfig.h>
#include <engine/policy/truststore.h>
#include <engine/secrets/processenvironment.h>
#include <engine/tools/builtintools.h>
#include <engine/tools/mcptooladapter.h>
#include <engine/tools/toolregistry.h>
#include <engine/tools/workspace.h>

#include <engine/a2a/peers.h>

#include <mcp/config/config.h>
#include <mcp/manager.h>

#include <QObject>
#include <QProcessEnvironment>
#include <QSet>

#include <memory>

namespace Engine {

class Agent;
struct AgentOptions;
class Host;
class LlmProvider;
class SecretStore;
class ServerSecrets;
class SignIn;
class SkillCatalog;
namespace Sampling {
class Sampler;
}

// Where a Session keeps its files and how it runs its servers. Empty paths: the user's data
// folder (TrustStore::defaultPath(), ApprovalStore::defaultFile(), AuditLog::defaultPath(),
// Session::defaultEraCacheFile()).
struct SessionOptions
{
    QString workspace;  // the folder the agent works in (and whose .mcp.json is read)
    QString configFile; // --config: read instead of the workspace's .mcp.json
    QString trustFile;
    QString approvalsFile;
    QString auditLogFile;
    QString eraCacheFile;        // the era each server spoke (Mcp::EraCache)
    QString serverSecretsFile;   // the names of the servers' keychain secrets (ServerSecrets)
    Mcp::ManagerOptions manager; // workspaceDir and eraCacheFile are set from the above
    BuiltinToolsOptions builtins;
    // The face (not owned; must outlive the Session). With one, the Session keeps secrets in
    // the keychain, signs in to remote servers, and answers the servers' sampling and
    // elicitation requests through it; without one (tests, tools), a server that asks for
    // a sign-in fails and no server request but roots/list is answered.
    Host *host = nullptr;
    QString keychainService; // empty: SecretStore::DefaultService
    QProcessEnvironment environment = ProcessEnvironment::original();
};

// One workspace's engine, the same for the window and the CLI: loads the configuration
// (user's file + workspace's, the engine's policy keys checked) with the user's trust
// decisions applied, and owns what runs it: the Manager, the tool registry with the built-in
// tools, the adapter that keeps the servers' tools registered, the ToolRunner with the
// user's always-allow store, the audit log, the keychain and sign-in, and the answerers of the
// servers' requests. The face implements Host, supplies the approval gate (setGate()) and
// the model, asks it for agents (createAgent()), and owns the Session.
class Session : public QObject
{
    Q_OBJECT
public:
    explicit Session(SessionOptions options, QObject *parent = nullptr);
    static QString defaultEraCacheFile();
    ~Session() override;

    // Reads the trust file and the configuration. Problems are in configErrors() and
    // trustError(); servers with problems are left out, the rest can start.
    void load();
    // The configuration as the files say now (not applied): what apply() takes after a file
    // was changed outside the config editor (a server installed).
    Mcp::McpConfig readConfig() const;
    // The configuration as loaded or last applied, untrusted servers marked.
    const Mcp::McpConfig &config() const { return m_config; }
    const QList<Mcp::ConfigError> &configErrors() const { return m_config.errors; }
    // Non-empty: the trust file could not be read (nothing is trusted; trust() would
    // overwrite what it held).
    const QString &trustError() const { return m_trustError; }

    // Starts the servers of config(); only those named when `only` is not empty.
    void start(const QStringList &only = {});
    // Runs `config` instead (the config editor's Apply): trust applied, only the servers
    // whose settings changed restarted; per-server timeouts and known secrets follow.
    Mcp::ReloadPlan apply(const Mcp::McpConfig &config);
    // Workspace servers waiting for the user's yes.
    QList<Mcp::ServerConfig> untrustedServers() const;
    // The user trusts these servers (as they are defined now): recorded, then started. A
    // decision that cannot be saved holds for this session only; the messages say why.
    QStringList trust(const QStringList &names);

    // The agents of the user's a2a.json and the workspace's .a2a.json (read by load()), a
    // workspace's marked untrusted until the user trusts it as it is defined now.
    const A2A::Peers &peers() const { return m_peers; }
    // The user trusts these workspace agents: recorded (held for this session when it cannot
    // be saved; the messages say why).
    QStringList trustAgents(const QStringList &names);
    A2A::Client *a2aClient() const { return m_a2a; }

    // Who runs an agent: a person at the face (tools ask the gate), or an inbound A2A task
    // (nobody at the keyboard: only read tools run).
    enum class AgentUse { Interactive, Inbound };
    // An agent over this session's tools, with the servers' instructions, talking to
    // `provider` (not owned; must outlive the agent).
    Agent *createAgent(LlmProvider *provider, AgentOptions options, AgentUse use,
                       QObject *parent = nullptr);

    // The model sub-agents (spawn_subagent) talk to; none: they cannot run.
    void setModel(std::optional<ProviderConfig> model) { m_model = std::move(model); }
    const std::optional<ProviderConfig> &model() const { return m_model; }
    // The connected servers' own instructions for the model, each marked as the server's
    // words and cut to MaxInstructionChars; a server whose "instructions" is false is left
    // out. Empty when there are none.
    QString serverInstructions() const;
    // Servers whose instructions the person turned off (the window's choice, beside the
    // configuration's "instructions": false).
    void setInstructionsOff(QSet<QString> servers) { m_instructionsOff = std::move(servers); }
    const QSet<QString> &instructionsOff() const { return m_instructionsOff; }
    static constexpr int MaxInstructionChars = 4000;

    // The server was enabled or disabled in the Manager directly (the window's switch) and
    // the file says so now: the configuration follows, so that a later apply() agrees.
    void setServerDisabled(const QString &name, bool disabled);

    // The approval gate of every tool call (the window's dialog, the terminal's prompt).
    void setGate(ApprovalGate *gate) { m_runner->setGate(gate); }
    // Secrets besides the environment's and the configuration's (the keychain's API key):
    // kept out of tool results and the audit log.
    void setExtraSecrets(const QStringList &values);
    // Every secret value known now (Engine::knownSecrets()).
    const QStringList &secrets() const { return m_secrets; }
    // The timeout of a tool call whose server does not set its own "timeout".
    void setDefaultToolTimeout(int ms)
    {
        m_runner->setDefaultTimeout(ms);
        m_inboundRunner->setDefaultTimeout(ms);
    }

    const SessionOptions &options() const { return m_options; }
    Mcp::Manager *manager() const { return m_manager.get(); }
    ToolRegistry *registry() const { return m_registry.get(); }
    McpToolAdapter *adapter() const { return m_adapter.get(); }
    SkillCatalog *skills() const { return m_skills.get(); }
    ToolRunner *runner() const { return m_runner.get(); }
    // The runner of inbound A2A tasks: every tool that is not `read` is denied (and audited).
    ToolRunner *inboundRunner() const { return m_inboundRunner.get(); }
    AuditLog *auditLog() const { return m_audit; }
    // The keychain and the sign-in to remote servers (none without a Host).
    SecretStore *secretStore() const { return m_secretStore; }
    // The servers' own keychain secrets (`${secret:NAME}`); none without a Host.
    ServerSecrets *serverSecrets() const { return m_serverSecrets; }
    SignIn *signIn() const { return m_signIn; }
    Workspace *workspace() const { return m_workspace.get(); }
    TrustStore &trustStore() { return m_trust; }

private:
    // The keychain, the sign-in and the servers' request answerers, from the Host.
    void setUpHost(Mcp::ManagerOptions &options);
    // ManagerOptions::readSecrets: a server's `${secret:NAME}` values, known as secrets from
    // then on.
    void readServerSecrets(const Mcp::ServerConfig &server, QObject *context,
                           Mcp::ManagerOptions::SecretsRead done);
    void configChanged();
    void applyAgentTrust();

    SessionOptions m_options;
    TrustStore m_trust;
    QString m_trustError;
    Mcp::McpConfig m_config;
    QStringList m_extraSecrets;
    A2A::Peers m_peers;
    A2A::Client *m_a2a = nullptr; // a child: outlives the registry's delegate_agent
    std::optional<ProviderConfig> m_model;
    QStringList m_secrets;
    std::shared_ptr<Workspace> m_workspace;
    // Destroyed in reverse: the adapter and runner before the registry, the registry's MCP
    // tools before the Manager they call.
    std::unique_ptr<Mcp::Manager> m_manager;
    std::unique_ptr<ToolRegistry> m_registry;
    std::unique_ptr<McpToolAdapter> m_adapter;
    std::unique_ptr<SkillCatalog> m_skills; // goes before the manager and the registry
    QSet<QString> m_instructionsOff;
    std::unique_ptr<ToolRunner> m_runner;
    std::unique_ptr<ToolRunner> m_inboundRunner;
    AuditLog *m_audit = nullptr;
    // Children: they outlive the Manager (destroyed above, before ~QObject).
    SecretStore *m_secretStore = nullptr;
    ServerSecrets *m_serverSecrets = nullptr;
    QStringList m_keychainValues; // what the servers' `${secret:NAME}` read so far
    SignIn *m_signIn = nullptr;
    Sampling::Sampler *m_sampler = nullptr;
};

} // namespace Engine
