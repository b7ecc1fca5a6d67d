#include "jsontest.h"
#include "mcptest.h"

#include <mcp/client.h>
#include <mcp/httptransport.h>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTcpServer>
#include <QTest>

using namespace Mcp;

// Streamable HTTP against the reference server @modelcontextprotocol/server-everything in its
// `streamableHttp` mode (the npm package pinned by package-lock.json), a real Node process on
// 127.0.0.1: the session, SSE answers with priming events, progress, the GET stream, DELETE.
class tst_IntegrationEverythingHttp : public QObject
{
    Q_OBJECT

    QProcess m_node;
    QByteArray m_log; // the server's stdout and stderr
    quint16 m_port = 0;
    std::unique_ptr<Client> m_client;

    static QString entryPoint()
    {
        return QDir(QStringLiteral(SWITCHBOARD_SOURCE_DIR))
                .filePath(QStringLiteral(
                        "node_modules/@modelcontextprotocol/server-everything/dist/index.js"));
    }

    std::unique_ptr<Client> makeClient()
    {
        HttpOptions options;
        options.serverName = QStringLiteral("everything");
        options.url = QUrl(QStringLiteral("http://127.0.0.1:%1/mcp").arg(m_port));
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
        QVERIFY2(QFileInfo::exists(entryPoint()),
                 qPrintable(QStringLiteral("%1 is missing: run scripts/bootstrap.sh (npm ci)")
                                    .arg(entryPoint())));
        QTcpServer probe; // a free port, handed to the server
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        m_port = probe.serverPort();
        probe.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PORT"), QString::number(m_port));
        m_node.setProcessEnvironment(env);
        m_node.setProcessChannelMode(QProcess::MergedChannels);
        connect(&m_node, &QProcess::readyRead, this, [this] { m_log += m_node.readAll(); });
        m_node.start(QStringLiteral("node"), {entryPoint(), QStringLiteral("streamableHttp")});
        QVERIFY(m_node.waitForStarted(10000));
        QVERIFY2(QTest::qWaitFor([this] { return m_log.contains("listening on port"); }, 30000),
                 m_log.constData());

        m_client = makeClient();
        m_client->connectToServer();
        QVERIFY2(ready(m_client.get()), qPrintable(m_client->errorString()));
    }

    void cleanupTestCase()
    {
        m_client.reset();
        m_node.terminate();
        if (!m_node.waitForFinished(5000))
            m_node.kill();
    }

    void handshakeAndSession()
    {
        QCOMPARE(m_client->protocolVersion(), std::string("2025-11-25"));
        QVERIFY(m_client->serverInfo().contains("name"));
        const auto *transport = qobject_cast<HttpTransport *>(m_client->transport());
        QVERIFY(transport);
        QVERIFY(!transport->sessionId().isEmpty());
        QVERIFY2(
                m_log.contains(("Session initialized with ID: " + transport->sessionId()).toUtf8()),
                m_log.constData());
        for (const char *name : {"echo", "get-sum", "trigger-long-running-operation"})
            QVERIFY2(m_client->findTool(name), name);
        // The GET stream for the server's own messages is open.
        QTRY_VERIFY_WITH_TIMEOUT(m_log.contains("Establishing new SSE stream for session "
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

    void closeEndsTheSession()
    {
        auto client = makeClient();
        client->connectToServer();
        QVERIFY(ready(client.get()));
        const QString session = qobject_cast<HttpTransport *>(client->transport())->sessionId();
        client->close();
        QTRY_COMPARE_WITH_TIMEOUT(client->state(), Client::State::Closed, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
                m_log.contains(
                        ("Received session termination request for session " + session).toUtf8()),
                10000);
    }
};

QTEST_GUILESS_MAIN(tst_IntegrationEverythingHttp)
#include "tst_integration_everything_http.moc"
