// The user agents: RedirectReadingAgent (automation) and LoopbackAgent (the system browser with
// a loopback listener).
#include "oauthclientinternal.h"

#include <mcp/transport/httptransport.h>

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>

namespace Mcp::OAuth {

using namespace Internal;

RedirectReadingAgent::RedirectReadingAgent(QUrl redirectUri, QObject *parent)
    : QObject(parent)
    , m_redirectUri(std::move(redirectUri))
{
}

RedirectReadingAgent::~RedirectReadingAgent()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void RedirectReadingAgent::authorize(const QUrl &url, Done done)
{
    QNetworkRequest request = plainRequest(url);
    request.setRawHeader("Accept", "text/html, */*");
    m_reply = threadNetworkAccess()->get(request);
    QNetworkReply *reply = m_reply;
    capSize(reply);
    connect(reply, &QNetworkReply::finished, this, [reply, url, done = std::move(done)] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray location = reply->rawHeader("Location");
        if (status / 100 == 3 && !location.isEmpty()) {
            done(url.resolved(QUrl::fromEncoded(location)), QString());
            return;
        }
        done(QUrl(), status == 0 ? reply->errorString()
                                 : Authorizer::tr("the authorization endpoint answered HTTP %1 "
                                                  "without sending the browser back")
                                           .arg(status));
    });
}

LoopbackAgent::LoopbackAgent(Open open, QObject *parent)
    : QObject(parent)
    , m_open(std::move(open))
    , m_server(new QTcpServer(this))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        end(QUrl(),
            tr("no answer came from the browser within %1 minutes").arg(m_timeoutMs / 60000));
    });
    connect(m_server, &QTcpServer::newConnection, this, &LoopbackAgent::onConnection);
}

LoopbackAgent::~LoopbackAgent() = default;

QUrl LoopbackAgent::redirectUri() const
{
    if (!m_server->isListening() && !m_server->listen(QHostAddress::LocalHost))
        return QUrl();
    return QUrl(QStringLiteral("http://127.0.0.1:%1/callback").arg(m_server->serverPort()));
}

void LoopbackAgent::authorize(const QUrl &url, Done done)
{
    if (m_done)
        end(QUrl(), tr("another sign-in started"));
    if (redirectUri().isEmpty()) {
        done(QUrl(), tr("cannot listen on this machine for the browser's answer: %1")
                             .arg(m_server->errorString()));
        return;
    }
    m_done = std::move(done);
    m_state = QUrlQuery(url).queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded);
    m_strays = 0;
    m_timer->start(m_timeoutMs);
    if (m_open)
        m_open(url);
}

void LoopbackAgent::cancel(const QString &why)
{
    end(QUrl(), why);
}

// Reads one request line; the browser's GET /callback?... ends the wait, anything else gets
// a 404 and the wait goes on. Requests are small: more than 16 KiB is not a browser's.
void LoopbackAgent::onConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
            if (socket->bytesAvailable() > 16 * 1024) {
                socket->abort();
                return;
            }
            if (!socket->canReadLine())
                return;
            const QList<QByteArray> line = socket->readLine().trimmed().split(' ');
            const QUrl target = line.size() == 3 && line[0] == "GET"
                                        ? QUrl::fromEncoded(line[1], QUrl::StrictMode)
                                        : QUrl();
            const QUrlQuery query(target);
            const bool atCallback = m_done && target.path() == QLatin1String("/callback");
            // Only the answer to this sign-in ends the wait (readRedirect() checks it again).
            const bool stray = atCallback && !m_state.isEmpty()
                               && query.queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded)
                                          != m_state;
            const bool callback = atCallback && !stray;
            const bool refused = query.hasQueryItem(QStringLiteral("error"));
            const QString text = stray ? tr("This is not the answer to the sign-in Switchboard "
                                            "is waiting for; it was ignored.")
                                 : !callback ? tr("Nothing here.")
                                 : refused   ? tr("Sign-in was refused. You can close this tab "
                                                    "and return to Switchboard.")
                                             : tr("Signed in. You can close this tab and return "
                                                    "to Switchboard.");
            const QByteArray page = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>"
                                    "Switchboard</title></head><body><p>"
                                    + text.toHtmlEscaped().toUtf8() + "</p></body></html>";
            socket->write((callback ? "HTTP/1.1 200 OK\r\n"
                           : stray  ? "HTTP/1.1 400 Bad Request\r\n"
                                    : "HTTP/1.1 404 Not Found\r\n")
                          + QByteArray("Content-Type: text/html; charset=utf-8\r\n"
                                       "Cache-Control: no-store\r\nConnection: close\r\n"
                                       "Content-Length: ")
                          + QByteArray::number(page.size()) + "\r\n\r\n" + page);
            socket->disconnectFromHost();
            if (stray && ++m_strays >= MaxStrayAnswers) {
                end(QUrl(), tr("%1 answers that were not for this sign-in came to its "
                               "listener; it stopped waiting")
                                    .arg(m_strays));
                return;
            }
            if (callback) {
                QUrl redirect
                        = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server->serverPort()))
                                  .resolved(target);
                end(redirect, QString());
            }
        });
    }
}

void LoopbackAgent::end(const QUrl &redirect, const QString &error)
{
    m_timer->stop();
    m_server->close();
    if (Done done = std::exchange(m_done, {}))
        done(redirect, error);
}

} // namespace Mcp::OAuth
