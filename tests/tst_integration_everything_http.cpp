#include "everythinghttp.h"
#include "jsontest.h"
#include "mcptest.h"

#include <mcp/client/client.h>
#include <mcp/transport/httptransport.h>
#include <mcp/transport/ssetransport.h>

#include <QFileInfo>
#include <QTest>

using namespace Mcp;

// Streamable HTTP against the reference server @modelcontextprotocol/server-everything in its
// `streamableHttp` mode (the npm package pinned by package-lock.json), a real Node process on
// 127.0.0.1: the session, SSE answers with priming events, progress, the GET stream, DELETE.
class tst_IntegrationEverythingHttp : public QObject
{
    Q_OBJECT

    EverythingHttp m_server;
    std::unique_ptr<Client> m_client;

    std::unique_ptr<Client> makeClient()
    {
        HttpOptions options;
        options.serverName = QStringLiteral("everything");
        options.url = QUrl(m_server.url());
        ClientOptions clientOptions;
        clientOptions.serverName = QStringLiteral("everything");
        return std::make_unique<Client>(new HttpTransport(options), clientOptions);
    }

    static bool ready(Client *client)
    {
        (void)QTest::qWaitFor(
                [client] {
                    return client->state() == Client::State::Ready
                           || client->state() == Client::State::Failed;
                },
                30000);
        return client->state() == Client::State::Ready;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(EverythingHttp::entryPoint()),
                 qPrintable(QStringLiteral("%1 is missing: run scripts/bootstrap.sh (npm ci)")
                                    .arg(EverythingHttp::entryPoint())));
        QVERIFY2(m_server.start(), m_server.log().constData());

        m_client = makeClient();
        m_client->connectToServer();
        QVERIFY2(ready(m_client.get()), qPrintable(m_client->errorString()));
    }

    void cleanupTestCase() { m_client.reset(); }

    void handshakeAndSession()
    {
        QCOMPARE(m_client->protocolVersion(), std::string("2025-11-25"));
        QVERIFY(m_client->serverInfo().contains("name"));
        const auto *transport = qobject_cast<HttpTransport *>(m_client->transport());
        QVERIFY(transport);
        QVERIFY(!transport->sessionId().isEmpty());
        QVERIFY2(m_server.log().contains(
                         ("Session initialized with ID: " + transport->sessionId()).toUtf8()),
                 m_server.log().constData());
        for (const char *name : {"echo", "get-sum", "trigger-long-running-operation"})
            QVERIFY2(m_client->findTool(name), name);
        // The GET stream for the server's own messages is open.
        QTRY_VERIFY_WITH_TIMEOUT(m_server.log().contains("Establishing new SSE stream for session "
                                                         + transport->sessionId().toUtf8()),
                                 10000);
    }

    void echoAndSum()
    {
        auto echo
                = callAndWait(m_client.get(), "echo", Json{{"message", "over http ✓ 世界"}}, 20000);
        QVERIFY(echo && !echo->failed());
        QCOMPARE(echo->text(), QStringLiteral("Echo: over http ✓ 世界"));
        auto sum = callAndWait(m_client.get(), "get-sum", Json{{"a", 2}, {"b", 40}}, 20000);
        QVERIFY(sum && !sum->failed());
        QVERIFY2(sum->text().contains(QLatin1String("42")), qPrintable(sum->text()));
    }

    void progressArrivesOnTheStream()
    {
        std::optional<ToolResult> result;
        QList<double> steps;
        RequestOptions options;
        options.onProgress = [&](const Progress &p) {
            steps << p.progress;
        };
        QObject context;
        m_client->callTool(
                "trigger-long-running-operation", Json{{"duration", 1}, {"steps", 4}}, &context,
                [&](ToolResult r) { result = std::move(r); }, options);
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 20000);
        QVERIFY2(!result->failed(), qPrintable(result->text()));
        QCOMPARE(steps, (QList<double>{1, 2, 3, 4}));
    }

    // The same server in its legacy `sse` mode: as `"type": "sse"`, and found by itself from
    // a plain URL (its POST is refused, the GET names the endpoint).
    void legacySseMode()
    {
        EverythingHttp old(QStringLiteral("sse"));
        QVERIFY2(old.start(), old.log().constData());
        HttpOptions options;
        options.serverName = QStringLiteral("old");
        options.url = QUrl(old.url());
        ClientOptions clientOptions;
        clientOptions.serverName = options.serverName;

        Client direct(new SseTransport(options), clientOptions);
        direct.connectToServer();
        QVERIFY2(ready(&direct), qPrintable(direct.errorString()));
        auto echo = callAndWait(&direct, "echo", Json{{"message", "sse ✓"}}, 20000);
        QVERIFY(echo && !echo->failed());
        QCOMPARE(echo->text(), QStringLiteral("Echo: sse ✓"));
        direct.close();

        Client found(new HttpTransport(options), clientOptions);
        found.connectToServer();
        QVERIFY2(ready(&found), qPrintable(found.errorString()));
        QVERIFY(qobject_cast<HttpTransport *>(found.transport())->isLegacy());
        auto sum = callAndWait(&found, "get-sum", Json{{"a", 20}, {"b", 22}}, 20000);
        QVERIFY(sum && !sum->failed());
        QVERIFY2(sum->text().contains(QLatin1String("42")), qPrintable(sum->text()));
        found.close();
        QTRY_COMPARE(found.state(), Client::State::Closed);
    }

    void closeEndsTheSession()
    {
        auto client = makeClient();
        client->connectToServer();
        QVERIFY(ready(client.get()));
        const QString session = qobject_cast<HttpTransport *>(client->transport())->sessionId();
        client->close();
        QTRY_COMPARE_WITH_TIMEOUT(client->state(), Client::State::Closed, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
                m_server.log().contains(
                        ("Received session termination request for session " + session).toUtf8()),
                10000);
    }
};

QTEST_GUILESS_MAIN(tst_IntegrationEverythingHttp)
#include "tst_integration_everything_http.moc"
