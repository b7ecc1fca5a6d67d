#include "viewresources.h"

#include <mcp/client/client.h>
#include <mcp/client/features.h>
#include <mcp/manager.h>
#include <mcp/wire/jsonmember.h>

#include <QTimer>

namespace Engine {

using namespace Mcp;
using Mcp::Apps::ViewMeta;

namespace {

QString keyOf(const QString &server, const std::string &uri)
{
    return server + QLatin1Char('\n') + QString::fromStdString(uri);
}

QString megabytes(qsizetype bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1);
}

} // namespace

ViewResources::ViewResources(Manager *manager, QObject *parent)
    : QObject(parent)
    , m_manager(manager)
{
    connect(manager, &Manager::serverNotification, this,
            [this](const QString &server, const QString &method, const Json &) {
                if (method == QLatin1String("notifications/resources/list_changed"))
                    drop(server);
            });
    connect(manager, &Manager::serverStatusChanged, this, [this](const QString &server) {
        // A reconnect is a new client: what the old one served may have changed.
        Client *now = m_manager->client(server);
        dropWhere(server, [now](const Entry &entry) { return entry.client != now; });
    });
}

ViewResources::~ViewResources() = default;

bool ViewResources::isCached(const QString &server, const std::string &uri) const
{
    const auto it = m_entries.constFind(keyOf(server, uri));
    return it != m_entries.cend() && (*it)->ready && (*it)->client
           && (*it)->client == m_manager->client(server);
}

void ViewResources::drop(const QString &server)
{
    if (server.isEmpty())
        m_entries.clear();
    else
        dropWhere(server, [](const Entry &) { return true; });
}

void ViewResources::dropWhere(const QString &server,
                              const std::function<bool(const Entry &)> &condition)
{
    const QString prefix = server + QLatin1Char('\n');
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        if (it.key().startsWith(prefix) && condition(**it))
            it = m_entries.erase(it);
        else
            ++it;
    }
}

void ViewResources::fetch(const QString &server, const std::string &uri, QObject *context,
                          Done done)
{
    const QString key = keyOf(server, uri);
    Client *client = m_manager->client(server);
    auto later = [context = QPointer(context), done](View view) {
        QTimer::singleShot(0, context, [context, done, view = std::move(view)] {
            if (context)
                done(view);
        });
    };
    if (!client) {
        View view;
        view.server = server;
        view.uri = uri;
        view.error = tr("the server '%1' is not connected").arg(server);
        return later(std::move(view));
    }
    if (auto it = m_entries.find(key); it != m_entries.end()) {
        const std::shared_ptr<Entry> &entry = *it;
        if (entry->client == client) {
            if (entry->ready)
                return later(entry->view);
            entry->waiters.push_back({context, std::move(done)});
            return;
        }
        m_entries.erase(it);
    }
    auto entry = std::make_shared<Entry>();
    entry->client = client;
    entry->waiters.push_back({context, std::move(done)});
    m_entries.insert(key, entry);
    readResource(client, uri, this,
                 [this, key, server, uri, entry, client = QPointer(client)](ReadResourceResult r) {
                     View view;
                     if (r.error) {
                         view.server = server;
                         view.uri = uri;
                         view.error = tr("resources/read of %1 failed: %2")
                                              .arg(QString::fromStdString(uri).left(300),
                                                   QString::fromStdString(r.error->message));
                     } else {
                         view = fromRead(server, uri, r.json);
                     }
                     if (view.ok() && !view.meta.declared && client)
                         return withListingMeta(client, std::move(view), key);
                     finish(key, std::move(view));
                 });
}

void ViewResources::withListingMeta(Client *client, View view, const QString &key)
{
    // The read content said nothing of its CSP: its resources/list entry may (the draft spec
    // and the SDK look in both places; the content wins).
    if (!client->capabilities().resources)
        return finish(key, std::move(view));
    listResources(client, this,
                  [this, key, view = std::move(view)](std::vector<Resource> items,
                                                      const QString &) mutable {
                      for (const Resource &item : items) {
                          if (item.uri == view.uri) {
                              view.meta = ViewMeta::fromMeta(jsonMember(item.json, "_meta"));
                              break;
                          }
                      }
                      finish(key, std::move(view));
                  });
}

void ViewResources::finish(const QString &key, View view)
{
    auto it = m_entries.find(key);
    if (it == m_entries.end())
        return;
    std::shared_ptr<Entry> entry = *it;
    entry->view = std::move(view);
    entry->ready = true;
    if (!entry->view.ok())
        m_entries.erase(it); // a failure is not kept: the next card tries again
    std::vector<Waiter> waiters = std::move(entry->waiters);
    entry->waiters.clear();
    for (Waiter &waiter : waiters) {
        if (waiter.context)
            waiter.done(entry->view);
    }
}

View ViewResources::fromRead(const QString &server, const std::string &uri, const Json &result)
{
    View view;
    view.server = server;
    view.uri = uri;
    const QString name = QString::fromStdString(uri).left(300);
    const Json &contents = jsonMember(result, "contents");
    if (!contents.is_array() || contents.empty()) {
        view.error = tr("the server sent no content for %1").arg(name);
        return view;
    }
    const Json *item = &contents.front();
    if (contents.size() > 1) {
        item = nullptr;
        for (const Json &candidate : contents) {
            const Json &candidateUri = jsonMember(candidate, "uri");
            if (candidateUri.is_string() && candidateUri.get_ref<const std::string &>() == uri) {
                item = &candidate;
                break;
            }
        }
        if (!item) {
            view.error = tr("the server sent %1 contents for %2, none of them with its uri")
                                 .arg(contents.size())
                                 .arg(name);
            return view;
        }
    }
    const Json &mimeType = jsonMember(*item, "mimeType");
    const QString mime = mimeType.is_string() ? QString::fromStdString(mimeType.get<std::string>())
                                              : QString();
    if (!Apps::isViewMimeType(mime)) {
        view.error = tr("%1 is of type \"%2\", not %3: it is not a view")
                             .arg(name, mime.left(100), QLatin1String(Apps::ViewMimeType));
        return view;
    }
    const Json &text = jsonMember(*item, "text");
    const Json &blob = jsonMember(*item, "blob");
    // Base64 is 4/3 of the bytes: a blob too big is refused before it is decoded.
    const qsizetype bytes = text.is_string() ? qsizetype(text.get_ref<const std::string &>().size())
                            : blob.is_string()
                                    ? qsizetype(blob.get_ref<const std::string &>().size()) / 4 * 3
                                    : 0;
    if (bytes > MaxViewBytes) {
        view.error = tr("the view %1 is %2 MB, more than the %3 MB a view may be")
                             .arg(name, megabytes(bytes), megabytes(MaxViewBytes));
        return view;
    }
    if (text.is_string()) {
        view.html = QByteArray::fromStdString(text.get_ref<const std::string &>());
    } else if (blob.is_string()) {
        const std::string &base64 = blob.get_ref<const std::string &>();
        const auto decoded = QByteArray::fromBase64Encoding(
                QByteArray::fromStdString(base64), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded) {
            view.error = tr("the view %1 is not valid base64").arg(name);
            return view;
        }
        view.html = *decoded;
    }
    if (view.html.trimmed().isEmpty()) {
        view.html.clear();
        view.error = tr("the view %1 is empty").arg(name);
        return view;
    }
    view.meta = ViewMeta::fromMeta(jsonMember(*item, "_meta"));
    return view;
}

} // namespace Engine
