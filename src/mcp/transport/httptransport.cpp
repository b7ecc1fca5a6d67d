#include "httptransport.h"

#include "httpsupport.h"
#include "ssetransport.h"

#include <mcp/wire/jsonparser.h>
#include <mcp/wire/safetext.h>

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QThread>

#include <QHash>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <mutex>

Q_LOGGING_CATEGORY(lcHttp, "switchboard.mcp.http", QtWarningMsg)

namespace Mcp {

namespace {

// The GET stream is opened again at most this many times in a row without an event.
constexpr int MaxServerStreamAttempts = 5;

// A session id is visible ASCII only (0x21 to 0x7E), by the spec.
bool isVisibleAscii(const QByteArray &text)
{
    for (const char c : text) {
        if (c < 0x21 || c > 0x7E)
            return false;
    }
    return !text.isEmpty();
}

// The proxy settings (the application's, else the system's), asked once per origin and kept
// for a while. Asking the system costs about 120 us a time through libproxy (a hand-off to
// its own thread and back), and the network access manager asks before every request to a
// host that is not loopback; a proxy configuration changes far less often.
class CachedSystemProxies : public QNetworkProxyFactory
{
public:
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query) override
    {
        const QString key = QString::number(int(query.queryType())) + QLatin1Char(' ')
                            + query.url()
                                      .adjusted(QUrl::RemoveUserInfo | QUrl::RemovePath
                                                | QUrl::RemoveQuery | QUrl::RemoveFragment)
                                      .toString()
                            + QLatin1Char(' ') + query.peerHostName() + QLatin1Char(':')
                            + QString::number(query.peerPort());
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(m_mutex);
        if (auto it = m_entries.constFind(key); it != m_entries.cend() && it->expires > now)
            return it->proxies;
        if (m_entries.size() >= MaxEntries)
            m_entries.clear();
        QList<QNetworkProxy> proxies = proxyForQuery(query);
        m_entries.insert(key, Entry{proxies, now + Lifetime});
        return proxies;
    }

private:
    static constexpr auto Lifetime = std::chrono::seconds(30);
    static constexpr qsizetype MaxEntries = 256;
    struct Entry
    {
        QList<QNetworkProxy> proxies;
        std::chrono::steady_clock::time_point expires;
    };
    std::mutex m_mutex;
    QHash<QString, Entry> m_entries;
};

} // namespace

QNetworkAccessManager *threadNetworkAccess()
{
    static std::once_flag proxies;
    std::call_once(proxies, [] { QNetworkProxyFactory::setUseSystemConfiguration(true); });
    static thread_local QPointer<QNetworkAccessManager> manager;
    if (!manager) {
        manager = new QNetworkAccessManager;
        manager->setProxyFactory(new CachedSystemProxies); // the manager owns it
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
    Http::discard(m_delete, this);
}

QString HttpTransport::describe() const
{
    return Http::displayUrl(m_options.url);
}

QString HttpTransport::where() const
{
    return tr("server '%1'").arg(m_options.serverName);
}

void HttpTransport::setProtocolVersion(const std::string &version)
{
    m_protocolVersion = QByteArray::fromStdString(version);
    m_modern = std::any_of(std::begin(ModernProtocolVersions), std::end(ModernProtocolVersions),
                           [&version](const char *modern) { return version == modern; });
}

void HttpTransport::start()
{
    if (m_state != State::Idle)
        return;
    const QString problem = Http::checkOptions(m_options);
    if (!problem.isEmpty()) {
        m_state = State::Closed;
        closeLater(problem);
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

QNetworkRequest HttpTransport::makeRequest(const QByteArray &accept, const QByteArray &method) const
{
    QNetworkRequest request = Http::request(m_options, m_options.url, accept);
    if (m_options.authorizer) {
        for (const auto &[name, value] : m_options.authorizer->headersFor(method, m_options.url))
            request.setRawHeader(name, value);
    }
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
    if (m_legacyStarted) {
        m_legacy->send(std::move(message));
        return;
    }
    tap(TrafficDirection::Sent, message);
    const Http::ModernHeaders modern{m_protocolVersion, m_parameterHeaders.get()};
    Outgoing out = Http::readOutgoing(std::move(message), m_modern ? &modern : nullptr);
    if (out.method == "initialize")
        m_initializeText = out.text;
    const Json cancelled = out.cancelledId;
    if (m_renewing) {
        m_held.push_back(std::move(out));
        return;
    }
    // In 2026-07-28 closing a request's stream is its cancellation (2026-07-28,
    // basic/patterns/cancellation): nothing is POSTed for it.
    if (cancelled.is_null() || !m_modern)
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
    QNetworkRequest request = makeRequest(Http::AcceptBoth, "POST");
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : exchange->message.headers)
        request.setRawHeader(name, value);
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
    if (hasTrafficTap())
        emit note(Http::exchangeNote(reply, QString::fromStdString(exchange->message.method)));
    const int status = Http::status(reply);
    exchange->isSse = status / 100 == 2 && Http::isEventStream(reply);
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
    if (Http::status(reply) / 100 != 2) {
        const QByteArray chunk = reply->readAll();
        exchange->body += chunk.left(
                std::max<qsizetype>(0, Http::FailureBodyBytes - exchange->body.size()));
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
        emit warning(Http::notJson(where(), text));
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
    const int status = Http::status(reply);
    const Outgoing &message = exchange->message;
    if (status == 401 || status == 403) {
        const QByteArray header = reply->rawHeader("WWW-Authenticate");
        if (m_options.authorizer && message.authAttempts < MaxAuthAttempts) {
            authorizeAndResend(exchange, {status, header, reply->rawHeader("DPoP-Nonce")});
            return;
        }
        const QString challenge = QString::fromLatin1(header);
        emit authorizationRequired(challenge);
        failExchange(exchange, ErrorCode::AuthenticationRequired,
                     Http::authenticationFailure(where(), m_options.url, status,
                                                 QString::fromStdString(message.method)));
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
        // 2026-07-28 has no resumption: the request fails, and the Client sends it anew.
        if (exchange->isSse && !exchange->sse.lastEventId().isEmpty() && !m_modern
            && exchange->resumeAttempts < m_options.maxResumeAttempts) {
            resume(exchange);
            return;
        }
        failExchange(exchange,
                     exchange->isSse && m_modern ? ErrorCode::StreamBroken
                                                 : ErrorCode::TransportError,
                     exchange->isSse ? tr("%1 ended the stream before the response to '%2'")
                                               .arg(where(), QString::fromStdString(message.method))
                                     : tr("%1 answered HTTP %2 without a response to '%3'")
                                               .arg(where())
                                               .arg(status)
                                               .arg(QString::fromStdString(message.method)));
        return;
    }
    if (status == 0) {
        if (hasTrafficTap())
            emit note(Http::exchangeNote(reply, QString::fromStdString(message.method)));
        const QNetworkReply::NetworkError error = reply->error();
        const QString text = Http::unreachable(where(), m_options.url, reply);
        // Nobody listens there any more: the connection is over (the Manager may restart it).
        const bool gone = error == QNetworkReply::ConnectionRefusedError
                          || error == QNetworkReply::HostNotFoundError;
        failExchange(exchange,
                     m_modern && !gone ? ErrorCode::StreamBroken : ErrorCode::TransportError, text);
        if (gone)
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
    const QString failure = Http::failure(where(), reply, exchange->body);
    // An old server (HTTP+SSE, 2024-11-05) refuses a POST of initialize to its URL: the spec's
    // backward compatibility is a GET there, for an event stream that names an endpoint.
    if (message.method == "initialize" && !exchange->internal && !m_legacy
        && (status == 400 || status == 404 || status == 405)) {
        endExchange(exchange);
        fallBackToLegacy(message.id, failure);
        return;
    }
    failExchange(exchange, ErrorCode::TransportError, failure);
}

// The request waits (off the list of exchanges) while the authorizer gets new credentials,
// then goes out again with them; a refusal fails it with the authorizer's reason.
void HttpTransport::authorizeAndResend(ExchangeIt exchange,
                                       const RequestAuthorizer::Refusal &refusal)
{
    const int status = refusal.status;
    const QByteArray challenge = refusal.challenge;
    endExchange(exchange);
    Outgoing message = exchange->message;
    ++message.authAttempts;
    const bool internal = exchange->internal;
    qCDebug(lcHttp) << m_options.serverName << "answered" << status << "to"
                    << QString::fromStdString(message.method) << "; asking for sign-in";
    QPointer<HttpTransport> self(this);
    m_options.authorizer->refused(
            refusal, m_protocolVersion,
            [self, message = std::move(message), internal, status,
             challenge](bool ok, const QString &why) mutable {
                if (!self || self->m_state != State::Open)
                    return;
                if (ok) {
                    self->post(std::move(message), internal);
                    return;
                }
                emit self->authorizationRequired(QString::fromLatin1(challenge));
                const QString text = why.isEmpty()
                                             ? Http::authenticationFailure(
                                                     self->where(), self->m_options.url, status,
                                                     QString::fromStdString(message.method))
                                             : tr("%1: sign-in failed: %2").arg(self->where(), why);
                if (internal)
                    self->onRenewed(false, text);
                else if (message.isRequest())
                    self->failRequest(message.id, RpcError{ErrorCode::AuthenticationRequired,
                                                           text.toStdString(), nullptr, true});
                else
                    emit self->warning(text);
            });
}

void HttpTransport::fallBackToLegacy(const Json &initializeId, const QString &failure)
{
    qCDebug(lcHttp) << m_options.serverName << "refused initialize; trying HTTP+SSE:" << failure;
    m_legacy = new SseTransport(m_options, this);
    m_legacy->setMessageHandler([this](Json &&message) { deliver(std::move(message)); });
    m_legacy->setFailureHandler(
            [this](const Json &id, const RpcError &error) { failRequest(id, error); });
    connect(m_legacy, &Transport::warning, this, &Transport::warning);
    connect(m_legacy, &Transport::authorizationRequired, this, &Transport::authorizationRequired);
    connect(m_legacy, &Transport::note, this, &Transport::note);
    connect(m_legacy, &Transport::started, this, [this] {
        m_legacyStarted = true;
        m_legacy->setTrafficTap([this](TrafficDirection direction, std::string_view text) {
            tap(direction, text);
        });
        // The initialize already shown as sent goes out again, to the endpoint.
        m_legacy->send(m_initializeText);
        emit warning(tr("%1 speaks the older HTTP+SSE transport; messages now go to %2")
                             .arg(where(), Http::displayUrl(m_legacy->endpoint())));
    });
    connect(m_legacy, &Transport::closed, this,
            [this, initializeId, failure](const QString &reason) {
                if (!m_legacyStarted && m_state == State::Open) {
                    // Neither transport: the first answer says what went wrong.
                    failRequest(initializeId,
                                RpcError{ErrorCode::TransportError,
                                         tr("%1 (and no HTTP+SSE stream there either: %2)")
                                                 .arg(failure, reason)
                                                 .toStdString(),
                                         nullptr, true});
                    return;
                }
                finishClosed(m_state == State::Closing ? QString() : reason);
            });
    m_legacy->start();
}

void HttpTransport::resume(ExchangeIt exchange)
{
    ++exchange->resumeAttempts;
    Http::discard(exchange->reply, this);
    const int wait = std::max(0, exchange->sse.retryMs().value_or(m_options.defaultRetryMs));
    qCDebug(lcHttp) << "resuming a stream of" << m_options.serverName << "in" << wait << "ms";
    exchange->resumeTimer = std::make_unique<QTimer>();
    exchange->resumeTimer->setSingleShot(true);
    std::weak_ptr<Exchange> weak = exchange;
    connect(exchange->resumeTimer.get(), &QTimer::timeout, this, [this, weak] {
        auto exchange = weak.lock();
        if (!exchange || exchange->ended || m_state != State::Open)
            return;
        QNetworkRequest request = makeRequest(Http::AcceptSse, "GET");
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
    Http::discard(exchange->reply, this);
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
    Http::discard(m_serverStream, this);
    m_serverStreamTimer.stop();
    post(Http::readOutgoing(m_initializeText), true);
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
    Outgoing initialized
            = Http::readOutgoing(serializeNotification("notifications/initialized", {}));
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
    QNetworkRequest request = makeRequest(Http::AcceptSse, "GET");
    if (!m_serverSse.lastEventId().isEmpty())
        request.setRawHeader("Last-Event-ID", m_serverSse.lastEventId());
    m_serverSse.reset();
    ++m_serverStreamAttempts;
    m_serverStream = threadNetworkAccess()->get(request);
    connect(m_serverStream, &QNetworkReply::readyRead, this, [this] {
        QNetworkReply *reply = m_serverStream;
        if (!reply)
            return;
        if (Http::status(reply) / 100 != 2 || !Http::isEventStream(reply)) {
            reply->readAll();
            return;
        }
        m_serverSse.feed(reply->readAll());
    });
    connect(m_serverStream, &QNetworkReply::metaDataChanged, this, [this] {
        QNetworkReply *reply = m_serverStream;
        m_serverStreamOpen = reply && Http::status(reply) / 100 == 2 && Http::isEventStream(reply);
        if (reply && hasTrafficTap())
            emit note(Http::exchangeNote(reply, tr("the server's stream")));
    });
    connect(m_serverStream, &QNetworkReply::finished, this, &HttpTransport::onServerStreamFinished);
}

void HttpTransport::onServerStreamFinished()
{
    QNetworkReply *reply = m_serverStream;
    if (!reply)
        return;
    const int status = Http::status(reply);
    const bool wasStream = status / 100 == 2 && Http::isEventStream(reply);
    m_serverStreamOpen = false;
    Http::discard(m_serverStream, this);
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
        Http::discard(exchange->reply, this);
        exchange->resumeTimer.reset();
    }
    m_exchanges.clear();
    Http::discard(m_serverStream, this);
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
    if (m_legacy && !m_legacy->isFinished()) {
        abortAll();
        m_legacy->close(); // its closed() ends this one
        return;
    }
    // Requests are over (the Client failed them); notifications on their way (a
    // cancellation) and answers to the server still go out, then the session is ended.
    for (const ExchangeIt &exchange : std::vector(m_exchanges)) {
        if (exchange->message.isRequest() || exchange->internal)
            endExchange(exchange);
    }
    Http::discard(m_serverStream, this);
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
    m_delete = threadNetworkAccess()->deleteResource(makeRequest(Http::AcceptBoth, "DELETE"));
    m_sessionId.clear();
    connect(m_delete, &QNetworkReply::finished, this, [this] {
        if (m_delete && hasTrafficTap())
            emit note(Http::exchangeNote(m_delete, tr("end of the session")));
        finishClosed(QString());
    });
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
    Http::discard(m_delete, this);
    m_sessionId.clear();
    qCDebug(lcHttp) << "closed" << m_options.serverName << reason;
    emit closed(reason);
}

} // namespace Mcp
