#pragma once

#include "features.h"

#include <mcp/transport/transport.h>
#include <mcp/wire/jsonrpc.h>

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Mcp {

using RequestId = std::int64_t;

// The protocol versions this client speaks, newest first; the first is offered.
inline constexpr const char *SupportedProtocolVersions[]
        = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

// Which generation of MCP a server speaks, named by revision: Rev2025_11_25 (initialize and
// sessions: 2025-11-25 and the revisions before it) or Rev2026_07_28 (server/discover,
// per-request _meta). Unknown until found out.
enum class Era { Unknown, Rev2025_11_25, Rev2026_07_28 };
// "legacy", "modern", "unknown": the names the era cache file and --json have always used
// (kept, so that files and scripts written before go on working).
QString eraName(Era era);
Era eraFromName(const QString &name);

struct ClientOptions
{
    QString serverName;           // used in every message the user may read
    int requestTimeoutMs = 60000; // a tool call's default timeout: 60 s, long enough for slow
                                  // tools, short enough to notice a hang
    // Progress notifications restart a request's timer, but never past this (10 min): a
    // server that reports progress forever must still end.
    int maxRequestTimeoutMs = 10 * 60 * 1000;
    int initializeTimeoutMs = 30000;
    // What this server spoke last time (the era cache), or Unknown. Unknown and 2026-07-28
    // probe with server/discover; 2025-11-25 goes straight to initialize. A guess that fails
    // is re-probed once.
    Era era = Era::Unknown;
    // How long an unknown server may take to answer server/discover before it counts as
    // legacy. A legacy server normally refuses at once (an error costs one round trip).
    int probeTimeoutMs = 3000;
    // Multi-round requests: how many rounds of input one request may ask for.
    int maxInputRounds = 16;
    std::string clientName = "switchboard";
    std::string clientVersion = "0.1.0";
    Json capabilities = Json::object(); // what this client implements (advertise no more)
};

// The syslog levels a server logs at, least severe first (logging, both eras).
inline constexpr const char *LogLevels[]
        = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};

// Where `level` stands in LogLevels (0 for "debug"), or -1 when it is not a log level.
inline int logLevelRank(std::string_view level)
{
    for (int i = 0; i < int(std::size(LogLevels)); ++i) {
        if (level == LogLevels[i])
            return i;
    }
    return -1;
}

struct Progress
{
    double progress = 0;
    std::optional<double> total;
    QString message;
};

struct RequestOptions
{
    int timeoutMs = -1;   // -1: the client's default
    bool untimed = false; // a long-lived request (subscriptions/listen): never times out
    // When set, the request carries a progress token and each notifications/progress for it
    // lands here (and restarts its timer).
    std::function<void(const Progress &)> onProgress;
};

// A tools/call outcome: either the server's result (which may itself be an error result,
// isError) or a failure of the call (timeout, JSON-RPC error, connection lost). The result
// is kept whole, as the server sent it; the accessors read into it without copying.
struct ToolResult
{
    Json raw;                      // the whole result object (null when the call failed)
    std::optional<RpcError> error; // the call failed
    bool isError = false;

    // Every content block (text, image, audio, resource_link, resource), in order.
    const Json &content() const;
    // structuredContent, or null when absent.
    const Json &structuredContent() const;
    bool failed() const { return error.has_value() || isError; }
    // The text blocks joined by newlines, or the failure's message.
    QString text() const;
};

// The 2026-07-28 tasks extension's name (capabilities.extensions).
inline constexpr const char *TasksExtension = "io.modelcontextprotocol/tasks";

// A tools/call response as a ToolResult.
ToolResult toolResultFrom(Response response);

// JSON text that is already serialized (and known to be valid), sent as it is. Lets a caller
// that repeats a request serialize its arguments once.
struct RawJson
{
    std::string text;
};

// One MCP session over one transport: the lifecycle state machine (initialize, initialized,
// tool listing), the table of pending requests with their timeouts and progress, and the
// answers to server-initiated requests. Every request's callback runs exactly once — on a
// result, an error reply, a timeout, a cancel or the end of the connection — unless its
// context object died first. Callbacks never run inside request(). Owned by the Manager (or
// a test); delete it with deleteLater(), never from inside one of its callbacks.
class Client : public QObject
{
    Q_OBJECT
public:
    enum class State { Disconnected, Initializing, Ready, Closing, Closed, Failed };
    Q_ENUM(State)

    using Callback = std::function<void(Response)>;
    using ToolCallback = std::function<void(ToolResult)>;
    using Reply = std::function<void(Response)>;
    using RequestHandler = std::function<void(const Json &params, Reply reply)>;

    // Takes ownership of the transport.
    Client(Transport *transport, ClientOptions options, QObject *parent = nullptr);
    ~Client() override;

    // Starts the transport, initializes, lists the tools, then becomes Ready.
    void connectToServer();
    // Fails every pending request, shuts the transport down, ends in Closed.
    void close();

    State state() const { return m_state; }
    QString errorString() const { return m_error; } // why it Failed
    const ClientOptions &options() const { return m_options; }
    Transport *transport() const { return m_transport; }
    const std::string &protocolVersion() const { return m_protocolVersion; }
    Era era() const { return m_era; }
    const Json &serverInfo() const { return m_serverInfo; }
    // What the server can do, read once into typed flags (features.h), and as it was sent.
    const ServerCapabilities &capabilities() const { return m_capabilities; }
    const Json &serverCapabilities() const { return m_capabilities.json; }
    const QString &instructions() const { return m_instructions; }
    // Tool definitions as the server sent them (objects with at least a string "name").
    const std::vector<Json> &tools() const { return *m_tools; }
    // The same list, shared: it is never changed, only replaced by the next tools/list,
    // so holders (the registry's tools) keep the definitions without copying 10,000 of them.
    std::shared_ptr<const std::vector<Json>> sharedTools() const { return m_tools; }
    const Json *findTool(std::string_view name) const;
    std::size_t pendingRequestCount() const { return m_pending.size(); }

    // Sends a request. `context` (may be null) bounds the callback's life: when it is
    // destroyed first, the callback is dropped. Returns the id, for cancel().
    RequestId request(std::string method, Json params, QObject *context, Callback callback,
                      RequestOptions options = {});
    void notify(std::string_view method, const Json &params = nullptr);
    // Cancels a pending request: its callback gets RequestCancelled and the server
    // notifications/cancelled. Unknown ids are ignored.
    void cancel(RequestId id, const QString &reason);

    RequestId callTool(const std::string &name, Json arguments, QObject *context,
                       ToolCallback callback, RequestOptions options = {});
    // The same with arguments serialized beforehand (a JSON object's text).
    RequestId callTool(std::string_view name, const RawJson &arguments, QObject *context,
                       ToolCallback callback, RequestOptions options = {});
    // Tasks. A call to a tool whose definition says `execution.taskSupport` "optional" or
    // "required", on a server that takes task-augmented tools/call (2025-11-25: the `tasks`
    // capability), asks for a task; a server may also answer with one unasked (2026-07-28:
    // the io.modelcontextprotocol/tasks extension, `resultType: "task"`). Either way the
    // ToolCallback gets the final result: the task is followed (tasks/get every pollInterval,
    // notifications/tasks/status), its status is the request's progress message, and the
    // result is fetched when it ends (2025-11-25: tasks/result, which also carries the
    // server's questions while it needs input; 2026-07-28: tasks/get's result, its
    // inputRequests answered by this client's handlers through tasks/update). cancel() on
    // the call's id sends tasks/cancel. The request's timeout restarts on every new status.
    std::size_t runningTaskCount() const { return m_tasks.size(); }
    // The task a pending call became ("" when it has not become one).
    std::string taskId(RequestId id) const;

    // 2026-07-28: the id of the open subscriptions/listen request (0 when there is none),
    // and what the server agreed to send on it (its acknowledgment's filter).
    RequestId subscriptionId() const { return m_listenId; }
    const Json &subscription() const { return m_subscription; }
    // Lists the tools again (all pages); toolsChanged() follows.
    void refreshTools();

    // Resource updates: notifications/resources/updated for `uri` from now on (watch) or no
    // more. 2025-11-25: resources/subscribe and resources/unsubscribe. 2026-07-28: the uri
    // joins or leaves the subscriptions/listen filter, and a stream with the new filter is
    // opened; the old one is closed once the new one is acknowledged, so no update falls
    // between them. The callback gets the server's answer: its reply to resources/subscribe,
    // or whether the new stream's acknowledgment carries the uri. Needs the server's
    // `resources.subscribe` capability.
    void watchResource(const std::string &uri, bool watch, QObject *context, Callback callback);
    const std::set<std::string> &watchedResources() const { return m_watched; }

    // How much of its own log the server sends (notifications/message): one of the eight
    // syslog levels. 2025-11-25: logging/setLevel. 2026-07-28 (no setLevel): every request
    // from now on carries the level in _meta (io.modelcontextprotocol/logLevel), and the
    // server logs on that request's own stream. Needs the server's `logging` capability.
    void setLogLevel(const std::string &level, QObject *context, Callback callback);
    const std::string &logLevel() const { return m_logLevel; } // "" until set

    // Handles a server-to-client request method (roots/list, sampling/createMessage, ...).
    // `ping` is answered built-in; other unhandled methods get -32601. In 2026-07-28 the
    // same handlers answer a multi-round request's inputRequests.
    void setRequestHandler(const std::string &method, RequestHandler handler);

signals:
    void stateChanged(Mcp::Client::State state);
    void toolsChanged();
    void notificationReceived(const QString &method, const Mcp::Json &params);
    void warning(const QString &text);
    // The transport's authorizationRequired() (HTTP 401/403): the hook sign-in plugs into.
    void authorizationRequired(const QString &challenge);

private:
    struct Pending
    {
        std::string method;
        Callback callback;
        QPointer<QObject> context;
        bool hasContext = false;
        qint64 deadline = 0;     // ms, steady clock
        qint64 hardDeadline = 0; // progress never extends past this
        int timeoutMs = 0;
        std::function<void(const Progress &)> onProgress;
        // 2026-07-28: the params as last sent, for a retry under a new id (another version,
        // or the answers to inputRequests), and the id the request now has on the wire.
        std::string params;
        RequestId wireId = 0;
        int versionRetries = 0;
        int inputRounds = 0;
        int reissues = 0; // sent again after its stream broke off
        bool untimed = false;
    };

    struct ToolTask
    {
        std::string taskId;
        ToolCallback callback;
        QPointer<QObject> context;
        bool hasContext = false;
        std::function<void(const Progress &)> onProgress;
        bool modern = false;
        std::string status;
        std::string statusMessage;
        int pollMs = 1000;
        int timeoutMs = 0;
        qint64 deadline = 0;
        qint64 hardDeadline = 0;
        int updates = 0;
        bool polling = false;  // a tasks/get is in flight
        bool fetching = false; // tasks/result is in flight (2025-11-25)
        RequestId fetchId = 0;
        std::set<std::string> answeredInputs; // 2026-07-28: inputRequests answered
    };
    // Whether a call to `tool` asks for a task (2025-11-25).
    bool asksForTask(std::string_view tool) const;
    Callback taskAwareCallback(RequestId id, ToolCallback callback, QObject *context,
                               const RequestOptions &options);
    void followTask(RequestId id, ToolTask task, const Json &created);
    void onTaskStatus(RequestId id, const Json &task);
    void scheduleTaskPoll(RequestId id);
    void pollTask(RequestId id);
    void fetchTaskResult(RequestId id);
    void answerTaskInput(RequestId id, const Json &requests);
    void finishTask(RequestId id, ToolResult result);
    void cancelTask(RequestId id, const std::string &why, int code);
    void onTaskNotification(const Json &params);
    void failAllTasks(int code, const std::string &message);

    void setState(State state);
    void fail(const QString &reason);
    void onTransportStarted();
    void onMessage(Json &message); // may move from it
    void onResponse(Json &message);
    void onServerRequest(const Json &message);
    void onNotification(const Json &message);
    void onProgressNotification(const Json &params);
    void onTooLarge(qint64 bytes, const Json &id);
    void onTransportClosed(const QString &reason);
    void sendInitialize();
    void onInitializeReply(const Response &response);
    void probe(int timeoutMs);
    void onDiscoverReply(const Response &response);
    void becomeModern(const Json &result);
    void readServerDescription(const Json &result, const Json &serverInfo);
    void setModernVersion(const std::string &version);
    // m_metaMembers from modernMeta(): after the version or the log level changes.
    void refreshMetaMembers();
    Json modernMeta() const;
    // 2026-07-28: a -32022 answered by a retry with a version the server supports, or a
    // result that asks for input. True when the request goes on (under a new id).
    bool continueModern(RequestId id, Json &message);
    void answerInputRequests(RequestId id, Json result);
    void resend(RequestId id, Json params);
    bool reissue(RequestId id);
    void onTransportFailure(const Json &wireId, const RpcError &error);
    // The pending request a wire id stands for (itself, or the caller's id after a resend).
    std::optional<RequestId> callerId(const Json &wireId) const;
    void restartDeadline(Pending &pending);
    // 2026-07-28: list changes come on a subscriptions/listen stream, opened once Ready and
    // opened again (later each time) when it breaks off.
    void listen();
    void onListenEnded(int generation, const Response &response);
    void onListenAcknowledged(const Json &agreed);
    // What the stream asks for: list changes the server can announce, watched resources.
    Json listenFilter() const;
    // The filter changed: a stream with the new one replaces the open one.
    void relisten();
    // The watchResource() calls that wait for the next acknowledgment get their answers.
    void answerWatchers(const std::optional<RpcError> &failure);
    // Whether the open stream's acknowledgment names `uri` among its resourceSubscriptions.
    bool agreedToWatch(const std::string &uri) const;
    // Registers a request whose serialized params are ready; sends it.
    RequestId sendRequest(std::string method, std::string_view paramsJson, QObject *context,
                          Callback callback, RequestOptions options, RequestId id);
    bool canSend() const;
    void listToolsPage(std::vector<Json> collected, Json cursor, int pages);
    void finishRequest(RequestId id, Response response);
    void failAllPending(int code, const std::string &message);
    void armTimeout(qint64 deadline);
    void onTimeoutTimer();
    void respondLater(Callback callback, QPointer<QObject> context, bool hasContext,
                      Response response);
    std::string where() const; // "server 'name'"

    Transport *m_transport;
    ClientOptions m_options;
    State m_state = State::Disconnected;
    QString m_error;
    std::string m_protocolVersion;
    Json m_serverInfo;
    ServerCapabilities m_capabilities;
    QString m_instructions;
    std::shared_ptr<const std::vector<Json>> m_tools = std::make_shared<std::vector<Json>>();
    bool m_listingTools = false;
    bool m_relistRequested = false;
    RequestId m_nextId = 1;
    std::unordered_map<RequestId, Pending> m_pending;
    // 2026-07-28: the wire id of a retried request -> the id its caller holds.
    std::unordered_map<RequestId, RequestId> m_callerIds;
    Era m_era = Era::Unknown;
    bool m_sendMeta = false; // requests carry the modern _meta (probing, 2026-07-28)
    bool m_reprobed = false; // a failed guess was probed again (once)
    bool m_probeTimedOut = false;
    std::string m_metaMembers; // the _meta members every modern request carries, as JSON
    std::unordered_map<std::string, RequestHandler> m_handlers;
    std::map<RequestId, ToolTask> m_tasks; // by the tools/call's id
    // Children (so that they move with the client from the start thread, see Manager).
    QTimer m_timeoutTimer{this};
    qint64 m_armedDeadline = 0;
    RequestId m_listenId = 0; // the open subscriptions/listen request, or 0
    int m_listenFailures = 0; // breaks in a row since the last acknowledgment
    Json m_subscription;      // the acknowledged filter
    // Each listen stream has a generation: onListenEnded hears the current one's end and the
    // stale one's (the stream being replaced, closed once its replacement is acknowledged,
    // and the current one again if the replacement fails); other ends are old news.
    int m_generations = 0;
    int m_listenGeneration = 0;
    RequestId m_staleListenId = 0;
    int m_staleGeneration = 0;
    Json m_staleSubscription;
    std::set<std::string> m_watched; // resources watched (both eras)
    struct Watcher
    {
        std::string uri;
        bool watch = true;
        Callback callback;
        QPointer<QObject> context;
        bool hasContext = false;
    };
    std::vector<Watcher> m_watchers; // 2026-07-28: waiting for the next acknowledgment
    std::string m_logLevel;
    QTimer m_listenTimer{this};
};

// The current time on the steady clock the request deadlines use, in ms.
qint64 steadyNowMs();

} // namespace Mcp
