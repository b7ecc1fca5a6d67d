#pragma once

#include <mcp/registry/serverjson.h>

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>
#include <optional>
#include <utility>
#include <variant>

class QNetworkReply;

namespace Mcp::Registry {

// Reads an MCP Registry's stable API (`/v0.1/`): a page of a search, every page of one, and one
// server's latest entry. Any registry will do (the official one is only the default), so every
// answer is bounded in size and time and read as Mcp::Registry reads documents; a search that
// keeps paging (a cursor seen before, more pages than anyone browses) stops and says so.
// Each callback runs exactly once, from the event loop, unless the client is destroyed first.
class RegistryClient : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *DefaultBaseUrl = "https://registry.modelcontextprotocol.io";
    // A page of 100 entries is well under 1 MiB; a single entry a few KiB.
    static constexpr qint64 MaxAnswerBytes = 4 * 1024 * 1024;
    static constexpr int DefaultTimeoutMs = 15000;
    static constexpr int DefaultPageSize = 30;
    // searchAll(): the most pages followed (100 entries each) before it stops.
    static constexpr int MaxPages = 20;

    explicit RegistryClient(QUrl baseUrl = QUrl(QString::fromLatin1(DefaultBaseUrl)),
                            QObject *parent = nullptr);

    QUrl baseUrl() const { return m_base; }
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }

    // Offline browsing: each answer read is saved in `dir` (one file per request, at most
    // MaxCacheFiles, the oldest dropped); when the registry cannot be asked (unreachable, too
    // slow, broken), the saved answer is used instead and ListPage/Listing::fromCache says
    // when it was saved. A missing server (HTTP 404) is never answered from the cache. Empty:
    // nothing is saved.
    void setCacheDir(const QString &dir) { m_cacheDir = dir; }
    static constexpr int MaxCacheFiles = 200;
    // QStandardPaths::CacheLocation + "/registry".
    static QString defaultCacheDir();

    // The base URL a person chose in the window's settings (settings.ini's "registryUrl"),
    // else empty. The CLI's order: --registry, then $SWITCHBOARD_REGISTRY, then this.
    static constexpr const char *SettingsKey = "registryUrl";
    static QString configuredBaseUrl();

    // A page's servers, or what went wrong (a sentence naming the registry).
    using PageResult = std::variant<ListPage, QString>;
    using EntryResult = std::variant<Listing, QString>;

    // GET /v0.1/servers?search=TEXT&limit=N&version=latest[&cursor=C]
    void search(const QString &text, const QString &cursor, int limit,
                std::function<void(PageResult)> done);
    // Every page of a search (each of the API's largest size), joined; stops after MaxPages.
    void searchAll(const QString &text, std::function<void(PageResult)> done);
    // GET /v0.1/servers/NAME/versions/latest
    void latest(const QString &name, std::function<void(EntryResult)> done);

    // "https://registry…/v0.1/servers?…" as requested, for messages and tests.
    QUrl searchUrl(const QString &text, const QString &cursor, int limit) const;

private:
    using Answer = std::variant<Json, QString>;
    // `cachedAt` valid: the registry could not be asked and this is its answer from then.
    void get(const QUrl &url, std::function<void(Answer, QDateTime cachedAt)> done);
    void save(const QUrl &url, const Json &answer) const;
    std::optional<std::pair<Json, QDateTime>> saved(const QUrl &url) const;
    QString cacheFile(const QUrl &url) const;
    void nextPage(const QString &text, const QString &cursor, ListPage collected,
                  QStringList cursors, std::function<void(PageResult)> done);
    QString where() const;
    QUrl apiUrl(const QString &path) const;
    QString tooBig() const;

    QUrl m_base;
    int m_timeoutMs = DefaultTimeoutMs;
    QString m_cacheDir;
    QNetworkAccessManager m_network;
};

} // namespace Mcp::Registry
