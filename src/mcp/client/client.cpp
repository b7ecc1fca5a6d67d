#include "client.h"

#include <mcp/transport/parameterheaders.h>
#include <mcp/wire/jsonmember.h>
#include <mcp/wire/jsonparser.h>

#include <QLoggingCategory>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <limits>
#include <set>

Q_LOGGING_CATEGORY(lcClient, "switchboard.mcp.client", QtWarningMsg)

namespace Mcp {

namespace {
// A server that pages forever (or repeats a cursor) must not keep us listing: 10,000 pages
// is far beyond any real tool list.
constexpr int MaxListPages = 10000;

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

bool isSupportedVersion(const std::string &version)
{
    for (const char *v : SupportedProtocolVersions) {
        if (version == v)
            return true;
    }
    return false;
}

// The first of `offered` (an array of version strings) that is a modern version we speak, or
// empty.
std::string pickModernVersion(const Json &offered)
{
    if (!offered.is_array())
        return {};
    for (const Json &version : offered) {
        if (!version.is_string())
            continue;
        for (const char *modern : ModernProtocolVersions) {
            if (version.get_ref<const std::string &>() == modern)
                return modern;
        }
    }
    return {};
}

// A request the peer hears about when it is cancelled: never initialize (the spec forbids it)
// nor the era probe (a legacy server has not even been initialized).
bool isCancellable(const std::string &method)
{
    return method != "initialize" && method != "server/discover";
}

// The _meta keys of 2026-07-28 (basic/index).
constexpr const char *MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
constexpr const char *MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
constexpr const char *MetaClientInfo = "io.modelcontextprotocol/clientInfo";
constexpr const char *MetaServerInfo = "io.modelcontextprotocol/serverInfo";
// 2026-07-28's own errors (basic/index): a header that disagrees with the
// body, a client capability the server requires, a version it does not speak (data.supported
// lists those it does).
constexpr int HeaderMismatch = -32020;
constexpr int MissingClientCapability = -32021;
constexpr int UnsupportedProtocolVersion = -32022;
constexpr const char *MetaSubscriptionId = "io.modelcontextprotocol/subscriptionId";
constexpr const char *MetaLogLevel = "io.modelcontextprotocol/logLevel";

// A request sent again after its stream broke off (2026-07-28, no resumption): this often.
constexpr int MaxReissues = 2;
// A subscriptions/listen stream that breaks off is opened again after 1 s, doubling up to
// a minute while it keeps breaking.
constexpr int ListenRetryMs = 1000;
constexpr int MaxListenRetryMs = 60000;
// The deadline of a request that never times out.
constexpr qint64 NoDeadline = std::numeric_limits<qint64>::max();
} // namespace

QString eraName(Era era)
{
    switch (era) {
    case Era::Rev2025_11_25:
        return QStringLiteral("legacy");
    case Era::Rev2026_07_28:
        return QStringLiteral("modern");
    case Era::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

Era eraFromName(const QString &name)
{
    if (name == QLatin1String("legacy"))
        return Era::Rev2025_11_25;
    if (name == QLatin1String("modern"))
        return Era::Rev2026_07_28;
    return Era::Unknown;
}

qint64 steadyNowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

const Json &ToolResult::content() const
{
    static const Json empty = Json::array();
    const Json &c = jsonMember(raw, "content");
    return c.is_array() ? c : empty;
}

const Json &ToolResult::structuredContent() const
{
    return jsonMember(raw, "structuredContent");
}

QString ToolResult::text() const
{
    if (error)
        return QString::fromStdString(error->message);
    QStringList parts;
    for (const Json &block : content()) {
        if (block.is_object() && block.value("type", "") == "text") {
            if (auto it = block.find("text"); it != block.end() && it->is_string())
                parts << QString::fromStdString(it->get<std::string>());
        }
    }
    return parts.join(QLatin1Char('\n'));
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

void Client::connectToServer()
{
    if (m_state != State::Disconnected)
        return;
    setState(State::Initializing);
    m_transport->start();
}

void Client::onTransportStarted()
{
    switch (m_options.era) {
    case Era::Rev2025_11_25:
        sendInitialize();
        break;
    case Era::Rev2026_07_28: // known modern: it may take its time to start
        probe(m_options.initializeTimeoutMs);
        break;
    case Era::Unknown:
        probe(std::min(m_options.probeTimeoutMs, m_options.initializeTimeoutMs));
        break;
    }
}

// Era detection (2026-07-28, basic/versioning): server/discover first. A result that names a
// modern version means 2026-07-28; any other error, or no answer in time, means a legacy
// server, which gets initialize.
void Client::probe(int timeoutMs)
{
    m_sendMeta = true;
    setModernVersion(ModernProtocolVersions[0]);
    RequestOptions options;
    options.timeoutMs = timeoutMs;
    request(
            "server/discover", Json::object(), this, [this](Response r) { onDiscoverReply(r); },
            options);
}

void Client::onDiscoverReply(const Response &response)
{
    qCDebug(lcClient) << "server/discover reply" << m_options.serverName << response.ok();
    if (m_state != State::Initializing)
        return;
    if (response.ok() && response.result.is_object()) {
        const std::string version
                = pickModernVersion(response.result.value("supportedVersions", Json::array()));
        if (!version.empty()) {
            if (version != m_protocolVersion)
                setModernVersion(version);
            becomeModern(response.result);
            return;
        }
    }
    if (const std::optional<RpcError> &error = response.error) {
        // Not an answer about the era: the server wants credentials, or it is modern and
        // refuses this request (a header it disagrees with, a capability it requires).
        if (error->is(ErrorCode::AuthenticationRequired)
            || (!error->local
                && (error->code == HeaderMismatch || error->code == MissingClientCapability))) {
            fail(tr("server/discover failed: %1").arg(error->toString()));
            return;
        }
    }
    m_probeTimedOut = response.error && response.error->is(ErrorCode::RequestTimeout);
    m_sendMeta = false;
    m_metaMembers.clear();
    m_protocolVersion.clear();
    m_transport->setProtocolVersion(std::string()); // a retry may have set a modern one
    m_era = Era::Rev2025_11_25;
    sendInitialize();
}

void Client::becomeModern(const Json &result)
{
    m_era = Era::Rev2026_07_28;
    m_transport->setProtocolVersion(m_protocolVersion);
    // serverInfo belongs in _meta; some servers put it beside the other members.
    const Json &info = jsonMember(jsonMember(result, "_meta"), MetaServerInfo);
    readServerDescription(result, info.is_object() ? info : jsonMember(result, "serverInfo"));
    if (m_capabilities.json.contains("tools"))
        refreshTools();
    else
        setState(State::Ready);
}

// What initialize and server/discover both tell: who the server is, what it offers, and how
// it wants to be used.
void Client::readServerDescription(const Json &result, const Json &serverInfo)
{
    m_serverInfo = serverInfo.is_object() ? serverInfo : Json::object();
    m_capabilities = ServerCapabilities::fromJson(result.value("capabilities", Json::object()));
    if (auto it = result.find("instructions"); it != result.end() && it->is_string())
        m_instructions = qs(it->get<std::string>());
}

void Client::setModernVersion(const std::string &version)
{
    m_protocolVersion = version;
    refreshMetaMembers();
}

void Client::refreshMetaMembers()
{
    const std::string meta = modernMeta().dump(-1, ' ', false, Json::error_handler_t::replace);
    m_metaMembers = meta.substr(1, meta.size() - 2); // without the braces
}

Json Client::modernMeta() const
{
    // Tasks are an extension in this era; this client follows them (clienttasks.cpp).
    Json capabilities
            = m_options.capabilities.is_object() ? m_options.capabilities : Json::object();
    if (!capabilities["extensions"].is_object())
        capabilities["extensions"] = Json::object();
    capabilities["extensions"][TasksExtension] = Json::object();
    Json meta{{MetaProtocolVersion, m_protocolVersion},
              {MetaClientCapabilities, std::move(capabilities)},
              {MetaClientInfo,
               {{"name", m_options.clientName}, {"version", m_options.clientVersion}}}};
    if (!m_logLevel.empty())
        meta[MetaLogLevel] = m_logLevel;
    return meta;
}

void Client::sendInitialize()
{
    Json params{
            {"protocolVersion", SupportedProtocolVersions[0]},
            {"capabilities", m_options.capabilities},
            {"clientInfo", {{"name", m_options.clientName}, {"version", m_options.clientVersion}}}};
    RequestOptions options;
    options.timeoutMs = m_options.initializeTimeoutMs;
    request(
            "initialize", std::move(params), this, [this](Response r) { onInitializeReply(r); },
            options);
}

void Client::onInitializeReply(const Response &response)
{
    qCDebug(lcClient) << "initialize reply" << m_options.serverName;
    if (m_state != State::Initializing)
        return;
    if (!response.ok()) {
        // A guess that failed (the era cache said legacy, or the probe got no answer in time,
        // as from a modern server slow to start): ask the server itself, once.
        const RpcError &error = *response.error;
        const bool guessed = m_options.era == Era::Rev2025_11_25 || m_probeTimedOut;
        if (guessed && !m_reprobed && !error.is(ErrorCode::RequestTimeout)
            && !error.is(ErrorCode::ConnectionClosed) && m_transport->isOpen()) {
            m_reprobed = true;
            probe(m_options.initializeTimeoutMs);
            return;
        }
        fail(tr("initialize failed: %1").arg(response.error->toString()));
        return;
    }
    m_era = Era::Rev2025_11_25;
    const Json &result = response.result;
    if (!result.is_object()) {
        fail(tr("initialize returned a result that is not an object"));
        return;
    }
    const auto version = result.find("protocolVersion");
    if (version == result.end() || !version->is_string()) {
        fail(tr("initialize result has no protocolVersion"));
        return;
    }
    m_protocolVersion = version->get<std::string>();
    if (!isSupportedVersion(m_protocolVersion)) {
        QStringList supported;
        for (const char *v : SupportedProtocolVersions)
            supported << QString::fromLatin1(v);
        fail(tr("the server speaks MCP protocol version '%1', which Switchboard does not "
                "support (supported: %2)")
                     .arg(qs(m_protocolVersion), supported.join(QStringLiteral(", "))));
        return;
    }
    m_transport->setProtocolVersion(m_protocolVersion);
    readServerDescription(result, jsonMember(result, "serverInfo"));

    notify("notifications/initialized");
    if (m_capabilities.json.contains("tools"))
        refreshTools();
    else
        setState(State::Ready);
}

void Client::refreshTools()
{
    if (m_state != State::Initializing && m_state != State::Ready)
        return;
    if (m_listingTools) {
        m_relistRequested = true;
        return;
    }
    m_listingTools = true;
    m_relistRequested = false;
    listToolsPage({}, nullptr, 0);
}

void Client::listToolsPage(std::vector<Json> collected, Json cursor, int pages)
{
    Json params = Json::object();
    if (!cursor.is_null())
        params["cursor"] = cursor;
    request("tools/list", std::move(params), this,
            [this, collected = std::move(collected), cursor, pages](Response r) mutable {
                auto done = [this](const QString &error) {
                    m_listingTools = false;
                    if (!error.isEmpty()) {
                        if (m_state == State::Initializing)
                            fail(error);
                        else
                            emit warning(error);
                        return;
                    }
                    if (m_relistRequested) {
                        refreshTools();
                        return;
                    }
                    if (m_state == State::Initializing)
                        setState(State::Ready);
                };
                qCDebug(lcClient) << "tools/list reply" << m_options.serverName;
                if (!r.ok()) {
                    done(tr("tools/list failed: %1").arg(r.error->toString()));
                    return;
                }
                Json result = std::move(r.result);
                auto tools = result.find("tools");
                if (!result.is_object() || tools == result.end() || !tools->is_array()) {
                    done(tr("tools/list returned no tools array"));
                    return;
                }
                std::size_t index = 0;
                for (Json &tool : *tools) {
                    auto name = tool.is_object() ? tool.find("name") : Json::iterator{};
                    if (!tool.is_object() || name == tool.end() || !name->is_string()) {
                        emit warning(tr("tools/list: entry %1 has no name; skipped").arg(index));
                    } else {
                        collected.push_back(std::move(tool));
                    }
                    ++index;
                }
                const auto next = result.find("nextCursor");
                if (next != result.end() && !next->is_null()) {
                    if (*next == cursor || pages + 1 >= MaxListPages) {
                        done(tr("tools/list keeps paging (cursor %1 after %2 pages); stopped")
                                     .arg(qs(next->dump()))
                                     .arg(pages + 1));
                        return;
                    }
                    listToolsPage(std::move(collected), *next, pages + 1);
                    return;
                }
                // Duplicate names would make calls ambiguous: the first definition wins.
                std::set<std::string_view> names;
                std::vector<Json> unique;
                unique.reserve(collected.size());
                // Over HTTP in 2026-07-28, parameters marked x-mcp-header travel as
                // headers too; a tool whose marks are invalid must not be called at all.
                const bool headers
                        = m_era == Era::Rev2026_07_28 && m_transport->sendsParameterHeaders();
                auto parameters = std::make_shared<ParameterHeaders>();
                for (Json &tool : collected) {
                    const auto &name = tool["name"].get_ref<const std::string &>();
                    if (!names.insert(name).second) {
                        emit warning(tr("tools/list: duplicate tool '%1'; kept the first")
                                             .arg(qs(name)));
                        continue;
                    }
                    if (headers) {
                        QString problem;
                        auto declared = parameterHeaders(jsonMember(tool, "inputSchema"), &problem);
                        if (!declared) {
                            emit warning(tr("tools/list: tool '%1' left out: %2")
                                                 .arg(qs(name), problem));
                            continue;
                        }
                        if (!declared->empty())
                            (*parameters)[name] = std::move(*declared);
                    }
                    unique.push_back(std::move(tool));
                }
                if (headers)
                    m_transport->setParameterHeaders(std::move(parameters));
                m_tools = std::make_shared<const std::vector<Json>>(std::move(unique));
                emit toolsChanged();
                done(QString());
            });
}

const Json *Client::findTool(std::string_view name) const
{
    for (const Json &tool : *m_tools) {
        if (tool["name"].get_ref<const std::string &>() == name)
            return &tool;
    }
    return nullptr;
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

ToolResult toolResultFrom(Response r)
{
    ToolResult result;
    if (!r.ok()) {
        result.error = std::move(r.error);
    } else if (!r.result.is_object()) {
        result.error = RpcError{ErrorCode::InvalidResult, "tools/call result is not an object",
                                nullptr, true};
    } else {
        result.raw = std::move(r.result);
        const Json &content = jsonMember(result.raw, "content");
        if (!content.is_null() && !content.is_array())
            result.error = RpcError{ErrorCode::InvalidResult, "tools/call content is not an array",
                                    nullptr, true};
        const Json &isError = jsonMember(result.raw, "isError");
        result.isError = isError.is_boolean() && isError.get<bool>();
    }
    return result;
}

RequestId Client::callTool(const std::string &name, Json arguments, QObject *context,
                           ToolCallback callback, RequestOptions options)
{
    RawJson raw;
    if (!arguments.is_null())
        raw.text = arguments.dump(-1, ' ', false, Json::error_handler_t::replace);
    return callTool(name, raw, context, std::move(callback), std::move(options));
}

RequestId Client::callTool(std::string_view name, const RawJson &arguments, QObject *context,
                           ToolCallback callback, RequestOptions options)
{
    const RequestId id = m_nextId++;
    std::string params = R"({"name":)";
    params += Json(name).dump(-1, ' ', false, Json::error_handler_t::replace);
    if (!arguments.text.empty()) {
        params += R"(,"arguments":)";
        params += arguments.text;
    }
    if (asksForTask(name)) {
        // How long the server keeps the task after it ends: long enough to fetch its result.
        params += R"(,"task":{"ttl":600000})";
    }
    if (options.onProgress || m_sendMeta) {
        params += R"(,"_meta":{)";
        params += m_metaMembers;
        if (options.onProgress) {
            if (!m_metaMembers.empty())
                params += ',';
            params += R"("progressToken":)";
            params += std::to_string(id);
        }
        params += '}';
    }
    params += '}';
    Callback wrapped = taskAwareCallback(id, std::move(callback), context, options);
    return sendRequest("tools/call", params, context, std::move(wrapped), std::move(options), id);
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

bool Client::continueModern(RequestId id, Json &message)
{
    Pending &pending = m_pending.at(id);
    if (auto error = message.find("error"); error != message.end()) {
        const RpcError rpcError = RpcError::fromJson(*error);
        if (rpcError.code != UnsupportedProtocolVersion || pending.versionRetries > 0)
            return false;
        // The server speaks another modern version (data.supported): the request goes again
        // in that one, and so does every later request.
        const std::string version = pickModernVersion(jsonMember(rpcError.data, "supported"));
        if (version.empty())
            return false;
        ++pending.versionRetries;
        qCDebug(lcClient) << "retrying in version" << qs(version) << m_options.serverName;
        setModernVersion(version);
        m_transport->setProtocolVersion(version);
        Json params = parseJson(pending.params);
        if (!params.is_object())
            params = Json::object();
        params["_meta"][MetaProtocolVersion] = version;
        resend(id, std::move(params));
        return true;
    }
    Json &result = message["result"];
    const Json &type = jsonMember(result, "resultType");
    if (!type.is_string() || type.get_ref<const std::string &>() != "input_required")
        return false; // "complete", or absent (which means complete)
    answerInputRequests(id, std::move(result));
    return true;
}

// A multi-round request (2026-07-28, basic/patterns/mrtr): the server needs answers first.
// Each inputRequests entry goes to this client's handler for its method; with every answer in,
// the request goes again under a new id with inputResponses and the requestState untouched.
void Client::answerInputRequests(RequestId id, Json result)
{
    Pending &pending = m_pending.at(id);
    const int round = ++pending.inputRounds;
    if (round > m_options.maxInputRounds) {
        finishRequest(id,
                      Response::failure(ErrorCode::InvalidResult,
                                        where() + " asked for input " + std::to_string(round)
                                                + " times for '" + pending.method + "'; stopped"));
        return;
    }
    const Json &requests = jsonMember(result, "inputRequests");
    if (!requests.is_object() || requests.empty()) {
        finishRequest(id, Response::failure(ErrorCode::InvalidResult,
                                            where() + " asked for input for '" + pending.method
                                                    + "' without inputRequests"));
        return;
    }
    std::vector<std::pair<std::string, RequestHandler *>> handlers;
    for (const auto &[name, request] : requests.items()) {
        const Json &method = jsonMember(request, "method");
        auto handler = method.is_string() ? m_handlers.find(method.get<std::string>())
                                          : m_handlers.end();
        if (handler == m_handlers.end()) {
            finishRequest(
                    id, Response::failure(ErrorCode::MethodNotFound,
                                          where() + " asked for '"
                                                  + (method.is_string() ? method.get<std::string>()
                                                                        : std::string("?"))
                                                  + "' (input '" + name + "' for '" + pending.method
                                                  + "'), which this client does not offer"));
            return;
        }
        handlers.emplace_back(name, &handler->second);
    }
    struct Round
    {
        Json responses = Json::object();
        Json requestState;
        bool hasState = false;
        std::size_t left = 0;
        bool over = false;
    };
    auto state = std::make_shared<Round>();
    state->left = handlers.size();
    if (auto it = result.find("requestState"); it != result.end()) {
        state->requestState = std::move(*it);
        state->hasState = true;
    }
    QPointer<Client> self(this);
    for (const auto &entry : handlers) {
        // Named copies: a lambda may not capture a structured binding (clang).
        const std::string &name = entry.first;
        RequestHandler *handler = entry.second;
        Reply reply = [self, id, round, name, state](Response response) {
            if (!self || state->over)
                return;
            auto it = self->m_pending.find(id);
            if (it == self->m_pending.end() || it->second.inputRounds != round) {
                state->over = true;
                return;
            }
            if (!response.ok()) {
                state->over = true;
                self->finishRequest(id, Response{nullptr, response.error});
                return;
            }
            if (state->responses.contains(name))
                return; // one answer per input
            state->responses[name] = std::move(response.result);
            if (--state->left > 0)
                return;
            state->over = true;
            Json params = parseJson(it->second.params);
            if (!params.is_object())
                params = Json::object();
            params["inputResponses"] = std::move(state->responses);
            if (state->hasState)
                params["requestState"] = std::move(state->requestState);
            else
                params.erase("requestState");
            self->resend(id, std::move(params));
        };
        const Json &params = jsonMember(jsonMember(requests, name.c_str()), "params");
        (*handler)(params.is_object() ? params : Json::object(), std::move(reply));
    }
}

void Client::resend(RequestId id, Json params)
{
    Pending &pending = m_pending.at(id);
    if (pending.wireId != id)
        m_callerIds.erase(pending.wireId);
    const RequestId wire = m_nextId++;
    m_callerIds[wire] = id;
    pending.wireId = wire;
    pending.params = params.dump(-1, ' ', false, Json::error_handler_t::replace);
    // The time spent answering (a person filling a form) does not count against the request.
    restartDeadline(pending);
    m_transport->send(serializeRequest(wire, pending.method, pending.params));
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

// 2026-07-28 (no sessions, no resumption): a request whose answer stream broke off is sent
// again, whole, under a new id — a few times, then it fails.
bool Client::reissue(RequestId id)
{
    Pending &pending = m_pending.at(id);
    if (!m_sendMeta || pending.method == "subscriptions/listen" || pending.reissues >= MaxReissues
        || !m_transport->isOpen())
        return false;
    ++pending.reissues;
    qCDebug(lcClient) << "sending" << qs(pending.method) << "again (its stream broke off)"
                      << m_options.serverName;
    Json params = parseJson(pending.params);
    resend(id, params.is_object() ? std::move(params) : Json::object());
    return true;
}

Json Client::listenFilter() const
{
    Json filter = Json::object();
    auto offers = [this](const char *capability, const char *feature) {
        const Json &value = jsonMember(jsonMember(m_capabilities.json, capability), feature);
        return value.is_boolean() && value.get<bool>();
    };
    if (offers("tools", "listChanged"))
        filter["toolsListChanged"] = true;
    if (offers("resources", "listChanged"))
        filter["resourcesListChanged"] = true;
    if (offers("prompts", "listChanged"))
        filter["promptsListChanged"] = true;
    if (offers("resources", "subscribe") && !m_watched.empty())
        filter["resourceSubscriptions"] = m_watched;
    return filter;
}

void Client::listen()
{
    if (m_era != Era::Rev2026_07_28 || m_state != State::Ready || m_listenId != 0)
        return;
    Json filter = listenFilter();
    if (filter.empty()) {
        // Nothing left to listen for (the last watch is off).
        if (m_staleListenId != 0) {
            m_staleSubscription = nullptr;
            cancel(std::exchange(m_staleListenId, 0), QStringLiteral("nothing to listen for"));
        }
        answerWatchers(std::nullopt);
        return;
    }
    RequestOptions options;
    options.untimed = true;
    m_subscription = nullptr;
    const int generation = m_listenGeneration = ++m_generations;
    m_listenId = request(
            "subscriptions/listen", Json{{"notifications", std::move(filter)}}, this,
            [this, generation](Response r) { onListenEnded(generation, r); }, options);
}

void Client::relisten()
{
    m_listenTimer.stop();
    if (m_listenId != 0) {
        const RequestId open = std::exchange(m_listenId, 0);
        const int generation = std::exchange(m_listenGeneration, 0);
        if (m_subscription.is_null()) {
            // Not acknowledged yet (so it is the replacement, if any): never two in flight.
            cancel(open, QStringLiteral("replaced before it was acknowledged"));
        } else {
            // Kept until the new one is acknowledged, so no notification falls in between.
            m_staleListenId = open;
            m_staleGeneration = generation;
            m_staleSubscription = std::exchange(m_subscription, nullptr);
        }
    }
    listen();
}

void Client::onListenAcknowledged(const Json &agreed)
{
    m_subscription = agreed.is_object() ? agreed : Json::object();
    if (m_staleListenId != 0) {
        m_staleSubscription = nullptr;
        cancel(std::exchange(m_staleListenId, 0), QStringLiteral("replaced by a new filter"));
    }
    answerWatchers(std::nullopt);
    if (std::exchange(m_listenFailures, 0) == 0)
        return;
    // Changes made while no stream was open went unheard: the tools are listed again, and
    // whoever listens hears that the other lists and each watched resource may have changed.
    refreshTools();
    for (const char *list : {"resources", "prompts"}) {
        const Json &changes
                = jsonMember(m_subscription, (std::string(list) + "ListChanged").c_str());
        if (changes.is_boolean() && changes.get<bool>())
            emit notificationReceived(
                    QStringLiteral("notifications/%1/list_changed").arg(QLatin1String(list)),
                    Json::object());
    }
    const std::set<std::string> watched = m_watched; // (a receiver may change it)
    for (const std::string &uri : watched) {
        if (agreedToWatch(uri))
            emit notificationReceived(QStringLiteral("notifications/resources/updated"),
                                      Json{{"uri", uri}});
    }
}

bool Client::agreedToWatch(const std::string &uri) const
{
    const Json &uris = jsonMember(m_subscription, "resourceSubscriptions");
    return uris.is_array() && std::find(uris.begin(), uris.end(), Json(uri)) != uris.end();
}

void Client::answerWatchers(const std::optional<RpcError> &failure)
{
    std::vector<Watcher> watchers = std::exchange(m_watchers, {});
    for (Watcher &watcher : watchers) {
        Response response = Response::success(Json::object());
        if (failure) {
            response = Response{nullptr, *failure};
        } else if (watcher.watch && !agreedToWatch(watcher.uri)) {
            response = Response::failure(ErrorCode::InvalidResult,
                                         where() + " did not agree to send updates of "
                                                 + watcher.uri);
        }
        if (!response.ok() && watcher.watch)
            m_watched.erase(watcher.uri);
        else if (!response.ok())
            m_watched.insert(watcher.uri); // not unwatched after all
        if (watcher.hasContext && !watcher.context)
            continue;
        watcher.callback(std::move(response));
    }
}

void Client::onListenEnded(int generation, const Response &response)
{
    const RpcError ended{ErrorCode::ConnectionClosed, where() + " ended the subscription", nullptr,
                         true};
    if (m_staleListenId != 0 && generation == m_staleGeneration) {
        m_staleListenId = 0; // the stream being replaced ended first; its replacement goes on
        m_staleSubscription = nullptr;
        return;
    }
    if (generation != m_listenGeneration)
        return; // a stream already replaced
    m_listenId = 0;
    m_subscription = nullptr;
    if (m_staleListenId != 0) {
        // The replacement failed before its acknowledgment: the stream it was to replace (and
        // its filter) goes on, without what the waiting watches asked for.
        m_listenId = std::exchange(m_staleListenId, 0);
        m_listenGeneration = m_staleGeneration;
        m_subscription = std::exchange(m_staleSubscription, nullptr);
        answerWatchers(response.ok() ? ended : *response.error);
        return;
    }
    if (m_state != State::Ready || response.ok()) {
        // Disconnected, or the server ended it gracefully.
        answerWatchers(response.ok() ? ended : *response.error);
        return;
    }
    const RpcError &error = *response.error;
    if (!error.local) {
        answerWatchers(error);
        emit warning(tr("subscriptions/listen failed: %1; list changes and resource updates "
                        "will not be seen")
                             .arg(error.toString()));
        return;
    }
    if (error.is(ErrorCode::RequestCancelled) || error.is(ErrorCode::ConnectionClosed)) {
        answerWatchers(error);
        return;
    }
    // It broke off: opened again later; watchers wait for that one's acknowledgment.
    const int wait = ListenRetryMs << std::min(m_listenFailures, 6);
    ++m_listenFailures;
    qCDebug(lcClient) << "subscriptions/listen broke off:" << error.toString() << "; again in"
                      << std::min(wait, MaxListenRetryMs) << "ms";
    m_listenTimer.start(std::min(wait, MaxListenRetryMs));
}

void Client::watchResource(const std::string &uri, bool watch, QObject *context, Callback callback)
{
    const Json &subscribe = jsonMember(jsonMember(m_capabilities.json, "resources"), "subscribe");
    if (!subscribe.is_boolean() || !subscribe.get<bool>()) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::MethodNotFound,
                                       where() + " offers no resource subscriptions"));
        return;
    }
    if (m_era != Era::Rev2026_07_28) {
        request(watch ? "resources/subscribe" : "resources/unsubscribe", Json{{"uri", uri}},
                context, [this, uri, watch, callback = std::move(callback)](Response response) {
                    if (response.ok()) {
                        if (watch)
                            m_watched.insert(uri);
                        else
                            m_watched.erase(uri);
                    }
                    callback(std::move(response));
                });
        return;
    }
    if (m_state != State::Ready) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::ConnectionClosed,
                                       where() + " is not connected (subscriptions/listen)"));
        return;
    }
    if (watch == (m_watched.count(uri) > 0) && m_watchers.empty() && !m_subscription.is_null()) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::success(Json::object()));
        return;
    }
    if (watch)
        m_watched.insert(uri);
    else
        m_watched.erase(uri);
    m_watchers.push_back(Watcher{uri, watch, std::move(callback), context, context != nullptr});
    relisten();
}

void Client::setLogLevel(const std::string &level, QObject *context, Callback callback)
{
    if (std::find(std::begin(LogLevels), std::end(LogLevels), level) == std::end(LogLevels)) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::InvalidParams, "not a log level: " + level));
        return;
    }
    if (!m_capabilities.json.is_object() || !m_capabilities.json.contains("logging")) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::MethodNotFound, where() + " does not log"));
        return;
    }
    if (m_era != Era::Rev2026_07_28) {
        request("logging/setLevel", Json{{"level", level}}, context,
                [this, level, callback = std::move(callback)](Response response) {
                    if (response.ok())
                        m_logLevel = level;
                    callback(std::move(response));
                });
        return;
    }
    m_logLevel = level;
    refreshMetaMembers(); // the _meta every request carries now names it
    respondLater(std::move(callback), context, context != nullptr,
                 Response::success(Json::object()));
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
