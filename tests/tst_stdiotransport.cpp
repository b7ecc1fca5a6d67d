#include "jsontest.h"
#include "processtest.h"
#include "sandboxtest.h"

#include <mcp/client/client.h>
#include <mcp/transport/stdiotransport.h>
#include <mcp/wire/inboundparser.h>
#include <mcp/wire/jsonparser.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Mcp;

// A real child process (tests/fixtures' sb-fixture-server) behind StdioTransport + Client:
// framing over pipes, big lines, the size cap, garbage, stderr, crashes, timeouts with the
// cancellation reaching the server, staged shutdown and the process group.
class tst_StdioTransport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<Client> makeClient(QStringList args, StdioOptions options = {},
                                       ClientOptions clientOptions = {})
    {
        if (options.program.isEmpty())
            options.program = QStringLiteral(SWITCHBOARD_FIXTURE_SERVER);
        options.arguments = args;
        if (options.workingDirectory.isEmpty())
            options.workingDirectory = m_dir.path();
        if (clientOptions.serverName.isEmpty())
            clientOptions.serverName = QStringLiteral("fixture");
        return std::make_unique<Client>(new StdioTransport(options), clientOptions);
    }

    // The fixture with --resources in `era`, Ready; each `method` notification's `member`
    // lands in *seen. Null when it did not get Ready.
    std::unique_ptr<Client> resourceFixture(const QString &era, const char *method,
                                            const char *member, QStringList *seen)
    {
        auto client = makeClient({QStringLiteral("--era"), era, QStringLiteral("--resources")});
        client->connectToServer();
        if (!waitSettled(client.get()) || client->state() != Client::State::Ready)
            return nullptr;
        connect(client.get(), &Client::notificationReceived, this,
                [=](const QString &name, const Json &params) {
                    if (name == QLatin1String(method))
                        *seen << QString::fromStdString(params.value(member, std::string()));
                });
        return client;
    }

    static bool waitSettled(Client *client, int ms = 10000)
    {
        return QTest::qWaitFor(
                [client] {
                    return client->state() == Client::State::Ready
                           || client->state() == Client::State::Failed;
                },
                ms);
    }

    static std::optional<ToolResult> call(Client *client, const std::string &tool, Json args,
                                          int timeoutMs = 10000, RequestOptions options = {})
    {
        std::optional<ToolResult> result;
        if (options.timeoutMs < 0)
            options.timeoutMs = timeoutMs;
        client->callTool(
                tool, std::move(args), client, [&](ToolResult r) { result = std::move(r); },
                options);
        (void)QTest::qWaitFor([&] { return result.has_value(); }, timeoutMs + 5000);
        return result;
    }

    static QByteArray readAll(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    // The fixture's environment (KEY=VALUE lines, with a leading newline so that every
    // variable can be matched as "\nNAME=").
    QString environmentOf(bool inherit)
    {
        StdioOptions options;
        options.inheritEnvironment = inherit;
        options.environment.insert(QStringLiteral("SB_OWN"), QStringLiteral("own value"));
        auto client = makeClient({"--env-tool"}, options);
        client->connectToServer();
        if (!waitSettled(client.get()))
            return {};
        const auto r = call(client.get(), "env", Json::object());
        return r && !r->failed() ? QLatin1Char('\n') + r->text() : QString();
    }

    // A sandboxed shell tries to connect to 127.0.0.1:port, says what happened on stderr, then
    // becomes the fixture server.
    QString connectionResult(quint16 port, bool network)
    {
        StdioOptions options;
        options.program = QStringLiteral("/bin/bash");
        options.sandbox = SandboxPolicy{true, network, {}};
        auto client = makeClient(
                {"-c", QStringLiteral("(exec 3<>/dev/tcp/127.0.0.1/%1) 2>/dev/null "
                                      "&& echo net:connected >&2 || echo net:blocked >&2; "
                                      "exec '%2'")
                               .arg(port)
                               .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))},
                options);
        QSignalSpy lines(qobject_cast<StdioTransport *>(client->transport()),
                         &StdioTransport::stderrLine);
        client->connectToServer();
        if (!waitSettled(client.get()) || client->state() != Client::State::Ready)
            return client->errorString();
        QString result;
        (void)QTest::qWaitFor(
                [&] {
                    for (const QList<QVariant> &line : std::as_const(lines)) {
                        if (line.first().toString().startsWith(QStringLiteral("net:")))
                            result = line.first().toString();
                    }
                    return !result.isEmpty();
                },
                5000);
        return result;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void connectsAndCalls()
    {
        auto client = makeClient({});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(client->state(), Client::State::Ready);
        QCOMPARE(int(client->tools().size()), 16);
        auto r = call(client.get(), "echo", Json{{"text", "héllo ✓ 日本"}});
        QVERIFY(r && !r->failed());
        QCOMPARE(r->text(), QStringLiteral("héllo ✓ 日本"));
        auto kinds = call(client.get(), "kinds", Json::object());
        QVERIFY(kinds && !kinds->failed());
        QStringList types;
        for (const Json &block : kinds->content())
            types << QString::fromStdString(block["type"].get<std::string>());
        QCOMPARE(types, (QStringList{"text", "image", "audio", "resource_link", "resource"}));
        QCOMPARE_JSON(kinds->structuredContent()["count"], 5);
    }

    // The traffic tap sees the exact bytes both ways (the handshake, a call, a non-JSON line
    // before it is skipped), and nothing once removed.
    void trafficTap()
    {
        auto client = makeClient({"--garbage-at-start"});
        std::vector<std::pair<TrafficDirection, std::string>> seen;
        client->transport()->setTrafficTap([&](TrafficDirection direction, std::string_view text) {
            seen.emplace_back(direction, std::string(text));
        });
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QVERIFY(seen.size() >= 5); // garbage, initialize, its result, initialized, tools/list...
        auto find = [&](TrafficDirection direction, std::string_view needle) {
            return std::find_if(seen.begin(), seen.end(), [&](const auto &entry) {
                return entry.first == direction && entry.second.find(needle) != std::string::npos;
            });
        };
        const auto init = find(TrafficDirection::Sent, "\"method\":\"initialize\"");
        QVERIFY(init != seen.end());
        QVERIFY(init->second.back() != '\n'); // the message, not the frame
        QVERIFY(!parseJson(init->second).is_discarded());
        QVERIFY(find(TrafficDirection::Received, "\"protocolVersion\"") != seen.end());
        QVERIFY(find(TrafficDirection::Sent, "notifications/initialized") != seen.end());
        QVERIFY(find(TrafficDirection::Received, "fixture garbage at start") != seen.end());

        seen.clear();
        auto r = call(client.get(), "echo", Json{{"text", "tapped"}});
        QVERIFY(r && !r->failed());
        QCOMPARE(seen.size(), size_t(2));
        QCOMPARE(seen[0].first, TrafficDirection::Sent);
        QCOMPARE(seen[1].first, TrafficDirection::Received);
        QCOMPARE_JSON(parseJson(seen[1].second)["result"]["content"][0]["text"], "tapped");

        client->transport()->setTrafficTap({});
        QVERIFY(!client->transport()->hasTrafficTap());
        r = call(client.get(), "echo", Json{{"text", "untapped"}});
        QVERIFY(r && !r->failed());
        QCOMPARE(seen.size(), size_t(2));
    }

    void paginatedListOverPipes()
    {
        auto client = makeClient({"--tools", "250", "--page-size", "40"});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(int(client->tools().size()), 16 + 250);
        QVERIFY(client->findTool("tool_0249"));
    }

    void concurrentCallsOverlap()
    {
        auto client = makeClient({});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        int done = 0;
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < 4; ++i)
            client->callTool("slow", Json{{"ms", 300}}, this, [&](ToolResult r) {
                QVERIFY(!r.failed());
                ++done;
            });
        QTRY_COMPARE_WITH_TIMEOUT(done, 4, 5000);
        // Serially this is 1.2 s; in flight together about 0.3 s.
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    }

    void bigLineArrivesWhole()
    {
        auto client = makeClient({});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        const int bytes = 20 * 1000 * 1000;
        auto r = call(client.get(), "big", Json{{"bytes", bytes}}, 30000);
        QVERIFY(r && !r->failed());
        QCOMPARE(r->content()[0]["text"].get_ref<const std::string &>().size(), std::size_t(bytes));
    }

    // A big line is parsed off the GUI thread; what follows it still comes after it, and so
    // does the end of the connection (the server wrote both and exited at once). Meanwhile
    // the event loop keeps running.
    void bigLineKeepsItsPlaceInOrder()
    {
        StdioOptions options;
        options.program = QStringLiteral("/bin/sh");
        options.workingDirectory = m_dir.path();
        options.arguments
                = {QStringLiteral("-c"),
                   QStringLiteral("printf '{\"jsonrpc\":\"2.0\",\"method\":\"one\",\"params\":"
                                  "{\"text\":\"'; head -c 3000000 /dev/zero | tr '\\0' x; "
                                  "printf '\"}}\\n{\"jsonrpc\":\"2.0\",\"method\":\"two\"}\\n"
                                  "not json\\n{\"jsonrpc\":\"2.0\",\"method\":\"three\"}\\n'")};
        StdioTransport transport(options);
        QStringList order;
        std::size_t bigText = 0;
        transport.setMessageHandler([&](Json &&message) {
            order << QString::fromStdString(message.value("method", ""));
            if (message.contains("params"))
                bigText = message["params"]["text"].get_ref<const std::string &>().size();
        });
        connect(&transport, &Transport::warning, this,
                [&](const QString &text) { order << QStringLiteral("warning: ") + text; });
        connect(&transport, &Transport::closed, this,
                [&](const QString &) { order << QStringLiteral("closed"); });
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&] { ++ticks; });
        ticker.start(0);
        transport.start();
        QTRY_VERIFY_WITH_TIMEOUT(order.contains(QStringLiteral("closed")), 10000);
        QCOMPARE(order.size(), 5);
        QCOMPARE(order.at(0), QStringLiteral("one"));
        QCOMPARE(order.at(1), QStringLiteral("two"));
        QVERIFY2(order.at(2).startsWith(QStringLiteral("warning: skipped a line that is not JSON")),
                 qPrintable(order.at(2)));
        QCOMPARE(order.at(3), QStringLiteral("three"));
        QCOMPARE(order.at(4), QStringLiteral("closed"));
        QCOMPARE(bigText, std::size_t(3000000));
        QVERIFY(ticks > 0);
    }

    // A big line that is not JSON is reported like a small one, by its first bytes.
    void bigBadLineIsReported()
    {
        InboundParser parser;
        QStringList seen;
        parser.setMessageHandler([&](Json &&message) {
            seen << QString::fromStdString(message.value("method", ""));
        });
        parser.setBadLineHandler([&](std::string_view head) {
            seen << QStringLiteral("bad %1 bytes").arg(head.size());
        });
        std::string big = "{\"oops\": " + std::string(InboundParser::OffThreadBytes, '1');
        parser.push(big, &big);
        QVERIFY(!parser.isIdle());
        parser.push(R"({"jsonrpc":"2.0","method":"after"})");
        bool idle = false;
        parser.whenIdle([&] { idle = true; });
        QVERIFY(seen.isEmpty()); // the small line waits for the big one
        QTRY_VERIFY(idle);
        QCOMPARE(seen, (QStringList{QStringLiteral("bad 200 bytes"), QStringLiteral("after")}));
    }

    void overCapEndsThatCallOnly()
    {
        StdioOptions options;
        options.maxMessageBytes = 8 * 1024 * 1024; // the 100 MB case, scaled to keep CI fast
        auto client = makeClient({}, options);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        std::optional<ToolResult> big, slow;
        client->callTool("slow", Json{{"ms", 200}}, this,
                         [&](ToolResult r) { slow = std::move(r); });
        client->callTool("big", Json{{"bytes", 30 * 1000 * 1000}}, this,
                         [&](ToolResult r) { big = std::move(r); });
        QTRY_VERIFY_WITH_TIMEOUT(big && slow, 30000);
        QVERIFY(big->error);
        QCOMPARE(big->error->code, ErrorCode::MessageTooLarge);
        QVERIFY2(QString::fromStdString(big->error->message).contains(QStringLiteral("30000")),
                 big->error->message.c_str());
        QVERIFY(!slow->failed());
        auto after = call(client.get(), "echo", Json{{"text", "still here"}});
        QVERIFY(after && !after->failed());
        QCOMPARE(client->state(), Client::State::Ready);
    }

    void hundredMegabytesOverDefaultCap()
    {
        auto client = makeClient({});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        std::optional<ToolResult> big;
        client->callTool("big", Json{{"bytes", 100 * 1000 * 1000}}, this,
                         [&](ToolResult r) { big = std::move(r); });
        QTRY_VERIFY_WITH_TIMEOUT(big.has_value(), 60000);
        QVERIFY(big->error);
        QCOMPARE(big->error->code, ErrorCode::MessageTooLarge);
        auto after = call(client.get(), "echo", Json{{"text", "ok"}});
        QVERIFY(after && !after->failed());
    }

    void garbageAndBlankLinesAreSkipped()
    {
        auto client = makeClient({"--garbage-at-start"});
        QSignalSpy warnings(client.get(), &Client::warning);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        auto r = call(client.get(), "garbage", Json::object());
        QVERIFY(r && !r->failed());
        QCOMPARE(r->text(), QStringLiteral("after garbage"));
        // Two non-JSON lines (start, garbage tool), and two JSON values that are not JSON-RPC.
        QTRY_COMPARE(warnings.count(), 4);
    }

    void stderrFloodIsNotFailure()
    {
        auto client = makeClient({"--stderr-lines", "10"});
        QSignalSpy lines(qobject_cast<StdioTransport *>(client->transport()),
                         &StdioTransport::stderrLine);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        auto r = call(client.get(), "stderr_flood", Json{{"lines", 100000}}, 30000);
        QVERIFY(r && !r->failed());
        QCOMPARE(r->text(), QStringLiteral("flooded"));
        QTRY_VERIFY(lines.count() >= 100010);
        auto *transport = static_cast<StdioTransport *>(client->transport());
        const QStringList tail = transport->stderrTail();
        QCOMPARE(tail.size(), 200);
        QCOMPARE(tail.last(), QStringLiteral("flood line 100000 of 100000"));
    }

    void crashMidCall()
    {
        auto client = makeClient({});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        std::optional<ToolResult> slow, crash;
        client->callTool("slow", Json{{"ms", 5000}}, this,
                         [&](ToolResult r) { slow = std::move(r); });
        client->callTool("crash", Json{{"code", 7}}, this,
                         [&](ToolResult r) { crash = std::move(r); });
        QTRY_VERIFY_WITH_TIMEOUT(slow && crash, 5000);
        QCOMPARE(crash->error->code, ErrorCode::ConnectionClosed);
        QCOMPARE(slow->error->code, ErrorCode::ConnectionClosed);
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QStringLiteral("exited with code 7")),
                 qPrintable(client->errorString()));
    }

    void timeoutCancellationReachesServer()
    {
        const QString log = m_dir.filePath(QStringLiteral("cancel.log"));
        auto client = makeClient({"--cancel-log", log});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QElapsedTimer clock;
        clock.start();
        auto r = call(client.get(), "hang", Json::object(), 300);
        QVERIFY(r && r->error);
        QCOMPARE(r->error->code, ErrorCode::RequestTimeout);
        QVERIFY(clock.elapsed() >= 290);
        QTRY_VERIFY(readAll(log).startsWith("cancelled "));
        // The server is fine afterwards.
        auto after = call(client.get(), "echo", Json{{"text", "next"}});
        QVERIFY(after && !after->failed());
    }

    void progressOverPipes()
    {
        auto client = makeClient({});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        std::vector<Progress> seen;
        RequestOptions options;
        options.onProgress = [&](const Progress &p) {
            seen.push_back(p);
        };
        auto r = call(client.get(), "progress", Json{{"steps", 5}, {"ms", 20}}, 10000, options);
        QVERIFY(r && !r->failed());
        QCOMPARE(int(seen.size()), 5);
        QCOMPARE(seen.back().total.value_or(0), 5.0);
        QCOMPARE(seen.back().message, QStringLiteral("step 5"));
    }

    void answersServerPingAndUnknownMethods()
    {
        auto client = makeClient({});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        auto ping = call(client.get(), "ask_client", Json{{"method", "ping"}});
        QVERIFY(ping && !ping->failed());
        const Json pingReply = Json::parse(ping->text().toStdString());
        QCOMPARE_JSON(pingReply["result"], Json::object());
        auto unknown = call(client.get(), "ask_client", Json{{"method", "unknown/method"}});
        QVERIFY(unknown && !unknown->failed());
        const Json unknownReply = Json::parse(unknown->text().toStdString());
        QCOMPARE_JSON(unknownReply["error"]["code"], -32601);
    }

    // A legacy server sends list_changed as it likes; a modern one only on the client's
    // subscriptions/listen (acknowledged first, the subscription id in _meta).
    void listChangedOverPipes_data()
    {
        QTest::addColumn<QString>("era");
        QTest::newRow("legacy") << QStringLiteral("legacy");
        QTest::newRow("modern") << QStringLiteral("modern");
        QTest::newRow("dual") << QStringLiteral("dual");
    }
    void listChangedOverPipes()
    {
        QFETCH(QString, era);
        auto client = makeClient({QStringLiteral("--era"), era});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        if (era != QLatin1String("legacy")) {
            QCOMPARE(client->era(), Era::Rev2026_07_28);
            QTRY_VERIFY(client->subscription() == Json({{"toolsListChanged", true}}));
            QVERIFY(client->subscriptionId() != 0);
        }
        QSignalSpy changed(client.get(), &Client::toolsChanged);
        auto r = call(client.get(), "change_tools", Json::object());
        QVERIFY(r && !r->failed());
        QTRY_COMPARE(changed.count(), 1);
        QVERIFY(client->findTool("added_later"));
    }

    // Watching a resource, both eras: 2025-11-25 resources/subscribe; 2026-07-28 the uri in
    // the subscriptions/listen filter, a new stream replacing the old (which is closed, so each
    // change is heard once). A uri the server does not agree to is refused either way.
    void resourceUpdatesOverPipes_data()
    {
        QTest::addColumn<QString>("era");
        QTest::newRow("legacy") << QStringLiteral("legacy");
        QTest::newRow("modern") << QStringLiteral("modern");
    }
    void resourceUpdatesOverPipes()
    {
        QFETCH(QString, era);
        const bool modern = era == QLatin1String("modern");
        QStringList updates;
        auto client = resourceFixture(era, "notifications/resources/updated", "uri", &updates);
        QVERIFY(client);
        auto watch = [&](const std::string &uri, bool on) {
            std::optional<Response> answer;
            client->watchResource(uri, on, this, [&](Response r) { answer = std::move(r); });
            [&] {
                QVERIFY(QTest::qWaitFor([&] { return answer.has_value(); }, 10000));
            }();
            return answer.value_or(Response::failure(-1, "no answer"));
        };
        auto bump = [&] {
            auto r = call(client.get(), "bump_resource", Json::object());
            return r && !r->failed();
        };
        if (modern)
            QTRY_VERIFY(client->subscription()
                        == Json({{"toolsListChanged", true}, {"resourcesListChanged", true}}));
        QVERIFY(bump());
        QVERIFY(updates.isEmpty()); // not watched: nothing (it would come before the result)

        QVERIFY(watch("fixture://counter", true).ok());
        QVERIFY(client->watchedResources().count("fixture://counter"));
        if (modern) {
            QVERIFY(client->subscription()["resourceSubscriptions"]
                    == Json::array({"fixture://counter"}));
        }
        QVERIFY(bump());
        QCOMPARE(updates, QStringList({"fixture://counter"}));

        // Refused: the server has no such resource (legacy), or leaves it out of the
        // acknowledgment (modern). The counter is still watched, and heard once per change.
        const Response refused = watch("fixture://nothing", true);
        QVERIFY(!refused.ok());
        if (modern)
            QVERIFY2(refused.error->message.find("did not agree") != std::string::npos,
                     refused.error->message.c_str());
        QVERIFY(!client->watchedResources().count("fixture://nothing"));
        QVERIFY(bump());
        QCOMPARE(updates, QStringList({"fixture://counter", "fixture://counter"}));

        QVERIFY(watch("fixture://counter", false).ok());
        QVERIFY(client->watchedResources().empty());
        QVERIFY(bump());
        QCOMPARE(updates.size(), 2);
        if (modern) {
            QVERIFY(!client->subscription().contains("resourceSubscriptions"));
            QVERIFY(client->subscriptionId() != 0); // list changes are still listened for
            QCOMPARE(client->pendingRequestCount(), std::size_t(1)); // the old streams closed
        }
    }

    // How much a server logs: 2025-11-25 logging/setLevel (the server logs as it likes
    // before); 2026-07-28 the level in each request's _meta (no log at all without one).
    void logLevelOverPipes_data()
    {
        QTest::addColumn<QString>("era");
        QTest::addColumn<QString>("before");
        QTest::newRow("legacy") << QStringLiteral("legacy") << QStringLiteral("logged 4");
        QTest::newRow("modern") << QStringLiteral("modern") << QStringLiteral("logged 0");
    }
    void logLevelOverPipes()
    {
        QFETCH(QString, era);
        QFETCH(QString, before);
        QStringList levels;
        auto client = resourceFixture(era, "notifications/message", "level", &levels);
        QVERIFY(client);
        auto r = call(client.get(), "log_levels", Json::object());
        QVERIFY(r && !r->failed());
        QCOMPARE(r->text(), before);

        auto setLevel = [&](const std::string &level) {
            std::optional<Response> answer;
            client->setLogLevel(level, this, [&](Response r) { answer = std::move(r); });
            [&] {
                QVERIFY(QTest::qWaitFor([&] { return answer.has_value(); }, 10000));
            }();
            return answer.value_or(Response::failure(-1, "no answer"));
        };
        const Response bad = setLevel("loud");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error->code, ErrorCode::InvalidParams);
        QVERIFY(client->logLevel().empty());

        QVERIFY(setLevel("warning").ok());
        QCOMPARE(client->logLevel(), std::string("warning"));
        levels.clear();
        r = call(client.get(), "log_levels", Json::object());
        QVERIFY(r && !r->failed());
        QCOMPARE(r->text(), QStringLiteral("logged 2"));
        QCOMPARE(levels, QStringList({"warning", "error"}));
    }

    void exitAtStartup()
    {
        auto client = makeClient({"--exit-at-startup", "9"});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QStringLiteral("exited with code 9")),
                 qPrintable(client->errorString()));
        QVERIFY(client->errorString().contains(QStringLiteral("last stderr line")));
    }

    // The reason names the stderr line that explains, not whatever came last.
    void explainingLine_data()
    {
        QTest::addColumn<QStringList>("tail");
        QTest::addColumn<QString>("expected");
        QTest::newRow("node: missing module")
                << QStringList({"node:internal/modules/cjs/loader:1228", "  throw err;", "  ^", "",
                                "Error: Cannot find module '/w/node_modules/x/dist/index.js'",
                                "    at Module._resolveFilename (node:internal:1225:15)",
                                "  code: 'MODULE_NOT_FOUND',", "}", "", "Node.js v20.20.2"})
                << "Error: Cannot find module '/w/node_modules/x/dist/index.js'";
        QTest::newRow("python traceback") << QStringList(
                {"Traceback (most recent call last):", "  File \"server.py\", line 1, in <module>",
                 "    import mcpx", "ModuleNotFoundError: No module named 'mcpx'"})
                                          << "ModuleNotFoundError: No module named 'mcpx'";
        QTest::newRow("nothing like an error: the last line")
                << QStringList({"starting", "listening on stdio", "bye", ""}) << "bye";
        QTest::newRow("empty") << QStringList() << QString();
    }

    void explainingLine()
    {
        QFETCH(QStringList, tail);
        QFETCH(QString, expected);
        QCOMPARE(StdioTransport::explainingLine(tail), expected);
    }

    void exitReasonNamesTheExplainingLine()
    {
        StdioOptions options;
        options.program = QStringLiteral("sh");
        auto client = makeClient({"-c", "echo 'Error: Cannot find module x' >&2; "
                                        "echo 'Node.js v20.20.2' >&2; exit 1"},
                                 options);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QStringLiteral("Cannot find module x")),
                 qPrintable(client->errorString()));
    }

    void missingCommand()
    {
        StdioOptions options;
        options.program = QStringLiteral("switchboard-no-such-command");
        auto client = makeClient({}, options);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QCOMPARE(client->errorString(),
                 QStringLiteral("command 'switchboard-no-such-command' was not found on PATH"));
    }

    void unsupportedVersionOverPipes()
    {
        auto client = makeClient({"--protocol-version", "1999-01-01"});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY(client->errorString().contains(QStringLiteral("'1999-01-01'")));
    }

    void workingDirectoryAndEnvironment()
    {
        StdioOptions options;
        options.program = QStringLiteral("/bin/sh");
        options.environment.insert(QStringLiteral("SB_TEST_VALUE"), QStringLiteral("from config"));
        auto client = makeClient(
                {"-c", QStringLiteral("pwd >&2; echo \"$SB_TEST_VALUE\" >&2; exec '%1'")
                               .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))},
                options);
        QSignalSpy lines(qobject_cast<StdioTransport *>(client->transport()),
                         &StdioTransport::stderrLine);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(client->state(), Client::State::Ready);
        QTRY_VERIFY(lines.count() >= 2);
        QCOMPARE(lines.at(0).first().toString(), QDir(m_dir.path()).canonicalPath());
        QCOMPARE(lines.at(1).first().toString(), QStringLiteral("from config"));
    }

#ifdef Q_OS_UNIX
    void stagedShutdown_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("minMs");
        QTest::newRow("exits on EOF") << QStringList{} << 0;
        QTest::newRow("needs SIGTERM") << QStringList{"--ignore-eof"} << 200;
        QTest::newRow("needs SIGKILL") << QStringList{"--ignore-eof", "--ignore-sigterm"} << 400;
    }

    void stagedShutdown()
    {
        QFETCH(QStringList, args);
        QFETCH(int, minMs);
        StdioOptions options;
        options.shutdownStageMs = 200;
        auto client = makeClient(args, options);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        const qint64 pid = static_cast<StdioTransport *>(client->transport())->processId();
        QVERIFY(processAlive(pid));
        QElapsedTimer clock;
        clock.start();
        client->close();
        QTRY_COMPARE_WITH_TIMEOUT(client->state(), Client::State::Closed, 5000);
        QVERIFY2(clock.elapsed() >= minMs, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(clock.elapsed() < minMs + 1500, qPrintable(QString::number(clock.elapsed())));
        QTRY_VERIFY(!processAlive(pid));
    }

    void noOrphanedGrandchildren()
    {
        // A wrapper (like npx) that starts a child of its own, then the server.
        const QString pidFile = m_dir.filePath(QStringLiteral("grandchild.pid"));
        StdioOptions options;
        options.program = QStringLiteral("/bin/sh");
        options.shutdownStageMs = 200;
        auto client = makeClient(
                {"-c", QStringLiteral("sleep 300 & echo $! > '%1'; '%2'; wait")
                               .arg(pidFile, QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))},
                options);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QTRY_VERIFY(readAll(pidFile).endsWith('\n'));
        const qint64 grandchild = readAll(pidFile).trimmed().toLongLong();
        QVERIFY(processAlive(grandchild));
        client->close();
        QTRY_COMPARE_WITH_TIMEOUT(client->state(), Client::State::Closed, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(grandchild), 3000);
    }

    void destroyingTransportKillsServer()
    {
        auto client = makeClient({"--ignore-eof", "--ignore-sigterm"});
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        const qint64 pid = static_cast<StdioTransport *>(client->transport())->processId();
        client.reset();
        QTRY_VERIFY(!processAlive(pid));
    }

    void environmentIsAllowListed()
    {
        qputenv("OPENAI_API_KEY", "sk-parent-secret-for-test");
        qputenv("ANTHROPIC_API_KEY", "sk-ant-parent-secret-for-test");
        qputenv("SB_TEST_UNLISTED", "unlisted-value");
        const QString allowListed = environmentOf(false);
        const QString inherited = environmentOf(true);
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("ANTHROPIC_API_KEY");
        qunsetenv("SB_TEST_UNLISTED");

        QVERIFY2(allowListed.contains(QStringLiteral("\nPATH=")), qPrintable(allowListed));
        QVERIFY(allowListed.contains(QStringLiteral("\nHOME=")));
        QVERIFY(allowListed.contains(QStringLiteral("\nSB_OWN=own value\n")));
        QVERIFY(!allowListed.contains(QStringLiteral("SB_TEST_UNLISTED")));
        QVERIFY(!allowListed.contains(QStringLiteral("parent-secret")));

        QVERIFY2(inherited.contains(QStringLiteral("\nSB_TEST_UNLISTED=unlisted-value\n")),
                 qPrintable(inherited));
        QVERIFY(inherited.contains(QStringLiteral("\nSB_OWN=own value\n")));
        QVERIFY(!inherited.contains(QStringLiteral("OPENAI_API_KEY")));
        QVERIFY(!inherited.contains(QStringLiteral("ANTHROPIC_API_KEY")));
        QVERIFY(!inherited.contains(QStringLiteral("parent-secret")));
    }

#ifdef Q_OS_LINUX
    void sandboxWritesOnlyInWorkspace()
    {
        SKIP_UNLESS_SANDBOX();
        // Not under /tmp (private inside the sandbox, so a write there would vanish rather
        // than fail) and not the workspace.
        QTemporaryDir outside(QDir::currentPath() + QStringLiteral("/sandbox-outside-XXXXXX"));
        QTemporaryDir extra(QDir::currentPath() + QStringLiteral("/sandbox-extra-XXXXXX"));
        QVERIFY(outside.isValid() && extra.isValid());
        const QString inHome
                = QDir::home().filePath(QStringLiteral("switchboard-sandbox-test-%1")
                                                .arg(QCoreApplication::applicationPid()));

        StdioOptions options;
        options.sandbox = SandboxPolicy{true, true, {extra.path()}};
        auto client = makeClient({}, options);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QVERIFY2(client->state() == Client::State::Ready, qPrintable(client->errorString()));

        const auto write = [&](const QString &path) {
            return call(client.get(), "write_file",
                        Json{{"path", path.toStdString()}, {"content", "x"}});
        };
        const QString inside = m_dir.filePath(QStringLiteral("sandbox-inside.txt"));
        auto r = write(inside);
        QVERIFY(r && !r->failed());
        QVERIFY(QFileInfo::exists(inside));
        r = write(QStringLiteral("relative.txt")); // cwd: the workspace
        QVERIFY(r && !r->failed());
        QVERIFY(QFileInfo::exists(m_dir.filePath(QStringLiteral("relative.txt"))));
        r = write(extra.filePath(QStringLiteral("extra.txt")));
        QVERIFY(r && !r->failed());
        QVERIFY(QFileInfo::exists(extra.filePath(QStringLiteral("extra.txt"))));

        for (const QString &path : {outside.filePath(QStringLiteral("outside.txt")), inHome}) {
            r = write(path);
            QVERIFY(r);
            QVERIFY2(r->failed(), qPrintable(path));
            QVERIFY2(!QFileInfo::exists(path), qPrintable(path));
        }

        // The same server without the sandbox can write there: the check above can fail.
        auto free = makeClient({});
        free->connectToServer();
        QVERIFY(waitSettled(free.get()));
        r = call(free.get(), "write_file",
                 Json{{"path", outside.filePath(QStringLiteral("outside.txt")).toStdString()},
                      {"content", "x"}});
        QVERIFY(r && !r->failed());
        QVERIFY(QFileInfo::exists(outside.filePath(QStringLiteral("outside.txt"))));
    }

    void sandboxWithoutNetwork()
    {
        SKIP_UNLESS_SANDBOX();
        QTcpServer listener;
        QVERIFY(listener.listen(QHostAddress::LocalHost));
        QCOMPARE(connectionResult(listener.serverPort(), true), QStringLiteral("net:connected"));
        QCOMPARE(connectionResult(listener.serverPort(), false), QStringLiteral("net:blocked"));
    }

    void sandboxWithoutBubblewrap()
    {
        StdioOptions options;
        options.sandbox.enabled = true;
        options.sandboxProgram = QStringLiteral("/nonexistent/bwrap");
        auto client = makeClient({}, options);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QStringLiteral("bubblewrap")),
                 qPrintable(client->errorString()));
    }

    void sandboxBubblewrapCannotRun()
    {
        // What bwrap says where user namespaces are disabled.
        const QString fake = m_dir.filePath(QStringLiteral("fake-bwrap"));
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\n"
                     "exit 1\n");
        script.close();
        QVERIFY(script.setPermissions(QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        StdioOptions options;
        options.sandbox.enabled = true;
        options.sandboxProgram = fake;
        auto client = makeClient({}, options);
        client->connectToServer();
        QVERIFY(waitSettled(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QStringLiteral("bubblewrap"))
                         && client->errorString().contains(QStringLiteral("No permissions")),
                 qPrintable(client->errorString()));
    }
#endif
#endif
};

QTEST_GUILESS_MAIN(tst_StdioTransport)
#include "tst_stdiotransport.moc"
