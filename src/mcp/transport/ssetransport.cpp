#include "ssetransport.h"

#include "httpsupport.h"

#include <mcp/wire/jsonparser.h>

#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>

Q_LOGGING_CATEGORY(lcSse, "switchboard.mcp.sse", QtWarningMsg)

namespace Mcp {

SseTransport::SseTransport(HttpOptions options, QObject *parent)
    : Transport(parent)
    , m_options(std::move(options))
{
    m_sse.setMaxEventBytes(qsizetype(m_options.maxMessageBytes));
    m_sse.setEventSink([this](const SseEvent &event) { onEvent(event); });
    m_sse.setErrorSink([this](const QString &text) { emit warning(text); });
}

SseTransport::~SseTransport()
{
    Http::discard(m_stream, this);
    for (QPointer<QNetworkReply> &post : m_posts)
        Http::discard(post, this);
}

QString SseTransport::describe() const
{
    return Http::displayUrl(m_options.url);
}

QString SseTransport::where() const
{
    return HttpTransport::tr("server '%1'").arg(m_options.serverName);
}

void SseTransport::start()
{
    if (m_state != State::Idle)
        return;
    const QString problem = Http::checkOptions(m_options);
    if (!problem.isEmpty()) {
        m_state = State::Closed;
        closeLater(problem);
        return;
    }
    m_state = State::Connecting;
    m_stream = threadNetworkAccess()->get(Http::request(m_options, m_options.url, Http::AcceptSse));
    connect(m_stream, &QNetworkReply::readyRead, this, &SseTransport::onStreamData);
    connect(m_stream, &QNetworkReply::finished, this, &SseTransport::onStreamFinished);
}

void SseTransport::onStreamData()
{
    QNetworkReply *stream = m_stream;
    if (!stream)
        return;
    if (!m_streamNoted && hasTrafficTap())
        emit note(Http::exchangeNote(stream, tr("event stream")));
    m_streamNoted = true;
    if (Http::status(stream) / 100 != 2 || !Http::isEventStream(stream)) {
        stream->readAll(); // judged when it ends
        return;
    }
    m_sse.feed(stream->readAll());
}

void SseTransport::onEvent(const SseEvent &event)
{
    if (m_state == State::Connecting) {
        if (event.event != "endpoint")
            return; // nothing counts before the endpoint
        const QUrl endpoint = m_options.url.resolved(QUrl(QString::fromUtf8(event.data.trimmed())));
        // Our messages, and the headers with them, go only where the stream came from.
        if (!endpoint.isValid() || endpoint.scheme() != m_options.url.scheme()
            || endpoint.host() != m_options.url.host()
            || endpoint.port(-1) != m_options.url.port(-1)) {
            finishClosed(HttpTransport::tr("%1 named an endpoint on another origin (%2); refused")
                                 .arg(where(), Http::displayUrl(endpoint)));
            return;
        }
        m_endpoint = endpoint;
        m_state = State::Open;
        qCDebug(lcSse) << "endpoint" << m_options.serverName << Http::displayUrl(endpoint);
        emit started();
        return;
    }
    if (m_state != State::Open || event.data.isEmpty())
        return;
    if (!event.event.isEmpty() && event.event != "message")
        return; // the spec names only "endpoint" and "message"
    const std::string_view text(event.data.constData(), size_t(event.data.size()));
    tap(TrafficDirection::Received, text);
    Json message = parseJson(text);
    if (message.is_discarded()) {
        emit warning(Http::notJson(where(), text));
        return;
    }
    deliver(std::move(message));
}

void SseTransport::onStreamFinished()
{
    QNetworkReply *stream = m_stream;
    if (!stream)
        return;
    const int status = Http::status(stream);
    if (!m_streamNoted && hasTrafficTap())
        emit note(Http::exchangeNote(stream, tr("event stream")));
    QString reason;
    if (status == 401 || status == 403) {
        emit authorizationRequired(QString::fromLatin1(stream->rawHeader("WWW-Authenticate")));
        reason = Http::authenticationFailure(where(), m_options.url, status, QStringLiteral("GET"));
    } else if (status == 0) {
        reason = Http::unreachable(where(), m_options.url, stream);
    } else if (status / 100 != 2 || !Http::isEventStream(stream)) {
        reason = Http::failure(where(), stream, stream->readAll());
    } else if (m_state == State::Connecting) {
        reason = tr("%1 ended its event stream without naming an endpoint").arg(where());
    } else {
        reason = tr("%1 ended its event stream").arg(where());
    }
    Http::discard(m_stream, this);
    if (m_state == State::Closing)
        reason.clear(); // we asked for it
    finishClosed(reason);
}

void SseTransport::send(std::string message)
{
    if (m_state != State::Open)
        return;
    tap(TrafficDirection::Sent, message);
    Http::Outgoing out = Http::readOutgoing(std::move(message));
    // A request's HTTP failure fails it; anything else's is a warning.
    const Json id = out.isRequest() ? out.id : Json();
    QNetworkRequest request = Http::request(m_options, m_endpoint, "application/json");
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QPointer<QNetworkReply> post
            = threadNetworkAccess()->post(request, QByteArray::fromStdString(out.text));
    m_posts << post;
    connect(post, &QNetworkReply::finished, this, [this, post, id]() mutable {
        m_posts.removeAll(post);
        m_posts.removeAll(nullptr);
        if (hasTrafficTap())
            emit note(Http::exchangeNote(post, QString()));
        const int status = Http::status(post);
        if (status / 100 != 2) {
            RpcError error;
            error.code = ErrorCode::TransportError;
            if (status == 401 || status == 403) {
                emit authorizationRequired(
                        QString::fromLatin1(post->rawHeader("WWW-Authenticate")));
                error.code = ErrorCode::AuthenticationRequired;
                error.message = Http::authenticationFailure(where(), m_endpoint, status,
                                                            QStringLiteral("POST"))
                                        .toStdString();
            } else if (status == 0) {
                error.message = Http::unreachable(where(), m_endpoint, post).toStdString();
            } else {
                error.message = Http::failure(where(), post, post->read(Http::FailureBodyBytes))
                                        .toStdString();
            }
            if (!id.is_null())
                failRequest(id, error);
            else
                emit warning(QString::fromStdString(error.message));
        }
        Http::discard(post, this);
    });
}

void SseTransport::close()
{
    if (m_state == State::Closing || m_state == State::Closed)
        return;
    m_state = State::Closing;
    Http::discard(m_stream, this);
    QMetaObject::invokeMethod(
            this, [this] { finishClosed(QString()); }, Qt::QueuedConnection);
}

void SseTransport::finishClosed(const QString &reason)
{
    if (m_state == State::Closed)
        return;
    m_state = State::Closed;
    Http::discard(m_stream, this);
    for (QPointer<QNetworkReply> &post : m_posts)
        Http::discard(post, this);
    m_posts.clear();
    qCDebug(lcSse) << "closed" << m_options.serverName << reason;
    emit closed(reason);
}

} // namespace Mcp
