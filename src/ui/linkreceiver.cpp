#include "linkreceiver.h"

#include <QLocalServer>
#include <QLocalSocket>
#include <QTimer>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace Gui {

QString LinkReceiver::socketName()
{
    const QString given = qEnvironmentVariable("SWITCHBOARD_LINK_SOCKET");
    if (!given.isEmpty())
        return given;
#ifdef Q_OS_UNIX
    return QStringLiteral("switchboard-links-%1").arg(::getuid());
#else
    return QStringLiteral("switchboard-links-") + qEnvironmentVariable("USERNAME");
#endif
}

bool LinkReceiver::forward(const QString &link)
{
    QLocalSocket socket;
    socket.connectToServer(socketName());
    if (!socket.waitForConnected(1000))
        return false;
    socket.write(link.toUtf8().left(MaxLinkBytes) + '\n');
    const bool sent = socket.waitForBytesWritten(1000);
    socket.disconnectFromServer();
    if (socket.state() != QLocalSocket::UnconnectedState)
        socket.waitForDisconnected(1000);
    return sent;
}

LinkReceiver::LinkReceiver(QObject *parent)
    : QObject(parent)
    , m_server(new QLocalServer(this))
{
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    if (!m_server->listen(socketName())) {
        // A socket file left by a Switchboard that crashed: nobody answers on it.
        QLocalSocket probe;
        probe.connectToServer(socketName());
        if (!probe.waitForConnected(200)) {
            QLocalServer::removeServer(socketName());
            m_server->listen(socketName());
        }
    }
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *socket = m_server->nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            // A peer that never finishes its line is dropped.
            QTimer::singleShot(5000, socket, &QLocalSocket::abort);
            connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
                if (socket->bytesAvailable() > MaxLinkBytes + 1) {
                    socket->abort();
                    return;
                }
                if (!socket->canReadLine())
                    return;
                const QString link
                        = QString::fromUtf8(socket->readLine(MaxLinkBytes + 2)).trimmed();
                socket->disconnectFromServer();
                if (!link.isEmpty())
                    emit received(link);
            });
        }
    });
}

bool LinkReceiver::listening() const
{
    return m_server->isListening();
}

} // namespace Gui
