#pragma once

#include <mcp/registry/serverjson.h>

#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>
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
    void get(const QUrl &url, std::function<void(std::variant<Json, QString>)> done);
    void nextPage(const QString &text, const QString &cursor, ListPage collected,
                  QStringList cursors, std::function<void(PageResult)> done);
    QString where() const;
    QUrl apiUrl(const QString &path) const;
    QString tooBig() const;

    QUrl m_base;
    int m_timeoutMs = DefaultTimeoutMs;
    QNetworkAccessManager m_network;
};

} // namespace Mcp::Registry
