#include "client.h"

#include <mcp/transport/httpsupport.h>
#include <mcp/transport/httptransport.h>
#include <mcp/wire/jsonparser.h>
#include <mcp/wire/safetext.h>
#include <mcp/wire/sseparser.h>

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>
#include <QUuid>

namespace Engine::A2A {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::A2A::Client", text);
}

QString fromStd(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// JSON-RPC and A2A error codes the client acts on.
constexpr int MethodNotFound = -32601;
constexpr int VersionNotSupported = -32009;

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

// One HTTP exchange with an agent: a GET or a POST whose answer is JSON (read whole, capped)
// or an event stream (each event handed on as it comes). Calls `finished` exactly once,
// unless destroyed first.
class Exchange : public QObject
{
public:
    using EventSink = std::function<void(const Mcp::SseEvent &)>;
    // `error` empty: `status` and `body` (JSON answers) or the events (streams) are the answer.
    using Finished = std::function<void(int status, const QByteArray &body, const QString &error)>;

    Exchange(QNetworkReply *reply, QString where, EventSink events, Finished finished,
             QObject *parent)
        : QObject(parent)
        , m_reply(reply)
        , m_where(std::move(where))
        , m_events(std::move(events))
        , m_finished(std::move(finished))
        , m_parser(Client::MaxAnswerBytes)
    {
        m_parser.setEventSink([this](const Mcp::SseEvent &event) {
            if (m_events)
                m_events(event);
        });
        m_parser.setErrorSink([this](const QString &message) { m_streamError = message; });
        connect(reply, &QNetworkReply::readyRead, this, &Exchange::read);
        connect(reply, &QNetworkReply::finished, this, &Exchange::done);
    }
    ~Exchange() override { Mcp::Http::discard(m_reply, this); }

private:
    void read()
    {
        if (!m_reply)
            return;
        const QByteArray chunk = m_reply->readAll();
        if (Mcp::Http::isEventStream(m_reply) && Mcp::Http::status(m_reply) / 100 == 2) {
            m_stream = true;
            m_parser.feed(chunk);
            return;
        }
        if (m_body.size() + chunk.size() > Client::MaxAnswerBytes) {
            // The agent answered (its status is known): not "unreachable".
            const int status = Mcp::Http::status(m_reply);
            Mcp::Http::discard(m_reply, this);
            finish(status, {},
                   tr("%1 sent an answer larger than %2 MiB")
                           .arg(m_where)
                           .arg(Client::MaxAnswerBytes / (1024 * 1024)));
            return;
        }
        m_body += chunk;
    }

    void done()
    {
        if (!m_reply)
            return;
        read();
        if (!m_reply)
            return;
        QNetworkReply *reply = m_reply;
        const int status = Mcp::Http::status(reply);
        QString error;
        if (status == 0)
            error = Mcp::Http::unreachable(m_where, reply->url(), reply);
        else if (m_stream && !m_streamError.isEmpty())
            error = tr("%1: %2").arg(m_where, m_streamError);
        Mcp::Http::discard(m_reply, this);
        finish(status, m_body, error);
    }

    void finish(int status, const QByteArray &body, const QString &error)
    {
        if (auto finished = std::exchange(m_finished, nullptr))
            finished(status, body, error);
    }

public:
    // Nothing more is reported (the owner is done with this exchange, maybe from inside one
    // of its callbacks); the request is aborted.
    void cancel()
    {
        m_events = nullptr;
        m_finished = nullptr;
        Mcp::Http::discard(m_reply, this);
    }

private:
    QPointer<QNetworkReply> m_reply;
    QString m_where;
    EventSink m_events;
    Finished m_finished;
    Mcp::SseParser m_parser;
    QByteArray m_body;
    QString m_streamError;
    bool m_stream = false;
};

} // namespace

QString Endpoint::displayName() const
{
    return name.isEmpty() ? Mcp::Http::displayUrl(url) : name;
}

QString Outcome::summary() const
{
    switch (kind) {
    case Kind::Completed:
        return tr("completed");
    case Kind::Interrupted:
    case Kind::Failed:
        return text.isEmpty()
                       ? describe(state)
                       : tr("%1: %2").arg(describe(state), text.section(QLatin1Char('\n'), 0, 0));
    case Kind::Stopped:
        return tr("stopped");
    case Kind::TimedOut:
        return tr("timed out: %1").arg(error);
    case Kind::Unreachable:
        return tr("unreachable: %1").arg(error);
    case Kind::Error:
        return tr("error: %1").arg(error);
    }
    return {};
}

bool isEnvelopeUrl(const QUrl &url)
{
    return url.path().endsWith(QLatin1String("/a2a/message"));
}

// One operation against an agent: a send followed until the task ends, or one call. Lives
// as a child of the Client; deletes itself once Done has run.
class Client::Task : public QObject
{
public:
    Task(Client *client, Endpoint endpoint)
        : QObject(client)
        , m_client(client)
        , m_endpoint(std::move(endpoint))
    {
    }

    // --- send ---------------------------------------------------------------------------

    void send(Message message, SendOptions options, Progress progress, Done done)
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

    Stop stopper()
    {
        QPointer<Task> self(this);
        return [self] {
            if (self)
                self->stop(Outcome::Kind::Stopped, tr("stopped"));
        };
    }

    // --- one call -----------------------------------------------------------------------

    void call(const char *method, Json params, CallDone done)
    {
        m_callDone = std::move(done);
        m_client->loadCard(m_endpoint, this,
                           [this, method, params](std::optional<AgentCard> card,
                                                  const QString &error, const QUrl &cardUrl) {
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

    Stop callStopper()
    {
        QPointer<Task> self(this);
        return [self] {
            if (self)
                self->finishCall({}, tr("stopped"));
        };
    }

private:
    // A send fails, a call finishes with the error.
    void failEither(const QString &error)
    {
        if (m_done)
            fail(Outcome::Kind::Error, error);
        else
            finishCall({}, error);
    }

    // The interface to talk to and its version.
    bool chooseInterface(const QUrl &cardUrl)
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
                                   offered.isEmpty() ? tr("none")
                                                     : offered.join(QLatin1String(", ")));
            failEither(error);
            return false;
        }
        m_rpcUrl = cardUrl.resolved(QUrl(interface->url));
        if (m_rpcUrl.scheme() != QLatin1String("http")
            && m_rpcUrl.scheme() != QLatin1String("https")) {
            const QString error = tr("agent '%1' gives an interface URL that is not http(s): %2")
                                          .arg(Mcp::escapeControlCharacters(m_card.name),
                                               Mcp::Http::displayUrl(m_rpcUrl));
            failEither(error);
            return false;
        }
        m_version = m_client->knownVersion(m_rpcUrl).value_or(interfaceVersion(*interface));
        return true;
    }

    QString where() const { return tr("agent '%1'").arg(m_endpoint.displayName()); }

    // A JSON-RPC request to the interface; `events` set: asks for a stream.
    void post(const char *method, const Json &params, bool stream,
              std::function<void(const Json &result)> onResult,
              std::function<void(const Json &error, const QString &failure)> onError,
              std::function<void()> onStreamEnd = {})
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
                    std::string_view(event.data.constData(), size_t(event.data.size())),
                    &parseError);
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
                    if (message.is_discarded() || !message.is_object()
                        || !message.contains("result")) {
                        onError(nullptr, Mcp::Http::notJson(where(), body.toStdString()));
                        return;
                    }
                    onResult(message["result"]);
                    if (onStreamEnd)
                        onStreamEnd();
                },
                this);
    }

    // Maybe from inside one of the exchange's callbacks: it is deleted later.
    void abortExchange()
    {
        if (Exchange *exchange = m_exchange) {
            m_exchange = nullptr;
            exchange->cancel();
            exchange->deleteLater();
        }
    }

    // Whether an error to a 1.0 request says the agent speaks only 0.3.
    bool speaksOnlyOld(const Json &error) const
    {
        if (m_version != Version::V1_0 || error.is_null())
            return false;
        const int code = rpcErrorCode(error);
        return code == MethodNotFound || code == VersionNotSupported;
    }

    void fallBack()
    {
        m_version = Version::V0_3;
        m_client->m_versions.insert(m_rpcUrl.toString(), Version::V0_3);
    }

    // --- send: messages, events, polling ---------------------------------------------------

    Json sendParams() const
    {
        Json params = {{"message", toJson(m_message, m_version)}};
        // 0.3 servers return at once unless told to block; 1.0 blocks by default.
        params["configuration"]
                = m_version == Version::V0_3 ? Json{{"blocking", true}} : Json::object();
        return params;
    }

    void sendMessage()
    {
        const bool stream = m_options.stream && m_card.streaming;
        const Methods names = methods(m_version);
        post(
                stream ? names.stream : names.send, sendParams(), stream,
                [this](const Json &result) { accept(result); },
                [this](const Json &error, const QString &failure) {
                    if (m_finished)
                        return;
                    if (speaksOnlyOld(error) && !m_sawEvent) {
                        fallBack();
                        sendMessage();
                        return;
                    }
                    fail(m_lastUnreachable ? Outcome::Kind::Unreachable : Outcome::Kind::Error,
                         failure);
                },
                [this] { answerEnded(); });
    }

    // One result: a Task or a Message (a blocking send), or a streamed event.
    void accept(const Json &result)
    {
        if (m_finished || m_stopping)
            return;
        QString error;
        std::optional<StreamEvent> event = readStreamEvent(result, &error);
        if (!event) {
            abortExchange();
            fail(Outcome::Kind::Error,
                 tr("%1 sent an answer that is not A2A: %2").arg(where(), error));
            return;
        }
        m_sawEvent = true;
        switch (event->kind) {
        case StreamEvent::Kind::Task:
            m_task = *event->task;
            break;
        case StreamEvent::Kind::Message:
            if (m_task.id.isEmpty() || event->message->taskId.isEmpty()) {
                // A direct answer: the exchange is over.
                if (m_progress)
                    m_progress(*event);
                m_answer = event->message;
                abortExchange();
                finish(Outcome::Kind::Completed, TaskState::Completed, m_answer->text(), {});
                return;
            }
            m_task.status.message = event->message;
            break;
        case StreamEvent::Kind::StatusUpdate:
            if (m_task.id.isEmpty())
                m_task.id = event->taskId;
            if (m_task.contextId.isEmpty())
                m_task.contextId = event->contextId;
            m_task.status = event->status;
            break;
        case StreamEvent::Kind::ArtifactUpdate:
            if (m_task.id.isEmpty())
                m_task.id = event->taskId;
            if (event->artifact)
                addArtifact(*event->artifact, event->append);
            break;
        }
        if (m_progress)
            m_progress(*event);
        if (isTerminal(m_task.status.state) || isInterrupted(m_task.status.state)) {
            abortExchange();
            finishTask();
        }
    }

    void addArtifact(const Artifact &artifact, bool append)
    {
        for (Artifact &existing : m_task.artifacts) {
            if (!artifact.artifactId.isEmpty() && existing.artifactId == artifact.artifactId) {
                if (append)
                    existing.parts += artifact.parts;
                else
                    existing = artifact;
                return;
            }
        }
        m_task.artifacts << artifact;
    }

    // The answer or the stream ended without the task ending: ask for it until it does.
    void answerEnded()
    {
        if (m_finished || m_stopping)
            return;
        if (m_task.id.isEmpty()) {
            fail(Outcome::Kind::Error,
                 tr("%1 ended its answer without a task or a message").arg(where()));
            return;
        }
        if (isTerminal(m_task.status.state) || isInterrupted(m_task.status.state)) {
            finishTask();
            return;
        }
        QTimer::singleShot(m_polls++ == 0 ? 0 : PollIntervalMs, this, [this] { poll(); });
    }

    void poll()
    {
        if (m_finished || m_stopping)
            return;
        post(
                methods(m_version).get, Json{{"id", m_task.id.toStdString()}}, false,
                [this](const Json &result) {
                    QString error;
                    std::optional<A2A::Task> task = readTask(result, &error);
                    if (!task) {
                        fail(Outcome::Kind::Error,
                             tr("%1 sent a task that is not A2A: %2").arg(where(), error));
                        return;
                    }
                    const bool changed = task->status.state != m_task.status.state;
                    if (!task->artifacts.isEmpty())
                        m_task.artifacts = task->artifacts;
                    m_task.status = task->status;
                    if (changed && m_progress) {
                        StreamEvent event;
                        event.kind = StreamEvent::Kind::StatusUpdate;
                        event.taskId = m_task.id;
                        event.contextId = m_task.contextId;
                        event.status = m_task.status;
                        m_progress(event);
                    }
                },
                [this](const Json &, const QString &failure) {
                    fail(m_lastUnreachable ? Outcome::Kind::Unreachable : Outcome::Kind::Error,
                         failure);
                },
                [this] { answerEnded(); });
    }

    void finishTask()
    {
        const TaskState state = m_task.status.state;
        QString text;
        if (state == TaskState::Completed || !m_task.status.message)
            text = m_task.reportText();
        else
            text = m_task.status.message->text();
        Outcome::Kind kind = Outcome::Kind::Error;
        if (state == TaskState::Completed)
            kind = Outcome::Kind::Completed;
        else if (isInterrupted(state))
            kind = Outcome::Kind::Interrupted;
        else if (isTerminal(state))
            kind = Outcome::Kind::Failed;
        finish(kind, state, text,
               kind == Outcome::Kind::Error ? tr("the task is in a state this client does not know")
                                            : QString());
    }

    // --- the envelope ----------------------------------------------------------------------

    void sendEnvelope(const QUrl &url)
    {
        m_envelope = true;
        QNetworkRequest http = Mcp::Http::request(optionsFor(m_endpoint, url), url,
                                                  QByteArrayLiteral("application/json"));
        http.setRawHeader("Content-Type", "application/json");
        const Json body = {{"message", m_message.text().toStdString()}};
        QNetworkReply *reply = m_client->network()->post(
                http, QByteArray::fromStdString(
                              body.dump(-1, ' ', false, Json::error_handler_t::replace)));
        m_exchange = new Exchange(
                reply, where(), {},
                [this, reply](int status, const QByteArray &bytes, const QString &failure) {
                    m_exchange = nullptr;
                    if (!failure.isEmpty()) {
                        fail(status == 0 ? Outcome::Kind::Unreachable : Outcome::Kind::Error,
                             failure);
                        return;
                    }
                    const Json answer = Mcp::parseJson(
                            std::string_view(bytes.constData(), size_t(bytes.size())));
                    if (!answer.is_object() || !answer.contains("code")
                        || !answer["code"].is_number_integer()) {
                        fail(Outcome::Kind::Error,
                             status / 100 == 2 ? Mcp::Http::notJson(where(), bytes.toStdString())
                                               : Mcp::Http::failure(where(), reply, bytes));
                        return;
                    }
                    const Json data = answer.value("data", Json::object());
                    if (data.is_object() && data.contains("taskId") && data["taskId"].is_string())
                        m_task.id = fromStd(data["taskId"].get<std::string>());
                    const QString message
                            = answer.contains("message") && answer["message"].is_string()
                                      ? fromStd(answer["message"].get<std::string>())
                                      : QString();
                    if (answer["code"].get<int>() != 0) {
                        fail(Outcome::Kind::Error,
                             tr("%1 answered code %2: %3")
                                     .arg(where())
                                     .arg(answer["code"].get<int>())
                                     .arg(Mcp::escapeControlCharacters(message.left(500))));
                        return;
                    }
                    const QString reply = data.is_object() && data.contains("reply")
                                                          && data["reply"].is_string()
                                                  ? fromStd(data["reply"].get<std::string>())
                                                  : QString();
                    finish(Outcome::Kind::Completed, TaskState::Completed, reply, {});
                },
                this);
    }

    // --- the end -------------------------------------------------------------------------

    // Stop or timeout: cancel the remote task (bounded wait), then report.
    void stop(Outcome::Kind kind, const QString &why)
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

    void fail(Outcome::Kind kind, const QString &error)
    {
        finish(kind, m_task.status.state, {}, error);
    }

    void finish(Outcome::Kind kind, TaskState state, const QString &text, const QString &error)
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

    // --- one call ---------------------------------------------------------------------------

    void callMethod(const char *method, const Json &params)
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

    void finishCall(const Json &result, const QString &error)
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

public:
    static constexpr const char *EnvelopeBinding = "SWITCHBOARD-ENVELOPE";

private:
    Client *m_client;
    Endpoint m_endpoint;
    Message m_message;
    SendOptions m_options;
    Progress m_progress;
    Done m_done;
    CallDone m_callDone;
    AgentCard m_card;
    QUrl m_rpcUrl;
    Version m_version = Version::V1_0;
    A2A::Task m_task;
    std::optional<Message> m_answer;
    QPointer<Exchange> m_exchange;
    QTimer m_timer;
    int m_polls = 0;
    bool m_sawEvent = false;
    bool m_envelope = false;
    bool m_stopping = false;
    bool m_finished = false;
    bool m_lastUnreachable = false;
};

Client::Client(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
{
}

Client::~Client() = default;

QNetworkAccessManager *Client::network()
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    return m_network;
}

std::optional<Version> Client::knownVersion(const QUrl &url) const
{
    const auto it = m_versions.constFind(url.toString());
    if (it == m_versions.constEnd())
        return std::nullopt;
    return *it;
}

Stop Client::send(const Endpoint &endpoint, const Message &message, const SendOptions &options,
                  Progress progress, Done done)
{
    auto *task = new Task(this, endpoint);
    Stop stop = task->stopper();
    task->send(message, options, std::move(progress), std::move(done));
    return stop;
}

Stop Client::send(const Endpoint &endpoint, const QString &text, const SendOptions &options,
                  Progress progress, Done done)
{
    Message message;
    message.messageId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    message.role = Role::User;
    message.contextId = options.contextId;
    message.taskId = options.taskId;
    message.parts << Part::fromText(text);
    return send(endpoint, message, options, std::move(progress), std::move(done));
}

void Client::fetchCard(const Endpoint &endpoint, CardDone done)
{
    loadCard(endpoint, this,
             [done = std::move(done)](std::optional<AgentCard> card, const QString &error,
                                      const QUrl &) { done(std::move(card), error); });
}

Stop Client::getTask(const Endpoint &endpoint, const QString &taskId, CallDone done)
{
    auto *task = new Task(this, endpoint);
    Stop stop = task->callStopper();
    task->call(methods(Version::V1_0).get, Json{{"id", taskId.toStdString()}}, std::move(done));
    return stop;
}

Stop Client::cancelTask(const Endpoint &endpoint, const QString &taskId, CallDone done)
{
    auto *task = new Task(this, endpoint);
    Stop stop = task->callStopper();
    task->call(methods(Version::V1_0).cancel, Json{{"id", taskId.toStdString()}}, std::move(done));
    return stop;
}

Stop Client::listTasks(const Endpoint &endpoint, const Json &params, CallDone done)
{
    auto *task = new Task(this, endpoint);
    Stop stop = task->callStopper();
    task->call("ListTasks", params.is_object() ? params : Json::object(), std::move(done));
    return stop;
}

// The card at the endpoint: its own URL when it names a .json file, else
// /.well-known/agent-card.json below it, then the older /.well-known/agent.json.
void Client::loadCard(const Endpoint &endpoint, QObject *context, LoadedCard done)
{
    QUrl base = endpoint.url;
    if (base.scheme() != QLatin1String("http") && base.scheme() != QLatin1String("https")) {
        done(std::nullopt,
             tr("'%1' is not an http(s) URL")
                     .arg(Mcp::escapeControlCharacters(endpoint.url.toString())),
             {});
        return;
    }
    QList<QUrl> candidates;
    if (base.path().endsWith(QLatin1String(".json"))) {
        candidates << base;
    } else {
        for (const char *name : {"/.well-known/agent-card.json", "/.well-known/agent.json"})
            candidates << Mcp::Http::withPath(base,
                                              Mcp::Http::trimmedPath(base) + QLatin1String(name));
    }
    const QString key = candidates.first().toString();
    if (const auto it = m_cards.constFind(key); it != m_cards.constEnd()) {
        const CachedCard cached = *it;
        QTimer::singleShot(0, context, [done, cached] { done(cached.card, {}, cached.url); });
        return;
    }
    fetchCardFrom(endpoint, candidates, key, context, std::move(done));
}

void Client::fetchCardFrom(const Endpoint &endpoint, QList<QUrl> candidates,
                           const QString &cacheKey, QObject *context, LoadedCard done)
{
    const QUrl url = candidates.takeFirst();
    QNetworkRequest request = Mcp::Http::request(optionsFor(endpoint, url), url,
                                                 QByteArrayLiteral("application/json"));
    request.setRawHeader("A2A-Version", "1.0");
    QNetworkReply *reply = network()->get(request);
    const QString where = tr("agent '%1'").arg(endpoint.displayName());
    new Exchange(
            reply, where, {},
            [this, endpoint, candidates, cacheKey, context = QPointer<QObject>(context), done, url,
             where, reply](int status, const QByteArray &body, const QString &failure) {
                if (!context)
                    return;
                if (!failure.isEmpty()) {
                    done(std::nullopt, failure, url);
                    return;
                }
                if (status == 404 && !candidates.isEmpty()) {
                    fetchCardFrom(endpoint, candidates, cacheKey, context, done);
                    return;
                }
                if (status / 100 != 2) {
                    done(std::nullopt,
                         tr("no agent card at %1: %2")
                                 .arg(Mcp::Http::displayUrl(url),
                                      Mcp::Http::failure(where, reply, body)),
                         url);
                    return;
                }
                const Json json
                        = Mcp::parseJson(std::string_view(body.constData(), size_t(body.size())));
                if (json.is_discarded()) {
                    done(std::nullopt, Mcp::Http::notJson(where, body.toStdString()), url);
                    return;
                }
                QString error;
                std::optional<AgentCard> card = readAgentCard(json, &error);
                if (!card) {
                    done(std::nullopt,
                         tr("the agent card at %1 is not usable: %2")
                                 .arg(Mcp::Http::displayUrl(url), error),
                         url);
                    return;
                }
                m_cards.insert(cacheKey, CachedCard{*card, url});
                done(card, {}, url);
            },
            context);
}

} // namespace Engine::A2A
