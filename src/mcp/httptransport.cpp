#include "httptransport.h"

#include "jsonparser.h"
#include "safetext.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QThread>

#include <mutex>

Q_LOGGING_CATEGORY(lcHttp, "switchboard.mcp.http", QtWarningMsg)

namespace Mcp {

namespace {

// How much of a failed answer's body an error message quotes.
constexpr qsizetype FailureBodyChars = 300;
// How much of a failed answer's body is kept at all (the rest is read and dropped).
constexpr qsizetype FailureBodyBytes = 64 * 1024;
// The GET stream is opened again at most this many times in a row without an event.
constexpr int MaxServerStreamAttempts = 5;

const QByteArray AcceptBoth = QByteArrayLiteral("application/json, text/event-stream");
const QByteArray AcceptSse = QByteArrayLiteral("text/event-stream");

// RFC 9110 token characters: what a header name may be made of.
bool isHeaderName(const QString &name)
{
    if (name.isEmpty())
        return false;
    for (const QChar c : name) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9')
                        || QStringView(u"!#$%&'*+-.^_`|~").contains(c);
        if (!ok)
            return false;
    }
    return true;
}

// A session id is visible ASCII only (0x21 to 0x7E), by the spec.
bool isVisibleAscii(const QByteArray &text)
{
    for (const char c : text) {
        if (c < 0x21 || c > 0x7E)
            return false;
    }
    return !text.isEmpty();
}

int statusOf(const QNetworkReply *reply)
{
    return reply ? reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() : 0;
}

bool isEventStream(const QNetworkReply *reply)
{
    return reply->header(QNetworkRequest::ContentTypeHeader)
            .toString()
            .trimmed()
            .startsWith(QLatin1String("text/event-stream"), Qt::CaseInsensitive);
}

void discard(QPointer<QNetworkReply> &reply, QObject *receiver)
{
    if (!reply)
        return;
    QNetworkReply *gone = reply;
    reply = nullptr;
    gone->disconnect(receiver);
    if (gone->isRunning())
        gone->abort();
    gone->deleteLater();
}

} // namespace

QNetworkAccessManager *threadNetworkAccess()
{
    static std::once_flag proxies;
    std::call_once(proxies, [] { QNetworkProxyFactory::setUseSystemConfiguration(true); });
    static thread_local QPointer<QNetworkAccessManager> manager;
    if (!manager) {
        manager = new QNetworkAccessManager;
        QThread *thread = QThread::currentThread();
        QCoreApplication *app = QCoreApplication::instance();
        if (app && thread == app->thread())
            manager->setParent(app);
        else
            QObject::connect(thread, &QThread::finished, manager, &QObject::deleteLater);
    }
    return manager;
}

HttpTransport::HttpTransport(HttpOptions options, QObject *parent)
    : Transport(parent)
    , m_options(std::move(options))
{
    m_serverSse.setMaxEventBytes(qsizetype(m_options.maxMessageBytes));
    m_serverSse.setEventSink([this](const SseEvent &event) {
        m_serverStreamAttempts = 0;
        if (!event.data.isEmpty())
            receive(nullptr, std::string_view(event.data.constData(), size_t(event.data.size())));
    });
    m_serverSse.setErrorSink([this](const QString &message) { emit warning(message); });
    m_serverStreamTimer.setSingleShot(true);
    connect(&m_serverStreamTimer, &QTimer::timeout, this, &HttpTransport::openServerStream);
    m_closeTimer.setSingleShot(true);
    connect(&m_closeTimer, &QTimer::timeout, this, [this] { finishClosed(QString()); });
}

HttpTransport::~HttpTransport()
{
    abortAll();
    discard(m_delete, this);
}

QString HttpTransport::describe() const
{
    // Neither user info nor a query (where some services put a key) is shown.
    return m_options.url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery
                                         | QUrl::RemoveFragment);
}

QString HttpTransport::where() const
{
    return tr("server '%1'").arg(m_options.serverName);
}

void HttpTransport::setProtocolVersion(const std::string &version)
{
    m_protocolVersion = QByteArray::fromStdString(version);
}

void HttpTransport::start()
{
    if (m_state != State::Idle)
        return;
    QString problem;
    const QUrl &url = m_options.url;
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        problem = tr("'%1' is not an http or https URL").arg(describe());
    for (auto it = m_options.headers.cbegin(); problem.isEmpty() && it != m_options.headers.cend();
         ++it) {
        if (!isHeaderName(it.key()))
            problem = tr("'%1' is not a valid HTTP header name").arg(it.key());
        else if (it.value().contains(QLatin1Char('\r')) || it.value().contains(QLatin1Char('\n'))
                 || it.value().contains(QChar(0)))
            // A line break would smuggle in a header of its own.
            problem = tr("the value of header '%1' holds a line break or NUL").arg(it.key());
    }
    if (!problem.isEmpty()) {
        m_state = State::Closed;
        QMetaObject::invokeMethod(
                this, [this, problem] { emit closed(problem); }, Qt::QueuedConnection);
        return;
    }
    m_state = State::Open;
    qCDebug(lcHttp) << "open" << m_options.serverName << describe();
    QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_state == State::Open)
                    emit started();
            },
            Qt::QueuedConnection);
}

HttpTransport::Outgoing HttpTransport::describeOutgoing(std::string text)
{
    Outgoing out;
    const Json message = parseJson(text);
    if (message.is_object()) {
        if (auto id = message.find("id"); id != message.end())
            out.id = *id;
        if (auto method = message.find("method"); method != message.end() && method->is_string())
            out.method = method->get<std::string>();
    }
    out.text = std::move(text);
    return out;
}

QNetworkRequest HttpTransport::makeRequest(const QByteArray &accept) const
{
    QNetworkRequest request(m_options.url);
    // Redirects only within the origin: the headers (a token) never go to another host.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::SameOriginRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, true);
    for (auto it = m_options.headers.cbegin(); it != m_options.headers.cend(); ++it)
        request.setRawHeader(it.key().toLatin1(), it.value().toUtf8());
    request.setRawHeader("Accept", accept);
    if (!m_sessionId.isEmpty())
        request.setRawHeader("Mcp-Session-Id", m_sessionId);
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion);
    return request;
}

void HttpTransport::send(std::string message)
{
    if (m_state != State::Open)
        return;
    tap(TrafficDirection::Sent, message);
    Outgoing out = describeOutgoing(std::move(message));
    if (out.method == "initialize")
        m_initializeText = out.text;
    Json cancelled;
    if (out.method == "notifications/cancelled") {
        const Json params = parseJson(out.text).value("params", Json::object());
        if (params.is_object())
            cancelled = params.value("requestId", Json());
    }
    if (m_renewing) {
        m_held.push_back(std::move(out));
        return;
    }
    post(std::move(out));
    if (!cancelled.is_null()) {
        // The request is over for the Client; its stream is not needed any more.
        for (const ExchangeIt &exchange : std::vector(m_exchanges)) {
            if (exchange->message.isRequest() && exchange->message.id == cancelled)
                endExchange(exchange);
        }
    }
}

void HttpTransport::post(Outgoing message, bool internal)
{
    auto exchange = std::make_shared<Exchange>();
    exchange->message = std::move(message);
    exchange->internal = internal;
    QNetworkRequest request = makeRequest(AcceptBoth);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    exchange->reply = threadNetworkAccess()->post(
            request, QByteArray::fromStdString(exchange->message.text));
    m_exchanges.push_back(exchange);
    std::weak_ptr<Exchange> weak = exchange;
    exchange->sse.setMaxEventBytes(qsizetype(m_options.maxMessageBytes));
    exchange->sse.setEventSink([this, weak](const SseEvent &event) {
        if (auto exchange = weak.lock())
            onSseEvent(exchange, event);
    });
    exchange->sse.setErrorSink([this](const QString &text) { emit warning(text); });
    attach(exchange);
}

void HttpTransport::attach(ExchangeIt exchange)
{
    std::weak_ptr<Exchange> weak = exchange;
    connect(exchange->reply, &QNetworkReply::readyRead, this, [this, weak] {
        if (auto exchange = weak.lock())
            onReadyRead(exchange);
    });
    connect(exchange->reply, &QNetworkReply::finished, this, [this, weak] {
        if (auto exchange = weak.lock())
            onFinished(exchange);
    });
}

bool HttpTransport::readHeaders(ExchangeIt exchange)
{
    if (exchange->headersSeen)
        return true;
    QNetworkReply *reply = exchange->reply;
    if (!reply || !reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid())
        return false;
    exchange->headersSeen = true;
    const int status = statusOf(reply);
    exchange->isSse = status / 100 == 2 && isEventStream(reply);
    if (status / 100 == 2 && exchange->message.method == "initialize") {
        const QByteArray session = reply->rawHeader("Mcp-Session-Id");
        if (isVisibleAscii(session)) {
            m_sessionId = session;
        } else {
            m_sessionId.clear();
            if (!session.isEmpty())
                emit warning(tr("ignored a session id that is not visible ASCII"));
        }
    }
    return true;
}

void HttpTransport::onReadyRead(ExchangeIt exchange)
{
    if (exchange->ended || !exchange->reply || !readHeaders(exchange))
        return;
    QNetworkReply *reply = exchange->reply;
    if (statusOf(reply) / 100 != 2) {
        const QByteArray chunk = reply->readAll();
        exchange->body
                += chunk.left(std::max<qsizetype>(0, FailureBodyBytes - exchange->body.size()));
        return;
    }
    if (exchange->isSse) {
        exchange->sse.feed(reply->readAll());
        return;
    }
    const QByteArray chunk = reply->readAll();
    if (exchange->body.size() + chunk.size() > m_options.maxMessageBytes) {
        failExchange(exchange, ErrorCode::MessageTooLarge,
                     tr("%1 sent an answer over the message size cap (%2 bytes); dropped")
                             .arg(where())
                             .arg(m_options.maxMessageBytes));
        return;
    }
    exchange->body += chunk;
}

void HttpTransport::onSseEvent(ExchangeIt exchange, const SseEvent &event)
{
    if (exchange->ended)
        return;
    exchange->resumeAttempts = 0;
    if (event.data.isEmpty())
        return; // a priming event (an id to resume from) or a keep-alive
    receive(exchange, std::string_view(event.data.constData(), size_t(event.data.size())));
}

void HttpTransport::receive(ExchangeIt exchange, std::string_view text)
{
    tap(TrafficDirection::Received, text);
    Json message = parseJson(text);
    if (message.is_discarded()) {
        emit warning(
                tr("%1 sent something that is not JSON: %2")
                        .arg(where(),
                             escapeControlCharacters(QString::fromUtf8(
                                     text.substr(0, size_t(FailureBodyChars)).data(),
                                     qsizetype(std::min<size_t>(text.size(), FailureBodyChars))))));
        return;
    }
    std::vector<Json> messages;
    if (message.is_array()) { // a batch (2025-03-26 servers may still send one)
        for (Json &item : message)
            messages.push_back(std::move(item));
    } else {
        messages.push_back(std::move(message));
    }
    for (Json &one : messages) {
        const bool isResponse = one.is_object() && one.contains("id") && !one.contains("method");
        if (exchange && isResponse && one["id"] == exchange->message.id) {
            exchange->answered = true;
            if (exchange->internal) {
                const auto result = one.find("result");
                const bool ok = result != one.end() && result->is_object();
                QString why;
                if (!ok) {
                    const auto error = one.find("error");
                    why = error != one.end() ? RpcError::fromJson(*error).toString()
                                             : tr("the answer has no result");
                }
                onRenewed(ok, why);
                continue;
            }
        }
        deliver(std::move(one));
        if (m_state != State::Open)
            return;
    }
}

void HttpTransport::onFinished(ExchangeIt exchange)
{
    if (exchange->ended)
        return;
    if (m_state == State::Closing) {
        endExchange(exchange);
        proceedClosing();
        return;
    }
    QNetworkReply *reply = exchange->reply;
    if (!reply)
        return;
    readHeaders(exchange);
    if (reply->bytesAvailable() > 0)
        onReadyRead(exchange);
    if (exchange->ended)
        return;
    const int status = statusOf(reply);
    const Outgoing &message = exchange->message;
    if (status == 401 || status == 403) {
        const QString challenge = QString::fromLatin1(reply->rawHeader("WWW-Authenticate"));
        emit authorizationRequired(challenge);
        failExchange(exchange, ErrorCode::AuthenticationRequired,
                     tr("%1 requires authentication: %2 answered HTTP %3 to '%4'")
                             .arg(where(), describe())
                             .arg(status)
                             .arg(QString::fromStdString(message.method)));
        return;
    }
    if (status == 404 && !m_sessionId.isEmpty() && message.method != "initialize"
        && !exchange->internal) {
        renewSession(exchange);
        return;
    }
    if (status / 100 == 2) {
        if (!exchange->isSse && !exchange->body.isEmpty())
            receive(exchange,
                    std::string_view(exchange->body.constData(), size_t(exchange->body.size())));
        if (exchange->ended)
            return;
        if (!message.isRequest() || exchange->answered) {
            const bool initialized = message.method == "notifications/initialized";
            endExchange(exchange);
            if (initialized)
                openServerStream();
            return;
        }
        if (exchange->isSse && !exchange->sse.lastEventId().isEmpty()
            && exchange->resumeAttempts < m_options.maxResumeAttempts) {
            resume(exchange);
            return;
        }
        failExchange(exchange, ErrorCode::TransportError,
                     exchange->isSse ? tr("%1 ended the stream before the response to '%2'")
                                               .arg(where(), QString::fromStdString(message.method))
                                     : tr("%1 answered HTTP %2 without a response to '%3'")
                                               .arg(where())
                                               .arg(status)
                                               .arg(QString::fromStdString(message.method)));
        return;
    }
    if (status == 0) {
        const QNetworkReply::NetworkError error = reply->error();
        const QString text
                = tr("could not reach %1 (%2): %3").arg(where(), describe(), reply->errorString());
        failExchange(exchange, ErrorCode::TransportError, text);
        // Nobody listens there any more: the connection is over (the Manager may restart it).
        if (error == QNetworkReply::ConnectionRefusedError
            || error == QNetworkReply::HostNotFoundError)
            failAndClose(text);
        return;
    }
    // An HTTP error. A JSON-RPC error for this very request in the body is the server's own
    // answer (a 400 with "invalid params", say): it is delivered as such.
    const Json body = parseJson(
            std::string_view(exchange->body.constData(), size_t(exchange->body.size())));
    if (message.isRequest() && !exchange->internal && body.is_object() && body.contains("error")
        && body.value("id", Json()) == message.id) {
        receive(exchange,
                std::string_view(exchange->body.constData(), size_t(exchange->body.size())));
        if (!exchange->ended)
            endExchange(exchange);
        return;
    }
    failExchange(exchange, ErrorCode::TransportError, httpFailure(reply, exchange->body));
}

QString HttpTransport::httpFailure(QNetworkReply *reply, const QByteArray &body) const
{
    const int status = statusOf(reply);
    const QString phrase
            = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString().simplified();
    QString text = tr("%1 answered HTTP %2").arg(where()).arg(status);
    if (!phrase.isEmpty())
        text += QLatin1Char(' ') + escapeControlCharacters(phrase);
    const QString said = QString::fromUtf8(body.left(FailureBodyChars * 4))
                                 .left(FailureBodyChars)
                                 .simplified();
    if (!said.isEmpty())
        text += QStringLiteral(": ") + escapeControlCharacters(said);
    return text;
}

void HttpTransport::resume(ExchangeIt exchange)
{
    ++exchange->resumeAttempts;
    discard(exchange->reply, this);
    const int wait = std::max(0, exchange->sse.retryMs().value_or(m_options.defaultRetryMs));
    qCDebug(lcHttp) << "resuming a stream of" << m_options.serverName << "in" << wait << "ms";
    exchange->resumeTimer = std::make_unique<QTimer>();
    exchange->resumeTimer->setSingleShot(true);
    std::weak_ptr<Exchange> weak = exchange;
    connect(exchange->resumeTimer.get(), &QTimer::timeout, this, [this, weak] {
        auto exchange = weak.lock();
        if (!exchange || exchange->ended || m_state != State::Open)
            return;
        QNetworkRequest request = makeRequest(AcceptSse);
        request.setRawHeader("Last-Event-ID", exchange->sse.lastEventId());
        exchange->sse.reset();
        exchange->headersSeen = false;
        exchange->isSse = false;
        exchange->body.clear();
        exchange->reply = threadNetworkAccess()->get(request);
        attach(exchange);
    });
    exchange->resumeTimer->start(wait);
}

void HttpTransport::endExchange(ExchangeIt exchange)
{
    if (exchange->ended)
        return;
    exchange->ended = true;
    std::erase(m_exchanges, exchange);
    discard(exchange->reply, this);
    exchange->resumeTimer.reset();
}

void HttpTransport::failExchange(ExchangeIt exchange, int code, const QString &message)
{
    endExchange(exchange);
    qCDebug(lcHttp) << "failed" << QString::fromStdString(exchange->message.method) << message;
    if (exchange->internal) {
        onRenewed(false, message);
        return;
    }
    if (exchange->message.isRequest())
        failRequest(exchange->message.id, RpcError{code, message.toStdString(), nullptr, true});
    else
        emit warning(message);
}

void HttpTransport::renewSession(ExchangeIt exchange)
{
    if (exchange->message.retried || m_initializeText.empty()) {
        failExchange(exchange, ErrorCode::TransportError,
                     tr("%1 no longer knows the session (HTTP 404)").arg(where()));
        return;
    }
    endExchange(exchange);
    Outgoing again = std::move(exchange->message);
    again.retried = true;
    m_held.push_back(std::move(again));
    if (m_renewing)
        return;
    qCDebug(lcHttp) << "session expired:" << m_options.serverName;
    m_renewing = true;
    m_sessionId.clear();
    discard(m_serverStream, this);
    m_serverStreamTimer.stop();
    post(describeOutgoing(m_initializeText), true);
}

void HttpTransport::onRenewed(bool ok, const QString &why)
{
    if (!m_renewing)
        return;
    m_renewing = false;
    std::deque<Outgoing> held = std::move(m_held);
    m_held.clear();
    if (!ok) {
        const QString reason
                = tr("%1 ended the session and did not accept a new one: %2").arg(where(), why);
        for (const Outgoing &message : held) {
            if (message.isRequest())
                failRequest(message.id, RpcError{ErrorCode::TransportError, reason.toStdString(),
                                                 nullptr, true});
        }
        failAndClose(reason);
        return;
    }
    Outgoing initialized = describeOutgoing(serializeNotification("notifications/initialized", {}));
    tap(TrafficDirection::Sent, initialized.text);
    post(std::move(initialized));
    for (Outgoing &message : held)
        post(std::move(message));
    emit sessionRenewed();
}

void HttpTransport::openServerStream()
{
    if (m_state != State::Open || m_serverStreamRefused || m_serverStream || m_renewing)
        return;
    QNetworkRequest request = makeRequest(AcceptSse);
    if (!m_serverSse.lastEventId().isEmpty())
        request.setRawHeader("Last-Event-ID", m_serverSse.lastEventId());
    m_serverSse.reset();
    ++m_serverStreamAttempts;
    m_serverStream = threadNetworkAccess()->get(request);
    connect(m_serverStream, &QNetworkReply::readyRead, this, [this] {
        QNetworkReply *reply = m_serverStream;
        if (!reply)
            return;
        if (statusOf(reply) / 100 != 2 || !isEventStream(reply)) {
            reply->readAll();
            return;
        }
        m_serverSse.feed(reply->readAll());
    });
    connect(m_serverStream, &QNetworkReply::metaDataChanged, this, [this] {
        QNetworkReply *reply = m_serverStream;
        m_serverStreamOpen = reply && statusOf(reply) / 100 == 2 && isEventStream(reply);
    });
    connect(m_serverStream, &QNetworkReply::finished, this, &HttpTransport::onServerStreamFinished);
}

void HttpTransport::onServerStreamFinished()
{
    QNetworkReply *reply = m_serverStream;
    if (!reply)
        return;
    const int status = statusOf(reply);
    const bool wasStream = status / 100 == 2 && isEventStream(reply);
    m_serverStreamOpen = false;
    discard(m_serverStream, this);
    if (m_state != State::Open)
        return;
    if (status != 0 && !wasStream) {
        // 405: the server offers no stream of its own, which is allowed. Anything else: it
        // does not either, as far as we can use it; requests still work.
        m_serverStreamRefused = true;
        if (status != 405)
            qCDebug(lcHttp) << m_options.serverName << "GET stream refused with" << status;
        return;
    }
    if (m_serverStreamAttempts >= MaxServerStreamAttempts) {
        m_serverStreamRefused = true;
        emit warning(tr("%1 keeps closing its event stream; server messages now arrive only "
                        "with answers")
                             .arg(where()));
        return;
    }
    m_serverStreamTimer.start(m_serverSse.retryMs().value_or(m_options.defaultRetryMs));
}

void HttpTransport::abortAll()
{
    for (const ExchangeIt &exchange : std::vector(m_exchanges)) {
        exchange->ended = true;
        discard(exchange->reply, this);
        exchange->resumeTimer.reset();
    }
    m_exchanges.clear();
    discard(m_serverStream, this);
    m_serverStreamOpen = false;
    m_serverStreamTimer.stop();
    m_held.clear();
    m_renewing = false;
}

void HttpTransport::close()
{
    if (m_state == State::Closing || m_state == State::Closed)
        return;
    const bool wasOpen = m_state == State::Open;
    m_state = State::Closing;
    // Requests are over (the Client failed them); notifications on their way (a
    // cancellation) and answers to the server still go out, then the session is ended.
    for (const ExchangeIt &exchange : std::vector(m_exchanges)) {
        if (exchange->message.isRequest() || exchange->internal)
            endExchange(exchange);
    }
    discard(m_serverStream, this);
    m_serverStreamTimer.stop();
    m_held.clear();
    m_renewing = false;
    if (!wasOpen) {
        QMetaObject::invokeMethod(
                this, [this] { finishClosed(QString()); }, Qt::QueuedConnection);
        return;
    }
    m_closeTimer.start(m_options.closeTimeoutMs);
    proceedClosing();
}

void HttpTransport::proceedClosing()
{
    if (m_state != State::Closing || !m_exchanges.empty() || m_delete)
        return;
    if (m_sessionId.isEmpty()) {
        QMetaObject::invokeMethod(
                this, [this] { finishClosed(QString()); }, Qt::QueuedConnection);
        return;
    }
    // The server may end the session now rather than when it times out (405 is allowed).
    m_delete = threadNetworkAccess()->deleteResource(makeRequest(AcceptBoth));
    m_sessionId.clear();
    connect(m_delete, &QNetworkReply::finished, this, [this] { finishClosed(QString()); });
}

void HttpTransport::failAndClose(const QString &reason)
{
    if (m_state != State::Open)
        return;
    m_state = State::Closing;
    abortAll();
    QMetaObject::invokeMethod(
            this, [this, reason] { finishClosed(reason); }, Qt::QueuedConnection);
}

void HttpTransport::finishClosed(const QString &reason)
{
    if (m_state == State::Closed)
        return;
    m_state = State::Closed;
    abortAll();
    m_closeTimer.stop();
    discard(m_delete, this);
    m_sessionId.clear();
    qCDebug(lcHttp) << "closed" << m_options.serverName << reason;
    emit closed(reason);
}

} // namespace Mcp
