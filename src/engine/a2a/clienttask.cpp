// Client::Task, the request side: the interface, JSON-RPC posts, one call, and the end.
#include "clienttask.h"

#include <mcp/transport/httpsupport.h>
#include <mcp/wire/jsonparser.h>
#include <mcp/wire/safetext.h>

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace Engine::A2A {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::A2A::Client", text);
}

// JSON-RPC and A2A error codes the client acts on.
constexpr int MethodNotFound = -32601;
constexpr int VersionNotSupported = -32009;

// The protocol version an interface says it speaks: 0.x is 0.3's wire, anything else 1.0's.
Version interfaceVersion(const AgentInterface &interface)
{
    return interface.protocolVersion.startsWith(QLatin1String("0.")) ? Version::V0_3
                                                                     : Version::V1_0;
}

QByteArray versionHeader(Version version)
{
    return version == Version::V1_0 ? QByteArrayLiteral("1.0") : QByteArrayLiteral("0.3");
}

// An error a JSON-RPC peer sent, for people: "the agent answered error -32001: Task not found".
QString rpcErrorText(const Json &error)
{
    const int code = error.is_object() && error.contains("code") && error["code"].is_number()
                             ? error["code"].get<int>()
                             : 0;
    const QString message
            = error.is_object() && error.contains("message") && error["message"].is_string()
                      ? fromStd(error["message"].get<std::string>())
                      : QString();
    return tr("the agent answered error %1: %2")
            .arg(code)
            .arg(Mcp::escapeControlCharacters(message.left(500)));
}

int rpcErrorCode(const Json &error)
{
    return error.is_object() && error.contains("code") && error["code"].is_number_integer()
                   ? error["code"].get<int>()
                   : 0;
}

} // namespace

QString fromStd(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// The request options for `url`: the endpoint's headers only where its origin is the
// endpoint's own.
Mcp::HttpOptions optionsFor(const Endpoint &endpoint, const QUrl &url)
{
    Mcp::HttpOptions options;
    options.serverName = endpoint.displayName();
    options.url = url;
    if (Mcp::Http::sameOrigin(url, endpoint.url))
        options.headers = endpoint.headers;
    return options;
}

Client::Task::Task(Client *client, Endpoint endpoint)
    : QObject(client)
    , m_client(client)
    , m_endpoint(std::move(endpoint))
{
}

void Client::Task::send(Message message, SendOptions options, Progress progress, Done done)
{
    m_message = std::move(message);
    m_options = std::move(options);
    m_progress = std::move(progress);
    m_done = std::move(done);
    const int timeout = m_options.timeoutMs >= 0 ? m_options.timeoutMs : m_endpoint.timeoutMs;
    if (timeout > 0) {
        m_timer.setSingleShot(true);
        m_timer.setInterval(timeout);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            stop(Outcome::Kind::TimedOut, tr("%1 did not finish the task within %2 s")
                                                  .arg(m_endpoint.displayName())
                                                  .arg(m_timer.interval() / 1000.0));
        });
        m_timer.start();
    }
    if (isEnvelopeUrl(m_endpoint.url)) {
        sendEnvelope(m_endpoint.url);
        return;
    }
    m_client->loadCard(
            m_endpoint, this,
            [this](std::optional<AgentCard> card, const QString &error, const QUrl &cardUrl) {
                if (m_finished)
                    return;
                if (!card) {
                    fail(Outcome::Kind::Unreachable, error);
                    return;
                }
                m_card = *card;
                if (!chooseInterface(cardUrl))
                    return;
                sendMessage();
            });
}

Stop Client::Task::stopper()
{
    QPointer<Task> self(this);
    return [self] {
        if (self)
            self->stop(Outcome::Kind::Stopped, tr("stopped"));
    };
}

void Client::Task::call(const char *method, Json params, CallDone done)
{
    m_callDone = std::move(done);
    m_client->loadCard(m_endpoint, this,
                       [this, method, params](std::optional<AgentCard> card, const QString &error,
                                              const QUrl &cardUrl) {
                           if (m_finished)
                               return;
                           if (!card) {
                               finishCall({}, error);
                               return;
                           }
                           m_card = *card;
                           if (!chooseInterface(cardUrl))
                               return;
                           callMethod(method, params);
                       });
}

Stop Client::Task::callStopper()
{
    QPointer<Task> self(this);
    return [self] {
        if (self)
            self->finishCall({}, tr("stopped"));
    };
}

void Client::Task::failEither(const QString &error)
{
    if (m_done)
        fail(Outcome::Kind::Error, error);
    else
        finishCall({}, error);
}

bool Client::Task::chooseInterface(const QUrl &cardUrl)
{
    const std::optional<AgentInterface> interface = m_card.jsonRpcInterface();
    if (!interface) {
        for (const AgentInterface &other : m_card.interfaces) {
            if (other.protocolBinding == QLatin1String(EnvelopeBinding)) {
                if (m_done) {
                    sendEnvelope(cardUrl.resolved(QUrl(other.url)));
                    return false;
                }
            }
        }
        QStringList offered;
        for (const AgentInterface &other : m_card.interfaces)
            offered << other.protocolBinding;
        const QString error
                = tr("agent '%1' offers no JSON-RPC interface (its card lists: %2)")
                          .arg(Mcp::escapeControlCharacters(m_card.name),
                               offered.isEmpty() ? tr("none") : offered.join(QLatin1String(", ")));
        failEither(error);
        return false;
    }
    m_rpcUrl = cardUrl.resolved(QUrl(interface->url));
    if (m_rpcUrl.scheme() != QLatin1String("http") && m_rpcUrl.scheme() != QLatin1String("https")) {
        const QString error = tr("agent '%1' gives an interface URL that is not http(s): %2")
                                      .arg(Mcp::escapeControlCharacters(m_card.name),
                                           Mcp::Http::displayUrl(m_rpcUrl));
        failEither(error);
        return false;
    }
    m_version = m_client->knownVersion(m_rpcUrl).value_or(interfaceVersion(*interface));
    return true;
}

void Client::Task::post(const char *method, const Json &params, bool stream,
                        std::function<void(const Json &result)> onResult,
                        std::function<void(const Json &error, const QString &failure)> onError,
                        std::function<void()> onStreamEnd)
{
    const Json request = {{"jsonrpc", "2.0"},
                          {"id", ++m_client->m_nextId},
                          {"method", method},
                          {"params", params}};
    QNetworkRequest http = Mcp::Http::request(optionsFor(m_endpoint, m_rpcUrl), m_rpcUrl,
                                              stream ? Mcp::Http::AcceptSse
                                                     : QByteArrayLiteral("application/json"));
    http.setRawHeader("Content-Type", "application/json");
    http.setRawHeader("A2A-Version", versionHeader(m_version));
    const std::string body = request.dump(-1, ' ', false, Json::error_handler_t::replace);
    QNetworkReply *reply = m_client->network()->post(http, QByteArray::fromStdString(body));
    auto gotEvents = std::make_shared<bool>(false);
    auto events = [this, onResult, onError, gotEvents](const Mcp::SseEvent &event) {
        *gotEvents = true;
        Mcp::JsonParseError parseError;
        const Json message = Mcp::parseJson(
                std::string_view(event.data.constData(), size_t(event.data.size())), &parseError);
        if (message.is_discarded() || !message.is_object()) {
            onError(nullptr, Mcp::Http::notJson(where(), event.data.toStdString()));
            return;
        }
        if (message.contains("error"))
            onError(message["error"], rpcErrorText(message["error"]));
        else if (message.contains("result"))
            onResult(message["result"]);
        else if (event.event == "error")
            onError(message, rpcErrorText(message));
    };
    m_exchange = new Exchange(
            reply, where(), events,
            [this, reply, onResult, onError, onStreamEnd,
             gotEvents](int status, const QByteArray &body, const QString &failure) {
                m_exchange = nullptr;
                if (!failure.isEmpty()) {
                    m_lastUnreachable = status == 0;
                    onError(nullptr, failure);
                    return;
                }
                m_lastUnreachable = false;
                if (*gotEvents || (body.isEmpty() && status / 100 == 2)) {
                    if (onStreamEnd)
                        onStreamEnd();
                    return;
                }
                Mcp::JsonParseError parseError;
                const Json message = Mcp::parseJson(
                        std::string_view(body.constData(), size_t(body.size())), &parseError);
                if (message.is_object() && message.contains("error")) {
                    onError(message["error"], rpcErrorText(message["error"]));
                    return;
                }
                if (status / 100 != 2) {
                    onError(nullptr, Mcp::Http::failure(where(), reply, body));
                    return;
                }
                if (message.is_discarded() || !message.is_object() || !message.contains("result")) {
                    onError(nullptr, Mcp::Http::notJson(where(), body.toStdString()));
                    return;
                }
                onResult(message["result"]);
                if (onStreamEnd)
                    onStreamEnd();
            },
            this);
}

void Client::Task::abortExchange()
{
    if (Exchange *exchange = m_exchange) {
        m_exchange = nullptr;
        exchange->cancel();
        exchange->deleteLater();
    }
}

bool Client::Task::speaksOnlyOld(const Json &error) const
{
    if (m_version != Version::V1_0 || error.is_null())
        return false;
    const int code = rpcErrorCode(error);
    return code == MethodNotFound || code == VersionNotSupported;
}

void Client::Task::fallBack()
{
    m_version = Version::V0_3;
    m_client->m_versions.insert(m_rpcUrl.toString(), Version::V0_3);
}

void Client::Task::stop(Outcome::Kind kind, const QString &why)
{
    if (m_finished || m_stopping)
        return;
    m_stopping = true;
    m_timer.stop();
    abortExchange();
    if (m_task.id.isEmpty() || m_envelope || m_rpcUrl.isEmpty()) {
        finish(kind, m_task.status.state, {}, why);
        return;
    }
    auto report = [this, kind, why] {
        if (!m_finished)
            finish(kind, TaskState::Canceled, {}, why);
    };
    QTimer::singleShot(CancelWaitMs, this, report);
    post(
            methods(m_version).cancel, Json{{"id", m_task.id.toStdString()}}, false,
            [report](const Json &) { report(); },
            [report](const Json &, const QString &) { report(); });
}

void Client::Task::fail(Outcome::Kind kind, const QString &error)
{
    finish(kind, m_task.status.state, {}, error);
}

void Client::Task::finish(Outcome::Kind kind, TaskState state, const QString &text,
                          const QString &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_timer.stop();
    abortExchange();
    Outcome outcome;
    outcome.kind = kind;
    outcome.state = state;
    outcome.text = text;
    outcome.error = error;
    outcome.taskId = m_task.id;
    outcome.contextId = m_task.contextId;
    outcome.version = m_version;
    outcome.envelope = m_envelope;
    Done done = std::exchange(m_done, nullptr);
    deleteLater();
    if (done)
        done(outcome);
}

void Client::Task::callMethod(const char *method, const Json &params)
{
    const char *name = method;
    if (m_version == Version::V0_3) {
        const Methods old = methods(Version::V0_3);
        const Methods current = methods(Version::V1_0);
        name = !qstrcmp(method, current.get)      ? old.get
               : !qstrcmp(method, current.cancel) ? old.cancel
               : !qstrcmp(method, current.send)   ? old.send
                                                  : nullptr;
        if (!name) {
            finishCall({}, tr("%1 speaks A2A 0.3, which has no %2")
                                   .arg(where(), QString::fromLatin1(method)));
            return;
        }
    }
    post(
            name, params, false, [this](const Json &result) { finishCall(result, {}); },
            [this, method, params](const Json &error, const QString &failure) {
                if (speaksOnlyOld(error)) {
                    fallBack();
                    callMethod(method, params);
                    return;
                }
                finishCall({}, failure);
            });
}

void Client::Task::finishCall(const Json &result, const QString &error)
{
    if (m_finished)
        return;
    m_finished = true;
    abortExchange();
    CallDone done = std::exchange(m_callDone, nullptr);
    deleteLater();
    if (done)
        done(result, error);
}

} // namespace Engine::A2A
