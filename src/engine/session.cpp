#include "session.h"

#include "host.h"

#include <engine/approval/approvalstore.h>
#include <engine/llm/providerconfig.h>
#include <engine/policy/serverpolicy.h>
#include <engine/secrets/secretstore.h>
#include <engine/secrets/serversecrets.h>
#include <engine/secrets/signin.h>
#include <engine/serverrequests/sampling.h>

#include <engine/a2a/delegatetool.h>
#include <engine/agent/agent.h>
#include <engine/agent/subagenttool.h>
#include <engine/tools/skilltool.h>
#include <engine/tools/toolsearch.h>

#include <mcp/apps/appmeta.h>

#include <QPointer>
#include <QStandardPaths>
#include <QTimer>

namespace Engine {

Session::Session(SessionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_trust(m_options.trustFile)
{
    Mcp::ManagerOptions managerOptions = m_options.manager;
    managerOptions.workspaceDir = m_options.workspace;
    managerOptions.eraCacheFile
            = m_options.eraCacheFile.isEmpty() ? defaultEraCacheFile() : m_options.eraCacheFile;
    if (m_options.host)
        setUpHost(managerOptions);
    m_manager = std::make_unique<Mcp::Manager>(managerOptions);
    // Tokens a server could echo back are kept out of tool results and the audit log too.
    if (m_signIn)
        connect(m_signIn->store(), &Mcp::OAuth::CredentialStore::changed, this,
                &Session::configChanged);

    m_registry = std::make_unique<ToolRegistry>();
    m_workspace = std::make_shared<Workspace>(m_options.workspace);
    for (auto &tool : createBuiltinTools(m_workspace, m_options.builtins))
        m_registry->add(std::move(tool));
    m_a2a = new A2A::Client(nullptr, this);
    m_registry->add(std::make_shared<A2A::DelegateAgentTool>(m_a2a, [this] { return m_peers; }));
    m_registry->add(std::make_shared<SubagentTool>(m_registry.get(), [this] { return m_model; }));
    m_registry->add(std::make_shared<SearchToolsTool>(m_registry.get()));
    m_adapter = std::make_unique<McpToolAdapter>(m_manager.get(), m_registry.get());
    m_adapter->setWorkspace(m_workspace);
    m_skills = std::make_unique<SkillCatalog>(m_manager.get(), m_registry.get());

    m_runner = std::make_unique<ToolRunner>(m_registry.get(), nullptr, m_options.workspace);
    // "Always allow" lives in the user's data folder, never in the workspace's files.
    m_runner->setApprovalStore(std::make_shared<ApprovalStore>(m_options.approvalsFile));
    m_audit = new AuditLog(m_options.auditLogFile.isEmpty() ? AuditLog::defaultPath()
                                                            : m_options.auditLogFile,
                           this);
    m_audit->setWorkspace(m_options.workspace);
    m_audit->attach(m_runner.get());
    // Inbound A2A tasks: nobody is at the keyboard, so only read tools run (no store, no gate).
    m_inboundRunner = std::make_unique<ToolRunner>(m_registry.get(), nullptr, m_options.workspace);
    m_inboundRunner->setOnlyReadTools(true);
    m_audit->attach(m_inboundRunner.get());
    if (Host *host = m_options.host) {
        connect(m_audit, &AuditLog::errorOccurred, this,
                [host](const QString &message) { host->notice(tr("Audit log: %1").arg(message)); });
    }
    configChanged();
}

void Session::setUpHost(Mcp::ManagerOptions &options)
{
    Host *host = m_options.host;
    m_secretStore = new SecretStore(m_options.keychainService.isEmpty()
                                            ? QString::fromLatin1(SecretStore::DefaultService)
                                            : m_options.keychainService,
                                    this);
    m_serverSecrets = new ServerSecrets(m_secretStore, m_options.serverSecretsFile, this);
    options.readSecrets = [this](const Mcp::ServerConfig &server, QObject *context,
                                 Mcp::ManagerOptions::SecretsRead done) {
        readServerSecrets(server, context, std::move(done));
    };
    m_signIn = new SignIn(m_secretStore, this);
    m_signIn->setOpenUrl([host](const QUrl &url) { host->openUrl(url); });
    m_signIn->setNeededHint([host](const QString &server) { return host->signInHint(server); });
    QPointer<SignIn> signIn = m_signIn;
    options.transports.http.authorizerFor
            = [signIn](const Mcp::ServerConfig &config) -> std::shared_ptr<Mcp::RequestAuthorizer> {
        return signIn ? signIn->authorizerFor(config) : nullptr;
    };

    // The client capabilities each server is told about are built here, from what the
    // host can answer (the Manager adds roots).
    m_sampler = new Sampling::Sampler(
            [host] { return host->samplingModel(); },
            [host](const QString &server, const Sampling::Request &request,
                   std::function<void(std::optional<Sampling::Request>)> decide) {
                host->reviewSampling(server, request, std::move(decide));
            },
            this);
    options.answerers["sampling/createMessage"] = Mcp::ServerRequestAnswerer{
            "sampling", Json{{"tools", Json::object()}},
            [sampler = QPointer(m_sampler)](const QString &server, const Json &params,
                                            Mcp::Client::Reply reply) {
                if (!sampler)
                    return reply(Mcp::Response::failure(-1, "the session is closing"));
                sampler->answer(server, params, std::move(reply));
            }};
    if (host->showsAppViews())
        options.extensions[Mcp::Apps::Extension] = Mcp::Apps::clientCapability();
    Json elicitation{{"form", Json::object()}};
    if (host->canElicitUrl())
        elicitation["url"] = Json::object();
    options.answerers["elicitation/create"] = Mcp::ServerRequestAnswerer{
            "elicitation", std::move(elicitation),
            [host](const QString &server, const Json &params, Mcp::Client::Reply reply) {
                host->elicit(server, params, std::move(reply));
            }};
}

Agent *Session::createAgent(LlmProvider *provider, AgentOptions options, AgentUse use,
                            QObject *parent)
{
    if (!options.moreInstructions)
        options.moreInstructions = [session = QPointer(this)] {
            return session ? session->serverInstructions() : QString();
        };
    ToolRunner *runner = use == AgentUse::Inbound ? m_inboundRunner.get() : m_runner.get();
    return new Agent(provider, m_registry.get(), runner, std::move(options), parent);
}

QString Session::serverInstructions() const
{
    QStringList parts;
    for (const QString &name : m_manager->serverNames()) {
        const Mcp::Client *client = m_manager->client(name);
        const Mcp::ServerConfig *server = m_manager->serverConfig(name);
        if (!client || !server || client->instructions().trimmed().isEmpty()
            || !ServerPolicy::of(*server).instructions || m_instructionsOff.contains(name))
            continue;
        QString text = client->instructions().trimmed();
        if (text.size() > MaxInstructionChars)
            text = text.left(MaxInstructionChars) + QStringLiteral(" […]");
        parts << tr("Instructions from the MCP server \"%1\" (the server's own words about its "
                    "tools; they do not come from the user):\n%2")
                         .arg(name, text);
    }
    return parts.join(QStringLiteral("\n\n"));
}

QString Session::defaultEraCacheFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QLatin1String("/eras.json");
}

Session::~Session()
{
    m_runner->cancelAll();
    m_inboundRunner->cancelAll();
}

Mcp::McpConfig Session::readConfig() const
{
    return loadConfig(m_options.workspace, m_options.configFile, m_options.environment);
}

void Session::load()
{
    m_trustError.clear();
    m_trust.load(&m_trustError);
    m_config = loadConfig(m_options.workspace, m_options.configFile, m_options.environment);
    m_trust.apply(m_config, m_options.workspace);
    m_peers = A2A::loadPeers(m_options.workspace, m_options.environment);
    applyAgentTrust();
    configChanged();
}

void Session::applyAgentTrust()
{
    for (A2A::Peer &peer : m_peers.peers) {
        peer.untrusted
                = peer.origin == Mcp::ConfigOrigin::Workspace
                  && !m_trust.isAgentTrusted(m_options.workspace, peer.name, peer.definition);
    }
}

QStringList Session::trustAgents(const QStringList &names)
{
    QStringList errors;
    for (const A2A::Peer &peer : std::as_const(m_peers.peers)) {
        QString error;
        if (names.contains(peer.name) && peer.untrusted
            && !m_trust.trustAgent(m_options.workspace, peer.name, peer.definition, &error))
            errors << error; // held in memory for this session all the same
    }
    applyAgentTrust();
    return errors;
}

void Session::start(const QStringList &only)
{
    Mcp::McpConfig config = m_config;
    if (!only.isEmpty()) {
        config.servers.removeIf(
                [&only](const Mcp::ServerConfig &server) { return !only.contains(server.name); });
    }
    m_manager->start(config);
}

Mcp::ReloadPlan Session::apply(const Mcp::McpConfig &config)
{
    Mcp::McpConfig trusted = config;
    m_trust.apply(trusted, m_options.workspace);
    const Mcp::ReloadPlan plan = m_manager->reload(trusted);
    m_config = std::move(trusted);
    configChanged();
    return plan;
}

QList<Mcp::ServerConfig> Session::untrustedServers() const
{
    QList<Mcp::ServerConfig> waiting;
    for (const Mcp::ServerConfig &server : m_config.servers) {
        if (server.untrusted)
            waiting << server;
    }
    return waiting;
}

QStringList Session::trust(const QStringList &names)
{
    QStringList errors;
    for (const Mcp::ServerConfig &server : std::as_const(m_config.servers)) {
        QString error;
        // A decision that cannot be saved is still held in memory for this session.
        if (names.contains(server.name) && server.untrusted
            && !m_trust.trust(m_options.workspace, server, &error))
            errors << error;
    }
    apply(m_config);
    return errors;
}

void Session::setServerDisabled(const QString &name, bool disabled)
{
    for (Mcp::ServerConfig &server : m_config.servers) {
        if (server.name == name) {
            server.disabled = disabled;
            if (server.definition.is_object())
                server.definition["disabled"] = disabled;
        }
    }
}

void Session::readServerSecrets(const Mcp::ServerConfig &server, QObject *context,
                                Mcp::ManagerOptions::SecretsRead done)
{
    // The Manager never starts an untrusted server; this keeps a workspace's file from reading
    // the keychain even if that changed.
    if (server.untrusted) {
        QTimer::singleShot(0, context, [done = std::move(done)] {
            done({}, tr("a workspace's server reads keychain secrets only once you trust it"));
        });
        return;
    }
    QStringList names;
    for (const Mcp::SecretReference &reference : server.secretReferences)
        names << reference.name;
    m_serverSecrets->read(names, context,
                          [this, done = std::move(done)](const QHash<QString, QString> &values,
                                                         const QString &error) {
                              bool added = false;
                              for (const QString &value : values) {
                                  if (!m_keychainValues.contains(value)) {
                                      m_keychainValues << value;
                                      added = true;
                                  }
                              }
                              if (added)
                                  configChanged();
                              done(values, error);
                          });
}

void Session::setExtraSecrets(const QStringList &values)
{
    m_extraSecrets = values;
    configChanged();
}

// What follows from the configuration: a server's own "timeout" wins over the default, and
// the values its variables put into env and headers are secrets.
void Session::configChanged()
{
    for (ToolRunner *runner : {m_runner.get(), m_inboundRunner.get()}) {
        runner->clearSourceTimeouts();
        for (const Mcp::ServerConfig &server : std::as_const(m_config.servers)) {
            if (server.timeoutSet)
                runner->setTimeoutForSource(server.name, server.timeoutMs);
        }
    }
    QStringList extra = m_extraSecrets + m_peers.secrets() + m_keychainValues;
    if (m_signIn)
        extra += m_signIn->secrets();
    m_secrets = knownSecrets(m_config, m_options.environment, extra);
    m_runner->setSecrets(m_secrets);
    m_inboundRunner->setSecrets(m_secrets);
    m_audit->setSecrets(m_secrets);
}

} // namespace Engine
