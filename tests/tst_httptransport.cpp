#include "jsontest.h"
#include "mcphttpserver.h"
#include "mcptest.h"
#include "processtest.h"

#include <mcp/client/client.h>
#include <mcp/manager.h>
#include <mcp/transport/httpsupport.h>
#include <mcp/transport/httptransport.h>
#include <mcp/transport/parameterheaders.h>
#include <mcp/transport/ssetransport.h>

#include <QFile>
#include <QPointer>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Mcp;

// Streamable HTTP against a scripted MCP server on 127.0.0.1 (tests/mcphttpserver.h): the
// handshake and its headers, JSON and SSE answers, a dropped stream resumed, an expired
// session renewed, per-request failures that leave the session up, credentials asked for,
// a hang cancelled, DELETE on close; and the same through the Manager and switchboard-cli.
class tst_HttpTransport : public QObject
{
    Q_OBJECT

    std::unique_ptr<McpHttpServer> m_server;

    enum class Kind { StreamableHttp, LegacySse };

    std::unique_ptr<Client> makeClient(const QString &url, QMap<QString, QString> headers = {},
                                       int requestTimeoutMs = 10000,
                                       Kind kind = Kind::StreamableHttp)
    {
        HttpOptions options;
        options.serverName = QStringLiteral("remote");
        options.url = QUrl(url);
        options.headers = std::move(headers);
        options.closeTimeoutMs = 1000;
        ClientOptions clientOptions;
        clientOptions.serverName = QStringLiteral("remote");
        clientOptions.requestTimeoutMs = requestTimeoutMs;
        clientOptions.initializeTimeoutMs = 10000;
        Transport *transport = kind == Kind::LegacySse
                                       ? static_cast<Transport *>(new SseTransport(options))
                                       : new HttpTransport(options);
        return std::make_unique<Client>(transport, clientOptions);
    }

    std::unique_ptr<Client> connected()
    {
        auto client = makeClient(m_server->url());
        client->connectToServer();
        if (!settle(client.get()) || client->state() != Client::State::Ready)
            qWarning("not ready: %s", qPrintable(client->errorString()));
        return client;
    }

    // One server, "remote": the test server over Streamable HTTP.
    McpConfig remoteConfig() const
    {
        ServerConfig remote;
        remote.name = QStringLiteral("remote");
        remote.type = TransportType::Http;
        remote.url = m_server->url();
        McpConfig config;
        config.servers << remote;
        return config;
    }

    static QString echoed(Client *client, const QString &text, int timeoutMs = 10000)
    {
        auto result = callAndWait(client, "echo", Json{{"text", text.toStdString()}}, timeoutMs);
        if (!result)
            return QStringLiteral("<no answer>");
        if (result->failed())
            return QStringLiteral("<failed> ") + result->text();
        return result->text();
    }

private slots:
    // x-mcp-header (2026-07-28): which declarations are valid, and how values are written.
    void parameterHeaderDeclarations()
    {
        const auto property = [](const char *type, Json header) {
            return Json{{"type", type}, {"x-mcp-header", std::move(header)}};
        };
        const auto schema = [](Json properties) {
            return Json{{"type", "object"}, {"properties", std::move(properties)}};
        };
        QString problem;
        auto valid = parameterHeaders(
                schema({{"region", property("string", "Region")},
                        {"n", property("integer", "N")},
                        {"on", property("boolean", "On")},
                        {"nested", schema({{"deep", property("string", "Deep")}})},
                        {"plain", {{"type", "string"}, {"default", {{"x-mcp-header", 1}}}}}}),
                &problem);
        QVERIFY2(valid, qPrintable(problem));
        QCOMPARE(int(valid->size()), 4);
        bool sawDeep = false;
        for (const ParameterHeader &h : *valid)
            sawDeep = sawDeep
                      || (h.name == "Deep" && h.path == std::vector<std::string>{"nested", "deep"});
        QVERIFY(sawDeep);

        const std::vector<std::pair<const char *, Json>> invalid = {
                {"empty", schema({{"a", property("string", "")}})},
                {"not a string", schema({{"a", property("string", 7)}})},
                {"number", schema({{"a", property("number", "A")}})},
                {"object", schema({{"a", property("object", "A")}})},
                {"space", schema({{"a", property("string", "My Region")}})},
                {"colon", schema({{"a", property("string", "Region:1")}})},
                {"non-ASCII", schema({{"a", property("string", "Région")}})},
                {"tab", schema({{"a", property("string", "Region	1")}})},
                {"duplicate", schema({{"a", property("string", "MyField")},
                                      {"b", property("string", "myfield")}})},
                {"under items",
                 schema({{"a", {{"type", "array"}, {"items", property("string", "A")}}}})},
                {"under anyOf", schema({{"a", {{"anyOf", {property("string", "A")}}}}})},
                {"under $defs",
                 Json{{"type", "object"}, {"$defs", {{"d", property("string", "A")}}}}},
        };
        for (const auto &[why, input] : invalid) {
            problem.clear();
            QVERIFY2(!parameterHeaders(input, &problem), why);
            QVERIFY2(!problem.isEmpty(), why);
        }
    }

    void headerValues()
    {
        QCOMPARE(Http::headerValue("us-west1"), QByteArray("us-west1"));
        QCOMPARE(Http::headerValue("us west 1"), QByteArray("us west 1"));
        QCOMPARE(Http::headerValue(""), QByteArray(""));
        QCOMPARE(Http::headerValue("Hello, 世界"), QByteArray("=?base64?SGVsbG8sIOS4lueVjA==?="));
        QCOMPARE(Http::headerValue(" padded "), QByteArray("=?base64?IHBhZGRlZCA=?="));
        QCOMPARE(Http::headerValue("\tindented"), QByteArray("=?base64?CWluZGVudGVk?="));
        QCOMPARE(Http::headerValue("line1\r\nline2"), QByteArray("=?base64?bGluZTENCmxpbmUy?="));
        // A plain value that looks encoded is encoded, so it reads back as itself.
        QCOMPARE(Http::headerValue("=?base64?eA==?="),
                 QByteArray("=?base64?PT9iYXNlNjQ/ZUE9PT89?="));

        // What a modern tools/call carries: version, method, name, the marked parameters.
        ParameterHeaders parameters;
        parameters["t"] = {ParameterHeader{{"region"}, "Region"}, ParameterHeader{{"n"}, "N"},
                           ParameterHeader{{"on"}, "On"}, ParameterHeader{{"gone"}, "Gone"},
                           ParameterHeader{{"none"}, "None"}};
        const Http::ModernHeaders modern{"2026-07-28", &parameters};
        const Http::Outgoing out = Http::readOutgoing(
                R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t",)"
                R"("arguments":{"region":"eu","n":42,"on":false,"none":null}}})",
                &modern);
        QMap<QByteArray, QByteArray> headers;
        for (const auto &[name, value] : out.headers)
            headers.insert(name, value);
        QCOMPARE(headers.value("MCP-Protocol-Version"), QByteArray("2026-07-28"));
        QCOMPARE(headers.value("Mcp-Method"), QByteArray("tools/call"));
        QCOMPARE(headers.value("Mcp-Name"), QByteArray("t"));
        QCOMPARE(headers.value("Mcp-Param-Region"), QByteArray("eu"));
        QCOMPARE(headers.value("Mcp-Param-N"), QByteArray("42"));
        QCOMPARE(headers.value("Mcp-Param-On"), QByteArray("false"));
        QVERIFY(!headers.contains("Mcp-Param-Gone"));
        QVERIFY(!headers.contains("Mcp-Param-None"));
        // A legacy message gets none of them.
        QVERIFY(Http::readOutgoing(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})")
                        .headers.empty());
    }

    void init()
    {
        m_server = std::make_unique<McpHttpServer>();
        QVERIFY(m_server->listen());
    }

    void handshakeHeadersAndCall_data()
    {
        QTest::addColumn<bool>("json");
        QTest::newRow("SSE answers") << false;
        QTest::newRow("JSON answers") << true;
    }
    void handshakeHeadersAndCall()
    {
        QFETCH(bool, json);
        m_server->jsonAnswers = json;
        auto client = makeClient(m_server->url(),
                                 {{QStringLiteral("X-Api-Key"), QStringLiteral("k1")}});
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Ready);
        QVERIFY(client->findTool("echo"));
        QCOMPARE(echoed(client.get(), QStringLiteral("héllo ✓")), QStringLiteral("héllo ✓"));

        const auto init = m_server->requestsFor(QStringLiteral("initialize"));
        QCOMPARE(init.size(), 1);
        QCOMPARE(init[0].headers.value("accept"),
                 QByteArray("application/json, text/event-stream"));
        QCOMPARE(init[0].headers.value("content-type"), QByteArray("application/json"));
        QCOMPARE(init[0].headers.value("x-api-key"), QByteArray("k1"));
        QVERIFY(!init[0].headers.contains("mcp-session-id"));
        QVERIFY(!init[0].headers.contains("mcp-protocol-version"));
        for (const QString &method : {QStringLiteral("notifications/initialized"),
                                      QStringLiteral("tools/list"), QStringLiteral("tools/call")}) {
            const auto later = m_server->requestsFor(method);
            QCOMPARE(later.size(), 1);
            QCOMPARE(later[0].headers.value("mcp-session-id"), QByteArray("session-1"));
            QCOMPARE(later[0].headers.value("mcp-protocol-version"), QByteArray("2025-11-25"));
            QCOMPARE(later[0].headers.value("x-api-key"), QByteArray("k1"));
            QVERIFY(!later[0].headers.contains("cookie")); // cookies are neither kept nor sent
        }
        // The optional GET stream was asked for once; 405 is an answer, not a failure.
        QTRY_COMPARE(m_server->count("GET"), 1);
        QCOMPARE(client->state(), Client::State::Ready);
    }

    void serverStreamDeliversMessages()
    {
        m_server->offerGetStream = true;
        auto client = connected();
        QCOMPARE(client->state(), Client::State::Ready);
        QTRY_COMPARE(m_server->count("GET"), 1);
        const auto get = m_server->requests().last();
        QCOMPARE(get.headers.value("accept"), QByteArray("text/event-stream"));
        QCOMPARE(get.headers.value("mcp-session-id"), QByteArray("session-1"));
    }

    void droppedStreamIsResumed()
    {
        auto client = connected();
        m_server->dropNextCallStream = true;
        m_server->retryMs = 150;
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(echoed(client.get(), QStringLiteral("after a drop")),
                 QStringLiteral("after a drop"));
        QVERIFY2(timer.elapsed() >= 140, "the server's retry was not waited for");
        QList<McpHttpServer::Request> resumes;
        for (const auto &request : m_server->requests()) {
            if (request.method == "GET" && request.headers.contains("last-event-id"))
                resumes << request;
        }
        QCOMPARE(resumes.size(), 1);
        QVERIFY(resumes[0].headers.value("last-event-id").startsWith("p"));
        QCOMPARE(resumes[0].headers.value("mcp-session-id"), QByteArray("session-1"));
        QCOMPARE(m_server->requestsFor(QStringLiteral("tools/call")).size(), 1); // not re-sent
    }

    // The 2026-07-28 era has no resumption: a call whose stream broke off is POSTed again,
    // whole, under a new id (and nothing is resumed with GET); a hanging call that times out
    // is cancelled by closing its stream, with no notifications/cancelled POSTed.
    void modernBrokenStreamIsSentAgain()
    {
        m_server->modern = true;
        auto client = connected();
        QCOMPARE(client->state(), Client::State::Ready);
        QCOMPARE(client->era(), Era::Rev2026_07_28);
        QVERIFY(m_server->requestsFor(QStringLiteral("initialize")).isEmpty());
        m_server->dropNextCallStream = true;
        QCOMPARE(echoed(client.get(), QStringLiteral("after a drop")),
                 QStringLiteral("after a drop"));
        const auto calls = m_server->requestsFor(QStringLiteral("tools/call"));
        QCOMPARE(calls.size(), 2);
        QVERIFY(calls[0].body["id"] != calls[1].body["id"]);
        QCOMPARE_JSON(calls[1].body["params"], calls[0].body["params"]);
        QCOMPARE(calls[1].headers.value("mcp-protocol-version"), QByteArray("2026-07-28"));
        QCOMPARE(m_server->count("GET"), 0);
        QVERIFY(!calls[1].headers.contains("mcp-session-id"));

        m_server->hangCalls = true;
        RequestOptions shortWait;
        shortWait.timeoutMs = 300;
        std::optional<ToolResult> result;
        client->callTool(
                "echo", Json{{"text", "hang"}}, this, [&](ToolResult r) { result = std::move(r); },
                shortWait);
        QVERIFY(QTest::qWaitFor([&] { return result.has_value(); }, 5000));
        QVERIFY(result->error);
        QCOMPARE(result->error->code, ErrorCode::RequestTimeout);
        // A request sent after the timeout is answered: a notification sent at the timeout
        // would have reached the server before it.
        m_server->hangCalls = false;
        QCOMPARE(echoed(client.get(), QStringLiteral("after the timeout")),
                 QStringLiteral("after the timeout"));
        QVERIFY(m_server->requestsFor(QStringLiteral("notifications/cancelled")).isEmpty());
        QCOMPARE(client->state(), Client::State::Ready);
    }

    // subscriptions/listen over HTTP: a long-lived POST whose event stream carries the
    // acknowledgment and the tool list changes; a stream that breaks is opened again; one the
    // server ends with its completion result is not.
    void modernListChangesComeOnAListenStream()
    {
        m_server->modern = true;
        auto client = connected();
        QCOMPARE(client->state(), Client::State::Ready);
        QTRY_COMPARE(m_server->openSubscriptions(), 1);
        QTRY_VERIFY(client->subscription().is_object());
        QCOMPARE_JSON(client->subscription(), Json({{"toolsListChanged", true}}));
        const auto listen = m_server->requestsFor(QStringLiteral("subscriptions/listen"));
        QCOMPARE(listen.size(), 1);
        QCOMPARE(listen[0].headers.value("mcp-method"), QByteArray("subscriptions/listen"));
        QCOMPARE_JSON(listen[0].body["params"]["notifications"],
                      Json({{"toolsListChanged", true}}));

        QSignalSpy changed(client.get(), &Client::toolsChanged);
        m_server->notifyToolsChanged();
        QVERIFY(changed.wait());
        QCOMPARE(m_server->requestsFor(QStringLiteral("tools/list")).size(), 2);

        m_server->dropSubscriptions(); // broken: listened to again a second later
        QPointer<QTimer> retry;
        QTRY_VERIFY((retry = listenRetryTimer(client.get())));
        QTRY_COMPARE_WITH_TIMEOUT(
                m_server->requestsFor(QStringLiteral("subscriptions/listen")).size(), 2, 5000);
        QTRY_COMPARE(m_server->openSubscriptions(), 1);
        // Changes made meanwhile went unheard: the tools are listed again.
        QTRY_COMPARE(m_server->requestsFor(QStringLiteral("tools/list")).size(), 3);

        m_server->dropSubscriptions(true); // ended by the server: over
        QTRY_COMPARE(client->subscriptionId(), RequestId(0));
        QVERIFY(!retry->isActive()); // no listen is due, now or later
        QCOMPARE(m_server->requestsFor(QStringLiteral("subscriptions/listen")).size(), 2);
        QCOMPARE(client->state(), Client::State::Ready);
        QCOMPARE(client->pendingRequestCount(), std::size_t(0));
    }

    // Watching a resource over HTTP (2026-07-28): a second listen POST whose filter names it;
    // once that is acknowledged the first stream is closed (no POST of notifications/cancelled:
    // closing is the cancellation). Updates come on the new stream; unwatching goes back to a
    // filter without it.
    void modernResourceWatchReplacesTheListenStream()
    {
        m_server->modern = true;
        m_server->offerResourceUpdates = true;
        auto client = connected();
        QCOMPARE(client->state(), Client::State::Ready);
        QTRY_VERIFY(client->subscription().is_object());
        QCOMPARE(m_server->openSubscriptions(), 1);
        QStringList updates;
        connect(client.get(), &Client::notificationReceived, this,
                [&](const QString &method, const Json &params) {
                    if (method == QLatin1String("notifications/resources/updated"))
                        updates << QString::fromStdString(params.value("uri", std::string()));
                });
        std::optional<Response> answer;
        client->watchResource("file:///w/a.txt", true, this,
                              [&](Response r) { answer = std::move(r); });
        QTRY_VERIFY(answer.has_value());
        QVERIFY(answer->ok());
        const auto listens = m_server->requestsFor(QStringLiteral("subscriptions/listen"));
        QCOMPARE(listens.size(), 2);
        QVERIFY(listens[1].body["params"]["notifications"]
                == Json({{"toolsListChanged", true},
                         {"resourceSubscriptions", Json::array({"file:///w/a.txt"})}}));
        QTRY_COMPARE(m_server->openSubscriptions(), 1); // the first one closed
        QVERIFY(m_server->requestsFor(QStringLiteral("notifications/cancelled")).isEmpty());
        QCOMPARE(client->subscriptionId(), listens[1].body["id"].get<RequestId>());

        m_server->notifyResourceUpdated("file:///w/a.txt");
        QTRY_COMPARE(updates, QStringList({"file:///w/a.txt"}));

        answer.reset();
        client->watchResource("file:///w/a.txt", false, this,
                              [&](Response r) { answer = std::move(r); });
        QTRY_VERIFY(answer.has_value());
        QVERIFY(answer->ok());
        QCOMPARE(m_server->requestsFor(QStringLiteral("subscriptions/listen")).size(), 3);
        QTRY_COMPARE(m_server->openSubscriptions(), 1);
        QCOMPARE_JSON(client->subscription(), Json({{"toolsListChanged", true}}));
        QCOMPARE(client->pendingRequestCount(), std::size_t(1));
    }

    void expiredSessionIsRenewed()
    {
        auto client = connected();
        QSignalSpy renewed(client->transport(), &Transport::sessionRenewed);
        m_server->expireSessionOnNextCall = true;
        QCOMPARE(echoed(client.get(), QStringLiteral("still here")), QStringLiteral("still here"));
        QCOMPARE(renewed.count(), 1);
        QCOMPARE(m_server->sessionsStarted(), 2);
        QCOMPARE(client->state(), Client::State::Ready);
        const auto calls = m_server->requestsFor(QStringLiteral("tools/call"));
        QCOMPARE(calls.size(), 2); // the same request once more, in the new session
        QCOMPARE_JSON(calls[0].body["id"], calls[1].body["id"]);
        QCOMPARE(calls[1].headers.value("mcp-session-id"), QByteArray("session-2"));
        QCOMPARE(m_server->requestsFor(QStringLiteral("notifications/initialized")).size(), 2);
        // The next call just works in the new session.
        QCOMPARE(echoed(client.get(), QStringLiteral("next")), QStringLiteral("next"));
    }

    void httpErrorFailsOnlyThatRequest()
    {
        auto client = connected();
        m_server->failNextCall = true;
        auto failed = callAndWait(client.get(), "echo", Json{{"text", "x"}}, 10000);
        QVERIFY(failed && failed->error);
        QCOMPARE(failed->error->code, ErrorCode::TransportError);
        QVERIFY2(failed->text().contains(QLatin1String("HTTP 500"))
                         && failed->text().contains(QLatin1String("database on fire"))
                         && failed->text().contains(QLatin1String("'remote'")),
                 qPrintable(failed->text()));
        QCOMPARE(client->state(), Client::State::Ready);
        QCOMPARE(echoed(client.get(), QStringLiteral("fine again")), QStringLiteral("fine again"));
    }

    void garbageAndTruncatedAnswers()
    {
        auto client = connected();
        QSignalSpy warnings(client.get(), &Client::warning);
        m_server->garbageInNextCall = true;
        QCOMPARE(echoed(client.get(), QStringLiteral("through garbage")),
                 QStringLiteral("through garbage"));
        QVERIFY(!warnings.isEmpty());
        QVERIFY(warnings.last().at(0).toString().contains(QLatin1String("not JSON")));

        m_server->jsonAnswers = true;
        m_server->truncateNextCall = true;
        auto cut = callAndWait(client.get(), "echo", Json{{"text", "x"}}, 10000);
        QVERIFY(cut && cut->error);
        QCOMPARE(cut->error->code, ErrorCode::TransportError);
        QCOMPARE(client->state(), Client::State::Ready);
        QCOMPARE(echoed(client.get(), QStringLiteral("whole")), QStringLiteral("whole"));
    }

    void hangingCallTimesOutAndIsCancelled()
    {
        auto client = connected();
        m_server->hangCalls = true;
        RequestOptions options;
        options.timeoutMs = 400;
        std::optional<ToolResult> result;
        QObject context;
        client->callTool(
                "echo", Json{{"text", "never"}}, &context,
                [&](ToolResult r) { result = std::move(r); }, options);
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 5000);
        QVERIFY(result->error && result->error->is(ErrorCode::RequestTimeout));
        QTRY_COMPARE(m_server->requestsFor(QStringLiteral("notifications/cancelled")).size(), 1);
        const auto cancel = m_server->requestsFor(QStringLiteral("notifications/cancelled"))[0];
        QCOMPARE_JSON(cancel.body["params"]["requestId"],
                      m_server->requestsFor(QStringLiteral("tools/call"))[0].body["id"]);
        QCOMPARE(cancel.headers.value("mcp-session-id"), QByteArray("session-1"));
        QCOMPARE(client->state(), Client::State::Ready);
    }

    void pingAndStrayIdInsideAStream()
    {
        auto client = connected();
        QSignalSpy notifications(client.get(), &Client::notificationReceived);
        m_server->interleaveNextCall = true;
        QCOMPARE(echoed(client.get(), QStringLiteral("mixed")), QStringLiteral("mixed"));
        // The ping was answered with a POST of its own; the stray id was dropped quietly.
        QTRY_COMPARE(m_server->requestsFor(QString()).size(), 1);
        const auto pong = m_server->requestsFor(QString())[0];
        QCOMPARE_JSON(pong.body["id"], "srv-1");
        QCOMPARE_JSON(pong.body["result"], Json::object());
        QCOMPARE(notifications.count(), 1);
        QCOMPARE(notifications[0].at(0).toString(), QStringLiteral("notifications/message"));
        QCOMPARE(client->state(), Client::State::Ready);
    }

    void unauthorizedNamesServerAndChallenge()
    {
        m_server->requireAuth = true;
        auto client = makeClient(m_server->url());
        QSignalSpy challenge(client.get(), &Client::authorizationRequired);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QLatin1String("authentication"))
                         && client->errorString().contains(QLatin1String("'remote'")),
                 qPrintable(client->errorString()));
        QCOMPARE(challenge.count(), 1);
        QVERIFY(challenge[0].at(0).toString().contains(QLatin1String("resource_metadata=")));
    }

    void closeDeletesTheSession()
    {
        auto client = connected();
        QCOMPARE(m_server->sessionId(), QStringLiteral("session-1"));
        client->close();
        QTRY_COMPARE(client->state(), Client::State::Closed);
        QCOMPARE(m_server->count("DELETE"), 1);
        QCOMPARE(m_server->requests().last().headers.value("mcp-session-id"),
                 QByteArray("session-1"));
        QVERIFY(m_server->sessionId().isEmpty());
    }

    void nobodyListening()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        auto client = makeClient(QStringLiteral("http://127.0.0.1:%1/mcp").arg(port));
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QLatin1String("could not reach")),
                 qPrintable(client->errorString()));
    }

    void badUrlsAndHeadersAreRefused_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a line break in a value") << QString() << "X-Token"
                                                 << "a\r\nInjected: yes"
                                                 << "header 'X-Token'";
        QTest::newRow("a space in a name") << QString() << "X Token"
                                           << "a"
                                           << "'X Token'";
        QTest::newRow("not http") << "ftp://127.0.0.1/mcp" << QString() << QString()
                                  << "not an http or https URL";
    }
    void badUrlsAndHeadersAreRefused()
    {
        QFETCH(QString, url);
        QFETCH(QString, header);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        QMap<QString, QString> headers;
        if (!header.isEmpty())
            headers.insert(header, value);
        auto client = makeClient(url.isEmpty() ? m_server->url() : url, headers);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(expected), qPrintable(client->errorString()));
        QVERIFY(!client->errorString().contains(QLatin1String("Injected")));
        QCOMPARE(m_server->requests().size(), 0);
    }

    // An old server: the POST of initialize gets 405, a GET opens its event stream, and from
    // then on every message goes to the endpoint it named (the spec's backward compatibility).
    void oldServerIsSpokenToOverHttpSse()
    {
        m_server->legacy = true;
        auto client = makeClient(m_server->url());
        QSignalSpy warnings(client.get(), &Client::warning);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Ready);
        QVERIFY(qobject_cast<HttpTransport *>(client->transport())->isLegacy());
        QCOMPARE(echoed(client.get(), QStringLiteral("the old way")),
                 QStringLiteral("the old way"));
        const auto init = m_server->requestsFor(QStringLiteral("initialize"));
        QCOMPARE(init.size(), 2); // refused at the URL, then sent to the endpoint
        QCOMPARE(init[0].path, QByteArray("/mcp"));
        QCOMPARE(init[1].path, QByteArray("/messages?sid=7"));
        QCOMPARE(m_server->requestsFor(QStringLiteral("tools/call"))[0].path,
                 QByteArray("/messages?sid=7"));
        bool said = false;
        for (const auto &args : std::as_const(warnings))
            said = said || args.at(0).toString().contains(QLatin1String("HTTP+SSE"));
        QVERIFY(said);
    }

    void sseTypeSpeaksHttpSseAtOnce()
    {
        m_server->legacy = true;
        auto client = makeClient(m_server->url(), {}, 10000, Kind::LegacySse);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Ready);
        QCOMPARE(echoed(client.get(), QStringLiteral("direct")), QStringLiteral("direct"));
        QCOMPARE(m_server->requestsFor(QStringLiteral("initialize")).size(), 1);
    }

    void endpointOnAnotherOriginIsRefused()
    {
        m_server->legacy = true;
        m_server->legacyEndpoint = "http://127.0.0.2:9/steal";
        auto client
                = makeClient(m_server->url(),
                             {{QStringLiteral("Authorization"), QStringLiteral("Bearer secret")}},
                             10000, Kind::LegacySse);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QLatin1String("another origin")),
                 qPrintable(client->errorString()));
        QCOMPARE(m_server->count("POST"), 0);
    }

    void managerPicksTheTransportFromTheConfig()
    {
        ManagerOptions options;
        Manager manager(options);
        manager.start(remoteConfig());
        QTRY_COMPARE(manager.status(QStringLiteral("remote")).state, ServerState::Connected);
        QCOMPARE(manager.status(QStringLiteral("remote")).toolCount, 1);
        QCOMPARE(echoed(manager.client(QStringLiteral("remote")), QStringLiteral("via manager")),
                 QStringLiteral("via manager"));
        QSignalSpy stopped(&manager, &Manager::stopped);
        manager.stop();
        QTRY_COMPARE(stopped.count(), 1);
        QCOMPARE(m_server->count("DELETE"), 1);
    }

    void managerReportsAuthentication()
    {
        m_server->requireAuth = true;
        Manager manager(ManagerOptions{});
        QSignalSpy auth(&manager, &Manager::authorizationRequired);
        manager.start(remoteConfig());
        QTRY_COMPARE(manager.status(QStringLiteral("remote")).state, ServerState::Failed);
        QVERIFY(manager.status(QStringLiteral("remote"))
                        .reason.contains(QLatin1String("requires authentication")));
        QCOMPARE(auth.count(), 1);
        QCOMPARE(auth[0].at(0).toString(), QStringLiteral("remote"));
    }

    // switchboard-cli on an HTTP server as on stdio: call, --timeout (exit 5, the cancellation
    // POSTed), 401 (exit 3, a reason that says authentication and names the server).
    void cliOverHttp()
    {
        QTemporaryDir home, workspace;
        {
            QFile config(workspace.filePath(QStringLiteral(".mcp.json")));
            QVERIFY(config.open(QIODevice::WriteOnly));
            config.write(
                    QStringLiteral("{\"mcpServers\": {\"remote\": {\"url\": \"%1\", "
                                   "\"headers\": {\"Authorization\": \"Bearer ${SB_TOKEN}\"}}}}")
                            .arg(m_server->url())
                            .toUtf8());
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        env.insert(QStringLiteral("SB_TOKEN"), QStringLiteral("t0ken-secret"));
        struct Run
        {
            int code = -1;
            QString out, err;
        };
        auto cli = [&](const QStringList &args) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(SWITCHBOARD_CLI),
                          QStringList{QStringLiteral("--workspace"), workspace.path()} + args);
            // The server lives on this thread: keep the event loop turning while it runs.
            Run run;
            if (!finishWhileServing(process))
                return run;
            run.code = process.exitCode();
            run.out = QString::fromUtf8(process.readAllStandardOutput());
            run.err = QString::fromUtf8(process.readAllStandardError());
            return run;
        };
        QCOMPARE(cli({QStringLiteral("trust")}).code, 0);

        Run run = cli({QStringLiteral("call"), QStringLiteral("remote"), QStringLiteral("echo"),
                       QStringLiteral("{\"text\": \"over http\"}")});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QCOMPARE(run.out.trimmed(), QStringLiteral("over http"));
        QCOMPARE(m_server->requestsFor(QStringLiteral("tools/call"))[0].headers.value(
                         "authorization"),
                 QByteArray("Bearer t0ken-secret"));
        QVERIFY(m_server->count("DELETE") >= 1);

        run = cli({QStringLiteral("servers")});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.contains(QLatin1String("remote"))
                         && run.out.contains(QLatin1String("connected")),
                 qPrintable(run.out));
        run = cli({QStringLiteral("servers"), QStringLiteral("--json")});
        QCOMPARE(run.code, 0);
        const Json servers = Json::parse(run.out.toStdString(), nullptr, false);
        QVERIFY2(servers.is_array() && servers.size() == 1, qPrintable(run.out));
        QCOMPARE_JSON(servers[0]["transport"], "http");
        QCOMPARE_JSON(servers[0]["url"], m_server->url().toStdString());
        QCOMPARE_JSON(servers[0]["protocolVersion"], "2025-11-25");

        m_server->hangCalls = true;
        run = cli({QStringLiteral("call"), QStringLiteral("remote"), QStringLiteral("echo"),
                   QStringLiteral("{\"text\": \"x\"}"), QStringLiteral("--timeout"),
                   QStringLiteral("1")});
        QCOMPARE(run.code, 5);
        QTRY_COMPARE(m_server->requestsFor(QStringLiteral("notifications/cancelled")).size(), 1);
        m_server->hangCalls = false;

        m_server->requireAuth = true;
        run = cli({QStringLiteral("call"), QStringLiteral("remote"), QStringLiteral("echo"),
                   QStringLiteral("{}")});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.err.contains(QLatin1String("authentication"))
                         && run.err.contains(QLatin1String("remote")),
                 qPrintable(run.err));
        QVERIFY(!run.err.contains(QLatin1String("t0ken-secret")));
        QVERIFY(!run.out.contains(QLatin1String("t0ken-secret")));
    }
};

QTEST_GUILESS_MAIN(tst_HttpTransport)
#include "tst_httptransport.moc"
