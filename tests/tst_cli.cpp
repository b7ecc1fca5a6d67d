#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

// switchboard-cli as a user runs it: output formats and the exit-code contract of DESIGN.md
// (0 ok, 1 usage, 2 invalid config, 3 a server failed, 4 tool returned isError, 5 timeout).
class tst_Cli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home; // XDG_CONFIG_HOME and XDG_DATA_HOME: no user config leaks in, no
                          // audit record leaks out
    QTemporaryDir m_ws;

    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };

    Run cli(const QStringList &args, const QString &workspace = QString())
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        env.insert(QStringLiteral("FIXTURE"), QStringLiteral(SWITCHBOARD_FIXTURE_SERVER));
        env.remove(QStringLiteral("SB_CLI_UNSET"));
        process.setProcessEnvironment(env);
        QStringList all{QStringLiteral("--workspace"),
                        workspace.isEmpty() ? m_ws.path() : workspace};
        all += args;
        process.start(QStringLiteral(SWITCHBOARD_CLI), all);
        process.closeWriteChannel();
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }

    void writeConfig(const QByteArray &json, const QString &dir = QString())
    {
        QFile file(QDir(dir.isEmpty() ? m_ws.path() : dir).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(json);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid() && m_ws.isValid());
        writeConfig(
                "{\"mcpServers\": {"
                " \"fix\": {\"command\": \"${FIXTURE}\", \"risk\": \"mutating\","
                "          \"tools\": {\"echo\": {\"risk\": \"read\"}}},"
                " \"missing\": {\"command\": \"switchboard-no-such-command\"},"
                " \"secret\": {\"command\": \"${FIXTURE}\", \"env\": {\"T\": \"${SB_CLI_UNSET}\"}},"
                " \"off\": {\"command\": \"${FIXTURE}\", \"disabled\": true}}}");
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("unknown command") << QStringList{"frobnicate"};
        QTest::newRow("unknown option") << QStringList{"--frob", "servers"};
        QTest::newRow("call without tool") << QStringList{"call", "fix"};
        QTest::newRow("bad args json") << QStringList{"call", "fix", "echo", "[1]"};
        QTest::newRow("bad repeat") << QStringList{"call", "fix", "echo", "--repeat", "0"};
        QTest::newRow("config alone") << QStringList{"config"};
        QTest::newRow("bad import kind") << QStringList{"config", "import", "emacs", "x"};
        QTest::newRow("unknown server") << QStringList{"call", "nope", "echo"};
    }

    void usage()
    {
        QFETCH(QStringList, args);
        const Run run = cli(args);
        QCOMPARE(run.code, 1);
        QVERIFY(!run.err.isEmpty());
        QVERIFY(run.out.isEmpty());
    }

    void help()
    {
        const Run run = cli({"--help"});
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.contains(QStringLiteral("config import")));
    }

    void servers()
    {
        const Run run = cli({"servers"});
        QCOMPARE(run.code, 3);
        const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        const QRegularExpression space(QStringLiteral("\\s+"));
        QCOMPARE(lines[0].split(space).mid(0, 3), (QStringList{"fix", "connected", "16"}));
        QVERIFY(lines[1].startsWith(QStringLiteral("missing")));
        QVERIFY(lines[1].contains(QStringLiteral("failed")));
        QVERIFY(lines[1].contains(QStringLiteral("'switchboard-no-such-command' was not found")));
        QVERIFY(lines[2].startsWith(QStringLiteral("off")));
        QVERIFY(lines[2].contains(QStringLiteral("disabled")));
        QVERIFY(lines[3].contains(QStringLiteral("SB_CLI_UNSET")));
        QVERIFY(lines[3].contains(QStringLiteral("env.T")));
    }

    void serversJson()
    {
        const Run run = cli({"servers", "--json"});
        QCOMPARE(run.code, 3);
        const auto json = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(int(json.size()), 4);
        QCOMPARE(QString::fromStdString(json[0]["state"]), QStringLiteral("connected"));
        QCOMPARE(json[0]["tools"].get<int>(), 16);
        QCOMPARE(QString::fromStdString(json[0]["serverInfo"]["name"]),
                 QStringLiteral("sb-fixture-server"));
        QVERIFY(json[1].contains("reason"));
    }

    void allGoodExitsZero()
    {
        QTemporaryDir ws;
        writeConfig("{\"mcpServers\": {\"a\": {\"command\": \"${FIXTURE}\"}}}", ws.path());
        const Run run = cli({"servers"}, ws.path());
        QCOMPARE(run.code, 0);
        const Run empty = cli({"servers"}, m_home.path()); // no .mcp.json at all
        QCOMPARE(empty.code, 0);
        QVERIFY(empty.out.isEmpty());
        QVERIFY(empty.err.contains(QStringLiteral("no servers configured")));
    }

    void tools()
    {
        const Run run = cli({"tools"});
        QCOMPARE(run.code, 3); // two servers fail
        const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        // Built-ins first, each with its own risk, then the MCP tools with the config's.
        QCOMPARE(lines.mid(0, 6),
                 (QStringList{"bash dangerous", "edit_file mutating", "list_dir read",
                              "read_file read", "search_files read", "write_file mutating"}));
        QVERIFY(run.out.contains(QStringLiteral("mcp__fix__echo read\n")));
        QVERIFY(run.out.contains(QStringLiteral("mcp__fix__crash mutating\n")));
        QVERIFY(run.err.contains(QStringLiteral("server 'missing' failed")));
    }

    void callExitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("err");
        QTest::newRow("ok") << QStringList{"call", "fix", "echo", "{\"text\":\"hi ✓\"}"} << 0
                            << "hi ✓\n"
                            << "";
        QTest::newRow("isError") << QStringList{"call", "fix", "fail"} << 4 << "failure requested\n"
                                 << "";
        QTest::newRow("rpc error") << QStringList{"call", "fix", "rpc_error"} << 4 << ""
                                   << "rpc error requested";
        QTest::newRow("unknown tool") << QStringList{"call", "fix", "nope"} << 4 << ""
                                      << "Unknown tool: nope";
        QTest::newRow("timeout") << QStringList{"call", "fix", "hang", "--timeout", "0.3"} << 5
                                 << ""
                                 << "timed out";
        QTest::newRow("crash") << QStringList{"call", "fix", "crash"} << 3 << ""
                               << "exited with code 3";
        QTest::newRow("server fails") << QStringList{"call", "missing", "echo"} << 3 << ""
                                      << "was not found";
    }

    void callExitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, out);
        QFETCH(QString, err);
        const Run run = cli(args);
        QCOMPARE(run.code, code);
        if (!out.isEmpty() || code == 0)
            QCOMPARE(run.out, out);
        QVERIFY2(run.err.contains(err), qPrintable(run.err));
    }

    void callJson()
    {
        const Run run = cli({"call", "fix", "add", "{\"a\":2,\"b\":3}", "--json"});
        QCOMPARE(run.code, 0);
        const auto json = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(json["structuredContent"]["sum"].get<int>(), 5);
        QCOMPARE(QString::fromStdString(json["content"][0]["text"]), QStringLiteral("5"));
    }

    void callRepeat()
    {
        const Run run = cli({"call", "fix", "echo", "{\"text\":\"x\"}", "--repeat", "500",
                             "--concurrency", "8"});
        QCOMPARE(run.code, 0);
        const QString last = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).last();
        const QRegularExpression format(
                QStringLiteral("^calls=500 seconds=[0-9.]+ calls_per_s=[0-9]+$"));
        QVERIFY2(format.match(last).hasMatch(), qPrintable(last));
    }

    void callRepeatCountsFailures()
    {
        const Run run = cli({"call", "fix", "fail", "--repeat", "10", "--concurrency", "3"});
        QCOMPARE(run.code, 4);
        QVERIFY(run.out.contains(QStringLiteral("calls=10 ")));
        QVERIFY2(run.err.contains(QStringLiteral("10 of 10 calls failed")), qPrintable(run.err));
    }

    void configCheck()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"mcpServers\": {\n  \"x\": {\"command\": \"a\", \"url\": \"http://b\"},\n"
                   "  \"y\": {\"command\": 5}\n}}\n");
        file.close();
        const Run run = cli({"config", "check", bad});
        QCOMPARE(run.code, 2);
        const QStringList lines = run.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        for (const QString &line : lines) {
            QVERIFY2(QRegularExpression(QStringLiteral("^%1:\\d+:\\d+: server '[xy]': ")
                                                .arg(QRegularExpression::escape(bad)))
                             .match(line)
                             .hasMatch(),
                     qPrintable(line));
        }
        QVERIFY(lines[1].startsWith(bad + QStringLiteral(":3:")));

        const Run good = cli({"config", "check"});
        QCOMPARE(good.code, 0);
        QVERIFY(good.out.contains(QStringLiteral("ok (4 servers)")));
        QVERIFY(good.err.contains(QStringLiteral("warning: server 'secret'")));

        const Run missing = cli({"config", "check", dir.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(missing.code, 2);
    }

    void invalidConfigExitsTwo()
    {
        QTemporaryDir ws;
        writeConfig("{\"mcpServers\": {\"a\": {\"command\": \"x\",}}}", ws.path());
        const Run run = cli({"servers"}, ws.path());
        QCOMPARE(run.code, 2);
        QVERIFY(run.err.contains(QStringLiteral(".mcp.json:1:")));
    }

    void configImport_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("server");
        QTest::newRow("claude-desktop") << "claude-desktop"
                                        << QByteArray("{\"mcpServers\": {\"fs\": {\"command\": "
                                                      "\"npx\", \"args\": [\"-y\", \"x\"]}}}")
                                        << "fs";
        QTest::newRow("vscode") << "vscode"
                                << QByteArray("{\"servers\": {\"gh\": {\"type\": \"http\", "
                                              "\"url\": \"https://h/mcp\"}}}")
                                << "gh";
        QTest::newRow("cursor") << "cursor"
                                << QByteArray("{\"mcpServers\": {\"c\": {\"command\": \"c\", "
                                              "\"env\": {\"K\": \"${env:HOME}\"}}}}")
                                << "c";
    }

    void configImport()
    {
        QFETCH(QString, kind);
        QFETCH(QByteArray, input);
        QFETCH(QString, server);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("in.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(input);
        file.close();
        const Run run = cli({"config", "import", kind, path});
        QCOMPARE(run.code, 0);
        const auto json = nlohmann::json::parse(run.out.toStdString());
        QVERIFY(json["mcpServers"].contains(server.toStdString()));
        // The output is itself a valid .mcp.json.
        const QString out = dir.filePath(QStringLiteral("out.json"));
        QFile o(out);
        QVERIFY(o.open(QIODevice::WriteOnly));
        o.write(run.out.toUtf8());
        o.close();
        QCOMPARE(cli({"config", "check", out}).code, 0);
    }
};

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"
