#pragma once

#include "inbound.h"
#include "wire.h"

#include <QDateTime>
#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <functional>
#include <memory>

class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponder;

namespace Engine::A2A {

// What does the work of an inbound task (the engine's AgentExecutor: a model with the
// workspace's read-only tools). The server keeps the task's record and speaks the protocol.
class TaskExecutor
{
public:
    struct Events
    {
        std::function<void(const QString &note)> working;     // progress for the status
        std::function<void(const QString &toolName)> refused; // a tool that was denied
        // Exactly once, also after stop(): the answer, or why there is none.
        std::function<void(bool ok, const QString &text)> done;
    };
    struct Start
    {
        QString taskId;
        QString contextId; // tasks of one context continue one conversation
        QString text;      // what the remote asked
    };
    virtual ~TaskExecutor() = default;
    // Starts the task; returns what stops it (done() still comes, with ok false). `conversation`
    // receives the id of the conversation the task is recorded in, when there is one.
    virtual std::function<void()> start(const Start &task, Events events, QString *conversation)
            = 0;
    // What the agent card lists as skills.
    virtual QList<AgentSkill> skills() const = 0;
};

struct ServerOptions
{
    QString host = QStringLiteral("127.0.0.1"); // an address, or "localhost"
    quint16 port = 0;                           // 0: any free port
    QString token; // the bearer token every request must carry; required off loopback
    qint64 maxBodyBytes = 1024 * 1024;
    int maxConcurrentTasks = 4; // more running at once: 429
    int maxTasksKept = 500;     // finished tasks remembered for GetTask/ListTasks
    QString name;               // the card's
    QString description;
};

// One inbound task as the window's Agents dock shows it.
struct InboundTaskInfo
{
    QString id;
    QString contextId;
    TaskState state = TaskState::Submitted;
    QString request; // what was asked
    QString reply;   // the answer or the error
    QStringList refusedTools;
    QString conversationId;
    QDateTime started;
};

// The inbound A2A server (Qt HttpServer): the agent card at /.well-known/agent-card.json and
// GET /a2a/agent-card; the JSON-RPC binding of A2A 1.0 and 0.3 (SendMessage,
// SendStreamingMessage with SSE, GetTask, CancelTask, ListTasks; message/send, message/stream,
// tasks/get, tasks/cancel) at POST / and POST /a2a/jsonrpc; the simple envelope POST
// /a2a/message {"message"} → {"code", "message", "data": {"reply", "taskId"}}. Binds 127.0.0.1
// unless told otherwise, and refuses to listen elsewhere without a token; a token is checked
// on every request (401), in constant time. Bodies over maxBodyBytes: 413; not JSON: 415;
// more than maxConcurrentTasks running: 429; a loopback server answers only requests whose
// Host is a loopback name (DNS rebinding).
class Server : public QObject
{
    Q_OBJECT
public:
    Server(ServerOptions options, TaskExecutor *executor, QObject *parent = nullptr);
    ~Server() override;

    // Listens; false and why in *error (another address without a token, a port in use).
    bool start(QString *error);
    void stop();
    bool isListening() const { return m_port != 0; }
    // Tasks already running go on; new ones count against the new limit.
    void setMaxConcurrentTasks(int tasks) { m_options.maxConcurrentTasks = std::max(1, tasks); }
    int maxConcurrentTasks() const { return m_options.maxConcurrentTasks; }
    quint16 port() const { return m_port; }
    // "http://127.0.0.1:PORT/" (the host as bound; the card uses the request's Host).
    QString baseUrl() const;
    QList<InboundTaskInfo> tasks() const; // oldest first
    std::optional<InboundTaskInfo> task(const QString &id) const;
    static bool isLoopback(const QString &host);
    // Room for a request's line and headers besides its body.
    static constexpr qint64 MaxHeaderBytes = 64 * 1024;

signals:
    void taskChanged(const QString &taskId);

private:
    struct Stream;
    struct TaskRecord;
    void handle(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void handleRpc(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void handleSend(const Inbound::RpcCall &call, QHttpServerResponder &&responder);
    Json listTasks(const Inbound::RpcCall &call, const Inbound::ListParams &params) const;
    void handleEnvelope(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    Json card(const QByteArray &hostHeader) const;
    bool authorized(const QHttpServerRequest &request) const;
    bool hostAllowed(const QHttpServerRequest &request) const;
    int runningCount() const;
    // A new task (or a follow-up in a context) for `message`; its id.
    QString startTask(Message message);
    // Hands the task to the executor.
    void launch(const QString &taskId);
    void update(TaskRecord &task, TaskState state, std::optional<Message> statusMessage = {});
    void finish(const QString &taskId, bool ok, const QString &text);
    void publish(TaskRecord &task, const StreamEvent &event, bool final);
    void settle(TaskRecord &task);
    Task snapshot(const TaskRecord &task) const;
    void forgetOldTasks();

    ServerOptions m_options;
    TaskExecutor *m_executor;
    std::unique_ptr<QHttpServer> m_http;
    quint16 m_port = 0;
    QByteArray m_tokenDigest;
    std::vector<QString> m_order; // task ids, oldest first
    QHash<QString, std::shared_ptr<TaskRecord>> m_tasks;
};

} // namespace Engine::A2A
