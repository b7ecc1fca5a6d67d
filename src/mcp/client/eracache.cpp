#include "eracache.h"

#include <mcp/wire/jsonparser.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>

#include <algorithm>
#include <vector>

Q_LOGGING_CATEGORY(lcEra, "switchboard.mcp.era", QtWarningMsg)

namespace Mcp {

namespace {
// A cache file is a few kilobytes; anything far bigger is not ours to read.
constexpr qint64 MaxFileBytes = 1 << 20;
} // namespace

EraCache::EraCache(QString file, QString workspaceDir)
    : m_file(std::move(file))
    , m_workspaceDir(std::move(workspaceDir))
{
}

QString EraCache::key(const ServerConfig &server) const
{
    Json what = Json::array();
    if (server.type == TransportType::Stdio) {
        what.push_back("stdio");
        what.push_back(server.command.toStdString());
        for (const QString &arg : server.args)
            what.push_back(arg.toStdString());
        what.push_back(m_workspaceDir.toStdString());
    } else {
        what.push_back(server.type == TransportType::Sse ? "sse" : "http");
        what.push_back(server.url.toStdString());
    }
    const QByteArray text
            = QByteArray::fromStdString(what.dump(-1, ' ', false, Json::error_handler_t::replace));
    return QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex());
}

void EraCache::load()
{
    m_loaded = true;
    m_servers = Json::object();
    QFile file(m_file);
    if (m_file.isEmpty() || !file.exists())
        return;
    if (!file.open(QIODevice::ReadOnly) || file.size() > MaxFileBytes) {
        qCWarning(lcEra) << "ignoring the era cache" << m_file;
        return;
    }
    const QByteArray text = file.readAll();
    const Json data = parseJson(std::string_view(text.constData(), size_t(text.size())));
    const Json servers = data.is_object() ? data.value("servers", Json()) : Json();
    if (!servers.is_object()) {
        qCWarning(lcEra) << "ignoring the era cache (not what it should hold)" << m_file;
        return;
    }
    for (const auto &[digest, entry] : servers.items()) {
        if (entry.is_object() && entry.value("era", Json()).is_string()
            && entry.value("used", Json()).is_number_integer())
            m_servers[digest] = entry;
    }
}

Era EraCache::era(const ServerConfig &server)
{
    if (m_file.isEmpty())
        return Era::Unknown;
    if (!m_loaded)
        load();
    auto it = m_servers.find(key(server).toStdString());
    if (it == m_servers.end())
        return Era::Unknown;
    return eraFromName(QString::fromStdString(it->value("era", "")));
}

void EraCache::remember(const ServerConfig &server, Era era)
{
    if (m_file.isEmpty() || era == Era::Unknown)
        return;
    if (!m_loaded)
        load();
    const std::string digest = key(server).toStdString();
    const std::string name = eraName(era).toStdString();
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    if (auto it = m_servers.find(digest); it != m_servers.end() && it->value("era", "") == name
                                          && now - it->value("used", qint64(0)) < 24 * 3600)
        return; // nothing new worth a write: no reading, no writing
    load();     // another process may have written since
    m_servers[digest] = Json{{"era", name}, {"used", now}};
    if (m_servers.size() > size_t(MaxEntries)) {
        std::vector<std::pair<qint64, std::string>> byUse;
        for (const auto &[key, entry] : m_servers.items())
            byUse.emplace_back(entry.value("used", qint64(0)), key);
        std::sort(byUse.begin(), byUse.end());
        for (size_t i = 0; i + MaxEntries < byUse.size(); ++i)
            m_servers.erase(byUse[i].second);
    }
    QDir().mkpath(QFileInfo(m_file).absolutePath());
    QSaveFile file(m_file);
    const QByteArray text = QByteArray::fromStdString(
            Json{{"servers", m_servers}}.dump(1, ' ', false, Json::error_handler_t::replace));
    if (!file.open(QIODevice::WriteOnly)
        || !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || file.write(text) != text.size() || !file.commit())
        qCWarning(lcEra) << "could not write the era cache" << m_file << file.errorString();
}

} // namespace Mcp
