#pragma once

#include <mcp/apps/appmeta.h>

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <vector>

namespace Mcp {
class Client;
class Manager;
} // namespace Mcp

// The engine's side of MCP Apps (the protocol's is src/mcp/apps): fetching the views that the
// faces show.
namespace Engine {

// A view's HTML is a whole app bundled into one file (scripts and styles inline): the
// official examples are 300–600 KB, big ones a few MB. Past this a server is sending
// something that is not a widget, and every card that shows it would hold a copy.
inline constexpr qsizetype MaxViewBytes = 5 * 1024 * 1024;

// A view fetched for showing: its HTML and what it declares, or why it cannot be shown.
struct View
{
    QString server;
    std::string uri;
    QByteArray html;          // UTF-8
    Mcp::Apps::ViewMeta meta; // the read content's `_meta.ui`, else the listing entry's
    QString error;            // empty when the view can be shown

    bool ok() const { return error.isEmpty(); }
};

// The views of every server, read with resources/read and kept while the server's connection
// lives: a reconnect, a restart, a disconnect or notifications/resources/list_changed drop what
// was kept of that server. Fetches of the same view while one is under way share it. Owned by
// the face that shows views (the window), beside the Manager.
class ViewResources : public QObject
{
    Q_OBJECT
public:
    explicit ViewResources(Mcp::Manager *manager, QObject *parent = nullptr);
    ~ViewResources() override;

    using Done = std::function<void(const View &view)>;
    // The view `uri` of `server`; `done` exactly once (even when it fails), unless `context`
    // is destroyed first. Never inside this call.
    void fetch(const QString &server, const std::string &uri, QObject *context, Done done);
    // Whether `uri` of `server` is kept (a fetch would not reach the server).
    bool isCached(const QString &server, const std::string &uri) const;
    // Drops what is kept of `server` (all servers when empty).
    void drop(const QString &server = QString());

    // The checks a resources/read result goes through to become a view (public for tests):
    // one content item (the one with `uri`, when there are several), of ViewMimeType, text or
    // base64 blob, at most MaxViewBytes, not empty.
    static View fromRead(const QString &server, const std::string &uri, const Mcp::Json &result);

private:
    struct Waiter
    {
        QPointer<QObject> context;
        Done done;
    };
    struct Entry
    {
        QPointer<Mcp::Client> client; // the connection it was read from
        View view;
        bool ready = false;
        std::vector<Waiter> waiters;
    };

    void finish(const QString &key, View view);
    void dropWhere(const QString &server, const std::function<bool(const Entry &)> &condition);
    void withListingMeta(Mcp::Client *client, View view, const QString &key);

    Mcp::Manager *m_manager;
    QHash<QString, std::shared_ptr<Entry>> m_entries; // server + '\n' + uri
};

} // namespace Engine
