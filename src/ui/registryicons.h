#pragma once

#include <mcp/registry/serverjson.h>

#include <QHash>
#include <QIcon>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QQueue>

#include <functional>

namespace Gui {

// The icons of registry entries, fetched from where each entry says (https, or http on this
// machine) only when a result is listed, for the registry dialog's list. A picture is at most
// MaxBytes and MaxSide pixels a side, decoded only as PNG, JPEG, GIF or WebP (never SVG or any
// other format a plugin might read); anything else leaves the entry without an icon. At most
// MaxInFlight requests at a time; each icon is asked for once per dialog.
class RegistryIcons : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 MaxBytes = 256 * 1024;
    static constexpr int MaxSide = 1024;
    static constexpr int TimeoutMs = 10000;
    static constexpr int MaxInFlight = 4;

    explicit RegistryIcons(QObject *parent = nullptr);

    // The icon of `server` to fetch for a background of `dark`ness: one for that theme, else
    // one for none, else the first; empty when it has none.
    static QString chooseIcon(const Mcp::Registry::ServerJson &server, bool dark);
    // The picture in `bytes`, or a null image when it is not one of the formats above or is
    // too large.
    static QImage decode(const QByteArray &bytes);

    // `done` once with the icon (null when it could not be had), unless `context` is gone.
    void request(const QString &src, QObject *context, std::function<void(const QIcon &)> done);
    // How many icons are asked for and not fetched yet.
    int pending() const { return int(m_waiting.size()); }

private:
    struct Waiting
    {
        QPointer<QObject> context;
        std::function<void(const QIcon &)> done;
    };
    void startNext();
    void finished(const QString &src, const QIcon &icon);

    QNetworkAccessManager m_network;
    QHash<QString, QIcon> m_icons;            // fetched: an icon, or a null one
    QHash<QString, QList<Waiting>> m_waiting; // by src: asked for, not yet fetched
    QQueue<QString> m_queue;                  // not yet started
    int m_inFlight = 0;
};

} // namespace Gui
