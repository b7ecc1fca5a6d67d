#include "cli.h"
#include "cliinternal.h"

#include "terminalgate.h"
#include "terminalhost.h"
#include "terminaltext.h"

#include <engine/serverrequests/elicitation.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Mcp;

namespace Cli {

namespace Internal {

void out(const QString &text)
{
    TerminalText::write(stdout, text);
}

void err(const QString &text)
{
    TerminalText::write(stderr, text + QLatin1Char('\n'));
}

QString jsonText(const Json &value, int indent)
{
    return QString::fromStdString(value.dump(indent, ' ', false, Json::error_handler_t::replace));
}

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

} // namespace Internal

using namespace Internal;

namespace {
// How long stop() may take before the CLI exits anyway: two shutdown stages plus slack.
constexpr int StopGraceMs = 5000;
// The CLI's shutdown stage: servers get this long after stdin closes (then SIGTERM, then
// SIGKILL). Shorter than the GUI's: nobody waits on a terminal for a slow exit.
constexpr int CliShutdownStageMs = 1000;

// Every server process is gone and the output is written: end here. Freeing what the run
// built (a 10,000-tool list is ~200,000 allocations) would only delay the exit.
[[noreturn]] void exitNow(int code)
{
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
}

// `/` or the home folder: too broad to be taken for a workspace without being named.
bool isBroadFolder(const QString &folder)
{
    const QString canonical = QFileInfo(folder).canonicalFilePath();
    return canonical == QDir::rootPath()
           || canonical == QFileInfo(QDir::homePath()).canonicalFilePath();
}
} // namespace

// Every command, in the order of usageText(); dispatch() looks the command up here.
std::span<const Application::Command> Application::commands()
{
    using L = QLatin1String;
    static const Command table[] = {
            {L("servers"),
             {},
             {},
             &Application::cmdServers,
             "  servers [--json]            connect every configured server; a line each:\n"
             "                              NAME STATE TOOLS [reason]\n"},
            {L("tools"),
             {},
             {},
             &Application::cmdTools,
             "  tools [--json]              every registered tool name with its risk\n"},
            {L("call"),
             {},
             {},
             &Application::cmdCall,
             "  call SERVER TOOL [ARGS_JSON] [--timeout S] [--json] [--repeat N] "
             "[--concurrency C]\n"
             "       [--approve ask|deny|yes]  (what a server asking your model gets)\n"
             "                              call an MCP tool directly, no model\n"},
            {L("resources"),
             {},
             {},
             &Application::cmdResources,
             "  resources SERVER [--json]   a server's resources and resource templates\n"},
            {L("read"),
             {},
             {},
             &Application::cmdRead,
             "  read SERVER URI [--json]    read one resource (text printed, binary described)\n"},
            {L("prompts"),
             {},
             {},
             &Application::cmdPrompts,
             "  prompts SERVER [--json]     a server's prompts and their arguments\n"},
            {L("prompt"),
             {},
             {},
             &Application::cmdPrompt,
             "  prompt SERVER NAME [ARGS_JSON] [--json]\n"
             "                              get a prompt's messages; ARGS_JSON: {\"arg\": "
             "\"v\"}\n"},
            {L("run"),
             {},
             {},
             &Application::cmdRun,
             "  run PROMPT [--approve ask|deny|yes] [--max-turns N] [--tool-search N] [--json]\n"
             "                              the agent loop, headless (needs OPENAI_API_KEY or\n"
             "                              ANTHROPIC_API_KEY, or OPENAI_BASE_URL for a local "
             "server);\n"
             "                              above --tool-search N tools (default 40, 0: off) the\n"
             "                              model finds the servers' tools with search_tools\n"},
            {L("conversations"),
             {},
             {},
             &Application::cmdConversations,
             "  conversations [--search TEXT] [--all] [--json]\n"
             "                              this workspace's saved conversations (--all: every\n"
             "                              workspace's), newest first; --search: those whose\n"
             "                              messages say TEXT, with the line that does\n"},
            {L("export"),
             {},
             {},
             &Application::cmdExport,
             "  export ID [--format md|html|json] [--output FILE]\n"
             "                              a saved conversation as Markdown (the default), one\n"
             "                              self-contained HTML page or JSON; ID or its start\n"},
            {L("trust"),
             {},
             {},
             &Application::cmdTrust,
             "  trust [SERVER...] [--revoke]\n"
             "                              trust (or stop trusting) this folder's .mcp.json\n"
             "                              servers: they start only once trusted\n"},
            {L("audit"),
             {},
             {},
             &Application::cmdAudit,
             "  audit [--tail N] [--json]   the last N (20) records of the audit log: approval\n"
             "                              decisions and tool runs\n"},
            {L("auth"), L("login"), L("login SERVER"), &Application::cmdAuthLogin,
             "  auth login SERVER           sign in to a remote server (OAuth, in the browser);\n"
             "                              the tokens go to the keychain\n"},
            {L("auth"), L("logout"), L("logout SERVER"), &Application::cmdAuthLogout,
             "  auth logout SERVER          forget a server's tokens\n"},
            {L("auth"),
             L("status"),
             {},
             &Application::cmdAuthStatus,
             "  auth status                 which remote servers are signed in\n"},
            {L("a2a"),
             L("send"),
             {},
             &Application::cmdA2aSend,
             "  a2a send URL|AGENT MESSAGE [--stream] [--timeout S] [--json]\n"
             "                              hand a task to another agent (A2A); prints its\n"
             "                              report. Agents: .a2a.json, your a2a.json\n"},
            {L("a2a"),
             L("serve"),
             {},
             &Application::cmdA2aServe,
             "  a2a serve [--host H] [--port P] [--token T] [--max-tasks N]\n"
             "                              serve this workspace as an A2A agent until SIGTERM\n"
             "                              (127.0.0.1 unless told; another address needs a\n"
             "                              token: --token, $SWITCHBOARD_A2A_TOKEN or the\n"
             "                              keychain's 'a2a-serve-token'). Inbound tasks may\n"
             "                              use read-only tools only\n"},
            {L("registry"),
             L("search"),
             {},
             &Application::cmdRegistrySearch,
             "  registry search [TEXT] [--json] [--registry URL]\n"
             "                              servers in the MCP Registry (--registry, else\n"
             "                              $SWITCHBOARD_REGISTRY, else the official one)\n"},
            {L("registry"),
             L("show"),
             {},
             &Application::cmdRegistryShow,
             "  registry show NAME [--json] [--registry URL]\n"
             "                              one server's latest entry: its packages, the\n"
             "                              command line each runs, what it asks for\n"},
            {L("install"),
             {},
             {},
             &Application::cmdInstall,
             "  install NAME|FILE.mcpb [--scope user|workspace] [--set KEY=VALUE]... [--name N]\n"
             "          [--package I | --remote I] [--no-start] [--registry URL]\n"
             "                              install a registry entry into your mcp.json (or\n"
             "                              the workspace's) and start it; secrets go to the\n"
             "                              keychain; a missing secret is asked without echo;\n"
             "                              an MCP Bundle (.mcpb) is checked, extracted and\n"
             "                              added to your mcp.json\n"},
            {L("uninstall"),
             {},
             {},
             &Application::cmdUninstall,
             "  uninstall NAME              remove a server from your mcp.json (else the\n"
             "                              workspace's) with the keychain secrets its install\n"
             "                              made and an extension's folder\n"},
            {L("update"),
             {},
             {},
             &Application::cmdUpdate,
             "  update NAME [FILE.mcpb] [--set KEY=VALUE]... [--no-start] [--registry URL]\n"
             "                              a registry server to the registry's latest\n"
             "                              version, an extension to the newer one in FILE;\n"
             "                              its answers and settings are kept\n"},
            {L("secret"), L("set"), L("set NAME"), &Application::cmdSecretSet,
             "  secret set NAME             store a server's secret in the keychain (typed\n"
             "                              without echo, or read from standard input); a\n"
             "                              server reads it as ${secret:NAME} in args, env or\n"
             "                              headers (exit 3: no keychain, nothing stored)\n"},
            {L("secret"), L("delete"), L("delete NAME"), &Application::cmdSecretDelete,
             "  secret delete NAME          delete a server's secret from the keychain\n"},
            {L("secret"),
             L("list"),
             {},
             &Application::cmdSecretList,
             "  secret list [--json]        the secrets' names (never values) and the servers\n"
             "                              that read each\n"},
            {L("config"),
             L("check"),
             {},
             &Application::cmdConfigCheck,
             "  config check [FILE]         validate; errors as FILE:LINE:COL: message\n"},
            {L("config"),
             L("import"),
             {},
             &Application::cmdConfigImport,
             "  config import claude-desktop|vscode|cursor FILE\n"
             "                              print the converted .mcp.json\n"},
    };
    return table;
}

QString Application::usageText()
{
    QString text = QStringLiteral(
            "usage: switchboard-cli [--workspace DIR] [--config FILE] [--sandbox on|off|auto] "
            "[--elicit P] COMMAND\n"
            "  --elicit decline|cancel|accept-defaults\n"
            "                              what a server asking you something gets (decline)\n"
            "  --sandbox on|off|auto       run the built-in bash under bubblewrap: only the\n"
            "                              workspace is writable (auto, the default: where bwrap\n"
            "                              works)\n");
    for (const Command &command : commands())
        text += QLatin1String(command.usage);
    return text
           + QStringLiteral(
                   "exit codes: 0 ok, 1 usage, 2 invalid config, 3 a server failed, 4 tool "
                   "returned isError, 5 timeout, 6 denied\n"
                   "  (a2a send: 3 the agent is unreachable, 4 the task failed, was rejected or "
                   "canceled,\n"
                   "   or needs input or credentials, 5 timed out: the remote task was "
                   "canceled)\n");
}

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
    const bool usesWorkspace
            = (command != QLatin1String("config") && command != QLatin1String("secret")
               && command != QLatin1String("registry") && command != QLatin1String("uninstall")
               && command != QLatin1String("update"))
              || (m_args.value(0) == QLatin1String("check") && m_args.size() == 1);
    if (implicitWorkspace && usesWorkspace && isBroadFolder(m_workspace)) {
        err(tr("switchboard-cli: refusing to use %1 as the workspace (it is / or your home "
               "folder: the tools could read every project and your private files there); run "
               "it in a project folder or name one with --workspace DIR")
                    .arg(m_workspace));
        return Usage;
    }
    return runCommand(command);
}

// The command's row of commands(); a command with sub-commands takes the next argument too.
int Application::runCommand(const QString &command)
{
    const auto rows = commands();
    const auto row = std::find_if(rows.begin(), rows.end(),
                                  [&](const Command &c) { return c.name == command; });
    if (row == rows.end())
        return usageError(QStringLiteral("unknown command '%1'").arg(command));
    if (row->sub.isEmpty())
        return (this->*row->run)();
    const QString sub = m_args.isEmpty() ? QString() : m_args.takeFirst();
    QStringList named; // "'a2a' needs 'send' or 'serve'"
    for (const Command &c : rows) {
        if (c.name != command)
            continue;
        if (c.sub == sub)
            return (this->*c.run)();
        named << QLatin1Char('\'') + (c.named.isEmpty() ? c.sub : c.named) + QLatin1Char('\'');
    }
    const QString last = named.takeLast();
    const QString needs
            = named.isEmpty() ? last
                              : named.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
    return usageError(QStringLiteral("'%1' needs %2").arg(command, needs));
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

void Application::startServers(const QStringList &only)
{
    m_session->start(only);
}

void Application::whenSettled(std::function<void()> next)
{
    Manager *manager = m_session->manager();
    if (manager->isSettled())
        next();
    else
        connect(manager, &Manager::settled, this, std::move(next), Qt::SingleShotConnection);
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

Engine::ToolRegistry *Application::registry()
{
    Engine::ToolRegistry *registry = m_session->registry();
    if (!m_rejectionsHeard) {
        m_rejectionsHeard = true;
        // Those turned away while the servers connected, then any later one.
        for (const QString &reason : registry->rejections())
            err(reason);
        connect(registry, &Engine::ToolRegistry::rejected, this,
                [](const QString &, const QString &reason) { err(reason); });
    }
    return registry;
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
