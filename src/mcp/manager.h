#pragma once

#include <mcp/client/client.h>
#include <mcp/client/eracache.h>
#include <mcp/config/config.h>
#include <mcp/transport/transportfactory.h>

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QThread>

#include <functional>
#include <map>
#include <optional>

namespace Mcp {

enum class ServerState { Pending, Connected, Failed, Disabled, Restarting, Untrusted };
QString serverStateName(ServerState state); // "pending", "connected", ... (stable, for the CLI)

struct ServerStatus
{
    QString name;
    ServerState state = ServerState::Pending;
    QString reason; // why it failed (or why it is restarting)
    int toolCount = 0;
    int restarts = 0; // crash restarts so far
};

// Servers starting at once unless a setting says otherwise: enough for a normal workspace,
// few enough that 50 servers do not fork 50 processes in the same instant.
inline constexpr int DefaultMaxConcurrentStarts = 8;

// A request a server may send back to the client (elicitation/create, sampling/createMessage)
// and who answers it: the face (a dialog, a terminal, a fixed policy). Only what has an answerer
// is advertised, under `capability` with `settings` (e.g. "elicitation", {"form": {}}).
struct ServerRequestAnswerer
{
    std::string capability;
    Json settings = Json::object();
    // Exactly one reply. `server` is the configuration's name for the asking server.
    std::function<void(const QString &server, const Json &params, Client::Reply reply)> answer;
};

struct ManagerOptions
{
    QString workspaceDir;
    // By method: the server-to-client requests this client answers besides roots/list.
    std::map<std::string, ServerRequestAnswerer> answerers;
    // The extensions this client implements, as capabilities.extensions members (the face
    // that shows MCP Apps views adds io.modelcontextprotocol/ui).
    Json extensions = Json::object();
    // Crash restarts: at most this many within the window, then the server stays failed.
    int restartBudget = 3;
    int restartWindowMs = 60000;
    int restartDelayMs = 500; // grows with each restart inside the window
    // How transports are set up (stdio's shutdown stages and sandbox, HTTP's close timeout).
    TransportSettings transports;
    // At most this many servers are starting (launched, not yet initialized) at once; the
    // rest wait their turn as "pending". A workspace with 50 servers must not fork 50 Node
    // processes at the same moment on a laptop; 8 keeps a typical setup fully parallel.
    int maxConcurrentStarts = DefaultMaxConcurrentStarts;
    // The traffic observer sees at most this much of each message (64 KiB: a whole
    // initialize or tools/call request; a 20 MB result is not worth copying into a log).
    qsizetype maxTrafficRecordBytes = 64 * 1024;
    // Where the era each server spoke is remembered (EraCache), so that a legacy server is not
    // probed at every start; empty: nowhere.
    QString eraCacheFile;
    // Stdio servers start on a thread of the Manager's own (the process, era probe, initialize
    // and tools/list) and come to the Manager's thread once they are ready or have failed, so
    // that a busy GUI thread (a window being built and painted) does not hold up their
    // handshake. Off for the CLI, whose thread has nothing else to do.
    bool startOnThread = false;
    // Reads the keychain secrets a server's definition names (ServerConfig::secretReferences)
    // before each start of it: `done` gets the values by name (a missing one left out) or why
    // the keychain could not be read, once, unless `context` (the Manager) is gone first. Not
    // set: such a server fails, saying so.
    using SecretsRead
            = std::function<void(const QHash<QString, QString> &values, const QString &error)>;
    std::function<void(const ServerConfig &server, QObject *context, SecretsRead done)> readSecrets;
};

// What reload() will do, so a UI can say which servers restart before it applies.
struct ReloadPlan
{
    QStringList added, removed, changed, unchanged;
    /// Of `added` and `changed`, the servers that do not start: they wait for the user's
    /// trust (ServerConfig::untrusted).
    QStringList untrusted;
    static ReloadPlan compute(const McpConfig &from, const McpConfig &to);
};

// Owns one Client per configured server. Starts them all at once and fail-soft: one server's
// failure never holds up another. Publishes each server's state by signal, enforces the
// startup timeout, restarts a server that crashes after it was connected (within a budget;
// never one that never initialized), reloads a new configuration by restarting only the
// servers whose settings changed, and stops everything in an orderly way. Owned by the
// application (window or CLI).
class Manager : public QObject
{
    Q_OBJECT
public:
    explicit Manager(ManagerOptions options, QObject *parent = nullptr);
    ~Manager() override;

    void start(const McpConfig &config);
    ReloadPlan reload(const McpConfig &config);
    // Closes every server; stopped() follows once all processes are gone.
    void stop();
    // ManagerOptions::maxConcurrentStarts from now on (a raised limit starts waiting servers).
    void setMaxConcurrentStarts(int count);

    QStringList serverNames() const;
    ServerStatus status(const QString &name) const;
    const ServerConfig *serverConfig(const QString &name) const;
    // The connected client, or null.
    Client *client(const QString &name) const;
    // What roots/list answers: the workspace folder as a file:// URI (none without one).
    static Json workspaceRoots(const QString &workspaceDir);
    // The last lines the server's process wrote to stderr, its secrets redacted (Redactor).
    QStringList stderrTail(const QString &name) const;
    // True when no server is pending or restarting.
    bool isSettled() const;

    void restartServer(const QString &name);
    void setServerEnabled(const QString &name, bool enabled);

    // Sees every message each server's transport sends or receives (the protocol log): at
    // most ManagerOptions::maxTrafficRecordBytes of `text` (cut at a UTF-8 boundary), plus the
    // whole message's size. `text` is only valid during the call and is not redacted. Applies
    // to running servers and to every one launched later (restarts, reloads). One observer at
    // a time; an empty function removes it, leaving only a null test per message. The
    // observer must not call back into the Manager.
    using TrafficObserver = std::function<void(const QString &server, TrafficDirection direction,
                                               QByteArrayView text, qint64 fullSize)>;
    void setTrafficObserver(TrafficObserver observer);
    bool hasTrafficObserver() const { return bool(m_trafficObserver); }

signals:
    void serverStatusChanged(const QString &name);
    void toolsChanged(const QString &name);
    void serverStderr(const QString &name, const QString &line);
    void serverWarning(const QString &name, const QString &text);
    // Transport::note(): an HTTP request and its status, while a traffic observer is set.
    void serverTransportNote(const QString &name, const QString &text);
    void serverNotification(const QString &name, const QString &method, const Mcp::Json &params);
    // A remote server wants credentials (its WWW-Authenticate challenge); it has failed for now.
    void authorizationRequired(const QString &name, const QString &challenge);
    void settled();
    void stopped();

private:
    struct Server
    {
        ServerConfig config;
        ServerStatus status;
        Client *client = nullptr;
        QTimer *startupTimer = nullptr;
        QTimer *restartTimer = nullptr;
        bool everConnected = false; // this client reached Ready
        bool enabled = true;
        QList<qint64> restartTimes;
        QStringList stderrTail;
        // What spawn() starts when the definition names keychain secrets: `config` with their
        // values in (config keeps the references, so a reload compares what was written).
        std::optional<ServerConfig> withSecrets;
        quint64 launchTicket = 0; // a keychain answer for an earlier launch is dropped
    };

    void addServer(const ServerConfig &config);
    void launch(Server &server);
    void readSecrets(Server &server);
    void launchNow(Server &server); // spawns, or queues behind maxConcurrentStarts
    void spawn(Server &server);
    void launchWaiting();
    int startingCount() const;
    void onClientState(Client *client, Client::State state);
    void setStatus(Server &server, ServerState state, const QString &reason = QString());
    void retire(Server &server);
    void removeServer(const QString &name);
    void maybeSettled();
    void maybeStopped();
    Server *serverFor(Client *client);
    void installTrafficTap(Client *client, const QString &name);
    // A client still starting on the start thread comes to this one (a blocking hand-over
    // between two of that thread's events, never inside its work) and is owned again.
    void bringHome(Client *client);
    void setTap(Client *client, Transport::TrafficTap tap);
    bool isAbroad(const Client *client) const;

    ManagerOptions m_options;
    EraCache m_eras;
    std::map<QString, Server> m_servers; // sorted by name, stable addresses
    QStringList m_waiting; // servers ready to spawn once fewer than maxConcurrentStarts start
    quint64 m_launches = 0;
    int m_retiring = 0;
    bool m_stopping = false;
    bool m_wasSettled = false;
    TrafficObserver m_trafficObserver;
    QThread *m_startThread = nullptr; // startOnThread: created at the first stdio spawn
    QObject *m_startAnchor = nullptr; // lives there: the hand-overs are run through it
};

} // namespace Mcp
