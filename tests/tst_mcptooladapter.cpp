#include <engine/approval/toolrunner.h>
#include <engine/policy/serverpolicy.h>
#include <engine/tools/mcptooladapter.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;

// MCP tools in the registry: model-safe names, risk from the config (annotations count only
// for a trusted server), autoApprove, and a registry that follows the servers live.
class tst_McpToolAdapter : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // checkNames false: the servers as written, without ConfigLoader::checkNameClashes().
    std::unique_ptr<Mcp::Manager> start(const QByteArray &json, bool checkNames = true)
    {
        Mcp::ManagerOptions options;
        options.workspaceDir = m_dir.path();
        options.restartDelayMs = 50;
        auto manager = std::make_unique<Mcp::Manager>(options);
        QProcessEnvironment env;
        env.insert(QStringLiteral("FIXTURE"), QStringLiteral(SWITCHBOARD_FIXTURE_SERVER));
        Mcp::McpConfig config;
        if (checkNames) {
            config = Mcp::ConfigLoader::parse(json, QStringLiteral("t.json"), env);
        } else {
            // One server at a time, so that no pair is ever checked against another.
            const nlohmann::json document = nlohmann::json::parse(json);
            for (const auto &[name, server] : document["mcpServers"].items())
                config.servers
                        += Mcp::ConfigLoader::parse(
                                   QByteArray::fromStdString(
                                           nlohmann::json{{"mcpServers", {{name, server}}}}.dump()),
                                   QStringLiteral("t.json"), env)
                                   .servers;
        }
        manager->start(config);
        (void)QTest::qWaitFor([&] { return manager->isSettled(); }, 10000);
        return manager;
    }

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << "files"
                               << "read_text_file"
                               << "mcp__files__read_text_file";
        QTest::newRow("dashes and dots") << "my-server.v2"
                                         << "get-sum"
                                         << "mcp__my_server_v2__get_sum";
        QTest::newRow("unicode") << "日本"
                                 << "tool✓"
                                 << "mcp______tool_";
        QTest::newRow("exactly 64") << "s" << QString(64 - 8, QLatin1Char('x'))
                                    << "mcp__s__" + QString(56, QLatin1Char('x'));
    }

    void names()
    {
        QFETCH(QString, server);
        QFETCH(QString, tool);
        QFETCH(QString, expected);
        QCOMPARE(mcpToolName(server, tool), expected);
    }

    void longNamesAreShortenedDeterministically()
    {
        const QString a = mcpToolName(QStringLiteral("server"), QString(100, QLatin1Char('a')));
        const QString b
                = mcpToolName(QStringLiteral("server"), QString(99, QLatin1Char('a')) + "b");
        QCOMPARE(a.size(), MaxToolNameLength);
        QCOMPARE(b.size(), MaxToolNameLength);
        QVERIFY(a != b); // same prefix, different hash
        QCOMPARE(a, mcpToolName(QStringLiteral("server"), QString(100, QLatin1Char('a'))));
        QVERIFY(a.startsWith(QStringLiteral("mcp__server__aaaa")));
        // Two names that sanitize alike still differ once shortened.
        const QString c = mcpToolName(QStringLiteral("s-1"), QString(80, QLatin1Char('z')));
        const QString d = mcpToolName(QStringLiteral("s.1"), QString(80, QLatin1Char('z')));
        QVERIFY(c != d);
    }

    void riskAndApproval()
    {
        auto manager = start("{\"mcpServers\": {"
                             " \"plain\": {\"command\": \"${FIXTURE}\", \"tools\": {\"add\": "
                             "{\"risk\": \"read\"}},"
                             "             \"autoApprove\": [\"write_file\"]},"
                             " \"mut\": {\"command\": \"${FIXTURE}\", \"risk\": \"mutating\"},"
                             " \"trusted\": {\"command\": \"${FIXTURE}\", \"trust\": true,"
                             "               \"tools\": {\"echo\": {\"risk\": \"dangerous\"}}}}}");
        ToolRegistry registry;
        McpToolAdapter adapter(manager.get(), &registry);
        adapter.syncAll();
        auto risk = [&](const char *name) {
            return registry.find(QString::fromLatin1(name))->risk();
        };
        // Untrusted: annotations (echo says readOnlyHint) lower nothing; default dangerous.
        QCOMPARE(risk("mcp__plain__echo"), Risk::Dangerous);
        QCOMPARE(risk("mcp__plain__add"), Risk::Read); // the config says so
        QCOMPARE(risk("mcp__mut__echo"), Risk::Mutating);
        // Trusted: readOnlyHint counts, but an explicit per-tool risk still wins.
        QCOMPARE(risk("mcp__trusted__slow"), Risk::Read);
        QCOMPARE(risk("mcp__trusted__echo"), Risk::Dangerous);
        QCOMPARE(risk("mcp__trusted__crash"), Risk::Dangerous); // destructiveHint: true
        QVERIFY(registry.find("mcp__plain__write_file")->autoApproved());
        QVERIFY(!registry.find("mcp__mut__write_file")->autoApproved());
        QVERIFY(registry.find("mcp__plain__echo")->hints().value("readOnlyHint", false));
        QCOMPARE(adapter.resolve("mcp__plain__get_sum"), std::nullopt);
        QCOMPARE(adapter.resolve("mcp__plain__echo")->second, QStringLiteral("echo"));
    }

    void followsTheServers()
    {
        auto manager = start("{\"mcpServers\": {\"a\": {\"command\": \"${FIXTURE}\"},"
                             " \"b\": {\"command\": \"${FIXTURE}\"}}}");
        ToolRegistry registry;
        McpToolAdapter adapter(manager.get(), &registry);
        adapter.syncAll();
        QCOMPARE(registry.tools().size(), std::size_t(2 * 16));
        // list_changed → the new tool appears.
        ToolRunner runner(&registry, nullptr, m_dir.path());
        std::optional<ToolRunResult> result;
        ToolCallRequest call;
        call.name = QStringLiteral("mcp__a__change_tools");
        call.arguments = Json::object();
        // change_tools is dangerous by default: allow it through a gate.
        FixedApprovalGate yes({ApprovalChoice::AllowOnce, {}});
        runner.setGate(&yes);
        runner.run(call, QString(), nullptr, {{}, {}, {}, [&](ToolRunResult r) {
                                                  result = std::move(r);
                                              }});
        QTRY_VERIFY(result.has_value());
        QVERIFY(!result->output.isError);
        QTRY_VERIFY(registry.find(QStringLiteral("mcp__a__added_later")));
        // A server that goes away takes its tools along; the other keeps them.
        manager->setServerEnabled(QStringLiteral("b"), false);
        QTRY_VERIFY(!registry.find(QStringLiteral("mcp__b__echo")));
        QVERIFY(registry.find(QStringLiteral("mcp__a__echo")));
        manager->setServerEnabled(QStringLiteral("b"), true);
        QTRY_VERIFY(registry.find(QStringLiteral("mcp__b__echo")));
    }

    // A server with 10,000 tools is one registry change, not 10,000.
    void manyToolsAreOneChange()
    {
        auto manager = start("{\"mcpServers\": {\"big\": {\"command\": \"${FIXTURE}\","
                             " \"args\": [\"--tools\", \"10000\"]}}}");
        ToolRegistry registry;
        QSignalSpy changed(&registry, &ToolRegistry::toolsChanged);
        McpToolAdapter adapter(manager.get(), &registry);
        adapter.syncAll();
        QCOMPARE(registry.tools().size(), std::size_t(10000 + 16));
        QCOMPARE(changed.count(), 1);
        QVERIFY(adapter.resolve(QStringLiteral("mcp__big__tool_9999")).has_value());
        manager->setServerEnabled(QStringLiteral("big"), false);
        QTRY_COMPARE(registry.tools().size(), std::size_t(0));
        QCOMPARE(changed.count(), 2);
        QVERIFY(!adapter.resolve(QStringLiteral("mcp__big__tool_9999")).has_value());
    }

    // What the model is offered: "enabledTools" / "disabledTools" in the config, then the
    // user's own choices per server and per tool. The registry keeps every tool.
    void offeringFollowsConfigAndUser()
    {
        auto manager = start("{\"mcpServers\": {"
                             "\"only\": {\"command\": \"${FIXTURE}\","
                             " \"enabledTools\": [\"echo\", \"add\"]},"
                             "\"most\": {\"command\": \"${FIXTURE}\","
                             " \"disabledTools\": [\"echo\"]}}}");
        ToolRegistry registry;
        McpToolAdapter adapter(manager.get(), &registry);
        adapter.syncAll();
        QCOMPARE(registry.tools().size(), std::size_t(2 * 16));
        const auto offeredNames = [&registry] {
            QStringList names;
            for (const auto &tool : registry.offeredTools())
                names << tool->name();
            return names;
        };
        QStringList offered = offeredNames();
        QCOMPARE(offered.size(), 2 + 15);
        QVERIFY(offered.contains(QStringLiteral("mcp__only__echo")));
        QVERIFY(!offered.contains(QStringLiteral("mcp__only__slow")));
        QVERIFY(!offered.contains(QStringLiteral("mcp__most__echo")));

        QSignalSpy offering(&registry, &ToolRegistry::offeringChanged);
        registry.setNotOffered({QStringLiteral("only")}, {QStringLiteral("mcp__most__add")});
        QCOMPARE(offering.count(), 1);
        offered = offeredNames();
        QCOMPARE(offered.size(), 14);
        QVERIFY(!offered.contains(QStringLiteral("mcp__only__echo")));
        QVERIFY(!offered.contains(QStringLiteral("mcp__most__add")));
        QVERIFY(!registry.isSourceOffered(QStringLiteral("only")));
        QVERIFY(registry.find(QStringLiteral("mcp__only__echo"))); // still there to run by hand

        // A wrong type is a config error naming the key.
        const Mcp::McpConfig bad = Engine::parseConfig(
                "{\"mcpServers\": {\"x\": {\"command\": \"c\", \"disabledTools\": \"echo\"}}}",
                QStringLiteral("t.json"), QProcessEnvironment());
        QVERIFY(!bad.errors.isEmpty());
        QVERIFY2(bad.errors.first().message.contains(QStringLiteral("disabledTools")),
                 qPrintable(bad.errors.first().message));
    }

    void sanitizedCollisionIsRejectedAndReported()
    {
        // "a-b" and "a_b" both become mcp__a_b__*. The config refuses such a pair
        // (ConfigLoader::checkNameClashes); should one still reach the adapter, the second
        // server's tools are refused, never shadowing the first's.
        const QByteArray json = "{\"mcpServers\": {\"a-b\": {\"command\": \"${FIXTURE}\"},"
                                " \"a_b\": {\"command\": \"${FIXTURE}\"}}}";
        QProcessEnvironment env;
        env.insert(QStringLiteral("FIXTURE"), QStringLiteral(SWITCHBOARD_FIXTURE_SERVER));
        QCOMPARE(Mcp::ConfigLoader::parse(json, QStringLiteral("t.json"), env).servers.size(), 0);
        auto manager = start(json, /*checkNames=*/false);
        ToolRegistry registry;
        QSignalSpy rejected(&registry, &ToolRegistry::rejected);
        McpToolAdapter adapter(manager.get(), &registry);
        adapter.syncAll();
        QCOMPARE(registry.tools().size(), std::size_t(16));
        QCOMPARE(rejected.count(), 16);
        QVERIFY(rejected.first().at(1).toString().contains(QStringLiteral("already exists")));
        // Kept for a listener that comes later (switchboard-cli tools), and replaced, not
        // piled up, when the server's tools are synced again.
        QCOMPARE(registry.rejections().size(), 16);
        QCOMPARE(registry.rejections().first(), rejected.first().at(1).toString());
        adapter.syncAll();
        QCOMPARE(rejected.count(), 32);
        QCOMPARE(registry.rejections().size(), 16);
        registry.removeSource(QStringLiteral("a_b")); // the refused one
        QCOMPARE(registry.rejections().size(), 0);
    }

    void callsReachTheServer()
    {
        auto manager = start("{\"mcpServers\": {\"a\": {\"command\": \"${FIXTURE}\","
                             " \"tools\": {\"add\": {\"risk\": \"read\"}}}}}");
        ToolRegistry registry;
        McpToolAdapter adapter(manager.get(), &registry);
        adapter.syncAll();
        ToolRunner runner(&registry, nullptr, m_dir.path());
        std::optional<ToolRunResult> result;
        ToolCallRequest call;
        call.name = QStringLiteral("mcp__a__add");
        call.arguments = Json{{"a", 2}, {"b", 3}};
        runner.run(call, QString(), nullptr, {{}, {}, {}, [&](ToolRunResult r) {
                                                  result = std::move(r);
                                              }});
        QTRY_VERIFY(result.has_value());
        QVERIFY(result->ran);
        QCOMPARE(result->output.modelText(), QStringLiteral("5"));
        QCOMPARE(result->output.structuredContent["sum"].get<int>(), 5);
    }
};

QTEST_GUILESS_MAIN(tst_McpToolAdapter)
#include "tst_mcptooladapter.moc"
