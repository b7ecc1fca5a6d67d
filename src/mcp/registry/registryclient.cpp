#include "registryclient.h"

#include <mcp/wire/jsonparser.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QUrlQuery>

#include <algorithm>

namespace Mcp::Registry {

RegistryClient::RegistryClient(QUrl baseUrl, QObject *parent)
    : QObject(parent)
    , m_base(std::move(baseUrl))
{
    m_network.setAutoDeleteReplies(false);
}

QString RegistryClient::where() const
{
    return m_base.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
}

// The base URL with `path` (already encoded) after its own path.
QUrl RegistryClient::apiUrl(const QString &path) const
{
    QUrl url = m_base;
    QString base = url.path(QUrl::FullyEncoded);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + path, QUrl::StrictMode);
    return url;
}

QString RegistryClient::tooBig() const
{
    return tr("the registry at %1 sent more than %2 MiB")
            .arg(where())
            .arg(MaxAnswerBytes / (1024 * 1024));
}

QUrl RegistryClient::searchUrl(const QString &text, const QString &cursor, int limit) const
{
    QUrl url = apiUrl(QStringLiteral("/v0.1/servers"));
    QUrlQuery query;
    if (!text.isEmpty())
        query.addQueryItem(QStringLiteral("search"),
                           QString::fromLatin1(QUrl::toPercentEncoding(text)));
    query.addQueryItem(QStringLiteral("limit"), QString::number(std::clamp(limit, 1, 100)));
    query.addQueryItem(QStringLiteral("version"), QStringLiteral("latest"));
    if (!cursor.isEmpty())
        query.addQueryItem(QStringLiteral("cursor"),
                           QString::fromLatin1(QUrl::toPercentEncoding(cursor)));
    url.setQuery(query.query(QUrl::FullyEncoded), QUrl::StrictMode);
    return url;
}

QString RegistryClient::defaultCacheDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation)
           + QStringLiteral("/registry");
}

QString RegistryClient::configuredBaseUrl()
{
    const QString file = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)
                         + QStringLiteral("/settings.ini");
    if (!QFileInfo(file).isFile())
        return {};
    return QSettings(file, QSettings::IniFormat)
            .value(QLatin1String(SettingsKey))
            .toString()
            .trimmed();
}

QString RegistryClient::cacheFile(const QUrl &url) const
{
    const QByteArray key = QCryptographicHash::hash(url.toString(QUrl::FullyEncoded).toUtf8(),
                                                    QCryptographicHash::Sha256)
                                   .toHex();
    return m_cacheDir + QLatin1Char('/') + QString::fromLatin1(key.left(40))
           + QStringLiteral(".json");
}

void RegistryClient::save(const QUrl &url, const Json &answer) const
{
    const std::string text = answer.dump(-1, ' ', false, Json::error_handler_t::replace);
    const QByteArray body(text.data(), qsizetype(text.size()));
    if (m_cacheDir.isEmpty() || !QDir().mkpath(m_cacheDir))
        return;
    QSaveFile file(cacheFile(url));
    if (!file.open(QIODevice::WriteOnly) || file.write(body) != body.size() || !file.commit())
        return;
    QFileInfoList files
            = QDir(m_cacheDir).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Time);
    while (files.size() > MaxCacheFiles)
        QFile::remove(files.takeLast().absoluteFilePath());
}

std::optional<std::pair<Json, QDateTime>> RegistryClient::saved(const QUrl &url) const
{
    if (m_cacheDir.isEmpty())
        return std::nullopt;
    QFile file(cacheFile(url));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray body = file.read(MaxAnswerBytes + 1);
    if (body.size() > MaxAnswerBytes)
        return std::nullopt;
    Json json = parseJson(std::string_view(body.constData(), std::size_t(body.size())));
    if (json.is_discarded() || json.is_null())
        return std::nullopt;
    return std::pair{std::move(json), QFileInfo(file).lastModified()};
}

void RegistryClient::get(const QUrl &url, std::function<void(Answer, QDateTime)> done)
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setMaximumRedirectsAllowed(3);
    request.setTransferTimeout(m_timeoutMs);
    QNetworkReply *reply = m_network.get(request);
    // Past the bound the reply is dropped at once, whatever it claimed to be.
    connect(reply, &QNetworkReply::downloadProgress, this, [reply](qint64 received, qint64 total) {
        if (received > MaxAnswerBytes || total > MaxAnswerBytes) {
            reply->setProperty("tooBig", true);
            reply->abort();
        }
    });
    // A failure other than "no such server" falls back on the answer saved last time.
    auto finished = [this, url, done = std::move(done)](Answer answer, bool notFound) {
        if (std::holds_alternative<QString>(answer) && !notFound) {
            if (auto kept = saved(url)) {
                done(std::move(kept->first), kept->second);
                return;
            }
        }
        done(std::move(answer), QDateTime());
    };
    connect(reply, &QNetworkReply::finished, this, [this, url, reply, finished] {
        reply->deleteLater();
        const auto done = [&finished](Answer answer) {
            finished(std::move(answer), false);
        };
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->property("tooBig").toBool()) {
            done(tooBig());
            return;
        }
        if (reply->error() == QNetworkReply::OperationCanceledError
            || reply->error() == QNetworkReply::TimeoutError) {
            done(tr("the registry at %1 did not answer within %2 s")
                         .arg(where())
                         .arg(m_timeoutMs / 1000.0));
            return;
        }
        if (status == 404) {
            finished(tr("the registry at %1 has no such server").arg(where()), true);
            return;
        }
        if (reply->error() != QNetworkReply::NoError || status / 100 != 2) {
            done(status ? tr("the registry at %1 answered HTTP %2").arg(where()).arg(status)
                        : tr("the registry at %1 cannot be reached: %2")
                                  .arg(where(), reply->errorString()));
            return;
        }
        const QByteArray body = reply->read(MaxAnswerBytes + 1);
        if (body.size() > MaxAnswerBytes) {
            done(tooBig());
            return;
        }
        Json json = parseJson(std::string_view(body.constData(), std::size_t(body.size())));
        if (json.is_discarded() || json.is_null()) {
            done(tr("the registry at %1 answered with something that is not JSON").arg(where()));
            return;
        }
        done(std::move(json));
    });
}

void RegistryClient::search(const QString &text, const QString &cursor, int limit,
                            std::function<void(PageResult)> done)
{
    const QUrl url = searchUrl(text, cursor, limit);
    get(url, [this, url, done = std::move(done)](Answer answer, const QDateTime &cachedAt) {
        if (const QString *error = std::get_if<QString>(&answer)) {
            done(*error);
            return;
        }
        QString problem;
        std::optional<ListPage> page = readListPage(std::get<Json>(answer), &problem);
        if (!page) {
            done(tr("%1 (from %2)").arg(problem, where()));
            return;
        }
        if (!cachedAt.isValid()) // only what could be read is kept
            save(url, std::get<Json>(answer));
        page->fromCache = cachedAt;
        done(std::move(*page));
    });
}

void RegistryClient::searchAll(const QString &text, std::function<void(PageResult)> done)
{
    nextPage(text, QString(), ListPage(), QStringList(), std::move(done));
}

void RegistryClient::nextPage(const QString &text, const QString &cursor, ListPage collected,
                              QStringList cursors, std::function<void(PageResult)> done)
{
    search(text, cursor, MaxServersPerPage,
           [this, text, collected = std::move(collected), cursors = std::move(cursors),
            done = std::move(done)](PageResult result) mutable {
               if (const QString *error = std::get_if<QString>(&result)) {
                   done(*error);
                   return;
               }
               ListPage &page = std::get<ListPage>(result);
               collected.servers << page.servers;
               if (page.fromCache.isValid()
                   && (!collected.fromCache.isValid() || page.fromCache < collected.fromCache))
                   collected.fromCache = page.fromCache;
               collected.skipped << page.skipped;
               const QString next = page.nextCursor;
               if (next.isEmpty()) {
                   done(std::move(collected));
                   return;
               }
               if (cursors.contains(next)) {
                   collected.skipped << tr("the registry at %1 sent a cursor it had sent before; "
                                           "stopped after %2 pages")
                                                .arg(where())
                                                .arg(cursors.size() + 1);
                   done(std::move(collected));
                   return;
               }
               if (cursors.size() + 1 >= MaxPages) {
                   collected.skipped << tr("stopped after %1 pages of the registry at %2; search "
                                           "for something narrower")
                                                .arg(MaxPages)
                                                .arg(where());
                   done(std::move(collected));
                   return;
               }
               cursors << next;
               nextPage(text, next, std::move(collected), std::move(cursors), std::move(done));
           });
}

void RegistryClient::latest(const QString &name, std::function<void(EntryResult)> done)
{
    // The name's '/' is part of it: encoded, as the API asks.
    const QUrl url = apiUrl(QStringLiteral("/v0.1/servers/")
                            + QString::fromLatin1(QUrl::toPercentEncoding(name))
                            + QStringLiteral("/versions/latest"));
    get(url, [this, url, name, done = std::move(done)](Answer answer, const QDateTime &cachedAt) {
        if (const QString *error = std::get_if<QString>(&answer)) {
            done(tr("%1: %2").arg(name, *error));
            return;
        }
        QString problem;
        std::optional<Listing> listing = readEntry(std::get<Json>(answer), &problem);
        if (!listing) {
            done(tr("%1 (from %2)").arg(problem, where()));
            return;
        }
        if (listing->server.name != name) {
            done(tr("the registry at %1 answered for %2 when asked for %3")
                         .arg(where(), listing->server.name, name));
            return;
        }
        if (!cachedAt.isValid())
            save(url, std::get<Json>(answer));
        listing->fromCache = cachedAt;
        done(std::move(*listing));
    });
}

} // namespace Mcp::Registry
