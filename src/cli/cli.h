#pragma once

#include <mcp/config/config.h>
#include <mcp/manager.h>
#include <mcp/registry/serverjson.h>

#include <engine/agent/agent.h>
#include <engine/install/installedserver.h>
#include <engine/serverrequests/elicitation.h>
#include <engine/session.h>

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <memory>
#include <span>
#include <variant>

namespace Mcp::Registry {
class RegistryClient;
}

namespace Cli {

// switchboard-cli: the command-line face of Switchboard. Its commands, output formats and exit
// codes are a contract that tests and benchmarks drive (usageText() lists them; README too).
// Parses the arguments, runs one command on the event loop and exits the application with
// the contract's exit code. Owned by main().
class TerminalApprovalGate;
class TerminalHost;

class Application : public QObject
{
    Q_OBJECT
public:
    enum ExitCode {
        Ok = 0,
        Usage = 1,
        InvalidConfig = 2,
        ServerFailed = 3,
        ToolError = 4,
        Timeout = 5,
        Denied = 6,
    };

    explicit Application(QStringList arguments, QObject *parent = nullptr);
    ~Application() override;

    void run();

private:
    // One row of the command table, commands() in cli.cpp: dispatch() finds the command there
    // and usageText() prints the rows' usage lines in their order.
    struct Command
    {
        QLatin1String name;
        QLatin1String sub;         // "send" of "a2a send", or empty
        QLatin1String named;       // the sub-command as "'auth' needs ..." names it; empty: sub
        int (Application::*run)(); // -1: the command goes on asynchronously
        const char *usage;         // its lines of usageText()
    };
    static std::span<const Command> commands();
    static QString usageText();

    int dispatch(); // -1: the command goes on asynchronously
    int runCommand(const QString &command);
    int usageError(const QString &message);
    void finish(int code); // stops the servers, then exits

    // Shared by the commands (cli.cpp)
    bool loadConfig();
    void startServers(const QStringList &only = {});
    void whenSettled(std::function<void()> next);
    int connectOne(const QString &server, std::function<void(Mcp::Client *)> connected);
    QString trustHint(const QString &server) const;
    bool setApprove(const QString &value);
    TerminalApprovalGate *terminalGate();
    // The session's registry, its rejections reported (tools, run).
    Engine::ToolRegistry *registry();

    // servers, tools, call (cliservers.cpp)
    int cmdServers();
    int cmdTools();
    int cmdCall();
    int connectAndPrint(const QString &command, void (Application::*print)());
    void printServers();
    void printTools();
    void runCalls();
    void issueCall();
    void auditCall(const Mcp::ToolResult &result);

    // resources, read, prompts, prompt (clifeatures.cpp)
    int cmdResources();
    int cmdRead();
    int cmdPrompts();
    int cmdPrompt();
    // SERVER [MORE...] [--json] for the listing commands; false: a usage error was printed.
    bool serverArguments(const QString &command, int count, const QString &usage,
                         QStringList *positional);

    // conversations, export (cliconversations.cpp)
    int cmdConversations();
    int cmdExport();

    // run (clirun.cpp)
    int cmdRun();
    void startRun();

    // trust, audit, config check, config import (clitrust.cpp)
    int cmdTrust();
    int cmdAudit();
    int cmdConfigCheck();
    int cmdConfigImport();
    int checkPeers(const Engine::A2A::Peers &peers, const QString &described);

    // auth login, logout, status (cliauth.cpp)
    int cmdAuthLogin();
    int cmdAuthLogout();
    int cmdAuthStatus();
    const Mcp::ServerConfig *authServer(const QString &sub, int *code);
    void authLogin(const QString &name);

    // registry search, registry show (cliregistry.cpp)
    int cmdRegistrySearch();
    int cmdRegistryShow();
    QUrl registryUrl();
    Mcp::Registry::RegistryClient *newRegistryClient(const QUrl &base);
    // The registry's answer; or null, after saying why and ending with exit 3. An answer the
    // registry gave before (it could not be asked now) is said to be one.
    // (ListPage or Listing; defined in cliregistry.cpp.)
    template<typename Answer>
    const Answer *answered(const std::variant<Answer, QString> &result);

    // install, uninstall (cliinstall.cpp)
    int cmdInstall();
    int cmdUninstall();
    int cmdUpdate();
    std::optional<Engine::InstalledServer> findInstalled(const QString &name, const char *command);
    void startInstalled(const QString &name);
    int installBundle(const QString &path, const QStringList &sets, bool start);
    void downloadBundle(const Mcp::Registry::Package &package, const QStringList &sets, bool start);

    // secret set, delete, list (clisecrets.cpp)
    int cmdSecretSet();
    int cmdSecretDelete();
    int cmdSecretList();
    int secretName(const QString &sub, QString *name);

    // a2a send, serve (clia2a.cpp)
    int cmdA2aSend();
    int cmdA2aServe();

    QStringList m_args; // after the global options
    QString m_workspace;
    QString m_configFile;
    Mcp::Sandbox::Mode m_bashSandbox = Mcp::Sandbox::Mode::Auto;                 // --sandbox
    Engine::Elicitation::Policy m_elicit = Engine::Elicitation::Policy::Decline; // --elicit
    bool m_elicitGiven = false; // else a terminal is asked, when there is one
    bool m_json = false;
    // What the session asks of the terminal; made by loadConfig(), outliving the session.
    std::unique_ptr<TerminalHost> m_host;
    std::unique_ptr<Engine::Session> m_session; // made by loadConfig()
    bool m_finishing = false;
    bool m_rejectionsHeard = false; // registry()

    // call
    QString m_callServer;
    std::string m_callTool;
    Mcp::Json m_callArgs;
    Mcp::RawJson m_callArgsText;
    int m_callTimeoutMs = -1;
    int m_repeat = 0; // 0: a single call whose result is printed
    int m_concurrency = 1;
    int m_issued = 0;
    int m_completed = 0;
    int m_toolErrors = 0;
    int m_timeouts = 0;
    int m_otherErrors = 0;
    QString m_firstError;
    QElapsedTimer m_callClock;

    // run
    QObject *m_engineParent = nullptr; // owns provider, agent, gate
    QString m_prompt;
    QString m_approve;
    TerminalApprovalGate *m_gate = nullptr;
    int m_maxTurns = 20;
    int m_toolSearch = Engine::AgentOptions::DefaultToolSearchThreshold;
};

} // namespace Cli
