#include "appbridge.h"

#include <engine/tools/mcptooladapter.h>
#include <engine/tools/toolregistry.h>

#include <mcp/apps/appmeta.h>
#include <mcp/client/features.h>
#include <mcp/manager.h>
#include <mcp/wire/jsonmember.h>

#include <QPointer>
#include <QTimer>

namespace Engine {

using Mcp::Json;
using Mcp::Apps::BridgeMessage;

namespace {

// JSON-RPC's own codes, and the spec's "implementation-defined" one for refusals.
constexpr int MethodNotFound = -32601;
constexpr int InvalidParams = -32602;
constexpr int Refused = -32000;

const char *const SupportedBridgeVersions[] = {Mcp::Apps::BridgeProtocolVersion};

QString text(const Json &value)
{
    return value.is_string() ? QString::fromStdString(value.get_ref<const std::string &>())
                             : QString();
}

// The text of content blocks (an array, or the one object the spec's example shows), other
// blocks named; at most `maxChars`.
QString contentText(const Json &content, int maxChars)
{
    QStringList parts;
    auto add = [&parts](const Json &block) {
        const Json &type = Mcp::jsonMember(block, "type");
        if (type == "text")
            parts << text(Mcp::jsonMember(block, "text"));
        else if (type.is_string())
            parts << QStringLiteral("[%1]").arg(text(type).left(40));
    };
    if (content.is_array()) {
        for (const Json &block : content)
            add(block);
    } else if (content.is_object()) {
        add(content);
    }
    return parts.join(QLatin1Char('\n')).left(maxChars);
}

} // namespace

AppBridge::AppBridge(Mcp::Manager *manager, ToolRegistry *registry, ToolRunner *runner,
                     Options options, Face face, QObject *parent)
    : QObject(parent)
    , m_manager(manager)
    , m_registry(registry)
    , m_runner(runner)
    , m_options(std::move(options))
    , m_face(std::move(face))
{
    m_clock.start();
    if (const Json &mode = Mcp::jsonMember(m_options.hostContext, "displayMode"); mode.is_string())
        m_displayMode = text(mode);
}

AppBridge::~AppBridge()
{
    m_tornDown = true; // the runs' answers go nowhere
    cancelCalls();
}

void AppBridge::cancelCalls()
{
    std::vector<ToolRunner::RunId> runs;
    for (const auto &[id, run] : m_calls)
        runs.push_back(run);
    for (ToolRunner::RunId run : runs)
        m_runner->cancel(run); // each answers once, and leaves m_calls
}

void AppBridge::log(bool fromView, const QString &line)
{
    if (m_face.log)
        m_face.log(fromView, line.left(MaxLoggedChars));
}

bool AppBridge::withinRate()
{
    const qint64 now = m_clock.elapsed();
    if (now - m_windowStart >= 1000) {
        if (m_dropped > 0)
            log(true, tr("the view sent %1 messages too many in one second; they were dropped "
                         "(at most %2 a second)")
                              .arg(m_dropped)
                              .arg(MaxMessagesPerSecond));
        m_windowStart = now;
        m_windowCount = 0;
        m_dropped = 0;
    }
    if (++m_windowCount <= MaxMessagesPerSecond)
        return true;
    ++m_dropped;
    return false;
}

void AppBridge::receive(QByteArrayView bytes)
{
    if (!withinRate())
        return; // not even answered: answering a flood would be one too
    const BridgeMessage message = BridgeMessage::read(bytes);
    // Once torn down, only the answer to ui/resource-teardown is still read.
    if (m_tornDown && message.kind != BridgeMessage::Kind::Response)
        return;
    log(true, QString::fromUtf8(bytes.first(std::min<qsizetype>(bytes.size(), MaxLoggedChars))));
    switch (message.kind) {
    case BridgeMessage::Kind::Invalid:
        log(true, tr("refused: %1").arg(message.problem));
        if (!message.id.is_null())
            respondError(message.id, InvalidParams, message.problem);
        return;
    case BridgeMessage::Kind::Request:
        return handleRequest(message);
    case BridgeMessage::Kind::Notification:
        return handleNotification(message);
    case BridgeMessage::Kind::Response: {
        const auto it = message.id.is_number_integer() ? m_pending.find(message.id.get<qint64>())
                                                       : m_pending.end();
        if (it == m_pending.end()) {
            log(true, tr("ignored: an answer to no request of the host"));
            return;
        }
        auto done = std::move(it->second);
        m_pending.erase(it);
        if (done)
            done();
        return;
    }
    }
}

void AppBridge::handleRequest(const BridgeMessage &message)
{
    const std::string &method = message.method;
    const Json &id = message.id;
    const Json &params = message.params;
    if (method == "ui/initialize")
        return answerInitialize(id, params);
    if (method == "ping")
        return respond(id, Json::object());
    if (!m_answeredInitialize)
        return respondError(id, Refused, tr("the view has not sent ui/initialize"));
    using Handler = void (AppBridge::*)(const Json &, const Json &);
    static const std::pair<const char *, Handler> handlers[]
            = {{"tools/call", &AppBridge::callTool},
               {"resources/read", &AppBridge::readResource},
               {"ui/open-link", &AppBridge::openLink},
               {"ui/message", &AppBridge::suggestMessage},
               {"ui/update-model-context", &AppBridge::updateModelContext},
               {"ui/request-display-mode", &AppBridge::requestDisplayMode}};
    for (const auto &[name, handler] : handlers) {
        if (method == name)
            return (this->*handler)(id, params);
    }
    respondError(id, MethodNotFound,
                 tr("%1 is not a method of this host")
                         .arg(QString::fromStdString(method).left(MaxLoggedChars)));
}

void AppBridge::handleNotification(const BridgeMessage &message)
{
    const std::string &method = message.method;
    const Json &params = message.params;
    if (method == "ui/notifications/initialized") {
        if (!m_answeredInitialize) {
            log(true, tr("ignored: initialized before ui/initialize"));
            return;
        }
        m_initialized = true;
        flush();
    } else if (method == "ui/notifications/size-changed") {
        const Json &width = Mcp::jsonMember(params, "width");
        const Json &height = Mcp::jsonMember(params, "height");
        auto clamp = [](const Json &value) {
            return value.is_number()
                           ? int(std::clamp(value.get<double>(), 0.0, double(MaxViewSize)))
                           : -1;
        };
        if (m_face.sizeChanged)
            m_face.sizeChanged(clamp(width), clamp(height));
    } else if (method == "notifications/message") {
        const Json &data = Mcp::jsonMember(params, "data");
        log(true, tr("the view logs (%1): %2")
                          .arg(text(Mcp::jsonMember(params, "level")).left(20),
                               data.is_string()
                                       ? text(data)
                                       : QString::fromStdString(data.dump(
                                               -1, ' ', false, Json::error_handler_t::replace))));
    } else if (method == "notifications/cancelled") {
        const Json &requestId = Mcp::jsonMember(params, "requestId");
        const auto it = m_calls.find(requestId.dump());
        if (it != m_calls.end())
            m_runner->cancel(it->second); // its answer still goes out, once
    }
    // Other notifications mean nothing to this host (the spec: ignore them).
}

void AppBridge::answerInitialize(const Json &id, const Json &params)
{
    // A page that reloads starts over: the handshake again, then what it is owed again.
    m_initialized = false;
    m_inputSent = false;
    m_outcomeSent = false;
    m_viewModes.clear();
    const Json &modes
            = Mcp::jsonMember(Mcp::jsonMember(params, "appCapabilities"), "availableDisplayModes");
    if (modes.is_array()) {
        for (const Json &mode : modes) {
            if (mode.is_string() && m_viewModes.size() < 8)
                m_viewModes << text(mode).left(20);
        }
    }
    const Json &asked = Mcp::jsonMember(params, "protocolVersion");
    std::string version = Mcp::Apps::BridgeProtocolVersion;
    for (const char *supported : SupportedBridgeVersions) {
        if (asked == supported)
            version = supported;
    }
    Json capabilities{{"openLinks", Json::object()},
                      {"serverTools", Json::object()},
                      {"serverResources", Json::object()},
                      {"logging", Json::object()},
                      {"message", {{"text", Json::object()}}},
                      {"updateModelContext", {{"text", Json::object()}}},
                      {"sandbox", m_options.sandbox}};
    Json hostContext = m_options.hostContext;
    hostContext["displayMode"] = m_displayMode.toStdString();
    m_answeredInitialize = true;
    respond(id, Json{{"protocolVersion", version},
                     {"hostInfo",
                      {{"name", "Switchboard"}, {"version", m_options.hostVersion.toStdString()}}},
                     {"hostCapabilities", std::move(capabilities)},
                     {"hostContext", std::move(hostContext)}});
}

void AppBridge::callTool(const Json &id, const Json &params)
{
    const Json &name = Mcp::jsonMember(params, "name");
    if (!name.is_string() || name.get_ref<const std::string &>().empty())
        return respondError(id, InvalidParams, tr("tools/call needs a tool name"));
    const Json &arguments = Mcp::jsonMember(params, "arguments");
    if (!arguments.is_null() && !arguments.is_object())
        return respondError(id, InvalidParams, tr("the arguments of tools/call must be an object"));
    const QString tool = text(name);
    // Only a tool of the view's own server, and only one its server lets views call.
    const std::shared_ptr<Tool> found = m_registry->find(mcpToolName(m_options.server, tool));
    if (!found || found->isBuiltin() || found->source() != m_options.server
        || found->originalName() != tool) {
        log(true, tr("refused: the view asked for tool '%1', which its server '%2' does not have")
                          .arg(tool.left(200), m_options.server));
        return respondError(id, Refused,
                            tr("no tool '%1' on this view's server").arg(tool.left(200)));
    }
    if (!found->appUi().app) {
        log(true, tr("refused: tool '%1' is not for views (its visibility lacks \"app\")")
                          .arg(tool.left(200)));
        return respondError(id, Refused,
                            tr("tool '%1' is not callable by views").arg(tool.left(200)));
    }
    const std::string key = id.dump();
    if (m_calls.count(key))
        return respondError(id, InvalidParams, tr("a request with this id is still running"));
    const qint64 now = m_clock.elapsed();
    while (!m_callStarts.isEmpty() && now - m_callStarts.front() > 60000)
        m_callStarts.removeFirst();
    if (int(m_calls.size()) >= MaxRunningCalls || m_callStarts.size() >= MaxCallsPerMinute) {
        log(true, tr("throttled: the view calls tools too often"));
        return respondError(id, Refused,
                            tr("too many tool calls: at most %1 at once and %2 a minute; try "
                               "again later")
                                    .arg(MaxRunningCalls)
                                    .arg(MaxCallsPerMinute));
    }
    m_callStarts << now;
    ToolCallRequest call;
    call.id = QStringLiteral("app-%1").arg(m_nextId++);
    call.name = found->name();
    call.arguments = arguments.is_null() ? Json::object() : arguments;
    ToolRunner::Callbacks callbacks;
    callbacks.onDone = [this, id, key](ToolRunResult result) {
        m_calls.erase(key);
        Json answer{{"content", std::move(result.output.content)},
                    {"isError", result.output.isError}};
        if (!result.output.structuredContent.is_null())
            answer["structuredContent"] = std::move(result.output.structuredContent);
        respond(id, std::move(answer));
    };
    const ToolRunner::RunId run = m_runner->run(call, m_options.conversationId, this,
                                                std::move(callbacks), CallOrigin::App);
    // The runner never answers inside run(); the call is running until onDone.
    m_calls[key] = run;
}

void AppBridge::readResource(const Json &id, const Json &params)
{
    const Json &uri = Mcp::jsonMember(params, "uri");
    if (!uri.is_string() || uri.get_ref<const std::string &>().empty()
        || uri.get_ref<const std::string &>().size() > 2048)
        return respondError(id, InvalidParams, tr("resources/read needs a uri"));
    Mcp::Client *client = m_manager->client(m_options.server);
    if (!client)
        return respondError(id, Refused,
                            tr("the server '%1' is not connected").arg(m_options.server));
    Mcp::readResource(client, uri.get<std::string>(), this, [this, id](Mcp::ReadResourceResult r) {
        if (r.error)
            return respondError(id, int(r.error->code) == 0 ? Refused : int(r.error->code),
                                QString::fromStdString(r.error->message));
        respond(id, std::move(r.json));
    });
}

void AppBridge::openLink(const Json &id, const Json &params)
{
    const QUrl url(text(Mcp::jsonMember(params, "url")), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        log(true, tr("refused: ui/open-link of a URL that is not http or https"));
        return respondError(id, Refused, QStringLiteral("Invalid URL"));
    }
    if (!m_face.openLink)
        return respondError(id, Refused, QStringLiteral("Policy violation"));
    if (m_linkAsked)
        return respondError(id, Refused, tr("the person is still being asked about a link"));
    m_linkAsked = true;
    QPointer<AppBridge> self(this);
    m_face.openLink(url, [self, id](bool yes) {
        if (!self)
            return;
        self->m_linkAsked = false;
        if (yes)
            self->respond(id, Json::object());
        else
            self->respondError(id, Refused, QStringLiteral("Link opening denied by user"));
    });
}

void AppBridge::suggestMessage(const Json &id, const Json &params)
{
    const QString message = contentText(Mcp::jsonMember(params, "content"), MaxSuggestedChars);
    if (Mcp::jsonMember(params, "role") != "user" || message.trimmed().isEmpty())
        return respondError(id, InvalidParams, QStringLiteral("Invalid message format"));
    if (!m_face.suggestMessage)
        return respondError(id, Refused, QStringLiteral("Message sending denied"));
    m_face.suggestMessage(message);
    respond(id, Json::object());
}

void AppBridge::updateModelContext(const Json &id, const Json &params)
{
    QString context = contentText(Mcp::jsonMember(params, "content"), MaxModelContextChars);
    const Json &structured = Mcp::jsonMember(params, "structuredContent");
    if (!structured.is_null() && context.size() < MaxModelContextChars) {
        if (!context.isEmpty())
            context += QLatin1Char('\n');
        context += QString::fromStdString(
                structured.dump(-1, ' ', false, Json::error_handler_t::replace));
        context.truncate(MaxModelContextChars);
    }
    if (!m_face.setModelContext)
        return respondError(id, Refused, QStringLiteral("Context update denied"));
    m_face.setModelContext(context); // each update replaces the last; empty clears
    respond(id, Json::object());
}

void AppBridge::requestDisplayMode(const Json &id, const Json &params)
{
    const QString mode = text(Mcp::jsonMember(params, "mode"));
    const bool known = mode == QLatin1String("inline") || mode == QLatin1String("fullscreen")
                       || mode == QLatin1String("pip");
    // Never a mode the view did not say it supports (when it said).
    const bool allowed = known && (m_viewModes.isEmpty() || m_viewModes.contains(mode));
    QString now = m_displayMode;
    if (allowed && m_face.requestDisplayMode)
        now = m_face.requestDisplayMode(mode);
    respond(id, Json{{"mode", now.toStdString()}});
    if (now != m_displayMode) {
        m_displayMode = now;
        hostContextChanged(Json{{"displayMode", now.toStdString()}});
    }
}

void AppBridge::toolInputPartial(const Json &arguments)
{
    if (m_input)
        return; // the whole input was given: no more partial ones
    m_partialInput = arguments;
    m_partialPending = true;
    flush();
}

void AppBridge::toolInput(const Json &arguments)
{
    if (m_input)
        return; // at most once
    m_input = arguments.is_object() ? arguments : Json::object();
    m_partialInput.reset();
    flush();
}

void AppBridge::toolResult(const Json &result)
{
    if (m_result || m_cancelled)
        return;
    m_result = result;
    flush();
}

void AppBridge::toolCancelled(const QString &reason)
{
    if (m_result || m_cancelled)
        return;
    m_cancelled = reason;
    flush();
}

void AppBridge::hostContextChanged(const Json &changes)
{
    if (!changes.is_object() || changes.empty())
        return;
    m_options.hostContext.update(changes);
    if (m_initialized)
        notify("ui/notifications/host-context-changed", changes);
    // Before then, the view gets the whole context with its ui/initialize answer.
}

void AppBridge::flush()
{
    if (!m_initialized || m_tornDown)
        return;
    if (!m_inputSent && m_partialPending && m_partialInput) {
        m_partialPending = false;
        notify("ui/notifications/tool-input-partial", Json{{"arguments", *m_partialInput}});
    }
    if (!m_inputSent && (m_input || m_result || m_cancelled)) {
        // The input always comes before the outcome (empty when it never came).
        m_inputSent = true;
        notify("ui/notifications/tool-input",
               Json{{"arguments", m_input ? *m_input : Json::object()}});
    }
    if (m_inputSent && !m_outcomeSent) {
        if (m_result) {
            m_outcomeSent = true;
            notify("ui/notifications/tool-result", *m_result);
        } else if (m_cancelled) {
            m_outcomeSent = true;
            notify("ui/notifications/tool-cancelled", Json{{"reason", m_cancelled->toStdString()}});
        }
    }
}

void AppBridge::teardown(const QString &reason, std::function<void()> done)
{
    cancelCalls();
    if (!m_initialized || m_tornDown) {
        m_tornDown = true;
        QTimer::singleShot(0, this, std::move(done));
        return;
    }
    const qint64 id = m_nextId++;
    auto finished = std::make_shared<bool>(false);
    auto finish = [finished, done = std::move(done)] {
        if (*finished)
            return;
        *finished = true;
        done();
    };
    m_pending[id] = finish;
    send(Json{{"jsonrpc", "2.0"},
              {"id", id},
              {"method", "ui/resource-teardown"},
              {"params", {{"reason", reason.toStdString()}}}});
    m_tornDown = true; // nothing more goes to the view; its answer is still read
    QTimer::singleShot(TeardownTimeoutMs, this, [this, id, finish] {
        if (m_pending.erase(id))
            log(true, tr("the view did not answer ui/resource-teardown within %1 s; closed anyway")
                              .arg(TeardownTimeoutMs / 1000));
        finish();
    });
}

void AppBridge::respond(const Json &id, Json result)
{
    send(Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void AppBridge::respondError(const Json &id, int code, const QString &message)
{
    send(Json{{"jsonrpc", "2.0"},
              {"id", id},
              {"error", {{"code", code}, {"message", message.toStdString()}}}});
}

void AppBridge::notify(const char *method, Json params)
{
    send(Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void AppBridge::send(const Json &message)
{
    if (m_tornDown)
        return;
    const std::string text = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    log(false, QString::fromStdString(text.substr(0, std::size_t(MaxLoggedChars))));
    if (m_face.post)
        m_face.post(QByteArray::fromStdString(text));
}

} // namespace Engine
