#include "jsontest.h"

#include <engine/approval.h>
#include <engine/toolregistry.h>
#include <engine/toolrunner.h>

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace Engine;

// A tool that records whether it ran. Its risk and autoApprove flag are set per test row.
class RecordingTool : public Tool
{
public:
    RecordingTool(QString name, Risk risk, bool autoApproved = false, QString source = "builtin")
        : m_name(std::move(name))
        , m_risk(risk)
        , m_auto(autoApproved)
        , m_source(std::move(source))
    {
    }
    QString name() const override { return m_name; }
    QString description() const override { return QStringLiteral("records runs"); }
    Json inputSchema() const override { return Json{{"type", "object"}}; }
    Risk risk() const override { return m_risk; }
    bool autoApproved() const override { return m_auto; }
    QString source() const override { return m_source; }
    bool isBuiltin() const override { return m_source == QLatin1String("builtin"); }
    int runs = 0;
    int hangMs = 0; // > 0: answer after this long; < 0: never answer
    bool cancelled = false;

protected:
    CancelHandle execute(const Json &, const ToolContext &,
                         std::function<void(ToolOutput)> done) override
    {
        ++runs;
        if (hangMs == 0) {
            done(ToolOutput::text(QStringLiteral("ran")));
            return {};
        }
        if (hangMs > 0)
            QTimer::singleShot(hangMs, [done] { done(ToolOutput::text(QStringLiteral("late"))); });
        return [this] {
            cancelled = true;
        };
    }

private:
    QString m_name;
    Risk m_risk;
    bool m_auto;
    QString m_source;
};

// A tool that answers with a fixed output (the secret-redaction test's "server").
class FixedOutputTool : public Tool
{
public:
    explicit FixedOutputTool(ToolOutput output)
        : m_output(std::move(output))
    {
    }
    QString name() const override { return QStringLiteral("leaky"); }
    QString description() const override { return QStringLiteral("returns what it was given"); }
    Json inputSchema() const override { return Json{{"type", "object"}}; }
    Risk risk() const override { return Risk::Read; }

protected:
    CancelHandle execute(const Json &, const ToolContext &,
                         std::function<void(ToolOutput)> done) override
    {
        done(m_output);
        return {};
    }

private:
    ToolOutput m_output;
};

// A gate that answers with a scripted decision and counts the questions.
class ScriptedGate : public ApprovalGate
{
public:
    ApprovalDecision next;
    int asked = 0;
    ApprovalRequest last;
    void requestApproval(const ApprovalRequest &r,
                         std::function<void(ApprovalDecision)> decide) override
    {
        ++asked;
        last = r;
        decide(next);
    }
};

// Approval: no code path runs a non-read tool without a decision; every decision does what
// it says; the registry refuses name collisions.
class tst_Approval : public QObject
{
    Q_OBJECT

    static std::optional<ToolRunResult> runAndWait(ToolRunner &runner, const QString &name,
                                                   const QString &conversation
                                                   = QStringLiteral("c1"))
    {
        std::optional<ToolRunResult> result;
        ToolCallRequest call;
        call.id = QStringLiteral("1");
        call.name = name;
        call.arguments = Json::object();
        ToolRunner::Callbacks callbacks;
        callbacks.onDone = [&](ToolRunResult r) {
            result = std::move(r);
        };
        runner.run(call, conversation, nullptr, std::move(callbacks));
        (void)QTest::qWaitFor([&] { return result.has_value(); }, 5000);
        return result;
    }

private slots:
    // Structural: Tool::execute is protected and ToolRunner is its only caller in src/.
    void onlyTheRunnerExecutesTools()
    {
        const QRegularExpression call(QStringLiteral("(->|\\.)execute\\s*\\("));
        QStringList callers;
        QDirIterator it(QStringLiteral(SWITCHBOARD_SOURCE_DIR "/src"),
                        {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            if (call.match(text).hasMatch())
                callers << QDir(QStringLiteral(SWITCHBOARD_SOURCE_DIR)).relativeFilePath(path);
        }
        QCOMPARE(callers, QStringList{QStringLiteral("src/engine/toolrunner.cpp")});
    }

    void decisions_data()
    {
        QTest::addColumn<int>("risk");
        QTest::addColumn<bool>("autoApproved");
        QTest::addColumn<int>("choice"); // -1: the gate must not be asked
        QTest::addColumn<bool>("asks");
        QTest::addColumn<bool>("runs");
        const int deny = int(ApprovalChoice::Deny), once = int(ApprovalChoice::AllowOnce);
        QTest::newRow("read runs unasked") << int(Risk::Read) << false << deny << false << true;
        QTest::newRow("mutating denied") << int(Risk::Mutating) << false << deny << true << false;
        QTest::newRow("mutating allowed once")
                << int(Risk::Mutating) << false << once << true << true;
        QTest::newRow("dangerous denied") << int(Risk::Dangerous) << false << deny << true << false;
        QTest::newRow("dangerous allowed") << int(Risk::Dangerous) << false << once << true << true;
        QTest::newRow("dangerous autoApprove")
                << int(Risk::Dangerous) << true << deny << false << true;
        QTest::newRow("dangerous for conversation")
                << int(Risk::Dangerous) << false << int(ApprovalChoice::AllowForConversation)
                << true << true;
        QTest::newRow("dangerous always") << int(Risk::Dangerous) << false
                                          << int(ApprovalChoice::AlwaysAllow) << true << true;
    }

    void decisions()
    {
        QFETCH(int, risk);
        QFETCH(bool, autoApproved);
        QFETCH(int, choice);
        QFETCH(bool, asks);
        QFETCH(bool, runs);
        ToolRegistry registry;
        auto tool = std::make_shared<RecordingTool>(QStringLiteral("t"), Risk(risk), autoApproved);
        QVERIFY(registry.add(tool));
        ScriptedGate gate;
        gate.next.choice = ApprovalChoice(choice);
        gate.next.reason = QStringLiteral("not today");
        ToolRunner runner(&registry, &gate, QStringLiteral("/tmp"));
        const auto result = runAndWait(runner, QStringLiteral("t"));
        QVERIFY(result);
        QCOMPARE(gate.asked, asks ? 1 : 0);
        QCOMPARE(tool->runs, runs ? 1 : 0);
        QCOMPARE(result->denied, !runs);
        if (!runs) {
            QVERIFY(result->output.isError);
            QVERIFY(result->output.modelText().contains(QStringLiteral("not today")));
        }
    }

    // Known secrets never leave the runner: text blocks, resource text and every string of
    // structuredContent are cleaned, in the result and in what runFinished reports; image data
    // and the rest of the result stay as they were.
    void resultsAreRedacted()
    {
        const QString secret = QStringLiteral("s3cr3t-Value-42");
        ToolOutput output;
        output.content = Json::array(
                {Json{{"type", "text"}, {"text", "token is " + secret.toStdString()}},
                 Json{{"type", "resource"},
                      {"resource",
                       {{"uri", "file:///x"}, {"text", "A" + secret.toStdString() + "B"}}}},
                 Json{{"type", "image"}, {"data", "aW1hZ2U="}, {"mimeType", "image/png"}}});
        output.structuredContent = Json{{"env", {{"TOKEN", secret.toStdString()}}},
                                        {"list", Json::array({secret.toStdString(), "plain", 7})}};
        ToolRegistry registry;
        QVERIFY(registry.add(std::make_shared<FixedOutputTool>(output)));
        ToolRunner runner(&registry, nullptr, QStringLiteral("/tmp"));

        const auto before = runAndWait(runner, QStringLiteral("leaky"));
        QVERIFY(before);
        QVERIFY(QString::fromStdString(before->output.content.dump()).contains(secret));

        runner.setSecrets({secret, QStringLiteral("xy")}); // "xy": too short to hide
        std::vector<ToolRunResult> finished;
        connect(&runner, &ToolRunner::runFinished, this,
                [&finished](const ToolRunEvent &, const ToolRunResult &r) {
                    finished.push_back(r);
                });
        const auto after = runAndWait(runner, QStringLiteral("leaky"));
        QVERIFY(after);
        const std::string marker(Mcp::Redactor::Marker);
        const Json &content = after->output.content;
        QCOMPARE(content[0]["text"].get<std::string>(), "token is " + marker);
        QCOMPARE(content[1]["resource"]["text"].get<std::string>(), "A" + marker + "B");
        QCOMPARE_JSON(content[2], output.content[2]);
        QCOMPARE(after->output.structuredContent["env"]["TOKEN"].get<std::string>(), marker);
        QCOMPARE_JSON(after->output.structuredContent["list"], Json::array({marker, "plain", 7}));
        QVERIFY(!after->output.modelText().contains(secret));
        QCOMPARE(finished.size(), std::size_t(1));
        QVERIFY(!QString::fromStdString(finished[0].output.content.dump()).contains(secret));
    }

    void grantsAreRemembered()
    {
        ToolRegistry registry;
        auto tool = std::make_shared<RecordingTool>(QStringLiteral("t"), Risk::Dangerous);
        registry.add(tool);
        ScriptedGate gate;
        gate.next.choice = ApprovalChoice::AllowForConversation;
        ToolRunner runner(&registry, &gate, QStringLiteral("/tmp"));
        QVERIFY(runAndWait(runner, "t", "c1"));
        QVERIFY(runAndWait(runner, "t", "c1"));
        QCOMPARE(gate.asked, 1); // the second call in c1 is not asked again
        gate.next.choice = ApprovalChoice::Deny;
        const auto other = runAndWait(runner, "t", "c2");
        QCOMPARE(gate.asked, 2); // another conversation is asked
        QVERIFY(other->denied);
        runner.endConversation(QStringLiteral("c1"));
        QVERIFY(runAndWait(runner, "t", "c1")->denied);
        QCOMPARE(tool->runs, 2);
    }

    void alwaysAllowIsSaved()
    {
        ToolRegistry registry;
        auto tool = std::make_shared<RecordingTool>(QStringLiteral("mcp__s__w"), Risk::Dangerous,
                                                    false, QStringLiteral("s"));
        registry.add(tool);
        ScriptedGate gate;
        gate.next.choice = ApprovalChoice::AlwaysAllow;
        ToolRunner runner(&registry, &gate, QStringLiteral("/tmp"));
        QStringList saved;
        runner.setAlwaysAllowSaver([&](const QString &source, const QString &name, QString *) {
            saved << source + QLatin1Char('/') + name;
            return true;
        });
        QVERIFY(runAndWait(runner, "mcp__s__w", "c1"));
        QVERIFY(runAndWait(runner, "mcp__s__w", "c2"));
        QCOMPARE(gate.asked, 1);
        QCOMPARE(saved, QStringList{"s/mcp__s__w"});
        QCOMPARE(tool->runs, 2);
    }

    void noGateMeansDenied()
    {
        ToolRegistry registry;
        auto tool = std::make_shared<RecordingTool>(QStringLiteral("t"), Risk::Mutating);
        registry.add(tool);
        ToolRunner runner(&registry, nullptr, QStringLiteral("/tmp"));
        QVERIFY(runAndWait(runner, "t")->denied);
        QCOMPARE(tool->runs, 0);
    }

    void badCallsNeverRun()
    {
        ToolRegistry registry;
        auto tool = std::make_shared<RecordingTool>(QStringLiteral("t"), Risk::Read);
        registry.add(tool);
        ToolRunner runner(&registry, nullptr, QStringLiteral("/tmp"));
        const auto unknown = runAndWait(runner, "nope");
        QVERIFY(unknown->output.isError);
        QVERIFY(unknown->output.modelText().contains(QStringLiteral("no tool named 'nope'")));
        std::optional<ToolRunResult> result;
        ToolCallRequest call;
        call.name = QStringLiteral("t");
        call.argumentsText = QStringLiteral("{not json");
        runner.run(call, QString(), nullptr, {{}, {}, {}, [&](ToolRunResult r) {
                                                  result = std::move(r);
                                              }});
        QTRY_VERIFY(result.has_value());
        QVERIFY(result->output.isError);
        QCOMPARE(tool->runs, 0);
    }

    void timeoutCancels()
    {
        ToolRegistry registry;
        auto tool = std::make_shared<RecordingTool>(QStringLiteral("t"), Risk::Read);
        tool->hangMs = -1;
        registry.add(tool);
        ToolRunner runner(&registry, nullptr, QStringLiteral("/tmp"));
        runner.setDefaultTimeout(150);
        const auto result = runAndWait(runner, "t");
        QVERIFY(result->timedOut);
        QVERIFY(tool->cancelled);
        QVERIFY(result->output.modelText().contains(QStringLiteral("timed out")));
        QCOMPARE(runner.runningCount(), 0);
    }

    void cancelAllFiresEachOnce()
    {
        ToolRegistry registry;
        auto tool = std::make_shared<RecordingTool>(QStringLiteral("t"), Risk::Read);
        tool->hangMs = 200;
        registry.add(tool);
        ToolRunner runner(&registry, nullptr, QStringLiteral("/tmp"));
        int done = 0, cancelled = 0;
        for (int i = 0; i < 3; ++i) {
            ToolCallRequest call;
            call.name = QStringLiteral("t");
            call.arguments = Json::object();
            runner.run(call, QString(), nullptr, {{}, {}, {}, [&](ToolRunResult r) {
                                                      ++done;
                                                      cancelled += r.cancelled ? 1 : 0;
                                                  }});
        }
        QTRY_COMPARE(tool->runs, 3);
        runner.cancelAll();
        QCOMPARE(done, 3);
        QCOMPARE(cancelled, 3);
        QTest::qWait(300); // the late answers are ignored
        QCOMPARE(done, 3);
    }

    void registryRejectsCollisions()
    {
        ToolRegistry registry;
        QSignalSpy rejected(&registry, &ToolRegistry::rejected);
        QVERIFY(registry.add(std::make_shared<RecordingTool>("read_file", Risk::Read)));
        QVERIFY(!registry.add(
                std::make_shared<RecordingTool>("read_file", Risk::Dangerous, false, "evil")));
        QCOMPARE(rejected.count(), 1);
        QCOMPARE(registry.find("read_file")->risk(), Risk::Read);
        QVERIFY(registry.add(std::make_shared<RecordingTool>("mcp__a__x", Risk::Read, false, "a")));
        QVERIFY(registry.add(std::make_shared<RecordingTool>("bash", Risk::Dangerous)));
        QCOMPARE(registry.names(), (QStringList{"bash", "read_file", "mcp__a__x"}));
        registry.removeSource(QStringLiteral("a"));
        registry.removeSource(QStringLiteral("builtin")); // never removes built-ins
        QCOMPARE(registry.names(), (QStringList{"bash", "read_file"}));
    }
};

QTEST_GUILESS_MAIN(tst_Approval)
#include "tst_approval.moc"
