#include "cli.h"

#include "terminalelicitation.h"
#include "terminalgate.h"
#include "terminalhost.h"
#include "terminaltext.h"

#include <engine/a2a/delegatetool.h>
#include <engine/a2a/server.h>
#include <engine/agent/agent.h>
#include <engine/agentexecutor.h>
#include <engine/approval/auditlog.h>
#include <engine/approval/toolrunner.h>
#include <engine/llm/providerconfig.h>
#include <engine/policy/serverpolicy.h>
#include <engine/policy/truststore.h>
#include <engine/secrets/processenvironment.h>
#include <engine/secrets/secretstore.h>
#include <engine/secrets/signin.h>
#include <engine/serverrequests/elicitation.h>
#include <engine/serverrequests/sampling.h>
#include <engine/storage/conversationstore.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSocketNotifier>
#include <QTimer>
#include <QUrl>

#include <mcp/client/features.h>
#include <mcp/config/redaction.h>
#include <mcp/wire/jsonparser.h>

#include <cstdio>
#include <cstdlib>
#ifdef Q_OS_UNIX
#include <csignal>
#include <unistd.h>
#endif

using namespace Mcp;

namespace Cli {

namespace {
// How long stop() may take before the CLI exits anyway: two shutdown stages plus slack.
constexpr int StopGraceMs = 5000;
// The CLI's shutdown stage: servers get this long after stdin closes (then SIGTERM, then
// SIGKILL). Shorter than the GUI's: nobody waits on a terminal for a slow exit.
constexpr int CliShutdownStageMs = 1000;

#ifdef Q_OS_UNIX
// SIGTERM and SIGINT while serving: the handler only writes a byte, the event loop does the rest.
int g_signalPipe[2] = {-1, -1};
void onStopSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &byte, 1);
}
#endif

// Everything goes through TerminalText: most lines carry text a server or the model wrote.
void out(const QString &text)
{
    TerminalText::write(stdout, text);
}

void err(const QString &text)
{
    TerminalText::write(stderr, text + QLatin1Char('\n'));
}

// Every server process is gone and the output is written: end here. Freeing what the run
// built (a 10,000-tool list is ~200,000 allocations) would only delay the exit.
[[noreturn]] void exitNow(int code)
{
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
}

QString usageText()
{
    return QStringLiteral(
            "usage: switchboard-cli [--workspace DIR] [--config FILE] [--sandbox on|off|auto] "
            "[--elicit P] COMMAND\n"
            "  --elicit decline|cancel|accept-defaults\n"
            "                              what a server asking you something gets (decline)\n"
            "  --sandbox on|off|auto       run the built-in bash under bubblewrap: only the\n"
            "                              workspace is writable (auto, the default: where bwrap\n"
            "                              works)\n"
            "  servers [--json]            connect every configured server; a line each:\n"
            "                              NAME STATE TOOLS [reason]\n"
            "  tools [--json]              every registered tool name with its risk\n"
            "  call SERVER TOOL [ARGS_JSON] [--timeout S] [--json] [--repeat N] "
            "[--concurrency C]\n"
            "       [--approve ask|deny|yes]  (what a server asking your model gets)\n"
            "                              call an MCP tool directly, no model\n"
            "  resources SERVER [--json]   a server's resources and resource templates\n"
            "  read SERVER URI [--json]    read one resource (text printed, binary described)\n"
            "  prompts SERVER [--json]     a server's prompts and their arguments\n"
            "  prompt SERVER NAME [ARGS_JSON] [--json]\n"
            "                              get a prompt's messages; ARGS_JSON: {\"arg\": \"v\"}\n"
            "  run PROMPT [--approve ask|deny|yes] [--max-turns N] [--tool-search N] [--json]\n"
            "                              the agent loop, headless (needs OPENAI_API_KEY or\n"
            "                              ANTHROPIC_API_KEY, or OPENAI_BASE_URL for a local "
            "server);\n"
            "                              above --tool-search N tools (default 40, 0: off) the\n"
            "                              model finds the servers' tools with search_tools\n"
            "  trust [SERVER...] [--revoke]\n"
            "                              trust (or stop trusting) this folder's .mcp.json\n"
            "                              servers: they start only once trusted\n"
            "  audit [--tail N] [--json]   the last N (20) records of the audit log: approval\n"
            "                              decisions and tool runs\n"
            "  auth login SERVER           sign in to a remote server (OAuth, in the browser);\n"
            "                              the tokens go to the keychain\n"
            "  auth logout SERVER          forget a server's tokens\n"
            "  auth status                 which remote servers are signed in\n"
            "  a2a send URL|AGENT MESSAGE [--stream] [--timeout S] [--json]\n"
            "                              hand a task to another agent (A2A); prints its\n"
            "                              report. Agents: .a2a.json, your a2a.json\n"
            "  a2a serve [--host H] [--port P] [--token T] [--max-tasks N]\n"
            "                              serve this workspace as an A2A agent until SIGTERM\n"
            "                              (127.0.0.1 unless told; another address needs a\n"
            "                              token: --token, $SWITCHBOARD_A2A_TOKEN or the\n"
            "                              keychain's 'a2a-serve-token'). Inbound tasks may\n"
            "                              use read-only tools only\n"
            "  config check [FILE]         validate; errors as FILE:LINE:COL: message\n"
            "  config import claude-desktop|vscode|cursor FILE\n"
            "                              print the converted .mcp.json\n"
            "exit codes: 0 ok, 1 usage, 2 invalid config, 3 a server failed, 4 tool returned "
            "isError, 5 timeout, 6 denied\n"
            "  (a2a send: 3 the agent is unreachable, 4 the task failed, was rejected or "
            "canceled,\n"
            "   or needs input or credentials, 5 timed out: the remote task was canceled)\n");
}

QString jsonText(const Json &value, int indent = 2)
{
    return QString::fromStdString(value.dump(indent, ' ', false, Json::error_handler_t::replace));
}

// `/` or the home folder: too broad to be taken for a workspace without being named.
bool isBroadFolder(const QString &folder)
{
    const QString canonical = QFileInfo(folder).canonicalFilePath();
    return canonical == QDir::rootPath()
           || canonical == QFileInfo(QDir::homePath()).canonicalFilePath();
}

// "--timeout 5" or "--timeout=5"; advances i past the value.
bool takeValue(const QStringList &args, int &i, const QString &name, QString *value)
{
    const QString &arg = args.at(i);
    if (arg == name) {
        if (i + 1 >= args.size())
            return false;
        *value = args.at(++i);
        return true;
    }
    if (arg.startsWith(name + QLatin1Char('='))) {
        *value = arg.mid(name.size() + 1);
        return true;
    }
    return false;
}
} // namespace

Application::Application(QStringList arguments, QObject *parent)
    : QObject(parent)
    , m_args(std::move(arguments))
{
}

Application::~Application()
{
    delete m_engineParent; // the agent and the gate go before the session they use
}

void Application::run()
{
    const int code = dispatch();
    if (code >= 0)
        finish(code);
}

int Application::usageError(const QString &message)
{
    err(QStringLiteral("switchboard-cli: %1").arg(message));
    err(QStringLiteral("Try 'switchboard-cli --help'."));
    return Usage;
}

int Application::dispatch()
{
    // Global options come before the command.
    int i = 0;
    for (; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        if (arg == QLatin1String("-h") || arg == QLatin1String("--help")) {
            out(usageText());
            return Ok;
        }
        if (arg == QLatin1String("--version")) {
            out(QStringLiteral("switchboard-cli %1\n").arg(QCoreApplication::applicationVersion()));
            return Ok;
        }
        if (takeValue(m_args, i, QStringLiteral("--workspace"), &value)) {
            m_workspace = value;
        } else if (takeValue(m_args, i, QStringLiteral("--config"), &value)) {
            m_configFile = value;
        } else if (takeValue(m_args, i, QStringLiteral("--elicit"), &value)) {
            const auto policy = Engine::Elicitation::policyFromName(value);
            if (!policy)
                return usageError(
                        QStringLiteral("--elicit takes decline, cancel or accept-defaults"));
            m_elicit = *policy;
            m_elicitGiven = true;
        } else if (takeValue(m_args, i, QStringLiteral("--sandbox"), &value)) {
            const auto mode = Sandbox::modeFromName(value);
            if (!mode)
                return usageError(QStringLiteral("--sandbox takes on, off or auto"));
            m_bashSandbox = *mode;
        } else if (arg.startsWith(QLatin1Char('-'))) {
            return usageError(QStringLiteral("unknown or incomplete option '%1'").arg(arg));
        } else {
            break;
        }
    }
    m_args = m_args.mid(i);
    if (m_args.isEmpty())
        return usageError(QStringLiteral("no command given"));

    const bool implicitWorkspace = m_workspace.isEmpty();
    if (implicitWorkspace)
        m_workspace = QDir::currentPath();
    if (!QFileInfo(m_workspace).isDir())
        return usageError(QStringLiteral("workspace '%1' is not a folder").arg(m_workspace));
    m_workspace = QFileInfo(m_workspace).absoluteFilePath();

    const QString command = m_args.takeFirst();
    // Only the commands that use the workspace refuse one too broad to be a project.
    const bool usesWorkspace = command != QLatin1String("config")
                               || (m_args.value(0) == QLatin1String("check") && m_args.size() == 1);
    if (implicitWorkspace && usesWorkspace && isBroadFolder(m_workspace)) {
        err(tr("switchboard-cli: refusing to use %1 as the workspace (it is / or your home "
               "folder: the tools could read every project and your private files there); run "
               "it in a project folder or name one with --workspace DIR")
                    .arg(m_workspace));
        return Usage;
    }
    if (command == QLatin1String("servers"))
        return cmdServers();
    if (command == QLatin1String("tools"))
        return cmdTools();
    if (command == QLatin1String("call"))
        return cmdCall();
    if (command == QLatin1String("resources"))
        return cmdResources();
    if (command == QLatin1String("read"))
        return cmdRead();
    if (command == QLatin1String("prompts"))
        return cmdPrompts();
    if (command == QLatin1String("prompt"))
        return cmdPrompt();
    if (command == QLatin1String("run"))
        return cmdRun();
    if (command == QLatin1String("trust"))
        return cmdTrust();
    if (command == QLatin1String("audit"))
        return cmdAudit();
    if (command == QLatin1String("auth"))
        return cmdAuth();
    if (command == QLatin1String("a2a")) {
        const QString sub = m_args.isEmpty() ? QString() : m_args.takeFirst();
        if (sub == QLatin1String("send"))
            return cmdA2aSend();
        if (sub == QLatin1String("serve"))
            return cmdA2aServe();
        return usageError(QStringLiteral("'a2a' needs 'send' or 'serve'"));
    }
    if (command == QLatin1String("config")) {
        const QString sub = m_args.isEmpty() ? QString() : m_args.takeFirst();
        if (sub == QLatin1String("check"))
            return cmdConfigCheck();
        if (sub == QLatin1String("import"))
            return cmdConfigImport();
        return usageError(QStringLiteral("'config' needs 'check' or 'import'"));
    }
    return usageError(QStringLiteral("unknown command '%1'").arg(command));
}

bool Application::loadConfig()
{
    if (!m_configFile.isEmpty() && !QFileInfo::exists(m_configFile)) {
        err(QStringLiteral("%1: no such file (given by --config)").arg(m_configFile));
        return false;
    }
    if (!m_host) {
        TerminalHost::Options host;
        host.workspace = m_workspace;
        host.gate = [this] {
            return terminalGate();
        };
        host.askTerminal = !m_elicitGiven && TerminalApprovalGate::hasTerminal();
        host.policy = m_elicit;
        m_host = std::make_unique<TerminalHost>(host);
    }
    Engine::SessionOptions options;
    options.workspace = m_workspace;
    options.host = m_host.get();
    // SWITCHBOARD_KEYCHAIN_SERVICE: another keychain service name (tests keep theirs apart).
    options.keychainService = qEnvironmentVariable("SWITCHBOARD_KEYCHAIN_SERVICE");
    options.configFile = m_configFile;
    options.manager.transports.stdio.shutdownStageMs = CliShutdownStageMs;
    options.builtins.bashSandbox = [mode = m_bashSandbox] {
        return mode;
    };
    m_session = std::make_unique<Engine::Session>(options);
    m_session->load();
    for (const ConfigError &error : m_session->configErrors())
        err(error.toString());
    if (!m_session->trustError().isEmpty())
        err(m_session->trustError());
    return m_session->configErrors().isEmpty();
}

// "switchboard-cli trust NAME" for a server of this folder that is not trusted yet.
QString Application::trustHint(const QString &server) const
{
    return QStringLiteral("run 'switchboard-cli --workspace %1 trust %2' to trust it")
            .arg(m_workspace, server);
}

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

void Application::startServers(const QStringList &only)
{
    m_session->start(only);
}

// The servers and tools commands take only --json; then they connect every server and print
// once all have settled.
int Application::connectAndPrint(const QString &command, void (Application::*print)())
{
    for (const QString &arg : std::as_const(m_args)) {
        if (arg == QLatin1String("--json"))
            m_json = true;
        else
            return usageError(QStringLiteral("%1: unexpected argument '%2'").arg(command, arg));
    }
    if (!loadConfig())
        return InvalidConfig;
    startServers();
    whenSettled([this, print] { (this->*print)(); });
    return -1;
}

void Application::whenSettled(std::function<void()> next)
{
    Manager *manager = m_session->manager();
    if (manager->isSettled())
        next();
    else
        connect(manager, &Manager::settled, this, std::move(next), Qt::SingleShotConnection);
}

int Application::cmdServers()
{
    return connectAndPrint(QStringLiteral("servers"), &Application::printServers);
}

void Application::printServers()
{
    bool anyFailed = false;
    const QStringList names = m_session->manager()->serverNames();
    if (m_json) {
        Json list = Json::array();
        for (const QString &name : names) {
            const ServerStatus s = m_session->manager()->status(name);
            Json entry{{"name", name.toStdString()},
                       {"state", serverStateName(s.state).toStdString()},
                       {"tools", s.toolCount}};
            if (const ServerConfig *config = m_session->manager()->serverConfig(name)) {
                entry["transport"] = transportTypeName(config->type).toStdString();
                if (config->type != TransportType::Stdio)
                    entry["url"] = QUrl(config->url)
                                           .toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery
                                                            | QUrl::RemoveFragment)
                                           .toStdString();
            }
            if (!s.reason.isEmpty())
                entry["reason"] = s.reason.toStdString();
            if (Client *client = m_session->manager()->client(name)) {
                entry["protocolVersion"] = client->protocolVersion();
                entry["era"] = eraName(client->era()).toStdString();
                entry["serverInfo"] = client->serverInfo();
            }
            list.push_back(std::move(entry));
            anyFailed = anyFailed || s.state == ServerState::Failed
                        || s.state == ServerState::Untrusted;
        }
        out(jsonText(list) + QLatin1Char('\n'));
    } else {
        int width = 4;
        for (const QString &name : names)
            width = std::max(width, int(name.size()));
        for (const QString &name : names) {
            const ServerStatus s = m_session->manager()->status(name);
            QString line = QStringLiteral("%1 %2 %3")
                                   .arg(name, -width)
                                   .arg(serverStateName(s.state), -10)
                                   .arg(s.toolCount, 5);
            if (!s.reason.isEmpty())
                line += QLatin1Char(' ') + s.reason;
            if (s.state == ServerState::Untrusted)
                line += QStringLiteral(" (%1)").arg(trustHint(name));
            out(line.trimmed() + QLatin1Char('\n'));
            anyFailed = anyFailed || s.state == ServerState::Failed
                        || s.state == ServerState::Untrusted;
        }
        if (names.isEmpty())
            err(QStringLiteral("no servers configured (looked for %1/.mcp.json and %2)")
                        .arg(m_workspace, ConfigLoader::userConfigPath()));
    }
    finish(anyFailed ? ServerFailed : Ok);
}

int Application::cmdTools()
{
    return connectAndPrint(QStringLiteral("tools"), &Application::printTools);
}

Engine::ToolRegistry *Application::registry()
{
    Engine::ToolRegistry *registry = m_session->registry();
    connect(registry, &Engine::ToolRegistry::rejected, this,
            [](const QString &, const QString &reason) { err(reason); });
    m_session->adapter()->syncAll(); // again, now that rejections are heard
    return registry;
}

void Application::printTools()
{
    bool anyFailed = false;
    for (const QString &name : m_session->manager()->serverNames()) {
        const ServerStatus s = m_session->manager()->status(name);
        if (s.state == ServerState::Failed) {
            anyFailed = true;
            err(QStringLiteral("server '%1' failed: %2").arg(name, s.reason));
        } else if (s.state == ServerState::Untrusted) {
            err(QStringLiteral("server '%1' is not trusted yet: %2").arg(name, trustHint(name)));
        }
    }
    Json list = Json::array();
    for (const auto &tool : registry()->tools()) {
        const QString risk = Engine::riskName(tool->risk());
        if (m_json) {
            list.push_back({{"name", tool->name().toStdString()},
                            {"risk", risk.toStdString()},
                            {"source", tool->source().toStdString()},
                            {"tool", tool->originalName().toStdString()},
                            {"description", tool->description().toStdString()}});
        } else {
            out(QStringLiteral("%1 %2\n").arg(tool->name(), risk));
        }
    }
    if (m_json)
        out(jsonText(list) + QLatin1Char('\n'));
    finish(anyFailed ? ServerFailed : Ok);
}

int Application::cmdCall()
{
    QStringList positional;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        bool ok = true;
        if (arg == QLatin1String("--json")) {
            m_json = true;
        } else if (takeValue(m_args, i, QStringLiteral("--timeout"), &value)) {
            const double seconds = value.toDouble(&ok);
            if (!ok || seconds <= 0)
                return usageError(QStringLiteral("--timeout needs a positive number of seconds"));
            m_callTimeoutMs = int(seconds * 1000);
        } else if (takeValue(m_args, i, QStringLiteral("--repeat"), &value)) {
            m_repeat = value.toInt(&ok);
            if (!ok || m_repeat < 1)
                return usageError(QStringLiteral("--repeat needs a positive whole number"));
        } else if (takeValue(m_args, i, QStringLiteral("--concurrency"), &value)) {
            m_concurrency = value.toInt(&ok);
            if (!ok || m_concurrency < 1)
                return usageError(QStringLiteral("--concurrency needs a positive whole number"));
        } else if (takeValue(m_args, i, QStringLiteral("--approve"), &value)) {
            if (!setApprove(value)) // what a server's sampling request gets
                return Usage;
        } else if (arg.startsWith(QLatin1String("--"))) {
            return usageError(QStringLiteral("call: unknown or incomplete option '%1'").arg(arg));
        } else {
            positional << arg;
        }
    }
    if (positional.size() < 2 || positional.size() > 3)
        return usageError(QStringLiteral("call needs SERVER TOOL [ARGS_JSON]"));
    m_callServer = positional.at(0);
    m_callTool = positional.at(1).toStdString();
    m_callArgs = Json::object();
    if (positional.size() == 3) {
        const QByteArray text = positional.at(2).toUtf8();
        m_callArgs = Json::parse(text.begin(), text.end(), nullptr, false);
        if (m_callArgs.is_discarded() || !m_callArgs.is_object())
            return usageError(QStringLiteral("ARGS_JSON must be a JSON object, got: %1")
                                      .arg(positional.at(2)));
    }
    m_callArgsText.text = m_callArgs.dump(); // once, however often the call repeats

    QElapsedTimer connectClock;
    connectClock.start();
    return connectOne(m_callServer, [this, connectClock](Client *) {
        if (m_repeat > 0)
            out(QStringLiteral("connect_s=%1\n")
                        .arg(double(connectClock.nsecsElapsed()) / 1e9, 0, 'f', 3));
        runCalls();
    });
}

bool Application::setApprove(const QString &value)
{
    if (value != QLatin1String("ask") && value != QLatin1String("deny")
        && value != QLatin1String("yes")) {
        usageError(QStringLiteral("--approve takes ask, deny or yes"));
        return false;
    }
    m_approve = value;
    return true;
}

// The one gate of this run (tool calls and sampling requests ask in turn on one terminal):
// --approve, or ask on a terminal and deny without one.
TerminalApprovalGate *Application::terminalGate()
{
    if (m_gate)
        return m_gate;
    QString approve = m_approve;
    if (approve.isEmpty()) {
#ifdef Q_OS_UNIX
        approve = ::isatty(STDIN_FILENO) ? QStringLiteral("ask") : QStringLiteral("deny");
#else
        approve = QStringLiteral("deny");
#endif
    }
    const auto mode = approve == QLatin1String("yes")   ? TerminalApprovalGate::Mode::Yes
                      : approve == QLatin1String("ask") ? TerminalApprovalGate::Mode::Ask
                                                        : TerminalApprovalGate::Mode::Deny;
    m_gate = new TerminalApprovalGate(mode, this);
    return m_gate;
}

bool Application::serverArguments(const QString &command, int count, const QString &usage,
                                  QStringList *positional)
{
    for (const QString &arg : std::as_const(m_args)) {
        if (arg == QLatin1String("--json"))
            m_json = true;
        else if (arg.startsWith(QLatin1String("--")))
            return usageError(QStringLiteral("%1: unknown option '%2'").arg(command, arg)), false;
        else
            *positional << arg;
    }
    if (positional->size() < count || positional->size() > count + (usage.contains('[') ? 1 : 0)) {
        usageError(QStringLiteral("%1 needs %2").arg(command, usage));
        return false;
    }
    return true;
}

// resources SERVER [--json]
int Application::cmdResources()
{
    QStringList positional;
    if (!serverArguments(QStringLiteral("resources"), 1, QStringLiteral("SERVER"), &positional))
        return Usage;
    const QString server = positional.at(0);
    return connectOne(server, [this, server](Client *client) {
        if (!client->capabilities().resources) {
            err(tr("server '%1' offers no resources").arg(server));
            finish(ToolError);
            return;
        }
        listResources(
                client, this,
                [this, client, server](std::vector<Resource> resources, const QString &error) {
                    if (!error.isEmpty()) {
                        err(QStringLiteral("%1: %2").arg(server, error));
                        finish(ToolError);
                        return;
                    }
                    listResourceTemplates(
                            client, this,
                            [this, server, resources = std::move(resources)](
                                    std::vector<ResourceTemplate> templates, const QString &error) {
                                if (m_json) {
                                    Json listed{{"resources", Json::array()},
                                                {"resourceTemplates", Json::array()}};
                                    for (const Resource &r : resources)
                                        listed["resources"].push_back(r.json);
                                    for (const ResourceTemplate &t : templates)
                                        listed["resourceTemplates"].push_back(t.json);
                                    out(jsonText(listed) + QLatin1Char('\n'));
                                } else {
                                    for (const Resource &r : resources)
                                        out(QStringLiteral("%1\t%2\t%3\n")
                                                    .arg(QString::fromStdString(r.uri), r.name,
                                                         r.mimeType));
                                    for (const ResourceTemplate &t : templates)
                                        out(QStringLiteral("template %1\t%2\t%3\n")
                                                    .arg(QString::fromStdString(t.uriTemplate),
                                                         t.name, t.mimeType));
                                }
                                // A server without templates may not know the method.
                                if (!error.isEmpty())
                                    err(QStringLiteral("%1: %2").arg(server, error));
                                finish(Ok);
                            });
                });
    });
}

// read SERVER URI [--json]
int Application::cmdRead()
{
    QStringList positional;
    if (!serverArguments(QStringLiteral("read"), 2, QStringLiteral("SERVER URI"), &positional))
        return Usage;
    const QString server = positional.at(0);
    const std::string uri = positional.at(1).toStdString();
    return connectOne(server, [this, server, uri](Client *client) {
        readResource(client, uri, this, [this, server](const ReadResourceResult &result) {
            if (!result.ok()) {
                err(QStringLiteral("%1: resources/read failed: %2")
                            .arg(server, result.error->toString()));
                finish(ToolError);
                return;
            }
            if (m_json) {
                out(jsonText(result.json) + QLatin1Char('\n'));
            } else {
                for (const ResourceContents &content : result.contents) {
                    QString text = content.describe();
                    if (!text.endsWith(QLatin1Char('\n')))
                        text += QLatin1Char('\n');
                    out(text);
                }
            }
            finish(result.wellFormed ? Ok : ToolError);
        });
    });
}

// prompts SERVER [--json]
int Application::cmdPrompts()
{
    QStringList positional;
    if (!serverArguments(QStringLiteral("prompts"), 1, QStringLiteral("SERVER"), &positional))
        return Usage;
    const QString server = positional.at(0);
    return connectOne(server, [this, server](Client *client) {
        if (!client->capabilities().prompts) {
            err(tr("server '%1' offers no prompts").arg(server));
            finish(ToolError);
            return;
        }
        listPrompts(client, this,
                    [this, server](std::vector<Prompt> prompts, const QString &error) {
                        if (!error.isEmpty()) {
                            err(QStringLiteral("%1: %2").arg(server, error));
                            finish(ToolError);
                            return;
                        }
                        if (m_json) {
                            Json listed{{"prompts", Json::array()}};
                            for (const Prompt &prompt : prompts)
                                listed["prompts"].push_back(prompt.json);
                            out(jsonText(listed) + QLatin1Char('\n'));
                            finish(Ok);
                            return;
                        }
                        for (const Prompt &prompt : prompts) {
                            QStringList arguments;
                            for (const PromptArgument &argument : prompt.arguments)
                                arguments << argument.name
                                                     + (argument.required ? QStringLiteral("*")
                                                                          : QString());
                            out(QStringLiteral("%1(%2)\t%3\n")
                                        .arg(prompt.name, arguments.join(QStringLiteral(", ")),
                                             prompt.description));
                        }
                        finish(Ok);
                    });
    });
}

// prompt SERVER NAME [ARGS_JSON] [--json]
int Application::cmdPrompt()
{
    QStringList positional;
    if (!serverArguments(QStringLiteral("prompt"), 2, QStringLiteral("SERVER NAME [ARGS_JSON]"),
                         &positional))
        return Usage;
    const QString server = positional.at(0);
    const std::string name = positional.at(1).toStdString();
    std::map<std::string, std::string> strings;
    if (positional.size() == 3) {
        const Json arguments = parseJson(positional.at(2).toStdString());
        if (!arguments.is_object())
            return usageError(QStringLiteral("ARGS_JSON must be a JSON object, got: %1")
                                      .arg(positional.at(2)));
        // A prompt's arguments are strings; a number or a flag is meant as its text.
        for (const auto &[key, value] : arguments.items())
            strings[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
    return connectOne(server, [this, server, name, strings](Client *client) {
        getPrompt(client, name, strings, this, [this, server](const GetPromptResult &result) {
            if (!result.ok()) {
                err(QStringLiteral("%1: prompts/get failed: %2")
                            .arg(server, result.error->toString()));
                finish(ToolError);
                return;
            }
            if (m_json) {
                out(jsonText(result.json) + QLatin1Char('\n'));
                finish(Ok);
                return;
            }
            for (const PromptMessage &message : result.messages) {
                QString text = QStringLiteral("[%1] %2").arg(message.role, message.describe());
                if (!text.endsWith(QLatin1Char('\n')))
                    text += QLatin1Char('\n');
                out(text);
            }
            finish(Ok);
        });
    });
}

// Loads the configuration and starts only `server`; `connected` runs once it is, else the
// CLI ends with the reason (exit 3).
int Application::connectOne(const QString &server, std::function<void(Client *)> connected)
{
    if (!loadConfig())
        return InvalidConfig;
    if (!m_session->config().find(server)) {
        QStringList names;
        for (const ServerConfig &s : m_session->config().servers)
            names << s.name;
        err(QStringLiteral("no server named '%1' in the configuration (servers: %2)")
                    .arg(server, names.isEmpty() ? QStringLiteral("none")
                                                 : names.join(QStringLiteral(", "))));
        return Usage;
    }
    startServers({server});
    whenSettled([this, server, connected = std::move(connected)] {
        const ServerStatus s = m_session->manager()->status(server);
        Client *client = m_session->manager()->client(server);
        if (s.state != ServerState::Connected || !client) {
            err(QStringLiteral("server '%1' %2: %3")
                        .arg(server, serverStateName(s.state), s.reason));
            if (s.state == ServerState::Untrusted)
                err(trustHint(server));
            finish(ServerFailed);
            return;
        }
        connected(client);
    });
    return -1;
}

void Application::runCalls()
{
    m_callClock.start();
    const int total = std::max(1, m_repeat);
    const int inFlight = std::min(m_concurrency, total);
    for (int i = 0; i < inFlight; ++i)
        issueCall();
}

void Application::issueCall()
{
    Client *client = m_session->manager()->client(m_callServer);
    if (!client) {
        err(QStringLiteral("server '%1' is no longer connected: %2")
                    .arg(m_callServer, m_session->manager()->status(m_callServer).reason));
        finish(ServerFailed);
        return;
    }
    ++m_issued;
    RequestOptions options;
    options.timeoutMs = m_callTimeoutMs;
    if (m_repeat == 0) {
        options.onProgress = [](const Progress &p) {
            QString line = QStringLiteral("progress %1").arg(p.progress);
            if (p.total)
                line += QStringLiteral("/%1").arg(*p.total);
            if (!p.message.isEmpty())
                line += QStringLiteral(": ") + p.message;
            err(line);
        };
    }
    client->callTool(
            m_callTool, m_callArgsText, this,
            [this](ToolResult result) {
                ++m_completed;
                if (result.error) {
                    if (result.error->is(ErrorCode::RequestTimeout))
                        ++m_timeouts;
                    else
                        ++m_otherErrors;
                    if (m_firstError.isEmpty())
                        m_firstError = result.error->toString();
                } else if (result.isError) {
                    ++m_toolErrors;
                    if (m_firstError.isEmpty())
                        m_firstError = result.text();
                }

                if (m_repeat == 0) { // a single call: print what it returned
                    auditCall(result);
                    if (result.error) {
                        // Local failures already name the server; the server's own errors do not.
                        err(result.error->local
                                    ? QStringLiteral("tool '%1': %2")
                                              .arg(QString::fromStdString(m_callTool),
                                                   QString::fromStdString(result.error->message))
                                    : QStringLiteral("server '%1', tool '%2': %3")
                                              .arg(m_callServer, QString::fromStdString(m_callTool),
                                                   result.error->toString()));
                        const bool closed = result.error->is(ErrorCode::ConnectionClosed);
                        finish(result.error->is(ErrorCode::RequestTimeout) ? Timeout
                               : closed                                    ? ServerFailed
                                                                           : ToolError);
                        return;
                    }
                    // Secrets the app knows never reach the terminal (or a CI log) either.
                    const Mcp::Redactor redactor(m_session->secrets());
                    out(redactor.redactKnownText(m_json ? jsonText(result.raw) : result.text())
                        + QLatin1Char('\n'));
                    finish(result.isError ? ToolError : Ok);
                    return;
                }

                if (m_issued < m_repeat) {
                    issueCall();
                    return;
                }
                if (m_completed < m_repeat)
                    return;
                const double seconds = double(m_callClock.nsecsElapsed()) / 1e9;
                out(QStringLiteral("calls=%1 seconds=%2 calls_per_s=%3\n")
                            .arg(m_completed)
                            .arg(seconds, 0, 'f', 3)
                            .arg(seconds > 0 ? m_completed / seconds : 0.0, 0, 'f', 0));
                const int failures = m_timeouts + m_otherErrors + m_toolErrors;
                if (failures > 0) {
                    err(QStringLiteral("%1 of %2 calls failed (%3 timed out); first: %4")
                                .arg(failures)
                                .arg(m_completed)
                                .arg(m_timeouts)
                                .arg(m_firstError));
                }
                finish(m_timeouts > 0 ? Timeout : failures > 0 ? ToolError : Ok);
            },
            options);
}

// `call` bypasses the ToolRunner (no approval: the user typed the call), but it still ran.
void Application::auditCall(const ToolResult &result)
{
    const QString outcome
            = !result.error ? (result.isError ? QStringLiteral("error") : QStringLiteral("ok"))
              : result.error->is(ErrorCode::RequestTimeout) ? QStringLiteral("timeout")
                                                            : QStringLiteral("error");
    m_session->auditLog()->recordDirectCall(m_callServer, QString::fromStdString(m_callTool),
                                            m_callArgs, outcome,
                                            m_callClock.isValid() ? m_callClock.elapsed() : 0);
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

int Application::cmdRun()
{
    QStringList positional;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        bool ok = true;
        if (arg == QLatin1String("--json")) {
            m_json = true;
        } else if (takeValue(m_args, i, QStringLiteral("--approve"), &value)) {
            if (!setApprove(value))
                return Usage;
        } else if (takeValue(m_args, i, QStringLiteral("--max-turns"), &value)) {
            m_maxTurns = value.toInt(&ok);
            if (!ok || m_maxTurns < 1)
                return usageError(QStringLiteral("--max-turns needs a positive whole number"));
        } else if (takeValue(m_args, i, QStringLiteral("--tool-search"), &value)) {
            m_toolSearch = value.toInt(&ok);
            if (!ok || m_toolSearch < 0)
                return usageError(QStringLiteral(
                        "--tool-search needs a whole number of tools (0: always every tool)"));
        } else if (arg.startsWith(QLatin1String("--"))) {
            return usageError(QStringLiteral("run: unknown or incomplete option '%1'").arg(arg));
        } else {
            positional << arg;
        }
    }
    if (positional.size() != 1 || positional.first().trimmed().isEmpty())
        return usageError(QStringLiteral("run needs one PROMPT (quote it)"));
    m_prompt = positional.first();
    QString whyNot;
    if (!Engine::ProviderConfig::fromEnvironment(Engine::ProcessEnvironment::original(), &whyNot)) {
        err(QStringLiteral("switchboard-cli run: no model configured: %1").arg(whyNot));
        return Usage;
    }
    if (!loadConfig())
        return InvalidConfig;
    startServers();
    whenSettled([this] { startRun(); });
    return -1;
}

void Application::startRun()
{
    m_engineParent = new QObject(this);
    for (const QString &name : m_session->manager()->serverNames()) {
        const ServerStatus s = m_session->manager()->status(name);
        if (s.state == ServerState::Failed)
            err(QStringLiteral("server '%1' failed (its tools are unavailable): %2")
                        .arg(name, s.reason));
        else if (s.state == ServerState::Untrusted)
            err(QStringLiteral("server '%1' is not trusted yet (its tools are unavailable): %2")
                        .arg(name, trustHint(name)));
    }
    registry(); // reports the tools it rejected
    const auto providerConfig = *Engine::ProviderConfig::fromEnvironment(
            Engine::ProcessEnvironment::original(), nullptr);
    m_session->setModel(providerConfig);
    Engine::LlmProvider *provider
            = Engine::createProvider(providerConfig, m_engineParent).release();
    provider->setParent(m_engineParent);

    m_session->setGate(terminalGate());
    Engine::ToolRunner *runner = m_session->runner();
    connect(runner, &Engine::ToolRunner::warning, this, [](const QString &text) { err(text); });

    auto *store = new Engine::ConversationStore(m_engineParent);
    Engine::AgentOptions options;
    options.maxTurns = m_maxTurns;
    options.toolSearchThreshold = m_toolSearch;
    auto *agent = m_session->createAgent(provider, options, Engine::Session::AgentUse::Interactive,
                                         m_engineParent);
    agent->setStore(store);
    agent->newConversation(m_prompt.left(60), m_workspace);

    auto failed = std::make_shared<QString>();
    auto denied = std::make_shared<int>(0);
    connect(agent, &Engine::Agent::textDelta, this, [this](const QString &delta) {
        if (!m_json) {
            out(delta);
            std::fflush(stdout);
        }
    });
    connect(agent, &Engine::Agent::toolStarted, this,
            [](const QString &, const QString &name, const Json &args) {
                err(QStringLiteral("[tool] %1 %2")
                            .arg(name, QString::fromStdString(args.dump(
                                               -1, ' ', false, Json::error_handler_t::replace))));
            });
    connect(agent, &Engine::Agent::toolFinished, this,
            [denied](const QString &, const Engine::SharedToolRunResult &shared) {
                const Engine::ToolRunResult &r = *shared;
                if (r.denied)
                    ++*denied;
                const QString state = r.denied           ? QStringLiteral("denied")
                                      : r.timedOut       ? QStringLiteral("timed out")
                                      : r.cancelled      ? QStringLiteral("cancelled")
                                      : r.output.isError ? QStringLiteral("error")
                                                         : QStringLiteral("ok");
                err(QStringLiteral("[tool] → %1: %2")
                            .arg(state, r.output.modelText(200).section(QLatin1Char('\n'), 0, 0)));
            });
    connect(agent, &Engine::Agent::errorOccurred, this, [failed](const QString &message) {
        *failed = message;
        err(QStringLiteral("error: %1").arg(message));
    });
    connect(agent, &Engine::Agent::turnFinished, this,
            [this, agent, failed, denied](const Engine::Usage &usage) {
                if (m_json) {
                    Json messages = Json::array();
                    for (const auto &m : agent->messages())
                        messages.push_back(m.toJson());
                    out(jsonText(Json{
                                {"conversation", agent->conversationId().toStdString()},
                                {"messages", messages},
                                {"usage",
                                 {{"input", usage.inputTokens}, {"output", usage.outputTokens}}}})
                        + QLatin1Char('\n'));
                } else {
                    out(QStringLiteral("\n"));
                }
                err(QStringLiteral("conversation %1").arg(agent->conversationId()));
                finish(!failed->isEmpty() ? ServerFailed : *denied > 0 ? Denied : Ok);
            });
    agent->send(m_prompt);
}

// a2a send URL|AGENT MESSAGE [--stream] [--timeout S] [--json]
int Application::cmdA2aSend()
{
    QStringList positional;
    bool stream = false;
    int timeoutMs = -1;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        if (arg == QLatin1String("--stream")) {
            stream = true;
        } else if (arg == QLatin1String("--json")) {
            m_json = true;
        } else if (takeValue(m_args, i, QStringLiteral("--timeout"), &value)) {
            bool ok = false;
            const double seconds = value.toDouble(&ok);
            if (!ok || seconds <= 0 || seconds > ConfigLoader::kMaxTimeoutSeconds)
                return usageError(QStringLiteral("--timeout needs a positive number of seconds"));
            timeoutMs = std::max(1, int(seconds * 1000));
        } else if (arg.startsWith(QLatin1String("--"))) {
            return usageError(QStringLiteral("a2a send: unknown option '%1'").arg(arg));
        } else {
            positional << arg;
        }
    }
    if (positional.size() != 2)
        return usageError(QStringLiteral("a2a send needs URL|AGENT and MESSAGE"));
    const QString target = positional.at(0);
    const QString message = positional.at(1);
    if (message.trimmed().isEmpty())
        return usageError(QStringLiteral("a2a send: the message is empty"));
    loadConfig(); // the agents come with the session; a broken .mcp.json does not matter here
    const Engine::A2A::Peers &peers = m_session->peers();
    for (const ConfigError &error : peers.errors)
        err(error.toString());
    const bool isUrl = target.contains(QLatin1String("://"));
    QString error;
    std::optional<Engine::A2A::Endpoint> endpoint = Engine::A2A::DelegateAgentTool::resolve(
            peers, isUrl ? QString() : target, isUrl ? target : QString(), &error);
    if (!endpoint) {
        err(tr("a2a send: %1").arg(error));
        return peers.errors.isEmpty() ? Usage : InvalidConfig;
    }
    if (timeoutMs > 0)
        endpoint->timeoutMs = timeoutMs;

    // Streamed whenever the agent can (--stream only shows it): the task id then comes first,
    // so a timeout can cancel the remote task.
    Engine::A2A::SendOptions options;
    options.stream = true;
    const Mcp::Redactor redactor(m_session->secrets());
    m_session->a2aClient()->send(
            *endpoint, message, options,
            [this, stream](const Engine::A2A::StreamEvent &event) {
                if (!stream || m_json)
                    return;
                using Kind = Engine::A2A::StreamEvent::Kind;
                if (event.kind == Kind::ArtifactUpdate && event.artifact)
                    err(tr("[artifact] %1").arg(event.artifact->name));
                else if (event.kind == Kind::Task || event.kind == Kind::StatusUpdate)
                    err(event.status.message
                                ? tr("[%1] %2").arg(Engine::A2A::describe(event.status.state),
                                                    event.status.message->text())
                                : tr("[%1]").arg(Engine::A2A::describe(event.status.state)));
            },
            [this, redactor](const Engine::A2A::Outcome &outcome) {
                using Kind = Engine::A2A::Outcome::Kind;
                const int code = outcome.kind == Kind::Completed     ? Ok
                                 : outcome.kind == Kind::Unreachable ? ServerFailed
                                 : outcome.kind == Kind::TimedOut    ? Timeout
                                                                     : ToolError;
                if (m_json) {
                    static const char *const Outcomes[]
                            = {"completed", "interrupted", "failed", "stopped",
                               "timed-out", "unreachable", "error"};
                    Json json = {
                            {"outcome", Outcomes[int(outcome.kind)]},
                            {"state", outcome.state == Engine::A2A::TaskState::Unknown
                                              ? ""
                                              : Engine::A2A::stateName(outcome.state,
                                                                       Engine::A2A::Version::V1_0)},
                            {"text", redactor.redactText(outcome.text).toStdString()},
                            {"taskId", outcome.taskId.toStdString()},
                            {"contextId", outcome.contextId.toStdString()},
                            {"protocol", outcome.envelope ? "envelope"
                                         : outcome.version == Engine::A2A::Version::V0_3 ? "0.3"
                                                                                         : "1.0"}};
                    if (!outcome.error.isEmpty())
                        json["error"] = redactor.redactText(outcome.error).toStdString();
                    out(jsonText(json) + QLatin1Char('\n'));
                } else if (outcome.ok()) {
                    out(redactor.redactText(outcome.text) + QLatin1Char('\n'));
                } else {
                    err(redactor.redactText(outcome.summary()));
                    if (outcome.kind == Kind::Interrupted)
                        err(tr("the agent is waiting: task %1, context %2")
                                    .arg(outcome.taskId, outcome.contextId));
                }
                finish(code);
            });
    return -1;
}

// auth login SERVER | auth logout SERVER | auth status
int Application::cmdAuth()
{
    const QString sub = m_args.isEmpty() ? QString() : m_args.takeFirst();
    if (sub == QLatin1String("status")) {
        if (!m_args.isEmpty())
            return usageError(
                    QStringLiteral("auth status: unexpected argument '%1'").arg(m_args.first()));
        return authStatus();
    }
    if (sub != QLatin1String("login") && sub != QLatin1String("logout"))
        return usageError(
                QStringLiteral("'auth' needs 'login SERVER', 'logout SERVER' or 'status'"));
    if (m_args.size() != 1)
        return usageError(QStringLiteral("auth %1: name one server").arg(sub));
    const QString name = m_args.takeFirst();
    if (!loadConfig())
        return InvalidConfig;
    const ServerConfig *server = m_session->config().find(name);
    if (!server) {
        err(tr("no server named '%1'").arg(name));
        return Usage;
    }
    if (server->type != TransportType::Http) {
        err(tr("'%1' is not a remote server (\"url\" with Streamable HTTP): there is nothing "
               "to sign in to")
                    .arg(name));
        return Usage;
    }
    if (sub == QLatin1String("logout")) {
        if (!m_session->signIn()->authorizerFor(*server)) {
            err(tr("'%1' sends its own Authorization header (in \"headers\"): Switchboard "
                   "keeps no tokens for it")
                        .arg(name));
            return Usage;
        }
        m_session->signIn()->signOut(name);
        m_session->signIn()->whenSaved([this, name] {
            out(tr("signed out of %1: its tokens are forgotten").arg(name) + QLatin1Char('\n'));
            finish(Ok);
        });
        return -1;
    }
    authLogin(name);
    return -1;
}

// Connects; a server that wants the user gets the browser (the URL printed too, for a
// machine without one), then is connected again with the tokens.
void Application::authLogin(const QString &name)
{
    auto report = [this, name] {
        const ServerStatus status = m_session->manager()->status(name);
        if (status.state != ServerState::Connected) {
            err(tr("%1: %2").arg(name, status.reason));
            finish(ServerFailed);
            return;
        }
        const Engine::SignIn::Status signIn = m_session->signIn()->status(name);
        m_session->signIn()->whenSaved([this, name, signIn] {
            QString text = signIn.state == Engine::SignIn::State::SignedIn
                                   ? tr("signed in to %1 (authorization server %2)")
                                             .arg(name, signIn.detail)
                                   : tr("%1 is connected; it asked for no sign-in").arg(name);
            if (signIn.state == Engine::SignIn::State::SignedIn && signIn.memoryOnly)
                text += QLatin1Char('\n')
                        + tr("no keychain answered: the tokens were kept in memory only and "
                             "are gone when this command ends");
            out(text + QLatin1Char('\n'));
            finish(Ok);
        });
    };
    startServers({name});
    whenSettled([this, name, report] {
        if (m_session->manager()->status(name).state == ServerState::Connected
            || m_session->signIn()->status(name).state != Engine::SignIn::State::Needed) {
            report();
            return;
        }
        m_session->signIn()->signInNow(name, [this, name, report](bool ok, const QString &why) {
            if (!ok) {
                err(tr("%1: sign-in failed: %2").arg(name, why));
                finish(ServerFailed);
                return;
            }
            m_session->manager()->restartServer(name);
            whenSettled(report);
        });
    });
}

// Every remote server: whether the keychain holds its tokens.
int Application::authStatus()
{
    if (!loadConfig())
        return InvalidConfig;
    auto servers = std::make_shared<QList<ServerConfig>>();
    for (const ServerConfig &server : m_session->config().servers) {
        if (server.type == TransportType::Http && m_session->signIn()->authorizerFor(server))
            servers->append(server);
    }
    if (servers->isEmpty()) {
        out(tr("no remote server here signs in") + QLatin1Char('\n'));
        return Ok;
    }
    auto left = std::make_shared<int>(int(servers->size()));
    for (const ServerConfig &server : std::as_const(*servers)) {
        const QString key = Mcp::OAuth::canonicalResource(QUrl(server.url));
        m_session->signIn()->store()->prepare(key, [this, servers, left] {
            if (--*left > 0)
                return;
            for (const ServerConfig &each : std::as_const(*servers)) {
                const auto grant = m_session->signIn()->store()->grant(
                        Mcp::OAuth::canonicalResource(QUrl(each.url)));
                out(grant ? tr("%1: signed in (authorization server %2, since %3)")
                                    .arg(each.name, grant->issuer,
                                         grant->obtained.toLocalTime().toString(Qt::ISODate))
                          : tr("%1: not signed in").arg(each.name));
                out(QStringLiteral("\n"));
            }
            if (!m_session->signIn()->store()->backendError().isEmpty())
                err(tr("the keychain did not answer (%1): nothing is kept across runs")
                            .arg(m_session->signIn()->store()->backendError()));
            finish(Ok);
        });
    }
    return -1;
}

// a2a serve [--host H] [--port P] [--token T] [--max-tasks N]
int Application::cmdA2aServe()
{
    Engine::A2A::ServerOptions options;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        if (takeValue(m_args, i, QStringLiteral("--host"), &value)) {
            options.host = value;
        } else if (takeValue(m_args, i, QStringLiteral("--port"), &value)) {
            bool ok = false;
            const uint port = value.toUInt(&ok);
            if (!ok || port > 65535)
                return usageError(QStringLiteral("--port needs a number from 0 to 65535"));
            options.port = quint16(port);
        } else if (takeValue(m_args, i, QStringLiteral("--token"), &value)) {
            if (value.trimmed().isEmpty())
                return usageError(QStringLiteral("--token needs a value"));
            options.token = value.trimmed();
        } else if (takeValue(m_args, i, QStringLiteral("--max-tasks"), &value)) {
            bool ok = false;
            options.maxConcurrentTasks = value.toInt(&ok);
            if (!ok || options.maxConcurrentTasks < 1 || options.maxConcurrentTasks > 1000)
                return usageError(QStringLiteral("--max-tasks needs a number from 1 to 1000"));
        } else {
            return usageError(QStringLiteral("a2a serve: unknown argument '%1'").arg(arg));
        }
    }
    if (options.token.isEmpty())
        options.token = qEnvironmentVariable("SWITCHBOARD_A2A_TOKEN").trimmed();
    QString whyNot;
    const auto provider = Engine::ProviderConfig::fromEnvironment(
            Engine::ProcessEnvironment::original(), &whyNot);
    if (!provider) {
        err(QStringLiteral("switchboard-cli a2a serve: no model configured: %1").arg(whyNot));
        return Usage;
    }
    if (!loadConfig())
        return InvalidConfig;
    const auto serve = [this, provider = *provider](const Engine::A2A::ServerOptions &options) {
        m_engineParent = new QObject(this);
        m_session->setModel(provider);
        auto *store = new Engine::ConversationStore(m_engineParent);
        auto *executor
                = new Engine::A2A::AgentExecutor(m_session.get(), provider, store, m_engineParent);
        Engine::A2A::ServerOptions described = options;
        executor->describe(described);
        auto *server = new Engine::A2A::Server(described, executor, m_engineParent);
        connect(server, &Engine::A2A::Server::taskChanged, this, [server](const QString &id) {
            const std::optional<Engine::A2A::InboundTaskInfo> task = server->task(id);
            if (!task || !Engine::A2A::isTerminal(task->state))
                return;
            err(tr("task %1 %2%3")
                        .arg(id, Engine::A2A::describe(task->state),
                             task->refusedTools.isEmpty()
                                     ? QString()
                                     : tr(" (refused: %1)")
                                               .arg(task->refusedTools.join(
                                                       QStringLiteral(", ")))));
        });
        QString error;
        if (!server->start(&error)) {
            err(QStringLiteral("switchboard-cli a2a serve: %1").arg(error));
            finish(Usage);
            return;
        }
#ifdef Q_OS_UNIX
        if (::pipe(g_signalPipe) == 0) {
            auto *notifier
                    = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, m_engineParent);
            connect(notifier, &QSocketNotifier::activated, this, [this, server] {
                char byte = 0;
                [[maybe_unused]] const auto got = ::read(g_signalPipe[0], &byte, 1);
                err(tr("stopping"));
                server->stop();
                finish(Ok);
            });
            std::signal(SIGTERM, onStopSignal);
            std::signal(SIGINT, onStopSignal);
        }
#endif
        // The line a script waits for.
        out(tr("serving %1 on %2").arg(m_workspace, server->baseUrl()) + QLatin1Char('\n'));
        std::fflush(stdout);
    };
    startServers();
    if (!options.token.isEmpty() || Engine::A2A::Server::isLoopback(options.host)) {
        whenSettled([serve, options] { serve(options); });
        return -1;
    }
    // Off loopback without a token given: the keychain may hold one.
    m_session->secretStore()->read(
            QStringLiteral("a2a-serve-token"), this,
            [this, serve, options](const Engine::SecretStore::Result &result) mutable {
                if (result.status == Engine::SecretStore::Result::Ok)
                    options.token = result.secret.trimmed();
                whenSettled([serve, options] { serve(options); });
            });
    return -1;
}

void Application::finish(int code)
{
    if (m_finishing)
        return;
    m_finishing = true;
    if (!m_session) {
        QCoreApplication::exit(code);
        return;
    }
    connect(m_session->manager(), &Manager::stopped, this, [code] { exitNow(code); });
    QTimer::singleShot(StopGraceMs, this, [code] { exitNow(code); });
    m_session->manager()->stop();
}

} // namespace Cli
