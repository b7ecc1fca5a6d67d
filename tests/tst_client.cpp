#include "jsontest.h"
#include "mcptest.h"
#include "postedevents.h"
#include "scriptedtransport.h"

#include <mcp/client/client.h>
#include <mcp/client/listing.h>

#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace Mcp;

// Client state machine and request table on a scripted transport: the handshake, version
// negotiation, pagination, list_changed, tool results, timeouts with cancellation,
// progress, server-to-client requests, and "every callback exactly once".
class tst_Client : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        ScriptedTransport *transport = new ScriptedTransport;
        std::unique_ptr<Client> client;
        std::string version = "2025-11-25";
        Json capabilities = Json{{"tools", Json{{"listChanged", true}}}};
        std::vector<Json> tools = {Json{{"name", "echo"}, {"inputSchema", {{"type", "object"}}}}};
        bool autoAnswerTools = true;
        bool modern = false; // answers server/discover (2026-07-28) instead of refusing it

        explicit Fixture(ClientOptions options = {})
        {
            if (options.serverName.isEmpty())
                options.serverName = QStringLiteral("test");
            client = std::make_unique<Client>(transport, options);
            transport->onSend = [this](const Json &m) {
                const std::string method = m.value("method", "");
                if (method == "server/discover" && modern) {
                    transport->reply(m, {{"resultType", "complete"},
                                         {"supportedVersions", {"2026-07-28"}},
                                         {"capabilities", capabilities},
                                         {"_meta",
                                          {{"io.modelcontextprotocol/serverInfo",
                                            {{"name", "modern"}, {"version", "2"}}}}},
                                         {"instructions", "be modern"},
                                         {"ttlMs", 0},
                                         {"cacheScope", "private"}});
                } else if (method == "server/discover") {
                    refuseDiscover(m);
                } else if (method == "initialize") {
                    transport->reply(m, {{"protocolVersion", version},
                                         {"capabilities", capabilities},
                                         {"serverInfo", {{"name", "scripted"}, {"version", "1"}}},
                                         {"instructions", "be nice"}});
                } else if (method == "tools/list" && autoAnswerTools) {
                    transport->reply(m, {{"tools", tools}});
                }
            };
        }
        // What a legacy server answers to the era probe.
        void refuseDiscover(const Json &m)
        {
            transport->receive({{"jsonrpc", "2.0"},
                                {"id", m["id"]},
                                {"error", {{"code", -32601}, {"message", "Method not found"}}}});
        }
        bool connect()
        {
            client->connectToServer();
            return QTest::qWaitFor([this] {
                return client->state() == Client::State::Ready
                       || client->state() == Client::State::Failed;
            });
        }
    };

private slots:
    void handshake()
    {
        Fixture f;
        QSignalSpy states(f.client.get(), &Client::stateChanged);
        QVERIFY(f.connect());
        QCOMPARE(f.client->state(), Client::State::Ready);
        QCOMPARE(states.first().first().value<Client::State>(), Client::State::Initializing);
        QCOMPARE(states.last().first().value<Client::State>(), Client::State::Ready);

        // The era probe first: a modern request, refused by this legacy server.
        const Json &discover = f.transport->sent.at(0);
        QCOMPARE_JSON(discover["method"], "server/discover");
        QCOMPARE_JSON(discover["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
                      "2026-07-28");
        const Json &init = f.transport->sent.at(1);
        QCOMPARE_JSON(init["method"], "initialize");
        QVERIFY(!init["params"].contains("_meta"));
        QCOMPARE_JSON(init["params"]["protocolVersion"], "2025-11-25");
        QCOMPARE_JSON(init["params"]["clientInfo"]["name"], "switchboard");
        QVERIFY(init["params"]["capabilities"].is_object());
        // initialized goes out after the reply, before anything else.
        QCOMPARE_JSON(f.transport->sent.at(2)["method"], "notifications/initialized");
        QVERIFY(!f.transport->sent.at(2).contains("id"));
        QCOMPARE_JSON(f.transport->sent.at(3)["method"], "tools/list");
        QVERIFY(!f.transport->sent.at(3)["params"].contains("_meta"));
        QCOMPARE(f.client->protocolVersion(), std::string("2025-11-25"));
        QCOMPARE(f.client->era(), Era::Rev2025_11_25);
        QCOMPARE(f.client->instructions(), QStringLiteral("be nice"));
        QCOMPARE(int(f.client->tools().size()), 1);
    }

    void versions_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("2025-11-25") << "2025-11-25" << true;
        QTest::newRow("2025-06-18") << "2025-06-18" << true;
        QTest::newRow("2025-03-26") << "2025-03-26" << true;
        QTest::newRow("2024-11-05") << "2024-11-05" << true;
        QTest::newRow("future") << "2099-01-01" << false;
        QTest::newRow("ancient") << "2024-10-07" << false;
        QTest::newRow("empty") << "" << false;
    }

    void versions()
    {
        QFETCH(QString, version);
        QFETCH(bool, accepted);
        Fixture f;
        f.version = version.toStdString();
        QVERIFY(f.connect());
        QCOMPARE(f.client->state() == Client::State::Ready, accepted);
        if (!accepted) {
            QVERIFY2(f.client->errorString().contains(QLatin1Char('\'') + version
                                                      + QLatin1Char('\'')),
                     qPrintable(f.client->errorString()));
            QVERIFY(f.client->errorString().contains(QStringLiteral("2025-11-25")));
            QVERIFY(f.transport->closeCalls > 0);
        }
    }

    void noToolsCapability()
    {
        Fixture f;
        f.capabilities = Json::object();
        QVERIFY(f.connect());
        QCOMPARE(f.client->state(), Client::State::Ready);
        QVERIFY(f.transport->sentWith("tools/list").empty());
    }

    void initializeErrorFails()
    {
        Fixture f;
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "server/discover")
                f.refuseDiscover(m);
            else if (m["method"] == "initialize")
                f.transport->receive({{"jsonrpc", "2.0"},
                                      {"id", m["id"]},
                                      {"error", {{"code", -32602}, {"message", "bad caps"}}}});
        };
        QVERIFY(f.connect());
        QCOMPARE(f.client->state(), Client::State::Failed);
        QVERIFY(f.client->errorString().contains(QStringLiteral("bad caps")));
    }

    void pagination()
    {
        Fixture f;
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "server/discover")
                f.refuseDiscover(m);
            else if (m["method"] == "initialize") {
                f.transport->reply(m, {{"protocolVersion", "2025-06-18"},
                                       {"capabilities", {{"tools", Json::object()}}}});
            } else if (m["method"] == "tools/list") {
                const Json cursor = m["params"].value("cursor", Json());
                if (cursor.is_null())
                    f.transport->reply(m, {{"tools", {{{"name", "a"}}, {{"name", "b"}}}},
                                           {"nextCursor", "page2"}});
                else if (cursor == "page2")
                    f.transport->reply(m, {{"tools", {{{"name", "c"}}, {{"name", "a"}}}},
                                           {"nextCursor", "page3"}});
                else
                    f.transport->reply(m, {{"tools", {{{"name", "d"}}, {{"noname", 1}}}}});
            }
        };
        QSignalSpy warnings(f.client.get(), &Client::warning);
        QVERIFY(f.connect());
        QCOMPARE(f.client->state(), Client::State::Ready);
        std::vector<std::string> names;
        for (const Json &t : f.client->tools())
            names.push_back(t["name"]);
        QCOMPARE(names, (std::vector<std::string>{"a", "b", "c", "d"})); // duplicate 'a' dropped
        QCOMPARE(f.transport->sentWith("tools/list").size(), std::size_t(3));
        QCOMPARE(warnings.count(), 2); // the nameless entry and the duplicate
    }

    void repeatedCursorStops()
    {
        Fixture f;
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "server/discover")
                f.refuseDiscover(m);
            else if (m["method"] == "initialize")
                f.transport->reply(m, {{"protocolVersion", "2025-06-18"},
                                       {"capabilities", {{"tools", Json::object()}}}});
            else if (m["method"] == "tools/list")
                f.transport->reply(m, {{"tools", Json::array()}, {"nextCursor", "same"}});
        };
        QVERIFY(f.connect());
        QCOMPARE(f.client->state(), Client::State::Failed);
        QVERIFY(f.client->errorString().contains(QStringLiteral("keeps paging")));
        QCOMPARE(f.transport->sentWith("tools/list").size(), std::size_t(2));
    }

    // Mcp::listAll: resources and prompts are read page by page; a repeated cursor, a page
    // that is not a list and an error each end it with the reason, exactly once.
    void listAllFollowsCursors()
    {
        Fixture f;
        f.capabilities = {{"tools", Json::object()}, {"resources", Json::object()}};
        QVERIFY(f.connect());
        QVERIFY(f.client->capabilities().resources);
        QVERIFY(!f.client->capabilities().prompts);
        const auto answer = [&](const std::function<Json(const Json &cursor)> &page) {
            f.transport->onSend = [&f, page](const Json &m) {
                const Json result = page(m["params"].value("cursor", Json()));
                if (result.contains("code"))
                    f.transport->receive({{"jsonrpc", "2.0"}, {"id", m["id"]}, {"error", result}});
                else
                    f.transport->reply(m, result);
            };
        };
        const auto list = [&] {
            std::vector<Json> items;
            QString error;
            int calls = 0;
            listAll(f.client.get(), "resources/list", "resources", this,
                    [&](std::vector<Json> got, const QString &why) {
                        items = std::move(got);
                        error = why;
                        ++calls;
                    });
            (void)QTest::qWaitFor([&] { return calls > 0; }, 5000);
            (void)deliverPostedEvents(); // a second answer would have been posted by now
            return std::make_tuple(items, error, calls);
        };

        answer([](const Json &cursor) -> Json {
            if (cursor.is_null())
                return {{"resources", {{{"uri", "a://1"}}, 7}}, {"nextCursor", "p2"}};
            return {{"resources", {{{"uri", "a://2"}}}}, {"nextCursor", ""}};
        });
        auto [items, error, calls] = list();
        QCOMPARE(calls, 1);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(items.size(), std::size_t(2)); // the 7 is not an item
        QVERIFY(items[1]["uri"] == "a://2");

        answer([](const Json &) -> Json {
            return {{"resources", Json::array()}, {"nextCursor", "x"}};
        });
        std::tie(items, error, calls) = list();
        QCOMPARE(calls, 1);
        QVERIFY2(error.contains(QLatin1String("same cursor")), qPrintable(error));

        answer([](const Json &) -> Json { return {{"resources", "no"}}; });
        std::tie(items, error, calls) = list();
        QVERIFY2(error.contains(QLatin1String("no \"resources\" list")), qPrintable(error));

        answer([](const Json &) -> Json { return {{"code", -32601}, {"message", "nope"}}; });
        std::tie(items, error, calls) = list();
        QCOMPARE(calls, 1);
        QVERIFY2(error.contains(QLatin1String("nope")), qPrintable(error));

        QCOMPARE(describeContent({{"type", "text"}, {"text", "hi"}}), QStringLiteral("hi"));
        QCOMPARE(describeContent({{"uri", "u://b"}, {"mimeType", "image/png"}, {"blob", "AAAA"}}),
                 QStringLiteral("[blob image/png, 3 bytes] u://b"));
        QCOMPARE(describeContent({{"type", "resource"},
                                  {"resource", {{"uri", "u://t"}, {"text", "inner"}}}}),
                 QStringLiteral("inner"));
    }

    void listChangedRelists()
    {
        Fixture f;
        QVERIFY(f.connect());
        QSignalSpy changed(f.client.get(), &Client::toolsChanged);
        f.tools.push_back(Json{{"name", "added"}});
        f.transport->receive({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}});
        QTRY_COMPARE(changed.count(), 1);
        QCOMPARE(int(f.client->tools().size()), 2);
        QVERIFY(f.client->findTool("added"));
    }

    // The typed API (features.h): each request goes out as MCP says, and each answer comes
    // back parsed, with what does not fit left out or reported, exactly once.
    void typedFeatures()
    {
        Fixture f;
        f.capabilities = {{"tools", Json::object()},
                          {"resources", {{"subscribe", true}}},
                          {"prompts", {{"listChanged", true}}},
                          {"completions", Json::object()},
                          {"extensions", {{"io.example/x", Json::object()}}}};
        QVERIFY(f.connect());
        const ServerCapabilities &caps = f.client->capabilities();
        QVERIFY(caps.resources && caps.resourcesSubscribe && !caps.resourcesListChanged);
        QVERIFY(caps.prompts && caps.promptsListChanged && caps.completions && !caps.logging);
        QVERIFY(caps.hasExtension("io.example/x") && !caps.hasExtension("io.example/y"));

        std::vector<Json> sent;
        f.transport->onSend = [&](const Json &m) {
            sent.push_back(m);
            const std::string method = m["method"];
            if (method == "resources/list")
                f.transport->reply(m, {{"resources",
                                        {{{"uri", "a://1"}, {"name", "one"}, {"size", 5}},
                                         {{"name", "no uri"}},
                                         {{"uri", "a://2"}, {"title", "Two"}}}}});
            else if (method == "resources/read")
                f.transport->reply(
                        m, {{"contents",
                             {{{"uri", "a://1"}, {"text", "hello"}},
                              {{"uri", "a://1"}, {"mimeType", "image/png"}, {"blob", "AAAA"}}}}});
            else if (method == "prompts/get")
                f.transport->reply(
                        m, {{"description", "d"},
                            {"messages",
                             {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "hi"}}}},
                              "junk"}}});
            else if (method == "completion/complete") {
                Json values = Json::array();
                for (int i = 0; i < 150; ++i)
                    values.push_back("v" + std::to_string(i));
                values.push_back(7);
                f.transport->reply(m, {{"completion",
                                        {{"values", values}, {"total", 151}, {"hasMore", true}}}});
            } else if (method == "prompts/list")
                f.transport->receive({{"jsonrpc", "2.0"},
                                      {"id", m["id"]},
                                      {"error", {{"code", -32601}, {"message", "nope"}}}});
        };

        std::vector<Resource> resources;
        int calls = 0;
        listResources(f.client.get(), this, [&](std::vector<Resource> got, const QString &error) {
            QVERIFY(error.isEmpty());
            resources = std::move(got);
            ++calls;
        });
        QTRY_COMPARE(calls, 1);
        QCOMPARE(resources.size(), std::size_t(2)); // the entry without a uri is left out
        QCOMPARE(resources[0].uri, std::string("a://1"));
        QCOMPARE(resources[0].size, std::optional<qint64>(5));
        QCOMPARE(resources[0].displayName(), QStringLiteral("one"));
        QCOMPARE(resources[1].displayName(), QStringLiteral("Two"));

        ReadResourceResult read;
        readResource(f.client.get(), "a://1", this, [&](ReadResourceResult got) {
            read = std::move(got);
            ++calls;
        });
        QTRY_COMPARE(calls, 2);
        QVERIFY(sent.back()["params"] == Json({{"uri", "a://1"}}));
        QVERIFY(read.ok() && read.wellFormed);
        QCOMPARE(read.contents.size(), std::size_t(2));
        QCOMPARE(read.contents[0].text, std::optional<QString>(QStringLiteral("hello")));
        QVERIFY(!read.contents[1].isText());
        QCOMPARE(read.contents[1].blob.size(), 3);
        QCOMPARE(read.contents[1].describe(), QStringLiteral("[blob image/png, 3 bytes] a://1"));

        GetPromptResult prompt;
        getPrompt(f.client.get(), "greet", {{"who", "you"}}, this, [&](GetPromptResult got) {
            prompt = std::move(got);
            ++calls;
        });
        QTRY_COMPARE(calls, 3);
        QVERIFY(sent.back()["params"]
                == Json({{"name", "greet"}, {"arguments", {{"who", "you"}}}}));
        QCOMPARE(prompt.description, QStringLiteral("d"));
        QCOMPARE(prompt.messages.size(), std::size_t(1)); // "junk" is not a message
        QCOMPARE(prompt.messages[0].role, QStringLiteral("user"));
        QCOMPARE(prompt.messages[0].describe(), QStringLiteral("hi"));

        Completion completion;
        complete(f.client.get(), {CompletionReference::Kind::ResourceTemplate, "a://{x}"}, "x", "v",
                 {{"y", "1"}}, this, [&](Completion got) {
                     completion = std::move(got);
                     ++calls;
                 });
        QTRY_COMPARE(calls, 4);
        QVERIFY(sent.back()["params"]
                == Json({{"ref", {{"type", "ref/resource"}, {"uri", "a://{x}"}}},
                         {"argument", {{"name", "x"}, {"value", "v"}}},
                         {"context", {{"arguments", {{"y", "1"}}}}}}));
        QVERIFY(completion.ok());
        QCOMPARE(completion.values.size(), MaxCompletionValues); // bounded
        QCOMPARE(completion.total, std::optional<int>(151));
        QVERIFY(completion.hasMore);

        QString listError;
        listPrompts(f.client.get(), this, [&](std::vector<Prompt> got, const QString &error) {
            QVERIFY(got.empty());
            listError = error;
            ++calls;
        });
        QTRY_COMPARE(calls, 5);
        QVERIFY2(listError.contains(QLatin1String("nope")), qPrintable(listError));
    }

    void toolResultKeepsEverything()
    {
        Fixture f;
        QVERIFY(f.connect());
        const Json content = Json::array(
                {Json{{"type", "text"}, {"text", "one"}},
                 Json{{"type", "image"}, {"data", "iVBORw0KGgo="}, {"mimeType", "image/png"}},
                 Json{{"type", "audio"}, {"data", "UklGRg=="}, {"mimeType", "audio/wav"}},
                 Json{{"type", "resource_link"}, {"uri", "file:///a"}, {"name", "a"}},
                 Json{{"type", "resource"},
                      {"resource", {{"uri", "file:///b"}, {"text", "embedded"}}}},
                 Json{{"type", "text"}, {"text", "two"}}});
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "tools/call")
                f.transport->reply(m, {{"content", content},
                                       {"structuredContent", {{"sum", 3}}},
                                       {"isError", true}});
        };
        std::optional<ToolResult> got;
        int calls = 0;
        f.client->callTool("echo", Json{{"text", "x"}}, this, [&](ToolResult r) {
            ++calls;
            got = std::move(r);
        });
        QCOMPARE(calls, 1); // the scripted reply is synchronous here
        QVERIFY(got);
        QVERIFY(!got->error);
        QVERIFY(got->isError);
        QCOMPARE_JSON(got->content(), content);
        QCOMPARE_JSON(got->structuredContent(), (Json{{"sum", 3}}));
        QCOMPARE(got->text(), QStringLiteral("one\ntwo"));
        const Json sent = f.transport->sentWith("tools/call").at(0);
        QCOMPARE_JSON(sent["params"]["name"], "echo");
        QCOMPARE_JSON(sent["params"]["arguments"]["text"], "x");
    }

    void rawArgumentsMatchJsonArguments()
    {
        Fixture f;
        QVERIFY(f.connect());
        RequestOptions options;
        options.onProgress = [](const Progress &) {
        };
        f.client->callTool(
                std::string_view("echo"), RawJson{R"({"text":"hi"})"}, this, [](ToolResult) {},
                options);
        f.client->callTool(
                "echo", Json{{"text", "hi"}}, this, [](ToolResult) {}, options);
        const auto calls = f.transport->sentWith("tools/call");
        QCOMPARE(calls.size(), std::size_t(2));
        QCOMPARE_JSON(calls[0]["params"]["arguments"], calls[1]["params"]["arguments"]);
        QCOMPARE_JSON(calls[0]["params"]["_meta"]["progressToken"], calls[0]["id"]);
        QCOMPARE_JSON(calls[1]["params"]["_meta"]["progressToken"], calls[1]["id"]);
    }

    void malformedToolResult()
    {
        Fixture f;
        QVERIFY(f.connect());
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "tools/call")
                f.transport->reply(m, {{"content", "not an array"}});
        };
        std::optional<ToolResult> got;
        f.client->callTool("echo", Json::object(), this, [&](ToolResult r) { got = std::move(r); });
        QVERIFY(got && got->error);
        QCOMPARE(got->error->code, ErrorCode::InvalidResult);
    }

    void rpcErrorReply()
    {
        Fixture f;
        QVERIFY(f.connect());
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "tools/call")
                f.transport->receive(
                        {{"jsonrpc", "2.0"},
                         {"id", m["id"]},
                         {"error", {{"code", -32602}, {"message", "Unknown tool: x"}}}});
        };
        std::optional<ToolResult> got;
        f.client->callTool("x", Json::object(), this, [&](ToolResult r) { got = std::move(r); });
        QVERIFY(got && got->error);
        QCOMPARE(got->error->code, -32602);
        QVERIFY(!got->error->local); // the server said it, not a client-side failure
        QCOMPARE(got->text(), QStringLiteral("Unknown tool: x"));
    }

    void timeoutSendsCancelAndFiresOnce()
    {
        Fixture f;
        QVERIFY(f.connect());
        int calls = 0;
        std::optional<Response> got;
        RequestOptions options;
        options.timeoutMs = 100;
        const RequestId id = f.client->request(
                "tools/call", Json{{"name", "hang"}}, this,
                [&](Response r) {
                    ++calls;
                    got = std::move(r);
                },
                options);
        QTRY_COMPARE(calls, 1);
        QCOMPARE(got->error->code, ErrorCode::RequestTimeout);
        QVERIFY(QString::fromStdString(got->error->message).contains(QStringLiteral("timed out")));
        const auto cancels = f.transport->sentWith("notifications/cancelled");
        QCOMPARE(cancels.size(), std::size_t(1));
        QCOMPARE_JSON(cancels[0]["params"]["requestId"], Json(id));
        // A late answer is ignored: still exactly one callback.
        f.transport->receive({{"jsonrpc", "2.0"}, {"id", id}, {"result", Json::object()}});
        QVERIFY(deliverPostedEvents()); // its answer, if any, would have been posted
        QCOMPARE(calls, 1);
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(0));
    }

    void manyTimeoutsEachOnce()
    {
        Fixture f;
        QVERIFY(f.connect());
        std::map<RequestId, int> calls;
        for (int i = 0; i < 50; ++i) {
            RequestOptions options;
            options.timeoutMs = 20 + (i % 5) * 20;
            const RequestId id = f.client->request(
                    "slow", Json::object(), this, [&, i](Response) { ++calls[i]; }, options);
            Q_UNUSED(id);
        }
        QTRY_COMPARE(int(calls.size()), 50);
        for (const auto &[i, n] : calls)
            QCOMPARE(n, 1);
    }

    void progressExtendsTimeout()
    {
        Fixture f;
        QVERIFY(f.connect());
        std::vector<Progress> seen;
        std::optional<Response> got;
        RequestOptions options;
        options.timeoutMs = 150;
        options.onProgress = [&](const Progress &p) {
            seen.push_back(p);
        };
        const RequestId id = f.client->request(
                "tools/call", Json{{"name", "long"}}, this, [&](Response r) { got = std::move(r); },
                options);
        const Json token = f.transport->sent.back()["params"]["_meta"]["progressToken"];
        QCOMPARE_JSON(token, Json(id));
        // A step every 80 ms, 5 × 80 ms = 400 ms, well past the 150 ms timeout, then the answer:
        // the one callback is that answer only if no step let the deadline pass.
        int step = 0;
        QTimer steps;
        steps.setTimerType(Qt::PreciseTimer);
        steps.setInterval(80);
        connect(&steps, &QTimer::timeout, this, [&] {
            if (++step <= 5) {
                f.transport->receive({{"jsonrpc", "2.0"},
                                      {"method", "notifications/progress"},
                                      {"params",
                                       {{"progressToken", token},
                                        {"progress", step},
                                        {"total", 5},
                                        {"message", "step"}}}});
                return;
            }
            steps.stop();
            f.transport->receive(
                    {{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"content", Json::array()}}}});
        });
        steps.start();
        QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }, 5000));
        QVERIFY2(got->ok(), got->error ? got->error->message.c_str() : "");
        QCOMPARE(step, 6);
        QCOMPARE(int(seen.size()), 5);
        QCOMPARE(seen.back().progress, 5.0);
        QCOMPARE(seen.back().total.value_or(0), 5.0);
        QCOMPARE(seen.back().message, QStringLiteral("step"));
    }

    void progressCannotExtendPastHardMaximum()
    {
        ClientOptions options;
        options.maxRequestTimeoutMs = 250;
        Fixture f(options);
        QVERIFY(f.connect());
        std::optional<Response> got;
        RequestOptions ro;
        ro.timeoutMs = 100;
        ro.onProgress = [](const Progress &) {
        };
        const RequestId id = f.client->request(
                "x", Json::object(), this, [&](Response r) { got = std::move(r); }, ro);
        QElapsedTimer clock;
        clock.start();
        QTimer steps; // progress every 50 ms, on and on
        steps.setInterval(50);
        connect(&steps, &QTimer::timeout, this, [&] {
            f.transport->receive({{"jsonrpc", "2.0"},
                                  {"method", "notifications/progress"},
                                  {"params", {{"progressToken", id}, {"progress", 1}}}});
        });
        steps.start();
        QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }, 2000));
        steps.stop();
        QCOMPARE(got->error->code, ErrorCode::RequestTimeout);
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    }

    void cancelFiresOnceAndNotifies()
    {
        Fixture f;
        QVERIFY(f.connect());
        int calls = 0;
        std::optional<Response> got;
        const RequestId id = f.client->request("tools/call", Json::object(), this, [&](Response r) {
            ++calls;
            got = std::move(r);
        });
        f.client->cancel(id, QStringLiteral("user pressed Stop"));
        f.client->cancel(id, QStringLiteral("again"));
        QCOMPARE(calls, 1);
        QCOMPARE(got->error->code, ErrorCode::RequestCancelled);
        const auto cancels = f.transport->sentWith("notifications/cancelled");
        QCOMPARE(cancels.size(), std::size_t(1));
        QCOMPARE_JSON(cancels[0]["params"]["reason"], "user pressed Stop");
    }

    void serverRequests()
    {
        Fixture f;
        QVERIFY(f.connect());
        f.transport->receive({{"jsonrpc", "2.0"}, {"id", "srv-1"}, {"method", "ping"}});
        f.transport->receive({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "sampling/createMessage"}});
        f.client->setRequestHandler("roots/list", [](const Json &, Client::Reply reply) {
            reply(Response::success({{"roots", Json::array()}}));
            reply(Response::success(Json::object())); // a second answer must not go out
        });
        f.transport->receive({{"jsonrpc", "2.0"}, {"id", 10}, {"method", "roots/list"}});
        std::vector<Json> answers;
        for (const Json &m : f.transport->sent) {
            if (!m.contains("method"))
                answers.push_back(m);
        }
        QCOMPARE(answers.size(), std::size_t(3));
        QCOMPARE_JSON(answers[0],
                      (Json{{"jsonrpc", "2.0"}, {"id", "srv-1"}, {"result", Json::object()}}));
        QCOMPARE_JSON(answers[1]["id"], 9);
        QCOMPARE_JSON(answers[1]["error"]["code"], ErrorCode::MethodNotFound);
        QCOMPARE_JSON(answers[2]["result"]["roots"], Json::array());
    }

    void transportDeathFailsEveryPendingOnce()
    {
        Fixture f;
        QVERIFY(f.connect());
        std::vector<int> calls(5, 0);
        std::vector<int> codes(5, 0);
        for (int i = 0; i < 5; ++i)
            f.client->request("tools/call", Json::object(), this, [&, i](Response r) {
                ++calls[i];
                codes[i] = r.error ? r.error->code : 0;
            });
        f.transport->die(QStringLiteral("server process exited with code 3"));
        QCOMPARE(f.client->state(), Client::State::Failed);
        QVERIFY(f.client->errorString().contains(QStringLiteral("code 3")));
        QVERIFY(deliverPostedEvents()); // the answers, and any second one, are posted
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(calls[i], 1);
            QCOMPARE(codes[i], ErrorCode::ConnectionClosed);
        }
    }

    void requestWhenNotConnectedAnswersLater()
    {
        Fixture f;
        int calls = 0;
        std::optional<Response> got;
        f.client->request("tools/list", Json::object(), this, [&](Response r) {
            ++calls;
            got = std::move(r);
        });
        QCOMPARE(calls, 0); // never inside request()
        QTRY_COMPARE(calls, 1);
        QCOMPARE(got->error->code, ErrorCode::ConnectionClosed);
    }

    void deadContextDropsCallback()
    {
        Fixture f;
        QVERIFY(f.connect());
        int calls = 0;
        auto *context = new QObject;
        const RequestId id = f.client->request("tools/call", Json::object(), context,
                                               [&](Response) { ++calls; });
        delete context;
        f.transport->receive({{"jsonrpc", "2.0"}, {"id", id}, {"result", Json::object()}});
        QCOMPARE(calls, 0);
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(0));
    }

    void tooLargeFailsThatRequestOnly()
    {
        Fixture f;
        QVERIFY(f.connect());
        std::optional<Response> first, second;
        const RequestId a = f.client->request("tools/call", Json::object(), this,
                                              [&](Response r) { first = std::move(r); });
        const RequestId b = f.client->request("tools/call", Json::object(), this,
                                              [&](Response r) { second = std::move(r); });
        emit f.transport->messageTooLarge(100 * 1000 * 1000, Json(a));
        QVERIFY(first && first->error);
        QCOMPARE(first->error->code, ErrorCode::MessageTooLarge);
        QVERIFY(!second);
        f.transport->receive({{"jsonrpc", "2.0"}, {"id", b}, {"result", Json::object()}});
        QVERIFY(second && second->ok());
        QCOMPARE(f.client->state(), Client::State::Ready);
    }

    void garbageMessagesAreIgnored()
    {
        Fixture f;
        QVERIFY(f.connect());
        QSignalSpy warnings(f.client.get(), &Client::warning);
        f.transport->receive(Json::array({1, 2}));
        f.transport->receive(Json{{"foo", 1}});
        f.transport->receive(Json{{"jsonrpc", "2.0"}, {"method", 5}});
        f.transport->receive(Json{{"jsonrpc", "2.0"}, {"id", 99999}, {"result", 1}}); // unknown id
        f.transport->receive(Json{{"jsonrpc", "2.0"}, {"id", Json::object()}, {"method", "x"}});
        QCOMPARE(warnings.count(), 4);
        QCOMPARE(f.client->state(), Client::State::Ready);
    }

    void closeFailsPendingAndEndsClosed()
    {
        Fixture f;
        QVERIFY(f.connect());
        int calls = 0;
        f.client->request("tools/call", Json::object(), this, [&](Response r) {
            ++calls;
            QVERIFY(!r.ok());
        });
        f.client->close();
        QCOMPARE(calls, 1);
        QTRY_COMPARE(f.client->state(), Client::State::Closed);
    }

    // The 2026-07-28 era: server/discover instead of initialize, _meta on every request, no
    // notifications/initialized.
    void modernHandshake()
    {
        Fixture f;
        f.modern = true;
        QVERIFY(f.connect());
        QCOMPARE(f.client->state(), Client::State::Ready);
        QCOMPARE(f.client->era(), Era::Rev2026_07_28);
        QCOMPARE(f.client->protocolVersion(), std::string("2026-07-28"));
        QCOMPARE(f.transport->protocolVersion, std::string("2026-07-28"));
        QCOMPARE_JSON(f.client->serverInfo()["name"], "modern");
        QCOMPARE(f.client->instructions(), QStringLiteral("be modern"));
        QVERIFY(f.transport->sentWith("initialize").empty());
        QVERIFY(f.transport->sentWith("notifications/initialized").empty());
        QCOMPARE(int(f.client->tools().size()), 1);
        std::optional<ToolResult> got;
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "tools/call")
                f.transport->reply(m, {{"content", Json::array()}, {"resultType", "complete"}});
        };
        RequestOptions progress;
        progress.onProgress = [](const Progress &) {
        };
        f.client->callTool("echo", Json{{"x", 1}}, this, [&](ToolResult r) { got = std::move(r); });
        f.client->callTool(
                "echo", RawJson{R"({"x":2})"}, this, [&](ToolResult r) { got = std::move(r); },
                progress);
        QVERIFY(got && !got->failed());
        for (const char *method : {"server/discover", "tools/list", "tools/call"}) {
            for (const Json &m : f.transport->sentWith(method)) {
                const Json &meta = m["params"]["_meta"];
                QCOMPARE_JSON(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
                QVERIFY(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
                QCOMPARE_JSON(meta["io.modelcontextprotocol/clientInfo"]["name"], "switchboard");
            }
        }
        const auto calls = f.transport->sentWith("tools/call");
        QCOMPARE(calls.size(), std::size_t(2));
        QCOMPARE_JSON(calls[0]["params"]["arguments"]["x"], 1);
        QCOMPARE_JSON(calls[1]["params"]["arguments"]["x"], 2);
        QCOMPARE_JSON(calls[1]["params"]["_meta"]["progressToken"], calls[1]["id"]);
    }

    // Modern era, no resumption: a request whose stream broke off goes again, whole, under a
    // new id — twice at most; then its caller hears of the break. A legacy request is not
    // sent again (its transport resumes the stream itself).
    void brokenStreamReissuesTheRequest()
    {
        Fixture f;
        f.modern = true;
        f.capabilities = Json{{"tools", Json::object()}};
        QVERIFY(f.connect());
        int breaks = 1;
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] != "tools/call")
                return;
            if (breaks-- > 0)
                f.transport->breakStream(m);
            else
                f.transport->reply(m, {{"content", {{{"type", "text"}, {"text", "ok"}}}}});
        };
        std::optional<ToolResult> got;
        f.client->callTool("echo", Json{{"x", 1}}, this, [&](ToolResult r) { got = std::move(r); });
        QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }));
        QVERIFY(!got->failed());
        QCOMPARE(got->text(), QStringLiteral("ok"));
        auto calls = f.transport->sentWith("tools/call");
        QCOMPARE(calls.size(), std::size_t(2));
        QVERIFY(calls[0]["id"] != calls[1]["id"]);
        QCOMPARE_JSON(calls[1]["params"], calls[0]["params"]);

        // A stream that keeps breaking: the first send and two more, then the error.
        breaks = 100;
        got.reset();
        f.client->callTool("echo", Json{{"x", 2}}, this, [&](ToolResult r) { got = std::move(r); });
        QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }));
        QVERIFY(got->error);
        QCOMPARE(got->error->code, ErrorCode::StreamBroken);
        QCOMPARE(f.transport->sentWith("tools/call").size(), std::size_t(5));
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(0));

        // Legacy: no second send.
        Fixture legacy;
        QVERIFY(legacy.connect());
        legacy.transport->onSend = [&](const Json &m) {
            if (m["method"] == "tools/call")
                legacy.transport->breakStream(m);
        };
        got.reset();
        legacy.client->callTool("echo", Json::object(), this,
                                [&](ToolResult r) { got = std::move(r); });
        QVERIFY(QTest::qWaitFor([&] { return got.has_value(); }));
        QVERIFY(got->error);
        QCOMPARE(legacy.transport->sentWith("tools/call").size(), std::size_t(1));
    }

    // subscriptions/listen (2026-07-28, basic/patterns/subscriptions): opened once Ready when
    // the server's tools list can change; never timed out; its acknowledgment and the change
    // notifications on it are matched by the subscription id; a stream that breaks is opened
    // again (and the tools listed again, for the changes missed meanwhile); a server that
    // ends it, or refuses it, is not asked again.
    void subscriptionsListen()
    {
        ClientOptions options;
        options.requestTimeoutMs = 50;
        Fixture f(options);
        f.modern = true;
        QVERIFY(f.connect());
        QVERIFY(QTest::qWaitFor(
                [&] { return f.transport->sentWith("subscriptions/listen").size() == 1; }));
        Json listen = f.transport->sentWith("subscriptions/listen")[0];
        QCOMPARE_JSON(listen["params"]["notifications"], Json({{"toolsListChanged", true}}));
        QCOMPARE_JSON(listen["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
                      "2026-07-28");
        QCOMPARE(f.client->subscriptionId(), listen["id"].get<RequestId>());
        auto acknowledge = [&](const Json &request) {
            f.transport->receive(
                    {{"jsonrpc", "2.0"},
                     {"method", "notifications/subscriptions/acknowledged"},
                     {"params",
                      {{"_meta", {{"io.modelcontextprotocol/subscriptionId", request["id"]}}},
                       {"notifications", {{"toolsListChanged", true}}}}}});
        };
        acknowledge(listen);
        QCOMPARE_JSON(f.client->subscription(), Json({{"toolsListChanged", true}}));
        // Past the request timeout, it is still open: a request sent after it (unanswered)
        // times out, and the listen, had it a deadline, would have passed its own first.
        std::optional<Response> probe;
        f.client->request("ping", Json::object(), this, [&](Response r) { probe = std::move(r); });
        QVERIFY(QTest::qWaitFor([&] { return probe.has_value(); }));
        QVERIFY(probe->error);
        QCOMPARE(probe->error->code, ErrorCode::RequestTimeout);
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(1));
        for (const Json &cancelled : f.transport->sentWith("notifications/cancelled"))
            QVERIFY2(cancelled["params"]["requestId"] != listen["id"], cancelled.dump().c_str());

        // A change on it: the tools are listed again.
        const std::size_t listed = f.transport->sentWith("tools/list").size();
        f.tools.push_back(Json{{"name", "added"}, {"inputSchema", {{"type", "object"}}}});
        QSignalSpy changed(f.client.get(), &Client::toolsChanged);
        f.transport->receive(
                {{"jsonrpc", "2.0"},
                 {"method", "notifications/tools/list_changed"},
                 {"params",
                  {{"_meta", {{"io.modelcontextprotocol/subscriptionId", listen["id"]}}}}}});
        QVERIFY(QTest::qWaitFor([&] { return changed.count() == 1; }));
        QCOMPARE(f.transport->sentWith("tools/list").size(), listed + 1);
        QCOMPARE(int(f.client->tools().size()), 2);

        // The stream breaks: a new listen a second later; its acknowledgment lists again.
        QElapsedTimer sinceBreak;
        sinceBreak.start();
        f.transport->breakStream(listen);
        QCOMPARE(f.client->subscriptionId(), RequestId(0));
        QVERIFY(f.client->subscription().is_null());
        QCOMPARE(f.transport->sentWith("subscriptions/listen").size(), std::size_t(1));
        const QPointer<QTimer> retry = listenRetryTimer(f.client.get());
        QVERIFY(retry);
        QVERIFY(QTest::qWaitFor(
                [&] { return f.transport->sentWith("subscriptions/listen").size() == 2; }, 3000));
        // Coarse timers may fire up to 5 % early.
        QVERIFY2(sinceBreak.elapsed() >= 900, qPrintable(QString::number(sinceBreak.elapsed())));
        QVERIFY(!retry->isActive());
        listen = f.transport->sentWith("subscriptions/listen")[1];
        acknowledge(listen);
        QVERIFY(QTest::qWaitFor(
                [&] { return f.transport->sentWith("tools/list").size() == listed + 2; }));

        // An acknowledgment for another id is not this subscription's.
        f.transport->receive({{"jsonrpc", "2.0"},
                              {"method", "notifications/subscriptions/acknowledged"},
                              {"params",
                               {{"_meta", {{"io.modelcontextprotocol/subscriptionId", 999}}},
                                {"notifications", Json::object()}}}});
        QCOMPARE_JSON(f.client->subscription(), Json({{"toolsListChanged", true}}));

        // The server ends it (notifications/cancelled for its id): not asked again.
        f.transport->receive({{"jsonrpc", "2.0"},
                              {"method", "notifications/cancelled"},
                              {"params", {{"requestId", listen["id"]}}}});
        QCOMPARE(f.client->subscriptionId(), RequestId(0));
        QVERIFY(deliverPostedEvents());
        QVERIFY(!retry->isActive()); // no listen is due, now or later
        QCOMPARE(f.transport->sentWith("subscriptions/listen").size(), std::size_t(2));
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(0));

        // A server that refuses it is not asked again either, and the user hears why. (Its
        // first stream breaks, so that the retry timer is known; the second is refused.)
        Fixture refusing;
        refusing.modern = true;
        QSignalSpy warnings(refusing.client.get(), &Client::warning);
        QVERIFY(refusing.connect());
        QVERIFY(QTest::qWaitFor(
                [&] { return refusing.transport->sentWith("subscriptions/listen").size() == 1; }));
        refusing.transport->breakStream(refusing.transport->sentWith("subscriptions/listen")[0]);
        const QPointer<QTimer> refusingRetry = listenRetryTimer(refusing.client.get());
        QVERIFY(refusingRetry);
        QVERIFY(QTest::qWaitFor(
                [&] { return refusing.transport->sentWith("subscriptions/listen").size() == 2; },
                3000));
        const qsizetype warned = warnings.count();
        refusing.transport->receive(
                {{"jsonrpc", "2.0"},
                 {"id", refusing.transport->sentWith("subscriptions/listen")[1]["id"]},
                 {"error", {{"code", -32601}, {"message", "Method not found"}}}});
        QVERIFY(!warnings.isEmpty());
        QVERIFY(warnings.count() > warned);
        QVERIFY(warnings.last().at(0).toString().contains(QStringLiteral("subscriptions/listen")));
        QVERIFY(deliverPostedEvents());
        QVERIFY(!refusingRetry->isActive()); // no listen is due, now or later
        QCOMPARE(refusing.transport->sentWith("subscriptions/listen").size(), std::size_t(2));

        // No listChanged in the capabilities, or the legacy era: no listen at all.
        Fixture quiet;
        quiet.modern = true;
        quiet.capabilities = Json{{"tools", Json::object()}};
        QVERIFY(quiet.connect());
        Fixture legacy;
        QVERIFY(legacy.connect());
        QVERIFY(deliverPostedEvents()); // a listen is sent on Ready, or queued from there
        QVERIFY(quiet.transport->sentWith("subscriptions/listen").empty());
        QVERIFY(legacy.transport->sentWith("subscriptions/listen").empty());
    }

    // Watching resources in the modern era, the edges: a second watch before the first
    // stream's replacement is acknowledged cancels that replacement (never two in flight), and
    // both wait for the next acknowledgment; a refused listen fails the waiting watches (and
    // forgets them); a server without resources.subscribe is not asked at all.
    void modernWatchEdges()
    {
        Fixture f;
        f.modern = true;
        f.capabilities = Json{{"resources", {{"subscribe", true}}}};
        QVERIFY(f.connect());
        QVERIFY(f.transport->sentWith("subscriptions/listen").empty()); // nothing to listen for
        std::vector<Response> answers;
        auto watch = [&](const std::string &uri, bool on) {
            f.client->watchResource(uri, on, this,
                                    [&](Response r) { answers.push_back(std::move(r)); });
        };
        auto acknowledge = [&](const Json &request, const Json &agreed) {
            f.transport->receive(
                    {{"jsonrpc", "2.0"},
                     {"method", "notifications/subscriptions/acknowledged"},
                     {"params",
                      {{"_meta", {{"io.modelcontextprotocol/subscriptionId", request["id"]}}},
                       {"notifications", agreed}}}});
        };
        watch("res://a", true);
        watch("res://b", true);
        auto listens = f.transport->sentWith("subscriptions/listen");
        QCOMPARE(listens.size(), std::size_t(2));
        QVERIFY(listens[1]["params"]["notifications"]["resourceSubscriptions"]
                == Json::array({"res://a", "res://b"}));
        // The first, never acknowledged, was cancelled by the second.
        const auto cancelled = f.transport->sentWith("notifications/cancelled");
        QCOMPARE(cancelled.size(), std::size_t(1));
        QVERIFY(cancelled[0]["params"]["requestId"] == listens[0]["id"]);
        QVERIFY(answers.empty());
        // Acknowledged with only one of the two: one answer each.
        acknowledge(listens[1], {{"resourceSubscriptions", Json::array({"res://b"})}});
        QCOMPARE(answers.size(), std::size_t(2));
        QVERIFY(!answers[0].ok());
        QVERIFY(answers[1].ok());
        QCOMPARE(f.client->watchedResources(), std::set<std::string>({"res://b"}));

        // A refused listen: the watch waiting for it fails, and is forgotten; the stream it
        // was to replace goes on.
        answers.clear();
        watch("res://c", true);
        listens = f.transport->sentWith("subscriptions/listen");
        QCOMPARE(listens.size(), std::size_t(3));
        f.transport->receive({{"jsonrpc", "2.0"},
                              {"id", listens[2]["id"]},
                              {"error", {{"code", -32602}, {"message", "too many"}}}});
        QCOMPARE(answers.size(), std::size_t(1));
        QVERIFY(!answers[0].ok());
        QCOMPARE(answers[0].error->message, std::string("too many"));
        QCOMPARE(f.client->watchedResources(), std::set<std::string>({"res://b"}));
        QCOMPARE(f.client->subscriptionId(), listens[1]["id"].get<RequestId>());
        QVERIFY(f.client->subscription()["resourceSubscriptions"] == Json::array({"res://b"}));
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(1));
        QCOMPARE(f.transport->sentWith("notifications/cancelled").size(), std::size_t(1));

        // The stream breaks: once the next one is acknowledged, each watched resource counts
        // as changed (an update may have been missed meanwhile).
        std::vector<Json> updated;
        connect(f.client.get(), &Client::notificationReceived, this,
                [&](const QString &method, const Json &params) {
                    if (method == QLatin1String("notifications/resources/updated"))
                        updated.push_back(params);
                });
        f.transport->breakStream(listens[1]);
        QVERIFY(QTest::qWaitFor(
                [&] { return f.transport->sentWith("subscriptions/listen").size() == 4; }, 3000));
        listens = f.transport->sentWith("subscriptions/listen");
        QVERIFY(listens[3]["params"]["notifications"]["resourceSubscriptions"]
                == Json::array({"res://b"}));
        QVERIFY(updated.empty());
        acknowledge(listens[3], {{"resourceSubscriptions", Json::array({"res://b"})}});
        QCOMPARE(updated.size(), std::size_t(1));
        QVERIFY(updated[0] == Json({{"uri", "res://b"}}));

        // Unwatching the last: the stream has nothing left to listen for, and is closed.
        answers.clear();
        watch("res://b", false);
        QTRY_COMPARE(answers.size(), std::size_t(1));
        QVERIFY(answers[0].ok());
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(0));
        QCOMPARE(f.client->subscriptionId(), RequestId(0));

        // No subscribe capability: refused here, nothing sent.
        Fixture plain;
        plain.modern = true;
        QVERIFY(plain.connect());
        answers.clear();
        plain.client->watchResource("res://a", true, this,
                                    [&](Response r) { answers.push_back(std::move(r)); });
        QTRY_COMPARE(answers.size(), std::size_t(1));
        QCOMPARE(answers[0].error->code, ErrorCode::MethodNotFound);
        QCOMPARE(plain.transport->sentWith("subscriptions/listen").size(), std::size_t(1));
    }

    // Era detection: a legacy server that never answers the probe is given initialize after
    // the probe's timeout; one the cache knows to be legacy is not probed at all.
    void probeTimeoutMeansLegacy()
    {
        ClientOptions options;
        options.probeTimeoutMs = 50;
        Fixture f(options);
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "initialize")
                f.transport->reply(
                        m, {{"protocolVersion", "2025-11-25"}, {"capabilities", Json::object()}});
        };
        QVERIFY(f.connect());
        QCOMPARE(f.client->state(), Client::State::Ready);
        QCOMPARE(f.client->era(), Era::Rev2025_11_25);
        QCOMPARE(f.transport->sentWith("server/discover").size(), std::size_t(1));
        // The probe of a server not yet initialized is not cancelled.
        QVERIFY(f.transport->sentWith("notifications/cancelled").empty());
    }

    void cachedEraGuessIsProbedWhenItFails()
    {
        ClientOptions options;
        options.era = Era::Rev2025_11_25;
        {
            Fixture f(options);
            QVERIFY(f.connect());
            QCOMPARE(f.client->era(), Era::Rev2025_11_25);
            QVERIFY(f.transport->sentWith("server/discover").empty());
            QCOMPARE_JSON(f.transport->sent.at(0)["method"], "initialize");
        }
        // The server became modern: initialize is refused, the probe finds the new era.
        Fixture f(options);
        f.modern = true;
        auto answer = f.transport->onSend;
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "initialize")
                f.transport->receive({{"jsonrpc", "2.0"},
                                      {"id", m["id"]},
                                      {"error", {{"code", -32601}, {"message", "no initialize"}}}});
            else
                answer(m);
        };
        QVERIFY(f.connect());
        QCOMPARE(f.client->state(), Client::State::Ready);
        QCOMPARE(f.client->era(), Era::Rev2026_07_28);
    }

    // -32022: the request goes again, once, under a new id, in a version from data.supported.
    void unsupportedVersionIsRetriedOnce()
    {
        Fixture f;
        f.modern = true;
        QVERIFY(f.connect());
        int refusals = 0;
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] != "tools/call")
                return;
            if (refusals < 2 || m["params"]["arguments"].value("last", false)) {
                ++refusals;
                f.transport->receive({{"jsonrpc", "2.0"},
                                      {"id", m["id"]},
                                      {"error",
                                       {{"code", -32022},
                                        {"message", "Unsupported protocol version"},
                                        {"data",
                                         {{"supported", {"1999-01-01", "2026-07-28"}},
                                          {"requested", "2026-07-28"}}}}}});
                return;
            }
            f.transport->reply(m, {{"content", Json::array()}});
        };
        std::optional<ToolResult> first, second;
        f.client->callTool("echo", Json{{"n", 1}}, this,
                           [&](ToolResult r) { first = std::move(r); });
        QVERIFY(first && first->error); // refused twice: the retry happens once
        QCOMPARE(first->error->code, -32022);
        f.client->callTool("echo", Json{{"n", 2}}, this,
                           [&](ToolResult r) { second = std::move(r); });
        QVERIFY(second && !second->failed());
        const auto calls = f.transport->sentWith("tools/call");
        QCOMPARE(calls.size(), std::size_t(3));
        QVERIFY(calls[0]["id"] != calls[1]["id"]);
        QCOMPARE_JSON(calls[1]["params"]["arguments"]["n"], 1);
        QCOMPARE_JSON(calls[1]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
                      "2026-07-28");
    }

    // Multi-round requests (2026-07-28, mrtr): input_required is answered by the client's own
    // handlers and the request goes again with inputResponses and the requestState untouched.
    void multiRoundRequest()
    {
        Fixture f;
        f.modern = true;
        f.capabilities = Json{{"tools", Json::object()}}; // no listen stream to count
        QVERIFY(f.connect());
        int asked = 0;
        f.client->setRequestHandler("elicitation/create", [&](const Json &params,
                                                              Client::Reply reply) {
            ++asked;
            QCOMPARE_JSON(params["message"], "Confirm?");
            QTimer::singleShot(10, this, [reply] {
                reply(Response::success({{"action", "accept"}, {"content", {{"ok", true}}}}));
            });
        });
        const std::string state = R"({"nonce":"\u00e9 x","n":1})";
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] != "tools/call")
                return;
            const Json &params = m["params"];
            if (!params.contains("inputResponses")) {
                f.transport->reply(m, {{"resultType", "input_required"},
                                       {"inputRequests",
                                        {{"confirm",
                                          {{"method", "elicitation/create"},
                                           {"params",
                                            {{"message", "Confirm?"},
                                             {"requestedSchema", {{"type", "object"}}}}}}}}},
                                       {"requestState", state}});
                return;
            }
            f.transport->reply(m, {{"resultType", "complete"},
                                   {"content", {{{"type", "text"}, {"text", "done"}}}}});
        };
        int calls = 0;
        std::optional<ToolResult> got;
        f.client->callTool("echo", Json{{"x", 1}}, this, [&](ToolResult r) {
            ++calls;
            got = std::move(r);
        });
        QTRY_COMPARE(calls, 1);
        QVERIFY(got && !got->failed());
        QCOMPARE(got->text(), QStringLiteral("done"));
        QCOMPARE(asked, 1);
        const auto sent = f.transport->sentWith("tools/call");
        QCOMPARE(sent.size(), std::size_t(2));
        QVERIFY(sent[0]["id"] != sent[1]["id"]);
        QCOMPARE_JSON(sent[1]["params"]["arguments"]["x"], 1);
        QCOMPARE_JSON(sent[1]["params"]["requestState"], state);
        QCOMPARE_JSON(sent[1]["params"]["inputResponses"]["confirm"]["action"], "accept");
        QVERIFY(!sent[0]["params"].contains("inputResponses"));
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(0));
    }

    // Tasks in 2026-07-28 (the io.modelcontextprotocol/tasks extension): the extension in
    // every request's client capabilities; a tools/call answered with a task is followed with
    // tasks/get (its pollIntervalMs), the status is progress, a question in inputRequests is
    // answered once through tasks/update, and tasks/get's result is the call's result.
    void modernTaskIsFollowed()
    {
        Fixture f;
        f.modern = true;
        f.capabilities = Json{{"tools", Json::object()}};
        QVERIFY(f.connect());
        int asked = 0;
        f.client->setRequestHandler("elicitation/create", [&](const Json &, Client::Reply reply) {
            ++asked;
            reply(Response::success({{"action", "accept"}, {"content", {{"ok", true}}}}));
        });
        int polls = 0;
        const Json question = {{"confirm",
                                {{"method", "elicitation/create"},
                                 {"params", {{"message", "Go on?"}, {"mode", "form"}}}}}};
        f.transport->onSend = [&](const Json &m) {
            const std::string method = m.value("method", "");
            if (method == "tools/call") {
                f.transport->reply(m, {{"resultType", "task"},
                                       {"taskId", "t-1"},
                                       {"status", "working"},
                                       {"statusMessage", "started"},
                                       {"pollIntervalMs", 10}});
            } else if (method == "tasks/get") {
                QCOMPARE_JSON(m["params"]["taskId"], "t-1");
                ++polls;
                if (polls <= 2) // the same question twice: answered once
                    f.transport->reply(m, {{"taskId", "t-1"},
                                           {"status", "input_required"},
                                           {"inputRequests", question}});
                else
                    f.transport->reply(
                            m, {{"taskId", "t-1"},
                                {"status", "completed"},
                                {"result", {{"content", {{{"type", "text"}, {"text", "done"}}}}}}});
            } else if (method == "tasks/update") {
                f.transport->reply(m, {{"resultType", "complete"}});
            }
        };
        std::vector<Progress> progress;
        RequestOptions options;
        options.onProgress = [&](const Progress &p) {
            progress.push_back(p);
        };
        int calls = 0;
        std::optional<ToolResult> got;
        f.client->callTool(
                "echo", Json{{"x", 1}}, this,
                [&](ToolResult r) {
                    ++calls;
                    got = std::move(r);
                },
                options);
        QTRY_COMPARE(calls, 1);
        QVERIFY2(got && !got->failed(), got && got->error ? got->error->message.c_str() : "");
        QCOMPARE(got->text(), QStringLiteral("done"));
        QCOMPARE(asked, 1);
        const auto updates = f.transport->sentWith("tasks/update");
        QCOMPARE(updates.size(), std::size_t(1));
        QCOMPARE_JSON(updates[0]["params"]["inputResponses"]["confirm"]["action"], "accept");
        QCOMPARE_JSON(updates[0]["params"]["taskId"], "t-1");
        QCOMPARE(progress.front().message, QStringLiteral("working: started"));
        QCOMPARE(progress.back().message, QStringLiteral("completed"));
        const Json call = f.transport->sentWith("tools/call").at(0);
        QVERIFY(!call["params"].contains("task")); // the server decides in this era
        QVERIFY(call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
                        .contains("io.modelcontextprotocol/tasks"));
        QCOMPARE(f.client->runningTaskCount(), std::size_t(0));
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(0));

        // A failed task is the call's error; a task that goes quiet is canceled at its
        // timeout with tasks/cancel.
        f.transport->onSend = [&](const Json &m) {
            const std::string method = m.value("method", "");
            if (method == "tools/call")
                f.transport->reply(m, {{"resultType", "task"},
                                       {"taskId", "t-2"},
                                       {"status", "working"},
                                       {"pollIntervalMs", 10}});
            else if (method == "tasks/get")
                f.transport->reply(m, {{"taskId", "t-2"},
                                       {"status", "failed"},
                                       {"error", {{"code", -32603}, {"message", "disk full"}}}});
        };
        got.reset();
        f.client->callTool("echo", Json::object(), this, [&](ToolResult r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QVERIFY(got->error);
        QVERIFY2(got->error->message.find("disk full") != std::string::npos,
                 got->error->message.c_str());

        f.transport->onSend = [&](const Json &m) {
            const std::string method = m.value("method", "");
            if (method == "tools/call")
                f.transport->reply(m, {{"resultType", "task"},
                                       {"taskId", "t-3"},
                                       {"status", "working"},
                                       {"pollIntervalMs", 10}});
            else if (method == "tasks/get")
                f.transport->reply(m, {{"taskId", "t-3"}, {"status", "working"}});
            else if (method == "tasks/cancel")
                f.transport->reply(m, {{"resultType", "complete"}});
        };
        got.reset();
        RequestOptions quick;
        quick.timeoutMs = 300;
        f.client->callTool(
                "echo", Json::object(), this, [&](ToolResult r) { got = std::move(r); }, quick);
        QTRY_VERIFY(got.has_value());
        QVERIFY(got->error && got->error->is(ErrorCode::RequestTimeout));
        const auto cancels = f.transport->sentWith("tasks/cancel");
        QCOMPARE(cancels.size(), std::size_t(1));
        QCOMPARE_JSON(cancels[0]["params"]["taskId"], "t-3");
        QCOMPARE(f.client->runningTaskCount(), std::size_t(0));
    }

    void multiRoundRequestEdges()
    {
        Fixture f;
        f.modern = true;
        f.capabilities = Json{{"tools", Json::object()}}; // no listen stream to count
        QVERIFY(f.connect());
        // No handler for what the server asks: the request fails, it is not retried.
        auto askRoots = [&](const Json &m) {
            f.transport->reply(m,
                               {{"resultType", "input_required"},
                                {"inputRequests",
                                 {{"r", {{"method", "roots/list"}, {"params", Json::object()}}}}}});
        };
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "tools/call")
                askRoots(m);
        };
        std::optional<ToolResult> got;
        f.client->callTool("echo", Json::object(), this, [&](ToolResult r) { got = std::move(r); });
        QVERIFY(got && got->error);
        QCOMPARE(got->error->code, ErrorCode::MethodNotFound);
        QVERIFY(QString::fromStdString(got->error->message).contains(QLatin1String("roots/list")));
        QCOMPARE(f.transport->sentWith("tools/call").size(), std::size_t(1));

        // A server that asks forever is stopped after maxInputRounds.
        f.client->setRequestHandler("roots/list", [](const Json &, Client::Reply reply) {
            reply(Response::success({{"roots", Json::array()}}));
        });
        got.reset();
        const std::size_t before = f.transport->sentWith("tools/call").size();
        f.client->callTool("echo", Json::object(), this, [&](ToolResult r) { got = std::move(r); });
        QVERIFY(got && got->error);
        QVERIFY(QString::fromStdString(got->error->message).contains(QLatin1String("stopped")));
        QCOMPARE(f.transport->sentWith("tools/call").size() - before,
                 std::size_t(1 + ClientOptions{}.maxInputRounds));

        // Stop while the user answers: one callback, the cancellation names the id on the wire.
        Client::Reply pendingReply;
        f.client->setRequestHandler("roots/list", [&](const Json &, Client::Reply reply) {
            pendingReply = std::move(reply);
        });
        int calls = 0;
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "tools/call" && !m["params"].contains("inputResponses"))
                askRoots(m);
        };
        const RequestId id
                = f.client->callTool("echo", Json::object(), this, [&](ToolResult) { ++calls; });
        QVERIFY(pendingReply);
        pendingReply(Response::success({{"roots", Json::array()}}));
        const Json retry = f.transport->sentWith("tools/call").back();
        QVERIFY(retry["id"] != Json(id));
        f.client->cancel(id, QStringLiteral("stop"));
        QCOMPARE(calls, 1);
        QCOMPARE_JSON(
                f.transport->sentWith("notifications/cancelled").back()["params"]["requestId"],
                retry["id"]);
        // A late answer to either id is ignored.
        f.transport->reply(retry, {{"content", Json::array()}});
        QCOMPARE(calls, 1);
        QCOMPARE(f.client->pendingRequestCount(), std::size_t(0));
    }

    // A result without resultType is complete, even in the modern era: never retried.
    void missingResultTypeIsComplete()
    {
        Fixture f;
        f.modern = true;
        QVERIFY(f.connect());
        f.transport->onSend = [&](const Json &m) {
            if (m["method"] == "tools/call")
                f.transport->reply(m, {{"content", {{{"type", "text"}, {"text", "ok"}}}}});
        };
        std::optional<ToolResult> got;
        f.client->callTool("echo", Json::object(), this, [&](ToolResult r) { got = std::move(r); });
        QVERIFY(got && !got->failed());
        QCOMPARE(f.transport->sentWith("tools/call").size(), std::size_t(1));
    }

    void destroyingClientAnswersPending()
    {
        Fixture f;
        QVERIFY(f.connect());
        int calls = 0;
        f.client->request("tools/call", Json::object(), this, [&](Response r) {
            ++calls;
            QVERIFY(!r.ok());
        });
        f.client.reset();
        QCOMPARE(calls, 1);
    }
};

QTEST_GUILESS_MAIN(tst_Client)
#include "tst_client.moc"
