#include "filemode.h"
#include "jsontest.h"

#include <engine/approval/approval.h>
#include <engine/approval/auditlog.h>
#include <engine/approval/toolrunner.h>
#include <engine/tools/toolregistry.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;

// A tool that answers with its "text" argument (or fails when "fail" is set).
class EchoTool : public Tool
{
public:
    EchoTool(QString name, Risk risk)
        : m_name(std::move(name))
        , m_risk(risk)
    {
    }
    QString name() const override { return m_name; }
    QString description() const override { return QStringLiteral("echoes"); }
    Json inputSchema() const override { return Json{{"type", "object"}}; }
    Risk risk() const override { return m_risk; }
    QString source() const override { return QStringLiteral("srv"); }

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &,
                         std::function<void(ToolOutput)> done) override
    {
        const QString text = QString::fromStdString(arguments.value("text", std::string()));
        done(arguments.contains("fail") ? ToolOutput::error(text) : ToolOutput::text(text));
        return {};
    }

private:
    QString m_name;
    Risk m_risk;
};

// The audit log: a line per decision and per run start and end, with the arguments' hash but
// never the arguments, secrets redacted, 0600 in a 0700 folder, rotated at its size limit, and
// read back from its tail.
class tst_AuditLog : public QObject
{
    Q_OBJECT

    struct Rig
    {
        ToolRegistry registry;
        FixedApprovalGate gate;
        ToolRunner runner;
        explicit Rig(ApprovalDecision decision)
            : gate(std::move(decision))
            , runner(&registry, &gate, QStringLiteral("/tmp"))
        {
            registry.add(std::make_shared<EchoTool>(QStringLiteral("echo_it"), Risk::Mutating));
            registry.add(std::make_shared<EchoTool>(QStringLiteral("read_it"), Risk::Read));
        }
        void run(const Json &arguments, const QString &name = QStringLiteral("echo_it"),
                 CallOrigin origin = CallOrigin::Model)
        {
            bool done = false;
            ToolCallRequest call;
            call.id = QStringLiteral("1");
            call.name = name;
            call.arguments = arguments;
            ToolRunner::Callbacks callbacks;
            callbacks.onDone = [&done](ToolRunResult) {
                done = true;
            };
            runner.run(call, QStringLiteral("conv-1"), nullptr, std::move(callbacks), origin);
            (void)QTest::qWaitFor([&] { return done; }, 5000);
        }
    };

    static QByteArray readAll(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

private slots:
    void recordsDecisionsAndRuns()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("data/switchboard/audit.jsonl"));
        const QString secret = QStringLiteral("hunter2-very-secret");
        Rig rig(ApprovalDecision{ApprovalChoice::AllowOnce, {}});
        AuditLog log(path);
        log.setWorkspace(QStringLiteral("/work/space"));
        log.setSecrets({secret});
        log.attach(&rig.runner);
        rig.runner.setSecrets({secret});
        const Json arguments{{"text", "the password is " + secret.toStdString()}};
        rig.run(arguments);

        const std::vector<Json> records = AuditLog::readRecords(path);
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE_JSON(records[0]["event"], "decision");
        QCOMPARE_JSON(records[0]["decision"], "allow-once");
        QCOMPARE_JSON(records[0]["automatic"], false);
        QVERIFY(records[0].contains("scope"));
        QCOMPARE_JSON(records[1]["event"], "start");
        QCOMPARE_JSON(records[2]["event"], "end");
        QCOMPARE_JSON(records[2]["outcome"], "ok");
        QVERIFY(records[2]["durationMs"].is_number());
        for (const Json &record : records) {
            QCOMPARE_JSON(record["tool"], "echo_it");
            QCOMPARE_JSON(record["source"], "srv");
            QCOMPARE_JSON(record["risk"], "mutating");
            QCOMPARE_JSON(record["workspace"], "/work/space");
            QCOMPARE_JSON(record["conversation"], "conv-1");
            QCOMPARE(record["argumentsSha256"].get<std::string>(),
                     AuditLog::argumentsHash(arguments).toStdString());
            QCOMPARE_JSON(record["run"], records[0]["run"]);
        }
        // A hash of the canonical form: member order does not change it, content does.
        QCOMPARE(AuditLog::argumentsHash(Json::parse(R"({"b":1,"a":2})")),
                 AuditLog::argumentsHash(Json::parse(R"({"a":2, "b":1})")));
        QVERIFY(AuditLog::argumentsHash(Json{{"a", 1}}) != AuditLog::argumentsHash(Json{{"a", 2}}));
        QCOMPARE(AuditLog::argumentsHash(Json::object()).size(), 64);

        const QByteArray text = readAll(path);
        QVERIFY(!text.contains("password is")); // never the arguments
        QVERIFY(!text.contains(secret.toUtf8()));
        QCOMPARE(text.count('\n'), 3);

#ifdef Q_OS_UNIX
        QCOMPARE(posixMode(path), 0600);
        QCOMPARE(posixMode(QFileInfo(path).absolutePath()), 0700);
#endif
    }

    // A call a server's view asked for (MCP Apps) goes through the same gate, which is told
    // who asked, and every record of it says `origin: app`; the model's calls carry no origin.
    void recordsWhoAsked()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        Rig rig(ApprovalDecision{ApprovalChoice::AllowOnce, {}});
        AuditLog log(path);
        log.attach(&rig.runner);
        rig.run(Json{{"text", "from the view"}}, QStringLiteral("echo_it"), CallOrigin::App);
        QVERIFY(rig.gate.lastRequest().origin == CallOrigin::App);
        rig.run(Json{{"text", "from the model"}});
        QVERIFY(rig.gate.lastRequest().origin == CallOrigin::Model);

        const std::vector<Json> records = AuditLog::readRecords(path);
        QCOMPARE(records.size(), std::size_t(6));
        for (std::size_t i = 0; i < 3; ++i)
            QCOMPARE_JSON(records[i]["origin"], "app");
        for (std::size_t i = 3; i < 6; ++i)
            QVERIFY(!records[i].contains("origin"));
    }

    // A tool the person ran by hand (the tool browser) asks nobody, even where the gate would
    // refuse: its decision record says it was theirs (`origin: user`, not automatic).
    void manualRunIsThePersonsDecision()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        Rig rig(ApprovalDecision{ApprovalChoice::Deny, {}});
        AuditLog log(path);
        log.attach(&rig.runner);
        rig.run(Json{{"text", "typed by hand"}}, QStringLiteral("echo_it"), CallOrigin::User);
        QVERIFY(rig.gate.lastRequest().toolName.isEmpty()); // never asked
        const std::vector<Json> records = AuditLog::readRecords(path);
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE_JSON(records[0]["event"], "decision");
        QCOMPARE_JSON(records[0]["decision"], "allow-once");
        QCOMPARE_JSON(records[0]["automatic"], false);
        QCOMPARE_JSON(records[0]["why"], "manual");
        for (const Json &record : records)
            QCOMPARE_JSON(record["origin"], "user");
        QCOMPARE_JSON(records[2]["event"], "end");
    }

    void recordsDeniedErrorsAndUnknownTools()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        const QString secret = QStringLiteral("reason-secret-1234");
        Rig rig(ApprovalDecision{ApprovalChoice::Deny, QStringLiteral("no, ") + secret});
        AuditLog log(path);
        log.setSecrets({secret});
        log.attach(&rig.runner);
        rig.run(Json{{"text", "x"}});
        rig.run(Json::object(), QStringLiteral("no_such_tool"));

        const std::vector<Json> records = AuditLog::readRecords(path);
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE_JSON(records[0]["decision"], "deny");
        QCOMPARE(records[0]["reason"].get<std::string>(),
                 "no, " + std::string(Mcp::Redactor::Marker));
        QCOMPARE_JSON(records[1]["event"], "end");
        QCOMPARE_JSON(records[1]["outcome"], "denied");
        QCOMPARE_JSON(records[1]["ran"], false);
        QCOMPARE_JSON(records[2]["outcome"], "error");
        QCOMPARE_JSON(records[2]["tool"], "no_such_tool");
        QCOMPARE_JSON(records[2]["source"], "");
    }

    void recordsAutomaticDecisionsAndToolErrors()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        Rig rig(ApprovalDecision{ApprovalChoice::Deny, {}}); // never asked: read tools run
        AuditLog log(path);
        log.attach(&rig.runner);
        rig.run(Json{{"text", "boom"}, {"fail", true}}, QStringLiteral("read_it"));
        const std::vector<Json> records = AuditLog::readRecords(path);
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE_JSON(records[0]["decision"], "allow-once");
        QCOMPARE_JSON(records[0]["automatic"], true);
        QCOMPARE_JSON(records[0]["why"], "read");
        QCOMPARE_JSON(records[0]["risk"], "read");
        QCOMPARE_JSON(records[2]["outcome"], "error");
        QCOMPARE_JSON(records[2]["ran"], true);
        QVERIFY(AuditLog::describe(records[2])
                        .contains(QStringLiteral("read_it (srv, read) error")));
    }

    void rotatesAtItsLimit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        AuditLog log(path);
        log.setMaxBytes(2000);
        for (int i = 0; i < 40; ++i)
            log.recordDirectCall(QStringLiteral("srv"), QStringLiteral("tool_%1").arg(i),
                                 Json{{"i", i}}, QStringLiteral("ok"), i);
        const QString rotated = path + QLatin1String(".1");
        QVERIFY(QFileInfo::exists(rotated));
        QVERIFY(QFileInfo(path).size() <= 2000);
        QVERIFY(QFileInfo(rotated).size() <= 2000);
#ifdef Q_OS_UNIX
        QCOMPARE(posixMode(path), 0600);
#endif
        // Both files are read, oldest first; the newest record is last.
        const std::vector<Json> records = AuditLog::readRecords(path);
        QVERIFY(records.size() > 1);
        QCOMPARE_JSON(records.back()["tool"], "tool_39");
        const int lines = int(readAll(path).count('\n') + readAll(rotated).count('\n'));
        QCOMPARE(int(records.size()), lines);
        QVERIFY(lines < 40); // the oldest went with the earlier rotation
        for (std::size_t i = 1; i < records.size(); ++i)
            QVERIFY(records[i]["durationMs"].get<int>() > records[i - 1]["durationMs"].get<int>());
    }

    void readsOnlyTheTail()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 1000; ++i)
            file.write(QStringLiteral("{\"event\":\"end\",\"n\":%1}\n").arg(i).toUtf8());
        file.write("not json\n{\"cut\":\n");
        file.close();
        const std::vector<Json> records = AuditLog::readRecords(path, 500);
        QVERIFY(!records.empty());
        QVERIFY(records.size() < 50);
        QCOMPARE_JSON(records.back()["n"], 999);
        for (const Json &record : records)
            QVERIFY(record.contains("n")); // the cut first line and the garbage were skipped
        QVERIFY(AuditLog::readRecords(dir.filePath(QStringLiteral("missing"))).empty());
    }
};

QTEST_GUILESS_MAIN(tst_AuditLog)
#include "tst_auditlog.moc"
