// Client: the session's core. The table of pending requests, sending, timeouts, cancellation,
// dispatch of what arrives, and the end of the session.
#include "clientinternal.h"

#include <mcp/wire/jsonmember.h>

#include <QPointer>

#include <algorithm>
#include <chrono>
#include <limits>
#include <utility>
#include <vector>

Q_LOGGING_CATEGORY(lcClient, "switchboard.mcp.client", QtWarningMsg)

namespace Mcp {

using namespace ClientInternal;

namespace {
// A request the peer hears about when it is cancelled: never initialize (the spec forbids it)
// nor the era probe (a legacy server has not even been initialized).
bool isCancellable(const std::string &method)
{
    return method != "initialize" && method != "server/discover";
}

// The deadline of a request that never times out.
constexpr qint64 NoDeadline = std::numeric_limits<qint64>::max();
} // namespace

qint64 steadyNowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

Client::Client(Transport *transport, ClientOptions options, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
    , m_options(std::move(options))
{
    m_transport->setParent(this);
    m_timeoutTimer.setSingleShot(true);
    connect(&m_timeoutTimer, &QTimer::timeout, this, &Client::onTimeoutTimer);
    connect(m_transport, &Transport::started, this, &Client::onTransportStarted);
    m_transport->setMessageHandler([this](Json &&message) { onMessage(message); });
    connect(m_transport, &Transport::messageTooLarge, this, &Client::onTooLarge);
    connect(m_transport, &Transport::closed, this, &Client::onTransportClosed);
    connect(m_transport, &Transport::warning, this, &Client::warning);
    m_transport->setFailureHandler(
            [this](const Json &id, const RpcError &error) { onTransportFailure(id, error); });
    m_listenTimer.setSingleShot(true);
    connect(&m_listenTimer, &QTimer::timeout, this, &Client::listen);
    connect(m_transport, &Transport::authorizationRequired, this, &Client::authorizationRequired);
    connect(m_transport, &Transport::sessionRenewed, this, [this] {
        emit warning(tr("the server ended the session; a new one was set up"));
        refreshTools(); // the new session may offer other tools
    });
}

Client::~Client()
{
    // Callers learn of the end even now; their contexts decide whether they still care.
    m_transport->disconnect(this);
    m_transport->setMessageHandler({});
    m_transport->setFailureHandler({});
    failAllPending(ErrorCode::ConnectionClosed, where() + ": client destroyed");
}

std::string Client::where() const
{
    return "server '" + m_options.serverName.toStdString() + "'";
}

void Client::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    if (state != State::Ready)
        m_listenTimer.stop();
    emit stateChanged(state);
    if (state == State::Ready && m_state == State::Ready)
        listen();
}

bool Client::canSend() const
{
    return m_state == State::Ready || (m_state == State::Initializing && m_transport->isOpen());
}

RequestId Client::request(std::string method, Json params, QObject *context, Callback callback,
                          RequestOptions options)
{
    const RequestId id = m_nextId++;
    if (options.onProgress || m_sendMeta) {
        if (!params.is_object())
            params = Json::object();
        Json &meta = params["_meta"];
        if (!meta.is_object())
            meta = Json::object();
        if (options.onProgress)
            meta["progressToken"] = id;
        if (m_sendMeta) {
            Json modern = modernMeta();
            for (auto &[key, value] : modern.items())
                meta[key] = std::move(value);
        }
    }
    std::string text;
    if (!params.is_null())
        text = params.dump(-1, ' ', false, Json::error_handler_t::replace);
    return sendRequest(std::move(method), text, context, std::move(callback), std::move(options),
                       id);
}

RequestId Client::sendRequest(std::string method, std::string_view paramsJson, QObject *context,
                              Callback callback, RequestOptions options, RequestId id)
{
    if (!canSend()) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::ConnectionClosed,
                                       where() + " is not connected (" + method + ")"));
        return id;
    }
    Pending pending;
    pending.timeoutMs = options.timeoutMs > 0 ? options.timeoutMs : m_options.requestTimeoutMs;
    pending.untimed = options.untimed;
    const qint64 now = steadyNowMs();
    pending.deadline = pending.untimed ? NoDeadline : now + pending.timeoutMs;
    pending.hardDeadline
            = pending.untimed ? NoDeadline
                              : now + std::max(pending.timeoutMs, m_options.maxRequestTimeoutMs);
    pending.callback = std::move(callback);
    pending.context = context;
    pending.hasContext = context != nullptr;
    pending.onProgress = std::move(options.onProgress);
    pending.wireId = id;
    if (m_sendMeta)
        pending.params = paramsJson;
    std::string line = serializeRequest(id, method, paramsJson);
    pending.method = std::move(method);
    const qint64 deadline = pending.deadline;
    m_pending.emplace(id, std::move(pending));
    if (deadline != NoDeadline)
        armTimeout(deadline);
    m_transport->send(std::move(line));
    return id;
}

void Client::notify(std::string_view method, const Json &params)
{
    if (m_transport->isOpen())
        m_transport->send(serializeNotification(method, params));
}

void Client::cancel(RequestId id, const QString &reason)
{
    if (m_tasks.count(id)) {
        cancelTask(id, "cancelled: " + reason.toStdString(), ErrorCode::RequestCancelled);
        return;
    }
    auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    if (isCancellable(it->second.method))
        notify("notifications/cancelled",
               Json{{"requestId", it->second.wireId}, {"reason", reason.toStdString()}});
    finishRequest(id, Response::failure(ErrorCode::RequestCancelled,
                                        "cancelled: " + reason.toStdString()));
}

void Client::setRequestHandler(const std::string &method, RequestHandler handler)
{
    m_handlers[method] = std::move(handler);
}

void Client::onMessage(Json &message)
{
    switch (classify(message)) {
    case MessageKind::Response:
        onResponse(message);
        return;
    case MessageKind::Request:
        onServerRequest(message);
        return;
    case MessageKind::Notification:
        onNotification(message);
        return;
    case MessageKind::Invalid:
        break;
    }
    emit warning(tr("ignored a message that is not JSON-RPC: %1")
                         .arg(qs(message.dump(-1, ' ', false, Json::error_handler_t::replace))
                                      .left(200)));
}

void Client::onResponse(Json &message)
{
    const auto id = callerId(message["id"]);
    if (!id) {
        qCDebug(lcClient) << "response to an unknown or finished request"
                          << qs(message["id"].dump());
        return;
    }
    if (m_sendMeta && continueModern(*id, message))
        return;
    if (auto error = message.find("error"); error != message.end())
        finishRequest(*id, Response{nullptr, RpcError::fromJson(*error)});
    else
        finishRequest(*id, Response::success(std::move(message["result"])));
}

void Client::onServerRequest(const Json &message)
{
    const Json id = message["id"];
    const std::string method = message["method"].get<std::string>();
    QPointer<Client> self(this);
    auto reply = [self, id, answered = std::make_shared<bool>(false)](Response response) {
        if (*answered || !self)
            return;
        *answered = true;
        if (response.ok())
            self->m_transport->send(serializeResult(id, response.result));
        else
            self->m_transport->send(serializeError(id, *response.error));
    };
    if (method == "ping") {
        reply(Response::success(Json::object()));
        return;
    }
    auto handler = m_handlers.find(method);
    if (handler == m_handlers.end()) {
        reply(Response::failure(ErrorCode::MethodNotFound, "Method not found: " + method));
        return;
    }
    handler->second(message.value("params", Json::object()), reply);
}

void Client::onNotification(const Json &message)
{
    const std::string &method = message["method"].get_ref<const std::string &>();
    const Json params = message.value("params", Json::object());
    if (method == "notifications/progress") {
        onProgressNotification(params);
    } else if (method == "notifications/tasks/status" || method == "notifications/tasks") {
        onTaskNotification(params);
    } else if (method == "notifications/tools/list_changed") {
        refreshTools();
    } else if (method == "notifications/subscriptions/acknowledged") {
        const Json &subscription = jsonMember(jsonMember(params, "_meta"), MetaSubscriptionId);
        auto it = m_pending.find(m_listenId);
        if (m_listenId != 0 && it != m_pending.end() && subscription == it->second.wireId)
            onListenAcknowledged(jsonMember(params, "notifications"));
    } else if (method == "notifications/cancelled" && m_listenId != 0) {
        // A server tears a subscription down with notifications/cancelled for its request.
        auto it = m_pending.find(m_listenId);
        if (it != m_pending.end() && jsonMember(params, "requestId") == it->second.wireId)
            finishRequest(m_listenId, Response::success(Json::object()));
    }
    emit notificationReceived(qs(method), params);
}

void Client::onProgressNotification(const Json &params)
{
    if (!params.is_object())
        return;
    const auto token = integerId(params.value("progressToken", Json()));
    if (!token)
        return;
    auto it = m_pending.find(*token);
    if (it == m_pending.end() || !it->second.onProgress)
        return;
    Pending &pending = it->second;
    restartDeadline(pending);
    Progress progress;
    if (auto p = params.find("progress"); p != params.end() && p->is_number())
        progress.progress = p->get<double>();
    if (auto t = params.find("total"); t != params.end() && t->is_number())
        progress.total = t->get<double>();
    if (auto m = params.find("message"); m != params.end() && m->is_string())
        progress.message = qs(m->get<std::string>());
    if (pending.hasContext && !pending.context)
        return;
    auto onProgress = pending.onProgress; // the handler may cancel (erase) the request
    onProgress(progress);
}

void Client::onTooLarge(qint64 bytes, const Json &id)
{
    const auto requestId = integerId(id);
    if (!requestId || !m_pending.count(*requestId))
        return; // the transport already warned
    finishRequest(*requestId,
                  Response::failure(ErrorCode::MessageTooLarge,
                                    where() + " sent a reply of " + std::to_string(bytes)
                                            + " bytes, over the message size cap; dropped"));
}

void Client::restartDeadline(Pending &pending)
{
    if (pending.untimed)
        return;
    pending.deadline = std::min(steadyNowMs() + pending.timeoutMs, pending.hardDeadline);
    armTimeout(pending.deadline);
}

std::optional<RequestId> Client::callerId(const Json &wireId) const
{
    const auto wire = integerId(wireId);
    if (!wire)
        return std::nullopt;
    RequestId id = *wire;
    if (auto caller = m_callerIds.find(id); caller != m_callerIds.end())
        id = caller->second;
    auto it = m_pending.find(id);
    if (it == m_pending.end() || it->second.wireId != *wire) // finished, or sent again since
        return std::nullopt;
    return id;
}

void Client::onTransportFailure(const Json &wireId, const RpcError &error)
{
    const auto id = callerId(wireId);
    if (!id)
        return;
    if (error.code == ErrorCode::StreamBroken && reissue(*id))
        return;
    finishRequest(*id, Response{nullptr, error});
}

void Client::finishRequest(RequestId id, Response response)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    if (it->second.wireId != id)
        m_callerIds.erase(it->second.wireId);
    Pending pending = std::move(it->second);
    m_pending.erase(it);
    if (pending.hasContext && !pending.context)
        return;
    if (pending.callback)
        pending.callback(std::move(response));
}

void Client::respondLater(Callback callback, QPointer<QObject> context, bool hasContext,
                          Response response)
{
    QMetaObject::invokeMethod(
            this,
            [callback = std::move(callback), context, hasContext,
             response = std::move(response)]() mutable {
                if (hasContext && !context)
                    return;
                if (callback)
                    callback(std::move(response));
            },
            Qt::QueuedConnection);
}

void Client::failAllPending(int code, const std::string &message)
{
    failAllTasks(code, message);
    auto pending = std::move(m_pending);
    m_pending.clear();
    m_callerIds.clear();
    for (auto &[id, p] : pending) {
        if (p.hasContext && !p.context)
            continue;
        if (p.callback)
            p.callback(Response::failure(code, message));
    }
}

void Client::armTimeout(qint64 deadline)
{
    if (m_timeoutTimer.isActive() && deadline >= m_armedDeadline)
        return;
    m_armedDeadline = deadline;
    m_timeoutTimer.start(int(std::max<qint64>(0, deadline - steadyNowMs())));
}

void Client::onTimeoutTimer()
{
    const qint64 now = steadyNowMs();
    std::vector<RequestId> expired;
    qint64 next = 0;
    for (const auto &[id, p] : m_pending) {
        if (p.untimed)
            continue;
        if (p.deadline <= now)
            expired.push_back(id);
        else if (next == 0 || p.deadline < next)
            next = p.deadline;
    }
    if (next != 0) {
        m_armedDeadline = next;
        m_timeoutTimer.start(int(next - now));
    }
    QPointer<Client> self(this);
    for (RequestId id : expired) {
        auto it = m_pending.find(id);
        if (it == m_pending.end())
            continue;
        const std::string method = it->second.method;
        const QString seconds = QString::number(it->second.timeoutMs / 1000.0, 'g', 3);
        if (isCancellable(method))
            notify("notifications/cancelled",
                   Json{{"requestId", it->second.wireId}, {"reason", "timeout"}});
        finishRequest(id, Response::failure(ErrorCode::RequestTimeout,
                                            where() + ": request '" + method + "' timed out after "
                                                    + seconds.toStdString() + " s"));
        if (!self)
            return;
    }
}

void Client::fail(const QString &reason)
{
    if (m_state == State::Failed || m_state == State::Closed)
        return;
    m_error = reason;
    qCDebug(lcClient) << "failed" << m_options.serverName << reason;
    setState(State::Failed);
    failAllPending(ErrorCode::ConnectionClosed, where() + ": " + reason.toStdString());
    m_transport->close();
}

void Client::close()
{
    if (m_state == State::Closing || m_state == State::Closed || m_state == State::Failed)
        return;
    if (m_state == State::Disconnected) {
        setState(State::Closed);
        return;
    }
    setState(State::Closing);
    failAllPending(ErrorCode::ConnectionClosed, where() + ": connection closed");
    m_transport->close();
}

void Client::onTransportClosed(const QString &reason)
{
    if (m_state == State::Closing) {
        setState(State::Closed);
        return;
    }
    if (m_state == State::Failed || m_state == State::Closed)
        return;
    fail(reason.isEmpty() ? tr("the connection closed") : reason);
}

} // namespace Mcp
