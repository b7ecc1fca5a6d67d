// spawn_subagent: a sub-agent with its own conversation, the same tools and approval gate, the
// tools it may use limited, its answer as the observation, stopped with its parent, and under
// an inbound task's read-only runner only a read-only sub-agent.

#include "fakellmserver.h"
#include "sessiontest.h"

#include <engine/agent/agent.h>
#include <engine/agent/subagenttool.h>
#include <engine/session.h>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Engine;

namespace {

// Answers every request with one choice and remembers what it was asked.
class RecordingGate : public ApprovalGate
{
public:
    explicit RecordingGate(ApprovalChoice choice)
        : m_choice(choice)
    {
    }
    void requestApproval(const ApprovalRequest &request,
                         std::function<void(ApprovalDecision)> decide) override
    {
        asked << request.toolName + QLatin1Char(' ') + request.reason;
        decide(ApprovalDecision{m_choice, QStringLiteral("no")});
    }
    QStringList asked;

private:
    ApprovalChoice m_choice;
};

QStringList toolNames(const Json &request)
{
    QStringList names;
    for (const Json &tool : request.value("tools", Json::array()))
        names << QString::fromStdString(tool["function"].value("name", ""));
    return names;
}

QString lastToolText(const Json &request)
{
    QString text;
    for (const Json &message : request["messages"]) {
        if (message.value("role", "") == "tool")
            text = QString::fromStdString(message.value("content", ""));
    }
    return text;
}

} // namespace

class tst_Subagent : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_workspace;

    struct Rig
    {
        std::unique_ptr<RecordingGate> gate;
        std::unique_ptr<FakeLlmServer> model;
        std::unique_ptr<Session> session;
        std::unique_ptr<LlmProvider> provider;
        std::unique_ptr<Agent> agent;
    };

    std::unique_ptr<Rig> makeRig(ApprovalChoice choice, bool inbound = false)
    {
        auto rig = std::make_unique<Rig>();
        rig->gate = std::make_unique<RecordingGate>(choice);
        rig->model = std::make_unique<FakeLlmServer>(FakeLlmServer::Dialect::OpenAi);
        if (!rig->model->listen())
            return nullptr;
        rig->session = makeTestSession(m_workspace, m_dir.path());
        rig->session->setGate(rig->gate.get());
        ProviderConfig config;
        config.baseUrl = rig->model->baseUrl();
        config.model = QStringLiteral("scripted");
        rig->session->setModel(config);
        rig->provider = createProvider(config);
        rig->agent = std::make_unique<Agent>(rig->provider.get(), rig->session->registry(),
                                             inbound ? rig->session->inboundRunner()
                                                     : rig->session->runner());
        rig->agent->newConversation(QStringLiteral("parent"), m_workspace);
        return rig;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_workspace = m_dir.filePath(QStringLiteral("ws"));
        QVERIFY(QDir().mkpath(m_workspace));
        QFile notes(m_workspace + QStringLiteral("/notes.txt"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("alpha beta\n");
    }

    // The parent asks for a read-only sub-agent: no question; the sub-agent is offered only
    // its tools, reads the file, and its answer is the parent's observation.
    void answerIsTheObservation()
    {
        auto rig = makeRig(ApprovalChoice::Deny);
        QVERIFY(rig);
        FakeLlmServer &model = *rig->model;
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("spawn_subagent"),
                  {{"task", "What does notes.txt say?"}, {"tools", {"read_file"}}}}}));
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("read_file"), {{"path", "notes.txt"}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("It says alpha beta.")));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("The sub-agent found it.")));
        QSignalSpy progress(rig->agent.get(), &Agent::toolProgress);
        QSignalSpy finished(rig->agent.get(), &Agent::turnFinished);
        QVERIFY(rig->agent->send(QStringLiteral("summarize notes")));
        QVERIFY(finished.wait(20000));

        QCOMPARE(model.requests().size(), 4);
        QVERIFY(toolNames(model.requests().at(0)).contains(QStringLiteral("spawn_subagent")));
        // The sub-agent's own conversation: its task as the user message, read_file only.
        QCOMPARE(toolNames(model.requests().at(1)), QStringList{QStringLiteral("read_file")});
        const Json &sub = model.requests().at(1);
        QVERIFY(sub["messages"].back()["content"] == "What does notes.txt say?");
        QVERIFY(lastToolText(model.requests().at(2)).contains(QLatin1String("alpha beta")));
        QCOMPARE(lastToolText(model.requests().at(3)), QStringLiteral("It says alpha beta."));
        QVERIFY(rig->gate->asked.isEmpty()); // read only: nobody was asked
        QVERIFY(!progress.isEmpty());
        QVERIFY(progress.constLast().at(3).toString().contains(QLatin1String("read_file")));
    }

    // A sub-agent that may use a tool that can change something is asked about when spawned;
    // denied, nothing runs. Allowed, its own mutating calls are asked again, and a tool it was
    // not given is refused even when it calls it.
    void changingToolsAreAsked()
    {
        auto rig = makeRig(ApprovalChoice::Deny);
        QVERIFY(rig);
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("spawn_subagent"), {{"task", "tidy up"}}}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("ok, not then")));
        QSignalSpy finished(rig->agent.get(), &Agent::turnFinished);
        QVERIFY(rig->agent->send(QStringLiteral("go")));
        QVERIFY(finished.wait(20000));
        QCOMPARE(rig->gate->asked.size(), 1);
        QVERIFY2(rig->gate->asked.at(0).startsWith(QLatin1String("spawn_subagent")),
                 qPrintable(rig->gate->asked.at(0)));
        QVERIFY(rig->gate->asked.at(0).contains(QLatin1String("write_file")));
        QCOMPARE(rig->model->requests().size(), 2); // the sub-agent never talked to the model

        auto yes = makeRig(ApprovalChoice::AllowOnce);
        QVERIFY(yes);
        yes->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("spawn_subagent"),
                  {{"task", "write it"}, {"tools", {"read_file", "write_file"}}}}}));
        yes->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("write_file"), {{"path", "out.txt"}, {"content", "x"}}},
                 {QStringLiteral("bash"), {{"command", "touch sneaky"}}}}));
        yes->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("wrote it")));
        yes->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("done")));
        QSignalSpy done(yes->agent.get(), &Agent::turnFinished);
        QVERIFY(yes->agent->send(QStringLiteral("go")));
        QVERIFY(done.wait(20000));
        QCOMPARE(yes->gate->asked.size(), 2); // the spawn, then write_file
        QVERIFY(yes->gate->asked.at(1).startsWith(QLatin1String("write_file")));
        QVERIFY(QFile::exists(m_workspace + QStringLiteral("/out.txt")));
        QVERIFY(!QFile::exists(m_workspace + QStringLiteral("/sneaky"))); // bash not given
        const QString third = QString::fromStdString(yes->model->requests().at(2).dump());
        QVERIFY2(third.contains(QLatin1String("turned off")), qPrintable(third));
        QCOMPARE(lastToolText(yes->model->requests().at(3)), QStringLiteral("wrote it"));
        QFile::remove(m_workspace + QStringLiteral("/out.txt"));
    }

    // Stopping the parent stops the sub-agent: the call ends, nothing waits.
    void stoppedWithItsParent()
    {
        auto rig = makeRig(ApprovalChoice::Deny);
        QVERIFY(rig);
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("spawn_subagent"),
                  {{"task", "think long"}, {"tools", Json::array()}}}}));
        FakeLlmServer::Reply slow = FakeLlmServer::openAiText(QStringLiteral("s l o w"), 30);
        slow.delayBetweenEventsMs = 500;
        rig->model->enqueue(slow);
        QSignalSpy started(rig->agent.get(), &Agent::toolStarted);
        QSignalSpy toolDone(rig->agent.get(), &Agent::toolFinished);
        QSignalSpy finished(rig->agent.get(), &Agent::turnFinished);
        QSignalSpy ended(rig->model.get(), &FakeLlmServer::replyEnded);
        QVERIFY(rig->agent->send(QStringLiteral("go")));
        QVERIFY(started.wait(10000));
        QVERIFY(QTest::qWaitFor([&] { return rig->model->requests().size() == 2; }, 10000));
        QCOMPARE(toolNames(rig->model->requests().at(1)), QStringList()); // no tools at all
        rig->agent->cancel();
        QCOMPARE(finished.size(), 1);
        QVERIFY(!rig->agent->isBusy());
        QCOMPARE(rig->session->runner()->runningCount(), 0);
        // The sub-agent's stream is dropped (15 s of it were still to come) ...
        QVERIFY(QTest::qWaitFor(
                [&] {
                    return std::any_of(ended.cbegin(), ended.cend(), [](const QList<QVariant> &e) {
                        return e.at(0).toInt() == 1;
                    });
                },
                10000));
        for (const QList<QVariant> &e : std::as_const(ended)) {
            if (e.at(0).toInt() == 1)
                QVERIFY(!e.at(1).toBool());
        }
        // ... and the next turn's request is the third: nothing was asked in between.
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("Again.")));
        QVERIFY(rig->agent->send(QStringLiteral("again")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 10000);
        QCOMPARE(rig->model->requests().size(), 3);
        const Json third = rig->model->requests().at(2);
        QVERIFY2(third["messages"].back().dump().find("again") != std::string::npos,
                 third.dump().c_str());
    }

    // Under an inbound task's runner, only a read-only sub-agent may be spawned, and its calls
    // go through the same runner.
    void inboundOnlyReadOnly()
    {
        auto rig = makeRig(ApprovalChoice::AllowOnce, /*inbound=*/true);
        QVERIFY(rig);
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("spawn_subagent"), {{"task", "tidy up"}}},
                 {QStringLiteral("spawn_subagent"),
                  {{"task", "look"}, {"tools", {"read_file", "list_dir"}}}}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("looked")));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("done")));
        QSignalSpy finished(rig->agent.get(), &Agent::turnFinished);
        QVERIFY(rig->agent->send(QStringLiteral("go")));
        QVERIFY(finished.wait(20000));
        QVERIFY(rig->gate->asked.isEmpty()); // the inbound runner asks nobody
        const QString last = QString::fromStdString(rig->model->requests().last().dump());
        QVERIFY2(last.contains(QLatin1String("Denied")), qPrintable(last));
        QVERIFY(last.contains(QLatin1String("looked")));
    }

    void badArguments()
    {
        auto rig = makeRig(ApprovalChoice::AllowOnce);
        QVERIFY(rig);
        rig->model->enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("spawn_subagent"), {{"task", "x"}, {"tools", {"nope"}}}},
                 {QStringLiteral("spawn_subagent"), {{"task", " "}}},
                 {QStringLiteral("spawn_subagent"),
                  {{"task", "again"}, {"tools", {"spawn_subagent"}}}}}));
        rig->model->enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        QSignalSpy finished(rig->agent.get(), &Agent::turnFinished);
        QVERIFY(rig->agent->send(QStringLiteral("go")));
        QVERIFY(finished.wait(20000));
        const QString last = QString::fromStdString(rig->model->requests().last().dump());
        QVERIFY2(last.contains(QLatin1String("No such tool for a sub-agent: nope")),
                 qPrintable(last));
        QVERIFY(last.contains(QLatin1String("No such tool for a sub-agent: spawn_subagent")));
        QVERIFY(last.contains(QLatin1String("'task' is required")));
        QCOMPARE(rig->model->requests().size(), 2);
    }
};

QTEST_MAIN(tst_Subagent)
#include "tst_subagent.moc"
