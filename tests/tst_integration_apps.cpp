#include "pinnednode.h"
#include "quiethost.h"

#include <engine/apps/viewresources.h>
#include <engine/session.h>
#include <engine/tools/toolregistry.h>

#include <mcp/manager.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Mcp;

namespace {

constexpr const char *ViewUri = "ui://get-time/mcp-app.html";

} // namespace

// MCP Apps against the official example server (@modelcontextprotocol/server-basic-vanillajs,
// pinned in package-lock.json, over stdio): the window's session tells servers it shows views
// and a terminal's does not; get-time's `_meta.ui` is read; its view is fetched with
// resources/read, kept while the connection lives and read again after a restart.
class tst_IntegrationApps : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<Engine::Session> makeSession(Engine::Host *host)
    {
        const QDir data(m_dir.path());
        const QString config = data.filePath(QStringLiteral("apps.json"));
        QFile file(config);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return nullptr;
        const Json servers{{"mcpServers",
                            {{"apps",
                              {{"command", PinnedNode::program().toStdString()},
                               {"args",
                                {SWITCHBOARD_SOURCE_DIR "/node_modules/@modelcontextprotocol/"
                                                        "server-basic-vanillajs/dist/index.js",
                                 "--stdio"}}}}}}};
        file.write(QByteArray::fromStdString(servers.dump()));
        file.close();
        Engine::SessionOptions options;
        options.workspace = m_dir.path();
        options.configFile = config;
        options.trustFile = data.filePath(QStringLiteral("trust.json"));
        options.approvalsFile = data.filePath(QStringLiteral("approvals.json"));
        options.auditLogFile = data.filePath(QStringLiteral("audit.jsonl"));
        options.host = host;
        options.keychainService = QStringLiteral("switchboard-test-apps");
        auto session = std::make_unique<Engine::Session>(options);
        session->load();
        return session;
    }

    static bool connected(Engine::Session &session)
    {
        return QTest::qWaitFor(
                [&] {
                    return session.manager()->status(QStringLiteral("apps")).state
                           == ServerState::Connected;
                },
                30000);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Every message the client sends (initialize in 2025-11-25, each request's _meta in
    // 2026-07-28) carries the extension when the face shows views, and none does otherwise.
    void negotiation_data()
    {
        QTest::addColumn<bool>("views");
        QTest::newRow("the window") << true;
        QTest::newRow("a terminal") << false;
    }
    void negotiation()
    {
        QFETCH(bool, views);
        QuietHost host(views);
        auto session = makeSession(&host);
        QVERIFY(session);
        QStringList sent;
        session->manager()->setTrafficObserver(
                [&sent](const QString &, TrafficDirection direction, QByteArrayView text, qint64) {
                    if (direction == TrafficDirection::Sent)
                        sent << QString::fromUtf8(text);
                });
        session->start();
        QVERIFY(connected(*session));
        QVERIFY(!sent.isEmpty());
        int advertised = 0;
        for (const QString &message : sent) {
            if (!message.contains(QLatin1String("\"method\"")))
                continue;
            const Json json = Json::parse(message.toStdString());
            const Json *capabilities = nullptr;
            if (json["method"] == "initialize")
                capabilities = &json["params"]["capabilities"];
            else if (json.contains("params") && json["params"].contains("_meta")
                     && json["params"]["_meta"].contains(
                             "io.modelcontextprotocol/clientCapabilities"))
                capabilities
                        = &json["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
            if (!capabilities)
                continue;
            const bool has
                    = capabilities->contains("extensions")
                      && (*capabilities)["extensions"].contains("io.modelcontextprotocol/ui");
            QCOMPARE(has, views);
            if (has) {
                QCOMPARE(
                        QString::fromStdString(
                                (*capabilities)["extensions"]["io.modelcontextprotocol/ui"].dump()),
                        QStringLiteral(R"({"mimeTypes":["text/html;profile=mcp-app"]})"));
            }
            ++advertised;
        }
        QVERIFY2(advertised > 0, "no message carried client capabilities");
    }

    // get-time names its view (both keys, as the SDK writes them) and is for the model and
    // the view alike; its view is read, kept, and read again once the server restarted.
    void toolAndView()
    {
        QuietHost host(true);
        auto session = makeSession(&host);
        QVERIFY(session);
        int reads = 0;
        session->manager()->setTrafficObserver(
                [&reads](const QString &, TrafficDirection direction, QByteArrayView text, qint64) {
                    if (direction == TrafficDirection::Sent
                        && QByteArrayView(text).indexOf("\"resources/read\"") >= 0)
                        ++reads;
                });
        session->start();
        QVERIFY(connected(*session));
        const auto tool = session->registry()->find(QStringLiteral("mcp__apps__get_time"));
        QVERIFY(tool);
        QCOMPARE(tool->appUi().resourceUri, std::string(ViewUri));
        QVERIFY(!tool->appUi().fromFlatKey);
        QVERIFY(tool->appUi().model);
        QVERIFY(tool->appUi().app);
        QVERIFY(session->registry()->isOffered(*tool));

        Engine::ViewResources views(session->manager());
        std::optional<Engine::View> first;
        views.fetch(QStringLiteral("apps"), ViewUri, this,
                    [&first](const Engine::View &view) { first = view; });
        // A second card asking while the first read is under way shares it.
        std::optional<Engine::View> second;
        views.fetch(QStringLiteral("apps"), ViewUri, this,
                    [&second](const Engine::View &view) { second = view; });
        QTRY_VERIFY_WITH_TIMEOUT(first && second, 15000);
        QVERIFY2(first->ok(), qPrintable(first->error));
        QVERIFY(first->html.contains("<html") || first->html.contains("<!DOCTYPE"));
        QVERIFY(first->html.size() > 1000);
        QVERIFY(!first->meta.declared); // the example declares no CSP: the default applies
        QCOMPARE(second->html, first->html);
        QCOMPARE(reads, 1);
        QVERIFY(views.isCached(QStringLiteral("apps"), ViewUri));

        std::optional<Engine::View> cached;
        views.fetch(QStringLiteral("apps"), ViewUri, this,
                    [&cached](const Engine::View &view) { cached = view; });
        QTRY_VERIFY(cached);
        QCOMPARE(cached->html, first->html);
        QCOMPARE(reads, 1);

        // A restart is a new connection: what the old one served is read again.
        session->manager()->restartServer(QStringLiteral("apps"));
        QTRY_VERIFY_WITH_TIMEOUT(!views.isCached(QStringLiteral("apps"), ViewUri), 5000);
        QVERIFY(connected(*session));
        std::optional<Engine::View> again;
        views.fetch(QStringLiteral("apps"), ViewUri, this,
                    [&again](const Engine::View &view) { again = view; });
        QTRY_VERIFY_WITH_TIMEOUT(again, 15000);
        QVERIFY(again->ok());
        QCOMPARE(reads, 2);

        // A view the server does not have: a clear error, nothing kept.
        std::optional<Engine::View> missing;
        views.fetch(QStringLiteral("apps"), "ui://get-time/nothing.html", this,
                    [&missing](const Engine::View &view) { missing = view; });
        QTRY_VERIFY_WITH_TIMEOUT(missing, 15000);
        QVERIFY(!missing->ok());
        QVERIFY2(missing->error.contains(QLatin1String("ui://get-time/nothing.html")),
                 qPrintable(missing->error));
        QVERIFY(!views.isCached(QStringLiteral("apps"), "ui://get-time/nothing.html"));

        // A server that is not there.
        std::optional<Engine::View> absent;
        views.fetch(QStringLiteral("nobody"), ViewUri, this,
                    [&absent](const Engine::View &view) { absent = view; });
        QTRY_VERIFY(absent);
        QVERIFY(absent->error.contains(QLatin1String("nobody")));
    }
};

QTEST_GUILESS_MAIN(tst_IntegrationApps)
#include "tst_integration_apps.moc"
