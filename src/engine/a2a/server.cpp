#include "server.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QPointer>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUuid>

#include <algorithm>

namespace Engine::A2A {

using namespace Inbound;
using Status = QHttpServerResponder::StatusCode;

namespace {

QString newId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QByteArray dump(const Json &json)
{
    return QByteArray::fromStdString(json.dump(-1, ' ', false, Json::error_handler_t::replace));
}

QByteArray header(const QHttpServerRequest &request, const QByteArray &name)
{
    for (const auto &[key, value] : request.headers()) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QByteArray digest(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

// Equal digests, looking at every byte whatever differs first.
bool sameDigest(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a[i] ^ b[i]);
    return difference == 0;
}

void writeJson(QHttpServerResponder &responder, const Json &body, int status,
               const QByteArray &extraName = {}, const QByteArray &extraValue = {})
{
    if (extraName.isEmpty())
        responder.write(dump(body), {{"Content-Type", "application/json"}}, Status(status));
    else
        responder.write(dump(body), {{"Content-Type", "application/json"}, {extraName, extraValue}},
                        Status(status));
}

void writeRpcError(QHttpServerResponder &responder, const RpcError &error,
                   Version version = Version::V1_0)
{
    writeJson(responder, errorResponse(error, version), error.httpStatus);
}

// A JSON-RPC answer: `result` for the request `id`.
void writeResult(QHttpServerResponder &responder, const Json &id, const Json &result)
{
    writeJson(responder, {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}, 200);
}

// SendMessage's result: the task, wrapped in {"task": …} from A2A 1.0 on.
Json sendResult(const Task &task, Version version)
{
    return version == Version::V1_0 ? Json{{"task", toJson(task, version)}} : toJson(task, version);
}

Message agentMessage(const QString &taskId, const QString &contextId, const QString &text)
{
    Message message;
    message.messageId = newId();
    message.taskId = taskId;
    message.contextId = contextId;
    message.role = Role::Agent;
    message.parts << Part::fromText(text);
    return message;
}

// The host name of a Host header ("127.0.0.1:8080", "[::1]:80", "localhost").
QString hostName(const QByteArray &hostHeader)
{
    const QString host = QString::fromLatin1(hostHeader.trimmed());
    if (host.startsWith(QLatin1Char('['))) {
        const qsizetype end = host.indexOf(QLatin1Char(']'));
        return end < 0 ? host : host.mid(1, end - 1);
    }
    const qsizetype colon = host.lastIndexOf(QLatin1Char(':'));
    return colon < 0 ? host : host.left(colon);
}

// Qt HttpServer 6.4 reads a whole request, however big, before anyone sees it. Its sockets
// come from here, each watched before the server reads it. A request whose Content-Length is
// over the limit never reaches the server: its body is read and dropped (up to DrainBytes, so
// that the client, done sending, reads the 413; more, and the connection is closed at once).
// Without a length (chunked), more than `cap` bytes since the connection last answered get the
// 413 and the connection is closed. Either way this process holds about one request's worth
// per connection.
class CappedTcpServer : public QTcpServer
{
public:
    static constexpr qint64 DrainBytes = 32 * 1024 * 1024;

    CappedTcpServer(qint64 maxBody, qint64 cap)
        : m_maxBody(maxBody)
        , m_cap(cap)
    {
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QTcpSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        auto watch = std::make_shared<Watch>();
        // Connected before the HTTP server's own handler: this runs first on every read.
        connect(socket, &QTcpSocket::readyRead, socket,
                [this, socket, watch] { onReadyRead(socket, *watch); });
        connect(socket, &QTcpSocket::bytesWritten, socket, [watch] { watch->received = 0; });
        addPendingConnection(socket); // QTcpServer emits newConnection() next
    }

private:
    struct Watch
    {
        qint64 received = 0;  // since the connection last answered
        qint64 draining = -1; // >= 0: bytes of a refused request still to drop
    };

    void onReadyRead(QTcpSocket *socket, Watch &watch)
    {
        if (watch.draining >= 0) {
            watch.draining -= socket->readAll().size();
            if (watch.draining <= 0)
                refuse(socket, watch);
            return;
        }
        if (watch.received == 0) { // a request starts: its headers say how long it is
            const QByteArray head = socket->peek(Server::MaxHeaderBytes);
            const qsizetype end = head.indexOf("\r\n\r\n");
            const qint64 length = end < 0 ? -1 : contentLength(head.left(end));
            if (length > m_maxBody) {
                const qint64 whole = end + 4 + length;
                if (whole - socket->bytesAvailable() > DrainBytes)
                    return refuse(socket, watch);
                watch.draining = whole - socket->readAll().size();
                if (watch.draining <= 0)
                    refuse(socket, watch);
                return;
            }
        }
        watch.received += socket->bytesAvailable();
        if (watch.received > m_cap)
            refuse(socket, watch);
    }

    static qint64 contentLength(const QByteArray &headers)
    {
        for (const QByteArray &line : headers.split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().toLower() == "content-length") {
                bool ok = false;
                const qint64 value = line.mid(colon + 1).trimmed().toLongLong(&ok);
                return ok ? value : -1;
            }
        }
        return -1;
    }

    static void refuse(QTcpSocket *socket, Watch &watch)
    {
        watch.draining = 0;
        socket->readAll(); // not for the HTTP server
        const QByteArray body
                = dump({{"code", 413}, {"message", "The request is too large for this agent."}});
        socket->write("HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\n"
                      "Connection: close\r\nContent-Length: "
                      + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        socket->disconnectFromHost(); // once the answer is written
    }

    qint64 m_maxBody;
    qint64 m_cap;
};

} // namespace

// A response that stays open: an SSE stream or a request waiting for its task to end. The
// socket is watched because the responder does not notice that the client went away.
struct Server::Stream
{
    explicit Stream(QHttpServerResponder &&r)
        : responder(std::move(r))
        , socket(responder.socket())
    {
    }
    QHttpServerResponder responder;
    QPointer<QTcpSocket> socket;
    Json id;
    Version version = Version::V1_0;
    bool alive() const { return socket && socket->state() == QAbstractSocket::ConnectedState; }
};

struct Server::TaskRecord
{
    InboundTaskInfo info;
    TaskStatus status;
    QList<Message> history;
    QList<Artifact> artifacts;
    std::function<void()> stop;
    bool finished = false;
    std::vector<std::shared_ptr<Stream>> streams; // SSE subscribers
    // Called once the task ends (blocking sends, the envelope).
    std::vector<std::function<void(const TaskRecord &)>> waiters;
};

Server::Server(ServerOptions options, TaskExecutor *executor, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_executor(executor)
{
    if (!m_options.token.isEmpty())
        m_tokenDigest = digest(m_options.token.toUtf8());
}

Server::~Server()
{
    stop();
}

bool Server::isLoopback(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

bool Server::start(QString *error)
{
    if (m_http)
        return true;
    QHostAddress address;
    if (m_options.host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        address = QHostAddress(QHostAddress::LocalHost);
    else
        address = QHostAddress(m_options.host);
    if (address.isNull()) {
        *error = tr("'%1' is not an IP address to listen on.").arg(m_options.host);
        return false;
    }
    if (!address.isLoopback() && m_options.token.isEmpty()) {
        *error = tr("Refusing to serve on %1 without a token: anyone who can reach that address "
                    "could make this agent work. Give a bearer token (--token), or serve on "
                    "127.0.0.1.")
                         .arg(m_options.host);
        return false;
    }
    m_http = std::make_unique<QHttpServer>();
    m_http->setMissingHandler(
            [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                handle(request, std::move(responder));
            });
    auto *tcp
            = new CappedTcpServer(m_options.maxBodyBytes, m_options.maxBodyBytes + MaxHeaderBytes);
    if (!tcp->listen(address, m_options.port)) {
        delete tcp;
        m_http.reset();
        *error = tr("Could not listen on %1 port %2 (in use, or not an address of this machine).")
                         .arg(m_options.host)
                         .arg(m_options.port);
        return false;
    }
    m_port = tcp->serverPort();
    m_http->bind(tcp); // the QHttpServer owns it
    return true;
}

void Server::stop()
{
    const std::vector<QString> order = m_order; // finishing a task may forget old ones
    for (const QString &id : order) {
        const auto task = m_tasks.value(id);
        if (task && !task->finished && task->stop) {
            auto stop = std::move(task->stop);
            task->stop = nullptr;
            stop();
        }
    }
    m_tasks.clear();
    m_order.clear();
    m_http.reset();
    m_port = 0;
}

QString Server::baseUrl() const
{
    const QHostAddress address(m_options.host);
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                                 ? QStringLiteral("[%1]").arg(m_options.host)
                                 : m_options.host;
    return QStringLiteral("http://%1:%2/").arg(host).arg(m_port);
}

QList<InboundTaskInfo> Server::tasks() const
{
    QList<InboundTaskInfo> list;
    for (const QString &id : m_order) {
        if (const auto task = m_tasks.value(id))
            list << task->info;
    }
    return list;
}

std::optional<InboundTaskInfo> Server::task(const QString &id) const
{
    const auto task = m_tasks.value(id);
    return task ? std::optional(task->info) : std::nullopt;
}

bool Server::authorized(const QHttpServerRequest &request) const
{
    if (m_tokenDigest.isEmpty())
        return true;
    const QByteArray value = header(request, "Authorization").trimmed();
    static const QByteArray scheme = "bearer ";
    if (value.size() <= scheme.size() || value.left(scheme.size()).toLower() != scheme)
        return false;
    return sameDigest(digest(value.mid(scheme.size()).trimmed()), m_tokenDigest);
}

bool Server::hostAllowed(const QHttpServerRequest &request) const
{
    // A web page can make a browser send requests to 127.0.0.1 under a name it controls
    // (DNS rebinding): a loopback server answers loopback names only.
    if (!isLoopback(m_options.host))
        return true;
    return isLoopback(hostName(header(request, "Host")));
}

void Server::handle(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const QString path = request.url().path();
    const auto method = request.method();
    if (!hostAllowed(request)) {
        writeJson(responder,
                  {{"code", 403},
                   {"message", tr("This agent answers on 127.0.0.1 only.").toStdString()}},
                  403);
        return;
    }
    if (!authorized(request)) {
        writeJson(responder,
                  {{"code", 401},
                   {"message",
                    tr("A bearer token is required (Authorization: Bearer ...).").toStdString()}},
                  401, "WWW-Authenticate", "Bearer");
        return;
    }
    if (method == QHttpServerRequest::Method::Get
        && (path == QLatin1String("/.well-known/agent-card.json")
            || path == QLatin1String("/.well-known/agent.json")
            || path == QLatin1String("/a2a/agent-card"))) {
        writeJson(responder, card(header(request, "Host")), 200);
        return;
    }
    const bool rpc = path == QLatin1String("/") || path == QLatin1String("/a2a/jsonrpc");
    const bool envelope = path == QLatin1String("/a2a/message");
    if (!rpc && !envelope) {
        writeJson(responder, {{"code", 404}, {"message", tr("Not found.").toStdString()}}, 404);
        return;
    }
    if (method != QHttpServerRequest::Method::Post) {
        writeJson(responder, {{"code", 405}, {"message", tr("Use POST here.").toStdString()}}, 405,
                  "Allow", "POST");
        return;
    }
    if (request.body().size() > m_options.maxBodyBytes) {
        const QString why = tr("The request is %1 bytes; this agent takes at most %2.")
                                    .arg(request.body().size())
                                    .arg(m_options.maxBodyBytes);
        if (envelope)
            writeJson(responder, {{"code", 413}, {"message", why.toStdString()}}, 413);
        else
            writeRpcError(responder, {InvalidRequest, why, nullptr, 413});
        return;
    }
    // JSON only: a web page cannot send that without the browser asking first (CORS), and
    // this server never says yes.
    const QByteArray type = header(request, "Content-Type").trimmed().toLower();
    if (!type.startsWith("application/json") && !type.startsWith("application/a2a+json")) {
        const QString why = tr("Unsupported Content-Type '%1'; expected application/json.")
                                    .arg(QString::fromLatin1(type.left(100)));
        if (envelope)
            writeJson(responder, {{"code", 415}, {"message", why.toStdString()}}, 415);
        else
            writeRpcError(responder, {ContentTypeNotSupported, why, nullptr, 415});
        return;
    }
    if (envelope)
        handleEnvelope(request, std::move(responder));
    else
        handleRpc(request, std::move(responder));
}

Json Server::card(const QByteArray &hostHeader) const
{
    // Where the client reached us is where the card's interfaces are (0.0.0.0 is no address);
    // a Host that is not a plain host[:port] is not repeated.
    QString base = baseUrl();
    const QString host = QString::fromLatin1(hostHeader.trimmed());
    static const QRegularExpression plainHost(
            QStringLiteral("^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$"));
    if (!host.isEmpty() && plainHost.match(host).hasMatch())
        base = QStringLiteral("http://%1/").arg(host);
    Json skills = Json::array();
    for (const AgentSkill &skill : m_executor->skills())
        skills.push_back({{"id", skill.id.toStdString()},
                          {"name", skill.name.toStdString()},
                          {"description", skill.description.toStdString()},
                          {"tags", Json::array()}});
    Json card = {{"name", m_options.name.toStdString()},
                 {"description", m_options.description.toStdString()},
                 {"version", QCoreApplication::applicationVersion().isEmpty()
                                     ? std::string("1.0.0")
                                     : QCoreApplication::applicationVersion().toStdString()},
                 {"supportedInterfaces",
                  Json::array({{{"url", (base + QLatin1String("a2a/jsonrpc")).toStdString()},
                                {"protocolBinding", "JSONRPC"},
                                {"protocolVersion", "1.0"}},
                               {{"url", (base + QLatin1String("a2a/jsonrpc")).toStdString()},
                                {"protocolBinding", "JSONRPC"},
                                {"protocolVersion", "0.3"}},
                               {{"url", (base + QLatin1String("a2a/message")).toStdString()},
                                {"protocolBinding", "SWITCHBOARD-ENVELOPE"},
                                {"protocolVersion", "1"}}})},
                 {"capabilities", {{"streaming", true}, {"pushNotifications", false}}},
                 {"defaultInputModes", Json::array({"text/plain"})},
                 {"defaultOutputModes", Json::array({"text/plain"})},
                 {"skills", skills}};
    if (!m_tokenDigest.isEmpty()) {
        card["securitySchemes"]
                = {{"bearer", {{"httpAuthSecurityScheme", {{"scheme", "Bearer"}}}}}};
        card["securityRequirements"] = Json::array({{{"schemes", {{"bearer", Json::object()}}}}});
    }
    return card;
}

int Server::runningCount() const
{
    int running = 0;
    for (const auto &task : m_tasks) {
        if (!task->finished)
            ++running;
    }
    return running;
}

Task Server::snapshot(const TaskRecord &task) const
{
    Task copy;
    copy.id = task.info.id;
    copy.contextId = task.info.contextId;
    copy.status = task.status;
    copy.artifacts = task.artifacts;
    copy.history = task.history;
    return copy;
}

QString Server::startTask(Message message)
{
    auto task = std::make_shared<TaskRecord>();
    const QString id = newId();
    if (message.contextId.isEmpty())
        message.contextId = newId();
    message.taskId = id;
    if (message.messageId.isEmpty())
        message.messageId = newId();
    task->info.id = id;
    task->info.contextId = message.contextId;
    task->info.request = message.text();
    task->info.started = QDateTime::currentDateTime();
    task->info.state = TaskState::Submitted;
    task->status.state = TaskState::Submitted;
    task->status.timestamp = now();
    task->history << message;
    m_tasks.insert(id, task);
    m_order.push_back(id);
    emit taskChanged(id);
    return id;
}

void Server::update(TaskRecord &task, TaskState state, std::optional<Message> statusMessage)
{
    task.status.state = state;
    task.status.message = std::move(statusMessage);
    task.status.timestamp = now();
    task.info.state = state;
    StreamEvent event;
    event.kind = StreamEvent::Kind::StatusUpdate;
    event.taskId = task.info.id;
    event.contextId = task.info.contextId;
    event.status = task.status;
    publish(task, event, isTerminal(state) || isInterrupted(state));
    emit taskChanged(task.info.id);
}

void Server::publish(TaskRecord &task, const StreamEvent &event, bool final)
{
    for (const auto &stream : task.streams) {
        if (!stream->alive())
            continue;
        const Json message = {{"jsonrpc", "2.0"},
                              {"id", stream->id},
                              {"result", toJson(event, stream->version, final)}};
        stream->responder.writeBody("data: " + dump(message) + "\n\n");
    }
    // Gone clients are forgotten; the task goes on (GetTask still finds it).
    task.streams.erase(std::remove_if(task.streams.begin(), task.streams.end(),
                                      [](const auto &stream) { return !stream->alive(); }),
                       task.streams.end());
}

void Server::finish(const QString &taskId, bool ok, const QString &text)
{
    const auto task = m_tasks.value(taskId);
    if (!task || task->finished)
        return;
    task->stop = nullptr;
    task->info.reply = text;
    if (ok) {
        Artifact artifact;
        artifact.artifactId = QStringLiteral("answer");
        artifact.name = QStringLiteral("answer");
        artifact.parts << Part::fromText(text);
        task->artifacts << artifact;
        StreamEvent event;
        event.kind = StreamEvent::Kind::ArtifactUpdate;
        event.taskId = taskId;
        event.contextId = task->info.contextId;
        event.artifact = artifact;
        event.lastChunk = true;
        publish(*task, event, false);
        update(*task, TaskState::Completed);
    } else {
        const Message why = agentMessage(taskId, task->info.contextId, text);
        task->history << why;
        update(*task, TaskState::Failed, why);
    }
    settle(*task);
}

void Server::settle(TaskRecord &task)
{
    task.finished = true;
    // The end of a stream is the end of its connection (it has no length).
    for (const auto &stream : task.streams) {
        if (stream->alive())
            stream->socket->disconnectFromHost();
    }
    task.streams.clear();
    auto waiters = std::move(task.waiters);
    task.waiters.clear();
    for (const auto &waiter : waiters)
        waiter(task);
    forgetOldTasks();
}

void Server::forgetOldTasks()
{
    while (int(m_order.size()) > m_options.maxTasksKept) {
        const auto oldest = std::find_if(m_order.begin(), m_order.end(), [this](const QString &id) {
            const auto task = m_tasks.value(id);
            return !task || task->finished;
        });
        if (oldest == m_order.end())
            return;
        m_tasks.remove(*oldest);
        m_order.erase(oldest);
    }
}

void Server::launch(const QString &taskId)
{
    const auto task = m_tasks.value(taskId);
    TaskExecutor::Events events;
    QPointer<Server> self(this);
    events.working = [self, taskId](const QString &note) {
        const auto task = self ? self->m_tasks.value(taskId) : nullptr;
        if (task && !task->finished)
            self->update(*task, TaskState::Working,
                         note.isEmpty() ? std::optional<Message>()
                                        : agentMessage(taskId, task->info.contextId, note));
    };
    events.refused = [self, taskId](const QString &tool) {
        const auto task = self ? self->m_tasks.value(taskId) : nullptr;
        if (task && !task->info.refusedTools.contains(tool)) {
            task->info.refusedTools << tool;
            emit self->taskChanged(taskId);
        }
    };
    events.done = [self, taskId](bool ok, const QString &text) {
        if (self)
            self->finish(taskId, ok, text);
    };
    update(*task, TaskState::Working);
    const TaskExecutor::Start start{taskId, task->info.contextId, task->info.request};
    task->stop = m_executor->start(start, std::move(events), &task->info.conversationId);
    if (task->finished) // it ended at once
        task->stop = nullptr;
}

void Server::handleRpc(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    auto parsed = parseRpc(request.body(), header(request, "A2A-Version"));
    if (auto *error = std::get_if<RpcError>(&parsed)) {
        writeRpcError(responder, *error);
        return;
    }
    const RpcCall call = std::get<RpcCall>(std::move(parsed));
    const Version version = call.version;
    const auto answer = [&responder, &call](const Json &result) {
        writeResult(responder, call.id, result);
    };
    const auto fail = [&responder, version](const RpcError &error) {
        writeRpcError(responder, error, version);
    };

    // GetTask, CancelTask: the task params.id names, or null and why not.
    const auto findTask = [this, &call](RpcError *error) -> std::shared_ptr<TaskRecord> {
        auto id = readTaskId(call);
        if (const auto *bad = std::get_if<RpcError>(&id)) {
            *error = *bad;
            return nullptr;
        }
        const QString &taskId = std::get<QString>(id);
        auto task = m_tasks.value(taskId);
        if (!task)
            *error = {TaskNotFound, tr("Task not found: %1").arg(taskId.left(100)), call.id};
        return task;
    };

    switch (call.method) {
    case Method::Get: {
        RpcError error;
        const auto task = findTask(&error);
        if (!task)
            return fail(error);
        Task copy = snapshot(*task);
        if (const auto length = call.params.find("historyLength");
            length != call.params.end() && length->is_number_integer()) {
            const qsizetype keep = std::max<qint64>(0, length->get<qint64>());
            if (copy.history.size() > keep)
                copy.history = copy.history.mid(copy.history.size() - keep);
        }
        return answer(toJson(copy, version));
    }
    case Method::Cancel: {
        RpcError error;
        const auto task = findTask(&error);
        if (!task)
            return fail(error);
        if (task->finished && task->status.state != TaskState::Canceled)
            return fail({TaskNotCancelable,
                         tr("Task not cancelable: it is %1.").arg(describe(task->status.state)),
                         call.id});
        if (!task->finished) {
            task->finished = true; // what the executor reports now is not the outcome
            if (auto stop = std::move(task->stop)) {
                task->stop = nullptr;
                stop();
            }
            task->info.reply = tr("Canceled by the client.");
            update(*task, TaskState::Canceled,
                   agentMessage(task->info.id, task->info.contextId, task->info.reply));
            settle(*task);
        }
        return answer(toJson(snapshot(*task), version));
    }
    case Method::List: {
        auto list = readListParams(call);
        if (auto *error = std::get_if<RpcError>(&list))
            return fail(*error);
        return answer(listTasks(call, std::get<ListParams>(list)));
    }
    case Method::Send:
    case Method::Stream:
        break;
    }
    handleSend(call, std::move(responder));
}

// ListTasks: newest first, in pages.
Json Server::listTasks(const RpcCall &call, const ListParams &params) const
{
    const Version version = call.version;
    const bool withArtifacts = call.params.value("includeArtifacts", false) == true;
    std::vector<std::shared_ptr<TaskRecord>> matching;
    for (auto it = m_order.rbegin(); it != m_order.rend(); ++it) { // newest first
        const auto task = m_tasks.value(*it);
        if (task && (params.contextId.isEmpty() || task->info.contextId == params.contextId))
            matching.push_back(task);
    }
    Json tasks = Json::array();
    const int end = std::min<int>(int(matching.size()), params.offset + params.pageSize);
    for (int i = params.offset; i < end; ++i) {
        Task copy = snapshot(*matching[size_t(i)]);
        if (!withArtifacts)
            copy.artifacts.clear();
        tasks.push_back(toJson(copy, version));
    }
    Json result = {{"tasks", tasks},
                   {"pageSize", params.pageSize},
                   {"totalSize", matching.size()},
                   {"nextPageToken", end < int(matching.size())
                                             ? QByteArray::number(end).toBase64().toStdString()
                                             : std::string()}};
    return result;
}

// SendMessage, SendStreamingMessage: a new task (never a message to an ended one), answered
// at once, when it ends (blocking) or as it goes (a stream).
void Server::handleSend(const RpcCall &call, QHttpServerResponder &&responder)
{
    const Version version = call.version;
    const auto fail = [&responder, version](const RpcError &error) {
        writeRpcError(responder, error, version);
    };

    auto send = readSendParams(call);
    if (auto *error = std::get_if<RpcError>(&send))
        return fail(*error);
    SendParams params = std::get<SendParams>(std::move(send));
    if (!params.message.taskId.isEmpty()) {
        // This agent never waits for input: a task, once ended, takes no more messages (a new
        // message in the same context continues the conversation).
        const auto task = m_tasks.value(params.message.taskId);
        if (!task)
            return fail({TaskNotFound,
                         tr("Task not found: %1").arg(params.message.taskId.left(100)), call.id});
        return fail({UnsupportedOperation,
                     tr("Task %1 is %2 and takes no more messages; send a new message with its "
                        "contextId to go on.")
                             .arg(params.message.taskId.left(100), describe(task->status.state)),
                     call.id});
    }
    if (runningCount() >= m_options.maxConcurrentTasks) {
        writeJson(responder,
                  errorResponse({ServerBusy,
                                 tr("This agent is busy (%1 tasks running); try again later.")
                                         .arg(runningCount()),
                                 call.id},
                                version),
                  429, "Retry-After", "5");
        return;
    }

    const QString taskId = startTask(std::move(params.message));
    const auto task = m_tasks.value(taskId);
    if (call.method == Method::Stream) {
        auto stream = std::make_shared<Stream>(std::move(responder));
        stream->id = call.id;
        stream->version = version;
        stream->responder.writeStatusLine(Status::Ok);
        stream->responder.writeHeader("Content-Type", "text/event-stream");
        stream->responder.writeHeader("Cache-Control", "no-cache");
        stream->responder.writeHeader("Connection", "close");
        stream->responder.writeBody("\r\n", 2);
        task->streams.push_back(stream);
        StreamEvent first;
        first.kind = StreamEvent::Kind::Task;
        first.task = snapshot(*task);
        publish(*task, first, false);
    } else if (params.blocking) {
        auto held = std::make_shared<Stream>(std::move(responder));
        held->id = call.id;
        task->waiters.push_back([this, held, version](const TaskRecord &ended) {
            if (!held->alive())
                return;
            writeResult(held->responder, held->id, sendResult(snapshot(ended), version));
        });
    }
    const bool answerNow = call.method == Method::Send && !params.blocking;
    launch(taskId);
    if (answerNow) // returnImmediately: the task as it is now (working, mostly)
        writeResult(responder, call.id, sendResult(snapshot(*task), version));
}

void Server::handleEnvelope(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    auto read = readEnvelope(request.body());
    if (auto *error = std::get_if<QString>(&read)) {
        writeJson(responder, {{"code", 400}, {"message", error->toStdString()}, {"data", nullptr}},
                  400);
        return;
    }
    const EnvelopeRequest envelope = std::get<EnvelopeRequest>(std::move(read));
    if (runningCount() >= m_options.maxConcurrentTasks) {
        writeJson(responder,
                  {{"code", 429},
                   {"message", tr("This agent is busy (%1 tasks running); try again later.")
                                       .arg(runningCount())
                                       .toStdString()},
                   {"data", nullptr}},
                  429, "Retry-After", "5");
        return;
    }
    Message message;
    message.role = Role::User;
    message.contextId = envelope.contextId;
    message.parts << Part::fromText(envelope.message);
    const QString taskId = startTask(std::move(message));
    const auto task = m_tasks.value(taskId);
    auto held = std::make_shared<Stream>(std::move(responder));
    task->waiters.push_back([held](const TaskRecord &ended) {
        if (!held->alive())
            return;
        const bool ok = ended.status.state == TaskState::Completed;
        const Json data = {{"reply", ended.info.reply.toStdString()},
                           {"taskId", ended.info.id.toStdString()},
                           {"contextId", ended.info.contextId.toStdString()},
                           {"state", stateName(ended.status.state, Version::V1_0)}};
        writeJson(held->responder,
                  {{"code", ok ? 0 : 500},
                   {"message", ok ? std::string("ok") : ended.info.reply.toStdString()},
                   {"data", data}},
                  200);
    });
    launch(taskId);
}

} // namespace Engine::A2A
