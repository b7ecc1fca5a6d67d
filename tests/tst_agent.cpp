#include "fakellmserver.h"

#include "jsontest.h"
#include "sandboxtest.h"

#include <engine/agent/agent.h>
#include <engine/approval/toolrunner.h>
#include <engine/llm/providerconfig.h>
#include <engine/session.h>
#include <engine/storage/conversationstore.h>
#include <mcp/manager.h>
#include <mcp/wire/jsonparser.h>

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;

// The agent loop end to end: a scripted model (a fake OpenAI-compatible server on
// localhost), real MCP tools (the fixture server), the approval gate, timeouts with
// cancellation reaching the server, and conversations that survive a kill -9. The last
// tests drive `switchboard-cli run` as a user would.
class tst_Agent : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_rigs = 0;

    static QString fixture() { return QStringLiteral(SWITCHBOARD_FIXTURE_SERVER); }

    QByteArray fixtureConfig(const QString &extraArgs = QString()) const
    {
        return QStringLiteral("{\"mcpServers\": {\"fix\": {\"command\": \"%1\", \"args\": [%2],"
                              " \"tools\": {\"slow\": {\"risk\": \"read\"}}}}}")
                .arg(fixture(), extraArgs)
                .toUtf8();
    }

    // An engine around the fixture server and a fake model, wired as both faces wire it
    // (Engine::Session), with the fixture's configuration as a --config file and the user's
    // files in the test's folder.
    struct Rig
    {
        std::unique_ptr<FixedApprovalGate> gate; // outlives the session that asks it
        std::unique_ptr<Session> session;
        ToolRunner *runner = nullptr;
        std::unique_ptr<LlmProvider> provider;
        std::unique_ptr<Agent> agent;
        std::unique_ptr<FakeLlmServer> model;
    };

    std::unique_ptr<Rig> makeRig(ApprovalChoice choice, const QString &workspace,
                                 const QString &extraArgs = QString())
    {
        auto rig = std::make_unique<Rig>();
        rig->model = std::make_unique<FakeLlmServer>(FakeLlmServer::Dialect::OpenAi);
        if (!rig->model->listen())
            return nullptr;
        const QString configFile = m_dir.filePath(QStringLiteral("rig%1.json").arg(++m_rigs));
        QFile file(configFile);
        if (!file.open(QIODevice::WriteOnly) || file.write(fixtureConfig(extraArgs)) < 0)
            return nullptr;
        file.close();
        SessionOptions options;
        options.workspace = workspace;
        options.configFile = configFile;
        options.trustFile = m_dir.filePath(QStringLiteral("trust.json"));
        options.approvalsFile = m_dir.filePath(QStringLiteral("approvals.json"));
        options.auditLogFile = m_dir.filePath(QStringLiteral("audit.jsonl"));
        rig->session = std::make_unique<Session>(options);
        rig->session->load();
        if (!rig->session->configErrors().isEmpty())
            return nullptr;
        rig->session->start();
        if (!QTest::qWaitFor([&] { return rig->session->manager()->isSettled(); }, 10000))
            return nullptr;
        rig->gate = std::make_unique<FixedApprovalGate>(
                ApprovalDecision{choice, QStringLiteral("not allowed in tests")});
        rig->session->setGate(rig->gate.get());
        rig->runner = rig->session->runner();
        ProviderConfig config;
        config.kind = ProviderConfig::OpenAi;
        config.baseUrl = rig->model->baseUrl();
        config.model = QStringLiteral("scripted");
        rig->provider = createProvider(config, nullptr);
        rig->agent = std::make_unique<Agent>(rig->provider.get(), rig->session->registry(),
                                             rig->runner);
        rig->agent->newConversation(QStringLiteral("test"), workspace);
        return rig;
    }

    static Json toolMessages(const Json &request)
    {
        Json out = Json::array();
        for (const Json &m : request["messages"]) {
            if (m.value("role", "") == "tool")
                out.push_back(m);
        }
        return out;
    }

    // --- switchboard-cli run -------------------------------------------------------------

    struct CliRun
    {
        int code = -1;
        QString out, err;
    };

    // switchboard-cli [--workspace W] GLOBAL... COMMAND ARGS... with the fake model, the data
    // and config folders in `dataHome`, and `extraEnv` on top of the test's environment.
    CliRun runCliEnv(FakeLlmServer &model, const QString &workspace, const QString &dataHome,
                     const QStringList &args, const QProcessEnvironment &extraEnv,
                     const QString &command = QStringLiteral("run"),
                     const QStringList &globalArgs = {})
    {
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OPENAI_BASE_URL"), model.baseUrl());
        env.insert(QStringLiteral("OPENAI_MODEL"), QStringLiteral("scripted"));
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dataHome);
        env.insert(extraEnv);
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(SWITCHBOARD_CLI),
                  QStringList{QStringLiteral("--workspace"), workspace} + globalArgs
                          + QStringList{command} + args);
        // The fake model lives on this thread's event loop: wait without blocking it.
        (void)QTest::qWaitFor([&] { return cli.state() == QProcess::NotRunning; }, 30000);
        return {cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1,
                QString::fromUtf8(cli.readAllStandardOutput()),
                QString::fromUtf8(cli.readAllStandardError())};
    }

    CliRun runCli(FakeLlmServer &model, const QString &workspace, const QString &dataHome,
                  const QStringList &args, const QStringList &globalArgs = {},
                  const QMap<QString, QString> &extraEnv = {})
    {
        QProcessEnvironment env;
        for (auto it = extraEnv.cbegin(); it != extraEnv.cend(); ++it)
            env.insert(it.key(), it.value());
        return runCliEnv(model, workspace, dataHome, args, env, QStringLiteral("run"), globalArgs);
    }

    // Writes the workspace's .mcp.json and trusts its servers as the user would
    // (`switchboard-cli trust`, with the same data folder as the runs).
    void writeWorkspaceConfig(const QString &workspace, const QString &dataHome,
                              const QByteArray &text = QByteArray())
    {
        QFile config(QDir(workspace).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(text.isEmpty() ? fixtureConfig() : text);
        config.close();
        QProcess trust;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dataHome);
        trust.setProcessEnvironment(env);
        trust.start(QStringLiteral(SWITCHBOARD_CLI),
                    {QStringLiteral("--workspace"), workspace, QStringLiteral("trust")});
        QVERIFY(trust.waitForFinished(30000));
        QCOMPARE(trust.exitCode(), 0);
    }

    static AgentOptions smallWindow()
    {
        AgentOptions options;
        options.contextTokens = 20000;
        return options;
    }

    // 40 questions of 2,000 characters each (with as long an answer each, when `answered`):
    // far more than a 20,000-token window holds.
    static std::vector<ChatMessage> oldQuestions(bool answered)
    {
        std::vector<ChatMessage> history;
        for (int i = 0; i < 40; ++i) {
            ChatMessage question;
            question.text = QStringLiteral("old question %1 ").arg(i) + QString(2000, u'q');
            history.push_back(question);
            if (!answered)
                continue;
            ChatMessage answer;
            answer.role = ChatMessage::Role::Assistant;
            answer.text = QString(2000, u'a');
            history.push_back(answer);
        }
        return history;
    }

private slots:
    // The CLI speaks the catalogue of the system's language: English plurals ("1 entry") and
    // Chinese messages, like the window.
    void cliSpeaksTheCatalogue_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("expected");
        QTest::newRow("en") << QStringLiteral("en_US.UTF-8") << QStringLiteral("(1 entry)");
        QTest::newRow("zh") << QStringLiteral("zh_CN.UTF-8") << QStringLiteral("（1 个条目）");
    }

    void cliSpeaksTheCatalogue()
    {
        QFETCH(QString, lang);
        QFETCH(QString, expected);
        QTemporaryDir workspace, data;
        QFile only(QDir(workspace.path()).filePath(QStringLiteral("only.txt")));
        QVERIFY(only.open(QIODevice::WriteOnly));
        only.close();
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("list_dir"), Json{{"path", "."}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("one file"), 1));
        QProcessEnvironment env;
        env.insert(QStringLiteral("LC_ALL"), lang);
        const CliRun run = runCliEnv(model, workspace.path(), data.path(),
                                     {QStringLiteral("what is here?"), QStringLiteral("--approve"),
                                      QStringLiteral("yes")},
                                     env);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    }

    // Acceptance (issue 13): with a 500-tool server the first request carries at most 50
    // definitions (built-ins and search_tools); a tool search_tools finds joins the next
    // request and is called in the same conversation. With --tool-search 0 every definition
    // goes; the two first requests' sizes are printed (docs/PERFORMANCE.md).
    void toolSearchAboveTheThreshold()
    {
        QTemporaryDir ws, data;
        writeWorkspaceConfig(ws.path(), data.path(),
                             fixtureConfig(QStringLiteral("\"--tools\", \"500\"")));
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("search_tools"), Json{{"query", "echo the given text"}}}}));
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__echo"), Json{{"text", "found and called"}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("done")));
        const CliRun run = runCli(model, ws.path(), data.path(),
                                  {QStringLiteral("echo something"), QStringLiteral("--approve"),
                                   QStringLiteral("yes")});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QCOMPARE(model.requests().size(), 3);
        const auto names = [](const Json &request) {
            QStringList out;
            for (const Json &tool : request.value("tools", Json::array()))
                out << QString::fromStdString(tool["function"].value("name", ""));
            return out;
        };
        const QStringList first = names(model.requests().at(0));
        QVERIFY2(first.size() <= 50, qPrintable(first.join(QLatin1Char(' '))));
        QVERIFY(first.contains(QStringLiteral("search_tools")));
        QVERIFY(first.contains(QStringLiteral("read_file")));
        QVERIFY(!first.contains(QStringLiteral("mcp__fix__echo")));
        QVERIFY(!first.contains(QStringLiteral("mcp__fix__tool_0000")));
        const Json found = toolMessages(model.requests().at(1));
        QVERIFY2(found.dump().find("mcp__fix__echo: Returns the given text.") != std::string::npos,
                 found.dump().c_str());
        const QStringList second = names(model.requests().at(1));
        QVERIFY2(second.contains(QStringLiteral("mcp__fix__echo")),
                 qPrintable(second.join(QLatin1Char(' '))));
        QVERIFY(second.size() <= 50);
        const Json called = toolMessages(model.requests().at(2));
        QVERIFY2(called.back()["content"].get<std::string>().find("found and called")
                         != std::string::npos,
                 called.dump().c_str());
        // The found tool stays for the rest of the conversation.
        QVERIFY(names(model.requests().at(2)).contains(QStringLiteral("mcp__fix__echo")));

        FakeLlmServer all(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(all.listen());
        all.enqueue(FakeLlmServer::openAiText(QStringLiteral("done")));
        const CliRun everything = runCli(all, ws.path(), data.path(),
                                         {QStringLiteral("echo something"),
                                          QStringLiteral("--tool-search"), QStringLiteral("0")});
        QVERIFY2(everything.code == 0, qPrintable(everything.err));
        QVERIFY(names(all.requests().at(0)).size() > 500);
        const std::size_t with = model.requests().at(0).dump().size();
        const std::size_t without = all.requests().at(0).dump().size();
        qInfo("first request with 500 tools: %zu bytes with tool search, %zu bytes without", with,
              without);
        QVERIFY(with * 10 < without);
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true); // never the user's own mcp.json
    }

    // A server's own instructions join the system prompt, marked as its words, unless its
    // definition says "instructions": false.
    void serverInstructionsJoinTheSystemPrompt()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::Deny, ws.path());
        QVERIFY(rig);
        AgentOptions options;
        Session *session = rig->session.get();
        options.moreInstructions = [session] {
            return session->serverInstructions();
        };
        Agent agent(rig->provider.get(), session->registry(), rig->runner, options);
        agent.newConversation(QStringLiteral("t"), ws.path());
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        QSignalSpy done(&agent, &Agent::turnFinished);
        QVERIFY(agent.send(QStringLiteral("hi")));
        QVERIFY(done.wait(10000));
        const auto systemOf = [](const Json &request) {
            for (const Json &m : request["messages"]) {
                if (m.value("role", "") == "system")
                    return QString::fromStdString(m.value("content", ""));
            }
            return QString();
        };
        const QString system = systemOf(rig->model->requests().at(0));
        QVERIFY2(system.contains(QLatin1String("Instructions from the MCP server \"fix\"")),
                 qPrintable(system));
        QVERIFY(system.endsWith(QLatin1String("\nfixture")));

        Mcp::McpConfig config = session->config();
        config.servers[0].definition["instructions"] = false;
        session->apply(config);
        QVERIFY(QTest::qWaitFor(
                [&] {
                    return session->manager()->isSettled() && session->manager()->client("fix");
                },
                10000));
        QVERIFY(session->serverInstructions().isEmpty());
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        QVERIFY(agent.send(QStringLiteral("again")));
        QVERIFY(done.wait(10000));
        QVERIFY(!systemOf(rig->model->requests().at(1)).contains(QLatin1String("fixture")));
        QVERIFY(ServerPolicy::check({{"instructions", "yes"}}).size() == 1);
    }

    // A tool result's image and audio go to the model after the tool messages; with
    // modelSeesMedia off (a text-only model) they do not, and the text still names them.
    void toolMediaFollowTheSetting_data()
    {
        QTest::addColumn<bool>("sees");
        QTest::newRow("sees") << true;
        QTest::newRow("text only") << false;
    }

    void toolMediaFollowTheSetting()
    {
        QFETCH(bool, sees);
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        AgentOptions options;
        options.modelSeesMedia = sees;
        Agent agent(rig->provider.get(), rig->session->registry(), rig->runner, options);
        agent.newConversation(QStringLiteral("t"), ws.path());
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__kinds"), Json::object()}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("seen")));
        QSignalSpy done(&agent, &Agent::turnFinished);
        QVERIFY(agent.send(QStringLiteral("show me")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 15000);
        const std::string second = rig->model->requests().last().dump();
        QVERIFY(second.find("[image image/png") != std::string::npos); // named in the text
        QCOMPARE(second.find("data:image/png;base64,") != std::string::npos, sees);
        QCOMPARE(second.find("input_audio") != std::string::npos, sees);
    }

    void concurrentToolsWhenAllowed()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 400}}},
                 {QStringLiteral("mcp__fix__write_file"),
                  Json{{"path", "out.txt"}, {"content", "written"}, {"ms", 400}}}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Both done.")));
        QMap<QString, qint64> started, finished;
        connect(rig->agent.get(), &Agent::toolStarted, this,
                [&](const QString &id, const QString &, const Json &) {
                    started[id] = Mcp::steadyNowMs();
                });
        connect(rig->agent.get(), &Agent::toolFinished, this,
                [&](const QString &id, const SharedToolRunResult &) {
                    finished[id] = Mcp::steadyNowMs();
                });
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QSignalSpy errors(rig->agent.get(), &Agent::errorOccurred);
        QVERIFY(rig->agent->send(QStringLiteral("do both")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 15000);
        QCOMPARE(errors.count(), 0);
        QCOMPARE(started.size(), 2);
        QCOMPARE(finished.size(), 2);
        // Concurrency, not order: each started before the other finished.
        const auto starts = started.values();
        const auto ends = finished.values();
        QVERIFY(*std::max_element(starts.begin(), starts.end())
                < *std::min_element(ends.begin(), ends.end()));
        QFile out(QDir(ws.path()).filePath(QStringLiteral("out.txt")));
        QVERIFY(out.open(QIODevice::ReadOnly));
        QCOMPARE(out.readAll(), QByteArray("written"));
        const Json tools = toolMessages(rig->model->requests().at(1));
        QCOMPARE(int(tools.size()), 2);
        QCOMPARE(rig->agent->messages().back().text, QStringLiteral("Both done."));
    }

    // A tool the user turned off is not offered, and a model that calls it anyway is told so;
    // nothing runs.
    void turnedOffToolIsNotOfferedNorRun()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        rig->session->registry()->setNotOffered({}, {QStringLiteral("mcp__fix__write_file")});
        rig->model->enqueue(
                FakeLlmServer::openAiToolCalls({{QStringLiteral("mcp__fix__write_file"),
                                                 Json{{"path", "off.txt"}, {"content", "x"}}}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Understood.")));
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QVERIFY(rig->agent->send(QStringLiteral("write it")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QVERIFY(!QFile::exists(QDir(ws.path()).filePath(QStringLiteral("off.txt"))));
        const std::string offered = rig->model->requests().at(0)["tools"].dump();
        QVERIFY(offered.find("mcp__fix__write_file") == std::string::npos);
        QVERIFY(offered.find("mcp__fix__echo") != std::string::npos);
        const Json tools = toolMessages(rig->model->requests().at(1));
        QCOMPARE(int(tools.size()), 1);
        QVERIFY(tools[0].dump().find("turned off") != std::string::npos);
    }

    // A conversation longer than the model's context window is fitted before it is sent: the
    // agent says so once, the model gets the recent part, the conversation keeps everything.
    void longConversationIsFittedToTheContext()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        Agent agent(rig->provider.get(), rig->session->registry(), rig->runner, smallWindow());
        agent.openConversation(QStringLiteral("memory-long"), oldQuestions(true));
        QSignalSpy fitted(&agent, &Agent::contextFitted);
        QSignalSpy done(&agent, &Agent::turnFinished);
        // First the model summarises what must go, then it answers with that summary.
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("SUMMARY: forty questions")));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Fine.")));
        QVERIFY(agent.send(QStringLiteral("the new question")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QCOMPARE(rig->model->requests().size(), 2);
        const Json summaryRequest = rig->model->requests().first();
        QVERIFY(!summaryRequest.contains("tools") || summaryRequest["tools"].empty());
        QVERIFY(summaryRequest["messages"].dump().find("old question") != std::string::npos);
        QVERIFY(summaryRequest["messages"].dump().find("the new question") == std::string::npos);
        QCOMPARE(fitted.count(), 1);
        QVERIFY(fitted.first().at(1).toInt() > 0);
        QVERIFY(fitted.first().at(2).toBool()); // summarised
        const Json main = rig->model->requests().last();
        const Json sent = main["messages"];
        QVERIFY(sent.size() < 40);
        QVERIFY(sent.dump().find("the new question") != std::string::npos);
        QVERIFY(sent.dump().find("old question 0 ") == std::string::npos);
        QVERIFY(sent.dump().find("left out to fit the context window") != std::string::npos);
        QVERIFY(sent.dump().find("SUMMARY: forty questions") != std::string::npos); // in system
        QCOMPARE(agent.messages().size(), size_t(82)); // the conversation keeps all

        // The next turn leaves out no more: the summary is reused, not asked for again.
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Again.")));
        QVERIFY(agent.send(QStringLiteral("short")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 10000);
        QCOMPARE(rig->model->requests().size(), 3);
        QVERIFY(rig->model->requests().last().dump().find("SUMMARY: forty questions")
                != std::string::npos);
    }

    // A summary that fails (the provider refuses it) costs nothing but the summary: the
    // earlier part is left out, as without one, and the turn goes on.
    void failedSummaryLeavesTheEarlierPartOut()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        Agent agent(rig->provider.get(), rig->session->registry(), rig->runner, smallWindow());
        agent.openConversation(QStringLiteral("memory-failed-summary"), oldQuestions(false));
        QSignalSpy fitted(&agent, &Agent::contextFitted);
        QSignalSpy done(&agent, &Agent::turnFinished);
        QSignalSpy errors(&agent, &Agent::errorOccurred);
        FakeLlmServer::Reply refused;
        refused.status = 400;
        refused.body = R"({"error":{"message":"no summaries today"}})";
        rig->model->enqueue(refused);
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Fine anyway.")));
        QVERIFY(agent.send(QStringLiteral("the new question")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QCOMPARE(errors.count(), 0);
        QCOMPARE(rig->model->requests().size(), 2);
        QCOMPARE(fitted.count(), 1);
        QVERIFY(!fitted.first().at(2).toBool());
        QVERIFY(rig->model->requests().last()["messages"].dump().find(
                        "left out to fit the context window")
                != std::string::npos);
        QCOMPARE(agent.messages().back().text, QStringLiteral("Fine anyway."));
    }

    // Retry asks again from the last user message; editing it replaces it and what followed.
    // The model sees only the kept history; the file keeps everything and reads back the same.
    void retryAndEditReplaceWhatFollowed()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        ConversationStore store(m_dir.filePath(QStringLiteral("retry-conversations")));
        rig->agent->setStore(&store);
        rig->agent->newConversation(QStringLiteral("retry"), ws.path());
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QSignalSpy errors(rig->agent.get(), &Agent::errorOccurred);
        QVERIFY(!rig->agent->retry()); // nothing to retry yet

        FakeLlmServer::Reply refused;
        refused.status = 400;
        refused.body = R"({"error":{"message":"context too long"}})";
        rig->model->enqueue(refused);
        QVERIFY(rig->agent->send(QStringLiteral("first question")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(rig->agent->messages().size(), size_t(1));

        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Answer A")));
        QVERIFY(rig->agent->retry());
        QVERIFY(!rig->agent->retry()); // not while a turn runs
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 10000);
        QCOMPARE(rig->agent->messages().size(), size_t(2));
        QCOMPARE(rig->agent->messages().back().text, QStringLiteral("Answer A"));

        // Retry after an answer asks for another one in its place.
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Answer B")));
        QVERIFY(rig->agent->retry());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, 10000);
        QCOMPARE(rig->agent->messages().size(), size_t(2));
        QCOMPARE(rig->agent->messages().back().text, QStringLiteral("Answer B"));
        const Json retried = rig->model->requests().at(2)["messages"];
        QVERIFY(retried.dump().find("Answer A") == std::string::npos);

        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Answer C")));
        QVERIFY(rig->agent->editLastUserMessage(QStringLiteral("better question")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 4, 10000);
        const Json edited = rig->model->requests().at(3)["messages"];
        QVERIFY(edited.dump().find("better question") != std::string::npos);
        QVERIFY(edited.dump().find("first question") == std::string::npos);
        QVERIFY(edited.dump().find("Answer B") == std::string::npos);
        QCOMPARE(rig->agent->messages().size(), size_t(2));

        const std::optional<Conversation> loaded = store.load(rig->agent->conversationId());
        QVERIFY(loaded);
        QCOMPARE(loaded->messages.size(), size_t(2));
        QCOMPARE(loaded->messages.at(0).text, QStringLiteral("better question"));
        QCOMPARE(loaded->messages.at(1).text, QStringLiteral("Answer C"));
        QCOMPARE(loaded->skippedLines, 0);
        QCOMPARE(store.list().at(0).messageCount, 2);
        QFile file(store.filePath(rig->agent->conversationId()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray all = file.readAll();
        QVERIFY(all.contains("Answer A") && all.contains("Answer B")); // nothing is lost
    }

    // A model that gives two calls of one turn the same id (or none) must get two results,
    // one per call, in order: the agent's own call ids keep them apart.
    void repeatedCallIdsBothComplete_data()
    {
        QTest::addColumn<QByteArray>("secondId");
        QTest::newRow("same id") << QByteArray("call_fake_0");
        QTest::newRow("no id") << QByteArray();
    }

    void repeatedCallIdsBothComplete()
    {
        QFETCH(QByteArray, secondId);
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        FakeLlmServer::Reply calls = FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 200}}},
                 {QStringLiteral("mcp__fix__slow"), Json{{"ms", 50}}}});
        for (QByteArray &event : calls.events) {
            if (secondId.isEmpty())
                event.replace("\"id\":\"call_fake_1\",", "");
            else
                event.replace("\"call_fake_1\"", "\"" + secondId + "\"");
        }
        rig->model->enqueue(calls);
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Both done.")));
        // A server that checks (as OpenAI does) refuses a history that repeats an id.
        rig->model->setStrictToolCallIds(true);
        QStringList finishedIds;
        connect(rig->agent.get(), &Agent::toolFinished, this,
                [&](const QString &id, const SharedToolRunResult &) { finishedIds << id; });
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QSignalSpy errors(rig->agent.get(), &Agent::errorOccurred);
        QVERIFY(rig->agent->send(QStringLiteral("twice")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 15000);
        QCOMPARE(errors.count(), 0);
        QCOMPARE(finishedIds.size(), 2);
        QVERIFY(finishedIds.at(0) != finishedIds.at(1));
        QCOMPARE(rig->model->requests().size(), 2);
        // The fixture's events did carry the repeated (or missing) id.
        Json assistant;
        for (const Json &m : rig->model->requests().at(1)["messages"]) {
            if (m.value("role", "") == "assistant")
                assistant = m;
        }
        QVERIFY2(assistant["tool_calls"].size() == 2, assistant.dump().c_str());
        // The conversation keeps the model's own (repeated or missing) ids...
        const ChatMessage &said = rig->agent->messages().at(1);
        QCOMPARE(int(said.toolCalls.size()), 2);
        if (!secondId.isEmpty())
            QCOMPARE(said.toolCalls.at(1).id, QString::fromLatin1(secondId));
        // ...but what is sent back gives each call an id of its own, and each result its call's.
        QVERIFY2(FakeLlmServer::repeatedToolCallId(rig->model->requests().at(1)).isEmpty(),
                 rig->model->requests().at(1).dump().c_str());
        const Json tools = toolMessages(rig->model->requests().at(1));
        QCOMPARE(int(tools.size()), 2);
        for (int i = 0; i < 2; ++i)
            QVERIFY(tools[i]["tool_call_id"] == assistant["tool_calls"][i]["id"]);
        // Results in the model's order, each its own call's.
        QVERIFY2(QString::fromStdString(tools[0]["content"].dump()).contains("slow done 200"),
                 tools[0].dump().c_str());
        QVERIFY2(QString::fromStdString(tools[1]["content"].dump()).contains("slow done 50"),
                 tools[1].dump().c_str());
        QCOMPARE(rig->agent->messages().back().text, QStringLiteral("Both done."));
    }

    void deniedToolNeverRuns()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::Deny, ws.path());
        QVERIFY(rig);
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 50}}},
                 {QStringLiteral("mcp__fix__write_file"),
                  Json{{"path", "out.txt"}, {"content", "x"}}}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Understood.")));
        // Every tools/call the server is sent: the turn ends only after its calls were sent
        // and answered, so what is not here by then was never asked of the server.
        QList<QByteArray> sentCalls;
        rig->session->manager()->setTrafficObserver(
                [&](const QString &, Mcp::TrafficDirection direction, QByteArrayView text, qint64) {
                    if (direction == Mcp::TrafficDirection::Sent
                        && text.toByteArray().contains("\"method\":\"tools/call\""))
                        sentCalls << text.toByteArray();
                });
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QSignalSpy asked(rig->agent.get(), &Agent::approvalNeeded);
        QVERIFY(rig->agent->send(QStringLiteral("try")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 15000);
        QCOMPARE(asked.count(), 1); // only the dangerous call; slow is configured read
        QCOMPARE(asked.first().at(1).toString(), QStringLiteral("mcp__fix__write_file"));
        QCOMPARE(sentCalls.size(), 1);
        QVERIFY2(sentCalls[0].contains("\"name\":\"slow\""), sentCalls[0].constData());
        QVERIFY(!QFile::exists(QDir(ws.path()).filePath(QStringLiteral("out.txt"))));
        const Json tools = toolMessages(rig->model->requests().at(1));
        QCOMPARE(int(tools.size()), 2);
        const QString readResult = QString::fromStdString(tools[0]["content"].dump());
        const QString writeResult = QString::fromStdString(tools[1]["content"].dump());
        QVERIFY2(readResult.contains(QStringLiteral("slow done 50")), qPrintable(readResult));
        QVERIFY2(writeResult.contains(QStringLiteral("denied")), qPrintable(writeResult));
        QVERIFY(writeResult.contains(QStringLiteral("not allowed in tests")));
    }

    void hangingToolTimesOutAndConversationContinues()
    {
        QTemporaryDir ws;
        const QString log = ws.filePath(QStringLiteral("cancel.log"));
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path(),
                           QStringLiteral("\"--cancel-log\", \"%1\"").arg(log));
        QVERIFY(rig);
        rig->runner->setTimeoutForSource(QStringLiteral("fix"), 300);
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__hang"), Json::object()}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("It timed out, moving on.")));
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QSignalSpy errors(rig->agent.get(), &Agent::errorOccurred);
        QVERIFY(rig->agent->send(QStringLiteral("hang")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 15000);
        QCOMPARE(errors.count(), 0);
        const Json tools = toolMessages(rig->model->requests().at(1));
        QCOMPARE(int(tools.size()), 1);
        QVERIFY2(QString::fromStdString(tools[0]["content"].dump())
                         .contains(QStringLiteral("timed out")),
                 tools[0].dump().c_str());
        QTRY_VERIFY([&] {
            QFile f(log);
            return f.open(QIODevice::ReadOnly) && f.readAll().startsWith("cancelled ");
        }());
        // The conversation goes on.
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Still here.")));
        QVERIFY(rig->agent->send(QStringLiteral("next")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 15000);
        QCOMPARE(rig->agent->messages().back().text, QStringLiteral("Still here."));
    }

    void stopCancelsEverything()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 5000}}}}));
        QSignalSpy started(rig->agent.get(), &Agent::toolStarted);
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QVERIFY(rig->agent->send(QStringLiteral("slow")));
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        rig->agent->cancel();
        QCOMPARE(done.count(), 1);
        QVERIFY(!rig->agent->isBusy());
        QCOMPARE(rig->runner->runningCount(), 0);
        const auto &messages = rig->agent->messages();
        QCOMPARE(messages.back().role, ChatMessage::Role::Tool);
        QVERIFY(messages.back().isError);
    }

    // A call shows while the model writes it, under the id it then runs with; a call stopped
    // while it is written is abandoned, and its id is never given to another call.
    void streamedCallsKeepTheirIds()
    {
        QTemporaryDir ws;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        FakeLlmServer::Reply calls = FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 10}}},
                 {QStringLiteral("mcp__fix__slow"), Json{{"ms", 20}}}});
        calls.delayBetweenEventsMs = 30;
        rig->model->enqueue(calls);
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Done.")));
        QStringList order; // "stream ID" and "start ID", as they came
        QMap<QString, QString> streamed;
        connect(rig->agent.get(), &Agent::toolCallStreaming, this,
                [&](const QString &id, const QString &name, const QString &delta) {
                    QCOMPARE(name, QStringLiteral("mcp__fix__slow"));
                    order << QStringLiteral("stream ") + id;
                    streamed[id] += delta;
                });
        connect(rig->agent.get(), &Agent::toolStarted, this,
                [&](const QString &id, const QString &, const Json &arguments) {
                    order << QStringLiteral("start ") + id;
                    QCOMPARE_JSON(Mcp::parseJson(streamed.value(id).toStdString()), arguments);
                });
        QSignalSpy abandoned(rig->agent.get(), &Agent::toolCallAbandoned);
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QVERIFY(rig->agent->send(QStringLiteral("twice")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 15000);
        QCOMPARE(streamed.size(), 2);
        QCOMPARE(abandoned.count(), 0);
        const QStringList ids = streamed.keys();
        for (const QString &id : ids) {
            const int firstStart = order.indexOf(QStringLiteral("start ") + id);
            QVERIFY2(firstStart > 0, qPrintable(order.join(u',')));
            QVERIFY(order.lastIndexOf(QStringLiteral("stream ") + id) < firstStart);
            QVERIFY(order.count(QStringLiteral("stream ") + id) >= 2);
        }

        // Stopped while the model writes a call: the call is abandoned, with why.
        FakeLlmServer::Reply slow = FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 10}}}});
        slow.delayBetweenEventsMs = 400;
        rig->model->enqueue(slow);
        QSignalSpy streaming(rig->agent.get(), &Agent::toolCallStreaming);
        QVERIFY(rig->agent->send(QStringLiteral("again")));
        QTRY_VERIFY_WITH_TIMEOUT(streaming.count() >= 1, 10000);
        const QString stoppedId = streaming.first().at(0).toString();
        QVERIFY(!ids.contains(stoppedId));
        rig->agent->cancel();
        QCOMPARE(abandoned.count(), 1);
        QCOMPARE(abandoned.first().at(0).toString(), stoppedId);
        QVERIFY(!abandoned.first().at(1).toString().isEmpty());

        // The next answer's call gets an id of its own.
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 10}}}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Done again.")));
        QSignalSpy started(rig->agent.get(), &Agent::toolStarted);
        QVERIFY(rig->agent->send(QStringLiteral("once more")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, 15000);
        QCOMPARE(started.count(), 1);
        QVERIFY(started.first().at(0).toString() != stoppedId);
        QCOMPARE(abandoned.count(), 1);
    }

    // A stopped answer, and one whose stream broke, stay in the conversation file as they
    // were shown: what had streamed, marked stopped (or with the error); reopened, the agent
    // offers Retry again, and Retry drops the partial answer.
    void interruptedAnswerIsKept_data()
    {
        QTest::addColumn<bool>("stop");
        QTest::newRow("stopped") << true;
        QTest::newRow("stream broke") << false;
    }

    void interruptedAnswerIsKept()
    {
        QFETCH(bool, stop);
        QTemporaryDir ws, data;
        auto rig = makeRig(ApprovalChoice::Deny, ws.path());
        QVERIFY(rig);
        ConversationStore store(data.path());
        rig->agent->setStore(&store);
        rig->agent->newConversation(QStringLiteral("long"), ws.path());
        FakeLlmServer::Reply reply = FakeLlmServer::openAiText(
                QStringLiteral("First paragraph. Second paragraph. Third paragraph."), 6);
        reply.delayBetweenEventsMs = stop ? 300 : 20;
        if (!stop) {
            reply.events = reply.events.mid(0, 3); // no finish: the connection drops
            reply.dropConnectionAfterEvents = true;
        }
        rig->model->enqueue(reply);
        QSignalSpy deltas(rig->agent.get(), &Agent::textDelta);
        QSignalSpy done(rig->agent.get(), &Agent::turnFinished);
        QVERIFY(rig->agent->send(QStringLiteral("write a lot")));
        QTRY_VERIFY_WITH_TIMEOUT(deltas.count() >= 2, 10000);
        if (stop)
            rig->agent->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QString shown;
        for (const QList<QVariant> &delta : std::as_const(deltas))
            shown += delta.at(0).toString();
        QVERIFY(!shown.isEmpty());
        const ChatMessage &last = rig->agent->messages().back();
        QCOMPARE(last.role, ChatMessage::Role::Assistant);
        QCOMPARE(last.text, shown);
        QVERIFY(!last.interruption.isEmpty());
        if (stop)
            QCOMPARE(last.interruption, QStringLiteral("Stopped."));
        store.flush();
        const auto saved = store.load(rig->agent->conversationId());
        QVERIFY(saved);
        QCOMPARE(saved->messages.size(), size_t(2));
        QCOMPARE(saved->messages.back().text, shown);
        QCOMPARE(saved->messages.back().interruption, last.interruption);

        Agent reopened(rig->provider.get(), rig->session->registry(), rig->runner);
        reopened.setStore(&store);
        reopened.openConversation(rig->agent->conversationId(), saved->messages);
        QVERIFY(reopened.lastTurnFailed());
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("All of it.")));
        QSignalSpy again(&reopened, &Agent::turnFinished);
        QVERIFY(reopened.retry());
        QTRY_COMPARE_WITH_TIMEOUT(again.count(), 1, 10000);
        QCOMPARE(reopened.messages().size(), size_t(2));
        QCOMPARE(reopened.messages().back().text, QStringLiteral("All of it."));
        QVERIFY(reopened.messages().back().interruption.isEmpty());
        // The retried request no longer carries the partial answer.
        const Json sent = rig->model->requests().back();
        QVERIFY2(!QString::fromStdString(sent.dump()).contains(shown), sent.dump().c_str());
    }

    // Whole results stay with the conversation (a big one in a blob beside it), structured
    // content included, and come back on reopening; past the per-result bound only the model's
    // share is kept and the message says so.
    void wholeResultsAreKept_data()
    {
        QTest::addColumn<qint64>("keepResultBytes");
        QTest::newRow("kept") << qint64(AgentOptions::DefaultKeepResultBytes);
        QTest::newRow("over the bound") << qint64(50000);
    }

    void wholeResultsAreKept()
    {
        QFETCH(qint64, keepResultBytes);
        const bool kept = keepResultBytes > 200000;
        QTemporaryDir ws, data;
        auto rig = makeRig(ApprovalChoice::AllowOnce, ws.path());
        QVERIFY(rig);
        AgentOptions options;
        options.maxToolOutputChars = 1000;
        options.keepResultBytes = keepResultBytes;
        Agent agent(rig->provider.get(), rig->session->registry(), rig->runner, options);
        ConversationStore store(data.path());
        agent.setStore(&store);
        agent.newConversation(QStringLiteral("big"), ws.path());
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__big"), Json{{"bytes", 100000}}},
                 {QStringLiteral("mcp__fix__add"), Json{{"a", 2}, {"b", 3}}}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Done.")));
        QSignalSpy done(&agent, &Agent::turnFinished);
        QVERIFY(agent.send(QStringLiteral("big")));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 15000);
        store.flush();
        const auto saved = store.load(agent.conversationId());
        QVERIFY(saved);
        std::vector<ChatMessage> tools;
        for (const ChatMessage &message : saved->messages) {
            if (message.role == ChatMessage::Role::Tool)
                tools.push_back(message);
        }
        QCOMPARE(tools.size(), size_t(2));
        QVERIFY(tools[0].text.size() < 2000); // the model's share
        if (kept) {
            QVERIFY(tools[0].result.is_object());
            QCOMPARE(tools[0].result["content"][0]["text"].get<std::string>().size(),
                     size_t(100000));
            QVERIFY(tools[0].resultNote.isEmpty());
            // The conversation file names a blob instead of holding 100 kB.
            QFile file(store.filePath(agent.conversationId()));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(file.size() < 50000);
        } else {
            QVERIFY(tools[0].result.is_null());
            QVERIFY2(tools[0].resultNote.contains(QLatin1String("model's share")),
                     qPrintable(tools[0].resultNote));
        }
        QVERIFY2(tools[1].result.value("structuredContent", Json()) == Json({{"sum", 5}}),
                 tools[1].result.dump().c_str());
    }

    void cliApproveDenyAndYes_data()
    {
        QTest::addColumn<QString>("approve");
        QTest::newRow("deny") << "deny";
        QTest::newRow("yes") << "yes";
    }

    void cliApproveDenyAndYes()
    {
        QFETCH(QString, approve);
        QTemporaryDir ws, data;
        writeWorkspaceConfig(ws.path(), data.path());
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 300}}},
                 {QStringLiteral("mcp__fix__write_file"),
                  Json{{"path", "out.txt"}, {"content", "cli"}, {"ms", 300}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Finished.")));
        const CliRun run
                = runCli(model, ws.path(), data.path(),
                         {QStringLiteral("write a file"), QStringLiteral("--approve"), approve});
        const bool yes = approve == QLatin1String("yes");
        QVERIFY2(run.code == (yes ? 0 : 6), qPrintable(QString::number(run.code) + run.err));
        QVERIFY(run.out.contains(QStringLiteral("Finished.")));
        QCOMPARE(QFile::exists(QDir(ws.path()).filePath(QStringLiteral("out.txt"))), yes);
        QCOMPARE(model.requests().size(), 2);
        const Json tools = toolMessages(model.requests().at(1));
        QCOMPARE(int(tools.size()), 2);
        QVERIFY(QString::fromStdString(tools[0]["content"].dump())
                        .contains(QStringLiteral("slow done 300")));
        const QString write = QString::fromStdString(tools[1]["content"].dump());
        QVERIFY2(write.contains(yes ? QStringLiteral("wrote 3 bytes") : QStringLiteral("denied")),
                 qPrintable(write));
    }

    // The CLI wires its engine as the window does (Engine::Session): a server's own "timeout"
    // limits its tool calls in `run` too.
    void cliServerTimeoutApplies()
    {
        QTemporaryDir ws, data;
        writeWorkspaceConfig(
                ws.path(), data.path(),
                QStringLiteral("{\"mcpServers\": {\"fix\": {\"command\": \"%1\", \"timeout\": 0.5,"
                               " \"tools\": {\"slow\": {\"risk\": \"read\"}}}}}")
                        .arg(fixture())
                        .toUtf8());
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 20000}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Gave up.")));
        QElapsedTimer clock;
        clock.start();
        const CliRun run = runCli(
                model, ws.path(), data.path(),
                {QStringLiteral("be slow"), QStringLiteral("--approve"), QStringLiteral("deny")});
        QVERIFY2(run.code == 0, qPrintable(QString::number(run.code) + run.err));
        QVERIFY2(run.err.contains(QStringLiteral("[tool] → timed out")), qPrintable(run.err));
        QVERIFY2(clock.elapsed() < 15000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(model.requests().size(), 2);
    }

    void cliBashSandboxAndEnvironment_data()
    {
        QTest::addColumn<QString>("sandbox");
        QTest::newRow("on") << "on";
        QTest::newRow("off") << "off";
    }

    // `run` with the built-in bash: the provider keys of the CLI's own environment never reach
    // the command (nor, through its output, the model); --sandbox on keeps its writes in the
    // workspace.
    void cliBashSandboxAndEnvironment()
    {
        QFETCH(QString, sandbox);
        if (sandbox == QLatin1String("on"))
            SKIP_UNLESS_SANDBOX();
        QTemporaryDir ws, data;
        QTemporaryDir outside(QDir::currentPath() + QStringLiteral("/cli-outside-XXXXXX"));
        QVERIFY(outside.isValid());
        const QString outsideFile = outside.filePath(QStringLiteral("OUTSIDE"));
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("bash"),
                  Json{{"command", QStringLiteral("touch inside; touch '%1'; env")
                                           .arg(outsideFile)
                                           .toStdString()}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Done.")));
        const CliRun run = runCli(
                model, ws.path(), data.path(),
                {QStringLiteral("go"), QStringLiteral("--approve"), QStringLiteral("yes")},
                {QStringLiteral("--sandbox"), sandbox},
                {{QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-cli-secret-key")},
                 {QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("sk-ant-cli-secret-key")}});
        QVERIFY2(run.out.contains(QStringLiteral("Done.")), qPrintable(run.out + run.err));
        QCOMPARE(model.requests().size(), 2);
        const Json tools = toolMessages(model.requests().at(1));
        QCOMPARE(int(tools.size()), 1);
        const QString result = QString::fromStdString(tools[0]["content"].dump());
        QVERIFY2(result.contains(QStringLiteral("PATH=")), qPrintable(result));
        QVERIFY(!result.contains(QStringLiteral("cli-secret-key")));
        QVERIFY(!result.contains(QStringLiteral("API_KEY")));
        QVERIFY(QFileInfo::exists(QDir(ws.path()).filePath(QStringLiteral("inside"))));
        QCOMPARE(QFileInfo::exists(outsideFile), sandbox == QLatin1String("off"));
    }

    void cliRememberedGrantAsksTheProbe_data() { cliBashSandboxAndEnvironment_data(); }

    // The issue's probe through `run`: with "always" remembered for `npm test` (as the dialog
    // saves it), `npm test --version` runs unasked, but the probe's command, which bash turns
    // into `$(cp ~/.ssh/id_rsa stolen.txt)`, is asked (and so denied under --approve deny),
    // with the sandbox and without; the key never reaches the workspace.
    void cliRememberedGrantAsksTheProbe()
    {
        QFETCH(QString, sandbox);
        if (sandbox == QLatin1String("on"))
            SKIP_UNLESS_SANDBOX();
        QTemporaryDir ws, data, home;
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral(".ssh")));
        QFile key(home.filePath(QStringLiteral(".ssh/id_rsa")));
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.write("FAKE-PRIVATE-KEY\n");
        key.close();
        QVERIFY(QDir(data.path()).mkpath(QStringLiteral("switchboard")));
        QFile approvals(data.filePath(QStringLiteral("switchboard/approvals.json")));
        QVERIFY(approvals.open(QIODevice::WriteOnly));
        const Json grants = {{"version", 1},
                             {"workspaces",
                              {{QFileInfo(ws.path()).canonicalFilePath().toStdString(),
                                {{"builtin/bash", Json::array({"npm test*"})}}}}}};
        approvals.write(QByteArray::fromStdString(grants.dump()));
        approvals.close();
        const QString probe = QStringLiteral(
                "npm test ${x:=\\$$'\\x28'cp $HOME/.ssh/id_rsa stolen.txt$'\\x29'} ${x@P}");
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("bash"), Json{{"command", "npm test --version"}}},
                 {QStringLiteral("bash"), Json{{"command", probe.toStdString()}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Done.")));
        const CliRun run = runCli(
                model, ws.path(), data.path(),
                {QStringLiteral("go"), QStringLiteral("--approve"), QStringLiteral("deny")},
                {QStringLiteral("--sandbox"), sandbox}, {{QStringLiteral("HOME"), home.path()}});
        QCOMPARE(model.requests().size(), 2);
        const Json tools = toolMessages(model.requests().at(1));
        QCOMPARE(int(tools.size()), 2);
        const QString granted = QString::fromStdString(tools[0]["content"].dump());
        // (npm itself may say "permission denied" writing its logs in the sandbox.)
        const QString asked = QString::fromStdString(tools[1]["content"].dump());
        QVERIFY2(!granted.contains(QStringLiteral("The user denied")), qPrintable(granted));
        QVERIFY2(asked.contains(QStringLiteral("The user denied")), qPrintable(asked));
        QVERIFY(!QFileInfo::exists(ws.filePath(QStringLiteral("stolen.txt"))));
        QDirIterator files(ws.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(!file.readAll().contains("FAKE-PRIVATE-KEY"), qPrintable(file.fileName()));
        }
    }

    // A read tool asks before touching a file that may hold secrets: under --approve deny,
    // `read_file .env` is denied and its content never reaches the model, while an ordinary
    // file is still read unasked; search_files skips the secret unless allowed.
    void cliSensitiveFileIsAsked()
    {
        QTemporaryDir ws, data;
        QFile env(QDir(ws.path()).filePath(QStringLiteral(".env")));
        QVERIFY(env.open(QIODevice::WriteOnly));
        env.write("OPENAI_API_KEY=sk-hunter2-secret\n");
        env.close();
        QFile readme(QDir(ws.path()).filePath(QStringLiteral("README.md")));
        QVERIFY(readme.open(QIODevice::WriteOnly));
        readme.write("hello readme\n");
        readme.close();
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("read_file"), Json{{"path", ".env"}}},
                 {QStringLiteral("read_file"), Json{{"path", "README.md"}}},
                 {QStringLiteral("read_file"), Json{{"path", "sub/../.env"}}},
                 {QStringLiteral("search_files"), Json{{"pattern", "*"}, {"query", "hunter2"}}},
                 {QStringLiteral("search_files"),
                  Json{{"pattern", "*"}, {"query", "hunter2"}, {"include_sensitive", true}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Finished.")));
        QVERIFY(QDir(ws.path()).mkdir(QStringLiteral("sub")));
        const CliRun run = runCli(model, ws.path(), data.path(),
                                  {QStringLiteral("read the env"), QStringLiteral("--approve"),
                                   QStringLiteral("deny")});
        QVERIFY2(run.code == 6, qPrintable(QString::number(run.code) + run.err));
        QVERIFY2(run.err.contains(QStringLiteral(".env")), qPrintable(run.err));
        QCOMPARE(model.requests().size(), 2);
        const QString sent = QString::fromStdString(model.requests().at(1).dump());
        QVERIFY2(!sent.contains(QStringLiteral("hunter2-secret")), qPrintable(sent));
        const Json tools = toolMessages(model.requests().at(1));
        QCOMPARE(int(tools.size()), 5);
        auto content = [&](int i) {
            return QString::fromStdString(tools[i]["content"].dump());
        };
        QVERIFY2(content(0).contains(QStringLiteral("denied")), qPrintable(content(0)));
        QVERIFY2(content(1).contains(QStringLiteral("hello readme")), qPrintable(content(1)));
        QVERIFY2(content(2).contains(QStringLiteral("denied")), qPrintable(content(2)));
        QVERIFY2(content(3).contains(QStringLiteral("may hold secrets")), qPrintable(content(3)));
        QVERIFY2(content(3).contains(QStringLiteral("No lines match")), qPrintable(content(3)));
        QVERIFY2(content(4).contains(QStringLiteral("denied")), qPrintable(content(4)));
        // Nothing the CLI wrote (the conversation file) holds the secret either.
        QDirIterator files(data.path(), QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(!file.readAll().contains("hunter2-secret"), qPrintable(file.fileName()));
        }
    }

    // Secrets the app knows (a server's env value from ${VAR}, the provider key) never reach
    // the model, the terminal, the conversation file or the audit log, even when a server
    // prints them; `switchboard-cli audit` then shows what ran.
    void cliSecretsStayOutOfModelAndFiles()
    {
        const QByteArray serverSecret = "srv-Secret-7d1e9a";
        const QByteArray providerKey = "sk-test-Provider0Key1234";
        QTemporaryDir ws, data;
        // The user's config (trusted), not the workspace's.
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("switchboard"))));
        QFile config(data.filePath(QStringLiteral("switchboard/mcp.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("{\"mcpServers\": {\"sec\": {\"command\": \"%1\", "
                                    "\"args\": [\"--env-tool\"], \"risk\": \"read\", "
                                    "\"env\": {\"PLAIN_VALUE\": \"${MY_SETTING}\"}}}}")
                             .arg(fixture())
                             .toUtf8());
        config.close();
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__sec__get_env"), Json{{"name", "PLAIN_VALUE"}}},
                 {QStringLiteral("mcp__sec__get_env"), Json{{"name", "OPENAI_API_KEY"}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Done.")));
        QProcessEnvironment env;
        // A name that does not look secret: only its ${VAR} origin marks the value.
        env.insert(QStringLiteral("MY_SETTING"), QString::fromUtf8(serverSecret));
        env.insert(QStringLiteral("OPENAI_API_KEY"), QString::fromUtf8(providerKey));
        const CliRun run = runCliEnv(
                model, ws.path(), data.path(),
                {QStringLiteral("show me"), QStringLiteral("--approve"), QStringLiteral("deny")},
                env);
        QVERIFY2(run.code == 0, qPrintable(QString::number(run.code) + run.err));
        QCOMPARE(model.requests().size(), 2);
        const QByteArray seen = QByteArray::fromStdString(model.requests().at(1).dump());
        QVERIFY2(seen.contains("value: \u00abredacted\u00bb") || seen.contains("value: «redacted»"),
                 seen.constData());
        QVERIFY(!seen.contains(serverSecret));
        QVERIFY(!seen.contains(providerKey));
        for (const QString &text : {run.out, run.err}) {
            QVERIFY(!text.contains(QString::fromUtf8(serverSecret)));
            QVERIFY(!text.contains(QString::fromUtf8(providerKey)));
        }
        // Nothing written under the data folder holds them: conversations, the audit log.
        int files = 0;
        QDirIterator it(data.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            QVERIFY2(!bytes.contains(serverSecret), qPrintable(file.fileName()));
            QVERIFY2(!bytes.contains(providerKey), qPrintable(file.fileName()));
            ++files;
        }
        QVERIFY(files >= 3); // mcp.json, the conversation, audit.jsonl
        const QString auditPath = data.filePath(QStringLiteral("switchboard/audit.jsonl"));
        QVERIFY(QFileInfo::exists(auditPath));

        // `audit`: the readable form, then JSON lines.
        const CliRun audit
                = runCliEnv(model, ws.path(), data.path(), {}, {}, QStringLiteral("audit"));
        QCOMPARE(audit.code, 0);
        const QStringList lines = audit.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 6); // two calls: decision, start, end each
        QVERIFY2(lines.last().contains(QStringLiteral(" end mcp__sec__get_env (sec, ")),
                 qPrintable(audit.out));
        QVERIFY(lines.last().contains(QStringLiteral(" ok ")));
        QVERIFY(lines.first().contains(QStringLiteral("decision")));
        const CliRun json = runCliEnv(
                model, ws.path(), data.path(),
                {QStringLiteral("--tail"), QStringLiteral("2"), QStringLiteral("--json")}, {},
                QStringLiteral("audit"));
        QCOMPARE(json.code, 0);
        const QStringList jsonLines = json.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(jsonLines.size(), 2);
        const Json last = Json::parse(jsonLines.last().toStdString());
        QCOMPARE_JSON(last["event"], "end");
        QCOMPARE_JSON(last["outcome"], "ok");
        QCOMPARE(last["workspace"].get<std::string>(),
                 QFileInfo(ws.path()).absoluteFilePath().toStdString());
        QVERIFY(!last["conversation"].get<std::string>().empty());
        QCOMPARE(last["argumentsSha256"].get<std::string>().size(), std::size_t(64));

        // `call` bypasses the runner but is redacted and audited too.
        const CliRun call = runCliEnv(model, ws.path(), data.path(),
                                      {QStringLiteral("sec"), QStringLiteral("get_env"),
                                       QStringLiteral("{\"name\":\"PLAIN_VALUE\"}")},
                                      env, QStringLiteral("call"));
        QVERIFY2(call.code == 0, qPrintable(call.err));
        QVERIFY2(call.out.contains(QStringLiteral("value: «redacted»")), qPrintable(call.out));
        QVERIFY(!call.out.contains(QString::fromUtf8(serverSecret)));
        const CliRun after = runCliEnv(model, ws.path(), data.path(),
                                       {QStringLiteral("--tail"), QStringLiteral("1")}, {},
                                       QStringLiteral("audit"));
        QVERIFY2(after.out.contains(QStringLiteral("end get_env (sec) ok")), qPrintable(after.out));
    }

    void cliKillLosesNoCompletedMessage()
    {
        QTemporaryDir ws, data;
        writeWorkspaceConfig(ws.path(), data.path());
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__slow"), Json{{"ms", 60000}}}}));
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OPENAI_BASE_URL"), model.baseUrl());
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), data.path());
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(SWITCHBOARD_CLI),
                  {QStringLiteral("--workspace"), ws.path(), QStringLiteral("run"),
                   QStringLiteral("please wait"), QStringLiteral("--approve"),
                   QStringLiteral("yes")});
        // Kill it while the tool runs: the user and assistant messages are complete by then.
        QString stderrText;
        QTRY_VERIFY_WITH_TIMEOUT((stderrText += QString::fromUtf8(cli.readAllStandardError()))
                                                 .contains(QStringLiteral("[tool] mcp__fix__slow"))
                                         || cli.state() == QProcess::NotRunning,
                                 15000);
        QCOMPARE(cli.state(), QProcess::Running);
        cli.kill();
        (void)QTest::qWaitFor([&] { return cli.state() == QProcess::NotRunning; }, 5000);

        QString folder;
        QDirIterator files(data.path(), {QStringLiteral("*.jsonl")}, QDir::Files,
                           QDirIterator::Subdirectories);
        while (files.hasNext() && folder.isEmpty()) {
            const QString path = files.next();
            if (!path.endsWith(QLatin1String("/audit.jsonl"))) // the audit log is not one
                folder = QFileInfo(path).absolutePath();
        }
        QVERIFY2(folder.endsWith(QStringLiteral("/switchboard/conversations")),
                 qPrintable(folder + stderrText));
        ConversationStore store(folder);
        const auto list = store.list();
        QCOMPARE(list.size(), 1);
        QString error;
        const auto conversation = store.load(list.first().id, &error);
        QVERIFY2(conversation, qPrintable(error));
        QCOMPARE(int(conversation->messages.size()), 2);
        QCOMPARE(conversation->messages[0].role, ChatMessage::Role::User);
        QCOMPARE(conversation->messages[0].text, QStringLiteral("please wait"));
        QCOMPARE(conversation->messages[1].role, ChatMessage::Role::Assistant);
        QCOMPARE(int(conversation->messages[1].toolCalls.size()), 1);
        QCOMPARE(conversation->messages[1].toolCalls[0].name, QStringLiteral("mcp__fix__slow"));
    }
};

QTEST_GUILESS_MAIN(tst_Agent)
#include "tst_agent.moc"
