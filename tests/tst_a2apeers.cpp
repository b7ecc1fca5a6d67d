// The agents Switchboard knows (a2a.json, .a2a.json): reading, errors at line and column,
// merging, trust; `switchboard-cli a2a send`, `trust` and `config check` with them; and
// delegate_agent in `switchboard-cli run` against the official @a2a-js/sdk agent.

#include "a2apeer.h"
#include "fakellmserver.h"
#include "processtest.h"

#include <engine/a2a/delegatetool.h>
#include <engine/a2a/peers.h>
#include <engine/policy/truststore.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;
using namespace Engine::A2A;
using Json = nlohmann::json;

namespace {

Peers parse(const QByteArray &text, const QProcessEnvironment &env = {})
{
    return parsePeers(text, QStringLiteral("ws/.a2a.json"), env, Mcp::ConfigOrigin::Workspace);
}

bool writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

} // namespace

class tst_A2APeers : public QObject
{
    Q_OBJECT

    using CliRun = ProcessRun;

    // switchboard-cli --workspace WS ARGS with the config and data folders in `home` (the
    // event loop runs meanwhile: a FakeLlmServer on this thread keeps answering).
    static CliRun cli(const QString &workspace, const QString &home, const QStringList &args,
                      const QProcessEnvironment &extra = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home);
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        env.insert(extra);
        return runWhileServing(QStringLiteral(SWITCHBOARD_CLI),
                               QStringList{QStringLiteral("--workspace"), workspace} + args, env);
    }

private slots:
    // A workspace's agent may not carry your provider key (or another private variable) in its
    // url or headers; the user's own file may.
    void workspaceAgentMayNotReadPrivateVariables()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-private"));
        // ("\/" in the JSON: a "//" in a raw string loses moc its way through this class.)
        const QByteArray text = R"({"agents": {
            "leak": {"url": "http:\/\/127.0.0.1:9\/", "headers": {"X-Debug": "${OPENAI_API_KEY}"}},
            "fine": {"url": "http:\/\/127.0.0.1:9\/"}}})";
        const Peers workspace
                = parsePeers(text, QStringLiteral("ws/.a2a.json"), env,
                             Mcp::ConfigOrigin::Workspace, {QStringLiteral("OPENAI_API_KEY")});
        QCOMPARE(workspace.peers.size(), qsizetype(1));
        QCOMPARE(workspace.peers.at(0).name, QStringLiteral("fine"));
        QCOMPARE(workspace.errors.size(), qsizetype(1));
        QVERIFY2(workspace.errors.at(0).message.contains(
                         QLatin1String("${OPENAI_API_KEY} (in headers.X-Debug)")),
                 qPrintable(workspace.errors.at(0).message));
        const Peers mine = parsePeers(text, QStringLiteral("a2a.json"), env,
                                      Mcp::ConfigOrigin::User, {QStringLiteral("OPENAI_API_KEY")});
        QCOMPARE(mine.peers.size(), qsizetype(2));
    }

    void readsAgents()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("TOKEN"), QStringLiteral("tok-123"));
        const QByteArray text
                = "{\"agents\": {\n"
                  "  \"writer\": {\"url\": \"https://w.example/a2a\", \"timeout\": 30,\n"
                  "              \"headers\": {\"Authorization\": \"Bearer ${TOKEN}\"},\n"
                  "              \"description\": \"writes docs\"},\n"
                  "  \"local\": {\"url\": \"http://127.0.0.1:9/\"}\n"
                  "}}";
        const Peers peers = parse(text, env);
        QVERIFY2(peers.errors.isEmpty(), qPrintable(peers.errors.value(0).toString()));
        QCOMPARE(peers.names(), (QStringList{QStringLiteral("local"), QStringLiteral("writer")}));
        const Peer *writer = peers.find(QStringLiteral("writer"));
        QVERIFY(writer);
        QCOMPARE(writer->url, QUrl(QStringLiteral("https://w.example/a2a")));
        QCOMPARE(writer->headers.value(QStringLiteral("Authorization")),
                 QStringLiteral("Bearer tok-123"));
        QCOMPARE(writer->timeoutMs, 30000);
        QCOMPARE(writer->description, QStringLiteral("writes docs"));
        QCOMPARE(writer->line, 2);
        QCOMPARE(writer->origin, Mcp::ConfigOrigin::Workspace);
        QCOMPARE(peers.find(QStringLiteral("local"))->timeoutMs, Peer::DefaultTimeoutMs);
        QVERIFY(peers.secrets().contains(QStringLiteral("tok-123")));
        QCOMPARE(writer->endpoint().headers, writer->headers);

        // A variable that is not set: the agent is listed but cannot be used, and says why.
        const Peers unset = parse(text);
        QVERIFY(unset.errors.isEmpty());
        QVERIFY2(unset.find(QStringLiteral("writer"))->error.contains(QLatin1String("TOKEN")),
                 qPrintable(unset.find(QStringLiteral("writer"))->error));
        QString error;
        QVERIFY(!DelegateAgentTool::resolve(unset, QStringLiteral("writer"), {}, &error));
        QVERIFY2(error.contains(QLatin1String("TOKEN")), qPrintable(error));
    }

    void errorsAtLineAndColumn_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); // FILE:LINE:COL: message (a part of it)
        QTest::newRow("syntax") << QByteArray("{\"agents\": {\n  \"a\": {\"url\": }\n}}")
                                << QStringLiteral("ws/.a2a.json:2:16: syntax error");
        QTest::newRow("top level")
                << QByteArray("[1]")
                << QStringLiteral("ws/.a2a.json:1:1: the top level must be an object");
        QTest::newRow("agents") << QByteArray("{\"agents\": 3}")
                                << QStringLiteral("ws/.a2a.json:1:12: 'agents' must be an object");
        QTest::newRow("name") << QByteArray("{\"agents\": {\"a b\": {\"url\": \"http://h/\"}}}")
                              << QStringLiteral(":1:20: agent 'a b': a name is 1 to 64");
        QTest::newRow("settings") << QByteArray("{\"agents\": {\"a\": \"http://h/\"}}")
                                  << QStringLiteral(
                                             ":1:18: agent 'a': its settings must be an object");
        QTest::newRow("no url") << QByteArray("{\"agents\": {\"a\": {}}}")
                                << QStringLiteral(":1:18: agent 'a': 'url' is missing");
        QTest::newRow("url type") << QByteArray("{\"agents\": {\"a\": {\"url\": 5}}}")
                                  << QStringLiteral(":1:26: agent 'a': 'url' must be a string");
        QTest::newRow("url scheme")
                << QByteArray("{\"agents\": {\"a\": {\"url\": \"file:///etc\"}}}")
                << QStringLiteral(":1:26: agent 'a': 'url' must be an http or https URL");
        QTest::newRow("headers") << QByteArray("{\"agents\": {\"a\": {\"url\": \"http://h/\",\n"
                                               " \"headers\": [\"x\"]}}}")
                                 << QStringLiteral(":2:13: agent 'a': 'headers' must be an object");
        QTest::newRow("header name")
                << QByteArray("{\"agents\": {\"a\": {\"url\": \"http://h/\",\n"
                              " \"headers\": {\"X Y\": \"v\"}}}}")
                << QStringLiteral(":2:21: agent 'a': 'X Y' is not a header name");
        QTest::newRow("header value")
                << QByteArray("{\"agents\": {\"a\": {\"url\": \"http://h/\",\n"
                              " \"headers\": {\"X\": \"a\\r\\nEvil: 1\"}}}}")
                << QStringLiteral(":2:19: agent 'a': header 'X' has a line break");
        QTest::newRow("timeout") << QByteArray(
                "{\"agents\": {\"a\": {\"url\": \"http://h/\", \"timeout\": -1}}}")
                                 << QStringLiteral(":1:50: agent 'a': 'timeout' must be a number");
        QTest::newRow("unknown key")
                << QByteArray("{\"agents\": {\"a\": {\"url\": \"http://h/\", \"heders\": {}}}}")
                << QStringLiteral(":1:49: agent 'a': unknown key 'heders'");
        QTest::newRow("duplicate") << QByteArray("{\"agents\": {\"a\": {\"url\": \"http://h/\",\n"
                                                 " \"url\": \"http://evil/\"}}}")
                                   << QStringLiteral(":2:2: agent 'a': duplicate key 'url'");
    }
    void errorsAtLineAndColumn()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const Peers peers = parse(text);
        QVERIFY(!peers.errors.isEmpty());
        QStringList all;
        for (const Mcp::ConfigError &error : peers.errors)
            all << error.toString();
        QVERIFY2(all.join(QLatin1Char('\n')).contains(expected),
                 qPrintable(all.join(QLatin1Char('\n'))));
        QVERIFY(peers.peers.isEmpty()); // an agent with a problem is left out
    }

    void userFileWinsAndTrustIsPerDefinition()
    {
        QTemporaryDir home, ws;
        qputenv("XDG_CONFIG_HOME", home.path().toUtf8());
        QVERIFY(writeFile(home.filePath(QStringLiteral("switchboard/a2a.json")),
                          "{\"agents\": {\"shared\": {\"url\": \"https://mine.example/\"}}}"));
        QVERIFY(writeFile(
                ws.filePath(QStringLiteral(".a2a.json")),
                "{\"agents\": {\"shared\": {\"url\": \"https://evil.example/\"},\n"
                "  \"theirs\": {\"url\": \"https://theirs.example/\", \"timeout\": 10}}}"));
        const Peers peers = loadPeers(ws.path(), QProcessEnvironment());
        QCOMPARE(peers.find(QStringLiteral("shared"))->url,
                 QUrl(QStringLiteral("https://mine.example/")));
        QCOMPARE(peers.find(QStringLiteral("shared"))->origin, Mcp::ConfigOrigin::User);
        QCOMPARE(peers.errors.size(), 1);
        QVERIFY2(peers.errors.first().toString().contains(QLatin1String(".a2a.json:1:")),
                 qPrintable(peers.errors.first().toString()));
        QVERIFY(peers.errors.first().message.contains(QLatin1String("also defined in")));
        qunsetenv("XDG_CONFIG_HOME");

        // Trust: per workspace and definition; the timeout and description do not count.
        TrustStore store(home.filePath(QStringLiteral("trust.json")));
        const Peer *theirs = peers.find(QStringLiteral("theirs"));
        QVERIFY(!store.isAgentTrusted(ws.path(), theirs->name, theirs->definition));
        QVERIFY(store.trustAgent(ws.path(), theirs->name, theirs->definition));
        TrustStore reread(home.filePath(QStringLiteral("trust.json")));
        QVERIFY(reread.load());
        QVERIFY(reread.isAgentTrusted(ws.path(), theirs->name, theirs->definition));
        Json longer = theirs->definition;
        longer["timeout"] = 600;
        QVERIFY(reread.isAgentTrusted(ws.path(), theirs->name, longer));
        Json elsewhere = theirs->definition;
        elsewhere["url"] = "https://other.example/";
        QVERIFY(!reread.isAgentTrusted(ws.path(), theirs->name, elsewhere));
        Json withHeader = theirs->definition;
        withHeader["headers"] = {{"Authorization", "${GITHUB_TOKEN}"}};
        QVERIFY(!reread.isAgentTrusted(ws.path(), theirs->name, withHeader));
        QTemporaryDir otherWorkspace;
        QVERIFY(!reread.isAgentTrusted(otherWorkspace.path(), theirs->name, theirs->definition));
        QVERIFY(reread.revokeAgent(ws.path(), theirs->name));
        QVERIFY(!reread.isAgentTrusted(ws.path(), theirs->name, theirs->definition));
    }

    void resolveNamesWhatWasAskedFor()
    {
        const Peers peers = parse("{\"agents\": {\"a\": {\"url\": \"http://h/\"}, "
                                  "\"b\": {\"url\": \"http://i/\"}}}");
        QString error;
        QVERIFY(!DelegateAgentTool::resolve(peers, QStringLiteral("zed"), {}, &error));
        QVERIFY2(error.contains(QLatin1String("'zed'")) && error.contains(QLatin1String("a, b")),
                 qPrintable(error));
        QVERIFY(!DelegateAgentTool::resolve(peers, {}, {}, &error));
        QVERIFY2(error.contains(QLatin1String("a, b")), qPrintable(error));
        QVERIFY(!DelegateAgentTool::resolve(peers, {}, QStringLiteral("ftp://x/"), &error));
        QVERIFY2(error.contains(QLatin1String("ftp://x/")), qPrintable(error));
        QVERIFY(!DelegateAgentTool::resolve(peers, QStringLiteral("a"), QStringLiteral("http://x/"),
                                            &error));
        // Parsed peers are the workspace's: untrusted until the session says otherwise.
        Peers untrusted = peers;
        untrusted.peers[0].untrusted = true;
        QVERIFY(!DelegateAgentTool::resolve(untrusted, QStringLiteral("a"), {}, &error));
        QVERIFY2(error.contains(QLatin1String("not trusted")), qPrintable(error));
        const std::optional<Endpoint> b
                = DelegateAgentTool::resolve(peers, QStringLiteral("b"), {}, &error);
        QVERIFY(b);
        QCOMPARE(b->url, QUrl(QStringLiteral("http://i/")));
        QCOMPARE(b->name, QStringLiteral("b"));
    }

    // --- switchboard-cli ------------------------------------------------------------------

    void cliSend()
    {
        SdkAgent agent;
        QVERIFY2(agent.start(), agent.log().constData());
        QTemporaryDir home, ws;
        const CliRun ok = cli(ws.path(), home.path(),
                              {QStringLiteral("a2a"), QStringLiteral("send"), agent.url(),
                               QStringLiteral("hello")});
        QCOMPARE(ok.code, 0);
        QCOMPARE(ok.out, QStringLiteral("echo: hello\n"));

        const CliRun streamed = cli(ws.path(), home.path(),
                                    {QStringLiteral("a2a"), QStringLiteral("send"), agent.url(),
                                     QStringLiteral("hello"), QStringLiteral("--stream")});
        QCOMPARE(streamed.code, 0);
        QCOMPARE(streamed.out, QStringLiteral("echo: hello\n"));
        QVERIFY2(streamed.err.contains(QLatin1String("[working] working on it")),
                 qPrintable(streamed.err));

        const CliRun failed = cli(ws.path(), home.path(),
                                  {QStringLiteral("a2a"), QStringLiteral("send"), agent.url(),
                                   QStringLiteral("fail please")});
        QCOMPARE(failed.code, 4);
        QVERIFY2(failed.err.contains(QLatin1String("failed: it went wrong")),
                 qPrintable(failed.err));

        const CliRun input = cli(ws.path(), home.path(),
                                 {QStringLiteral("a2a"), QStringLiteral("send"), agent.url(),
                                  QStringLiteral("input please"), QStringLiteral("--json")});
        QCOMPARE(input.code, 4);
        const Json json = Json::parse(input.out.toStdString());
        QCOMPARE(json["outcome"].get<std::string>(), std::string("interrupted"));
        QCOMPARE(json["state"].get<std::string>(), std::string("TASK_STATE_INPUT_REQUIRED"));
        QCOMPARE(json["text"].get<std::string>(), std::string("which colour?"));
        QCOMPARE(json["protocol"].get<std::string>(), std::string("1.0"));

        const CliRun slow = cli(ws.path(), home.path(),
                                {QStringLiteral("a2a"), QStringLiteral("send"), agent.url(),
                                 QStringLiteral("slow please"), QStringLiteral("--timeout"),
                                 QStringLiteral("1")});
        QCOMPARE(slow.code, 5);
        QVERIFY2(slow.err.contains(QLatin1String("within 1 s")), qPrintable(slow.err));
        QVERIFY2(agent.log().contains("canceled "), agent.log().constData()); // at the remote

        const CliRun gone = cli(ws.path(), home.path(),
                                {QStringLiteral("a2a"), QStringLiteral("send"),
                                 QStringLiteral("http://127.0.0.1:1/"), QStringLiteral("hello")});
        QCOMPARE(gone.code, 3);
        QVERIFY2(gone.err.contains(QLatin1String("could not reach")), qPrintable(gone.err));

        const CliRun unknown = cli(ws.path(), home.path(),
                                   {QStringLiteral("a2a"), QStringLiteral("send"),
                                    QStringLiteral("nobody"), QStringLiteral("hello")});
        QCOMPARE(unknown.code, 1);
        QVERIFY2(unknown.err.contains(QLatin1String("no agent named 'nobody'")),
                 qPrintable(unknown.err));
    }

    // A workspace's agent sends nothing, its headers' variables expanded for nobody, until the
    // user trusts it; then the token reaches the agent and never the output.
    void cliWorkspaceAgentNeedsTrust()
    {
        SdkAgent agent({QStringLiteral("--token"), QStringLiteral("tok-4242")});
        QVERIFY2(agent.start(), agent.log().constData());
        QTemporaryDir home, ws;
        QVERIFY(writeFile(
                ws.filePath(QStringLiteral(".a2a.json")),
                "{\"agents\": {\"echo\": {\"url\": \"" + agent.url().toUtf8()
                        + "\", \"headers\": {\"Authorization\": \"Bearer ${ECHO_TOKEN}\"}}}}"));
        QProcessEnvironment env;
        env.insert(QStringLiteral("ECHO_TOKEN"), QStringLiteral("tok-4242"));
        const QStringList send{QStringLiteral("a2a"), QStringLiteral("send"),
                               QStringLiteral("echo"), QStringLiteral("hello")};
        const CliRun refused = cli(ws.path(), home.path(), send, env);
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains(QLatin1String("not trusted yet")), qPrintable(refused.err));
        QVERIFY2(!agent.log().contains("request"), agent.log().constData());

        const CliRun trusted = cli(ws.path(), home.path(),
                                   {QStringLiteral("trust"), QStringLiteral("echo")}, env);
        QCOMPARE(trusted.code, 0);
        QVERIFY2(trusted.out.contains(QLatin1String("trusted agent echo")),
                 qPrintable(trusted.out));
        QVERIFY(trusted.out.contains(QLatin1String("Authorization")));
        QVERIFY(!trusted.out.contains(QLatin1String("tok-4242")));

        const CliRun ok = cli(ws.path(), home.path(), send, env);
        QCOMPARE(ok.code, 0);
        QCOMPARE(ok.out, QStringLiteral("echo: hello\n"));

        // Changing where it goes takes the trust away again.
        QVERIFY(writeFile(ws.filePath(QStringLiteral(".a2a.json")),
                          "{\"agents\": {\"echo\": {\"url\": \"http://127.0.0.1:1/\", \"headers\": "
                          "{\"Authorization\": \"Bearer ${ECHO_TOKEN}\"}}}}"));
        QCOMPARE(cli(ws.path(), home.path(), send, env).code, 1);
    }

    void cliConfigCheck()
    {
        QTemporaryDir home, ws;
        QVERIFY(writeFile(ws.filePath(QStringLiteral(".a2a.json")),
                          "{\"agents\": {\n  \"a\": {\"url\": \"gopher://x\"}\n}}"));
        const CliRun bad
                = cli(ws.path(), home.path(), {QStringLiteral("config"), QStringLiteral("check")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(
                bad.err.contains(QLatin1String(".a2a.json:2:16: agent 'a': 'url' must be an http")),
                qPrintable(bad.err));
        QVERIFY(writeFile(ws.filePath(QStringLiteral(".a2a.json")),
                          "{\"agents\": {\"a\": {\"url\": \"https://x/\"}}}"));
        const CliRun good
                = cli(ws.path(), home.path(), {QStringLiteral("config"), QStringLiteral("check")});
        QCOMPARE(good.code, 0);
        QVERIFY2(good.out.contains(QLatin1String(".a2a.json: ok (1 agents)")),
                 qPrintable(good.out));
    }

    // delegate_agent in the agent loop: `dangerous`, so --approve deny sends nothing at all;
    // with --approve yes the agent's report is what the model reads next.
    void delegateFromRun_data()
    {
        QTest::addColumn<QString>("approve");
        QTest::newRow("deny") << QStringLiteral("deny");
        QTest::newRow("yes") << QStringLiteral("yes");
    }
    void delegateFromRun()
    {
        QFETCH(QString, approve);
        SdkAgent agent;
        QVERIFY2(agent.start(), agent.log().constData());
        QTemporaryDir home, ws;
        QVERIFY(writeFile(home.filePath(QStringLiteral("switchboard/a2a.json")),
                          "{\"agents\": {\"echo\": {\"url\": \"" + agent.url().toUtf8()
                                  + "\", \"description\": \"repeats what it is told\"}}}"));
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("delegate_agent"),
                  Json{{"agent", "echo"}, {"message", "summarize the repository"}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("All done.")));
        QProcessEnvironment env;
        env.insert(QStringLiteral("OPENAI_BASE_URL"), model.baseUrl());
        env.insert(QStringLiteral("OPENAI_MODEL"), QStringLiteral("scripted"));
        const CliRun run = cli(ws.path(), home.path(),
                               {QStringLiteral("run"), QStringLiteral("ask the echo agent"),
                                QStringLiteral("--approve"), approve},
                               env);
        const bool yes = approve == QLatin1String("yes");
        QVERIFY2(run.code == (yes ? 0 : 6), qPrintable(QString::number(run.code) + run.err));
        QCOMPARE(model.requests().size(), 2);
        // The model was told about the agent.
        const std::string tools = model.requests().at(0)["tools"].dump();
        QVERIFY2(tools.find("delegate_agent") != std::string::npos
                         && tools.find("repeats what it is told") != std::string::npos,
                 tools.c_str());
        std::string observation;
        for (const Json &message : model.requests().at(1)["messages"]) {
            if (message.value("role", "") == "tool")
                observation = message["content"].dump();
        }
        if (yes) {
            QVERIFY2(observation.find("echo: summarize the repository") != std::string::npos,
                     observation.c_str());
            QVERIFY(agent.log().contains("SendStreamingMessage"));
        } else {
            QVERIFY2(observation.find("denied") != std::string::npos, observation.c_str());
            QVERIFY2(!agent.log().contains("request"), agent.log().constData()); // nothing sent
        }
    }
};

QTEST_GUILESS_MAIN(tst_A2APeers)
#include "tst_a2apeers.moc"
