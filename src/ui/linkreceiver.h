#pragma once

#include <QObject>
#include <QString>

class QLocalServer;

namespace Gui {

// One Switchboard per person takes the install links a browser or file manager hands over
// (`switchboard --install LINK`, or the .desktop file's %u): the first window listens on a
// local socket only its user may open; a later `switchboard --install …` hands the link to it
// and exits, so the dialog opens in the window already there. What arrives is only ever
// parsed (Engine::InstallLink) and shown: nothing is installed without the person's Install.
class LinkReceiver : public QObject
{
    Q_OBJECT
public:
    static constexpr qsizetype MaxLinkBytes = 8192;

    // The socket's name: "switchboard-links-<uid>", or $SWITCHBOARD_LINK_SOCKET (tests).
    static QString socketName();
    // Hands `link` to a running Switchboard; false when none listens (then this process opens
    // the window itself). Waits at most a second: it runs before any window exists.
    static bool forward(const QString &link);

    explicit LinkReceiver(QObject *parent = nullptr);
    // Whether this process got the socket (another one may hold it).
    bool listening() const;

signals:
    void received(const QString &link);

private:
    QLocalServer *m_server = nullptr;
};

} // namespace Gui
