#pragma once

#include <mcp/wire/jsonparser.h>

#include <QDir>
#include <QFile>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QUrlQuery>

#include <vector>

// A registry on 127.0.0.1 for the tests (Qt's HTTP server), answering the official registry's
// read API as it does, or as a broken or hostile one would.
namespace RegistryFixture {

using Json = nlohmann::json;

// Serves /v0.1/servers (search, limit, cursor: an offset) and
// /v0.1/servers/NAME/versions/latest from `entries`; `mode` makes it misbehave.
struct FakeRegistry
{
    enum class Mode { Normal, NotJson, Huge, Crowded, RepeatingCursor, Silent, Error500 };
    QHttpServer http;
    quint16 port = 0;
    std::vector<Json> entries;
    Mode mode = Mode::Normal;
    QStringList requests;                   // path?query of each
    QHash<QString, QByteArray> files;       // by path: served as they are (a bundle download)
    std::vector<QHttpServerResponder> held; // Silent: never answered

    FakeRegistry()
    {
        http.setMissingHandler(
                [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                    answer(request, std::move(responder));
                });
        port = http.listen(QHostAddress::LocalHost);
    }

    QUrl base() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)); }

    void answer(const QHttpServerRequest &request, QHttpServerResponder &&responder)
    {
        requests << request.url().toString(QUrl::RemoveScheme | QUrl::RemoveAuthority
                                           | QUrl::FullyEncoded);
        switch (mode) {
        case Mode::NotJson:
            responder.write(QByteArray("<html>Gateway</html>"), "text/html");
            return;
        case Mode::Huge:
            responder.write(QByteArray("{\"servers\": [\"") + QByteArray(50 * 1024 * 1024, 'x')
                                    + "\"]}",
                            "application/json");
            return;
        case Mode::Crowded: {
            QByteArray body = "{\"servers\": [";
            for (int i = 0; i < 100000; ++i)
                body += i ? ",{}" : "{}";
            responder.write(body + "]}", "application/json");
            return;
        }
        case Mode::Silent:
            held.push_back(std::move(responder));
            return;
        case Mode::Error500:
            responder.write(QHttpServerResponder::StatusCode::InternalServerError);
            return;
        default:
            break;
        }
        const QString path = request.url().path(QUrl::FullyEncoded);
        if (files.contains(path)) {
            responder.write(files.value(path), "application/octet-stream");
            return;
        }
        const QUrlQuery query(request.url());
        if (path.startsWith(QLatin1String("/v0.1/servers/"))
            && path.endsWith(QLatin1String("/versions/latest"))) {
            const QString name
                    = QUrl::fromPercentEncoding(path.mid(14, path.size() - 14 - 16).toLatin1());
            for (const Json &entry : entries) {
                if (entry["server"]["name"] == name.toStdString()) {
                    responder.write(QByteArray::fromStdString(entry.dump()), "application/json");
                    return;
                }
            }
            responder.write(QHttpServerResponder::StatusCode::NotFound);
            return;
        }
        if (path != QLatin1String("/v0.1/servers")) {
            responder.write(QHttpServerResponder::StatusCode::NotFound);
            return;
        }
        const QString search = QUrl::fromPercentEncoding(
                query.queryItemValue(QStringLiteral("search"), QUrl::FullyEncoded).toLatin1());
        const int limit = query.queryItemValue(QStringLiteral("limit")).toInt();
        const int offset = query.queryItemValue(QStringLiteral("cursor")).toInt();
        std::vector<const Json *> found;
        for (const Json &entry : entries) {
            if (QString::fromStdString(entry["server"]["name"].get<std::string>())
                        .contains(search, Qt::CaseInsensitive))
                found.push_back(&entry);
        }
        Json page{{"servers", Json::array()}, {"metadata", Json::object()}};
        for (int i = offset; i < std::min<int>(offset + limit, int(found.size())); ++i)
            page["servers"].push_back(*found[std::size_t(i)]);
        page["metadata"]["count"] = page["servers"].size();
        if (mode == Mode::RepeatingCursor)
            page["metadata"]["nextCursor"] = "again";
        else if (offset + limit < int(found.size()))
            page["metadata"]["nextCursor"] = std::to_string(offset + limit);
        responder.write(QByteArray::fromStdString(page.dump()), "application/json");
    }
};

// The registry entries of real servers kept in tests/fixtures/registry (server.json documents
// as the official registry lists them: server-memory, server-filesystem, the GitHub server with
// a package and a remote, server-fetch from PyPI, deprecated).
inline std::vector<Json> realEntries()
{
    std::vector<Json> entries;
    const QDir dir(QStringLiteral(SWITCHBOARD_SOURCE_DIR "/tests/fixtures/registry"));
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(name));
        if (file.open(QIODevice::ReadOnly))
            entries.push_back(Json::parse(file.readAll().toStdString(), nullptr, false));
    }
    return entries;
}

} // namespace RegistryFixture

using RegistryFixture::FakeRegistry;
