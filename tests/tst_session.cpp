// Tests for Engine::Session: the one wiring of configuration, trust, Manager, registry,
// runner and audit log that the window and the CLI share (real fixture server processes).

#include <engine/session.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;

class tst_Session : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void workspaceServerWaitsForTrust();
    void policyProblemsAreConfigErrors();
    void configDecidesTimeoutsAndSecrets();
    void disabledSwitchSurvivesApply();

private:
    static QString fixture() { return QStringLiteral(SWITCHBOARD_FIXTURE_SERVER); }
    static bool write(const QString &path, const QByteArray &text);
    SessionOptions options(const QString &workspace) const;
    static bool settle(Session &session);
    static bool stop(Session &session);

    QTemporaryDir m_data;
};

void tst_Session::initTestCase()
{
    QVERIFY(m_data.isValid());
    QStandardPaths::setTestModeEnabled(true); // never the user's own mcp.json
}

bool tst_Session::write(const QString &path, const QByteArray &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

SessionOptions tst_Session::options(const QString &workspace) const
{
    SessionOptions options;
    options.workspace = workspace;
    options.trustFile = m_data.filePath(QStringLiteral("trust.json"));
    options.approvalsFile = m_data.filePath(QStringLiteral("approvals.json"));
    options.auditLogFile = m_data.filePath(QStringLiteral("audit.jsonl"));
    options.manager.transports.stdio.shutdownStageMs = 500;
    return options;
}

bool tst_Session::settle(Session &session)
{
    return QTest::qWaitFor([&] { return session.manager()->isSettled(); }, 15000);
}

bool tst_Session::stop(Session &session)
{
    QSignalSpy stopped(session.manager(), &Mcp::Manager::stopped);
    session.manager()->stop();
    return stopped.wait(10000);
}

// A workspace's server runs nothing until trusted; trust starts it, registers its tools and
// is remembered by the next session of the same folder. Each start of it adds a line to
// "started": one line once it has connected after the trust shows it never ran before.
void tst_Session::workspaceServerWaitsForTrust()
{
    QTemporaryDir ws;
    const QString marker = QDir(ws.path()).filePath(QStringLiteral("started"));
    QVERIFY(write(QDir(ws.path()).filePath(QStringLiteral(".mcp.json")),
                  QStringLiteral("{\"mcpServers\": {\"w\": {\"command\": \"sh\", \"args\": "
                                 "[\"-c\", \"echo run >> started; exec %1\"]}}}")
                          .arg(fixture())
                          .toUtf8()));
    {
        Session session(options(ws.path()));
        session.load();
        QCOMPARE(session.configErrors().size(), 0);
        QCOMPARE(session.untrustedServers().size(), 1);
        QCOMPARE(session.untrustedServers().first().name, QStringLiteral("w"));
        session.start();
        QVERIFY(settle(session));
        QCOMPARE(session.manager()->status(QStringLiteral("w")).state, Mcp::ServerState::Untrusted);
        QVERIFY(!session.manager()->client(QStringLiteral("w")));
        QVERIFY(!QFileInfo::exists(marker));
        QVERIFY(!session.registry()->find(QStringLiteral("mcp__w__echo")));

        QCOMPARE(session.trust({QStringLiteral("w")}), QStringList());
        QVERIFY(session.untrustedServers().isEmpty());
        QVERIFY(QTest::qWaitFor(
                [&] {
                    return session.manager()->status(QStringLiteral("w")).state
                           == Mcp::ServerState::Connected;
                },
                15000));
        QVERIFY(QFileInfo::exists(marker));
        QFile started(marker);
        QVERIFY(started.open(QIODevice::ReadOnly));
        QCOMPARE(started.readAll(), QByteArray("run\n")); // not also before the trust
        QVERIFY(session.registry()->find(QStringLiteral("mcp__w__echo")));
        QCOMPARE(QFileInfo(m_data.filePath(QStringLiteral("trust.json"))).permissions()
                         & (QFile::ReadGroup | QFile::ReadOther),
                 QFile::Permissions());
        QVERIFY(stop(session));
    }
    Session again(options(ws.path()));
    again.load();
    QVERIFY(again.untrustedServers().isEmpty());
}

// The engine's keys are checked as the loader checks its own: at their line and column, and
// the server is left out.
void tst_Session::policyProblemsAreConfigErrors()
{
    QTemporaryDir ws;
    const QString file = QDir(ws.path()).filePath(QStringLiteral("given.json"));
    QVERIFY(write(file, "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\", \"risk\": \"safe\"},\n"
                        "  \"b\": {\"command\": \"y\"}}}"));
    SessionOptions opts = options(ws.path());
    opts.configFile = file;
    Session session(opts);
    session.load();
    QCOMPARE(session.configErrors().size(), 1);
    QCOMPARE(session.configErrors().first().toString(),
             file
                     + QStringLiteral(":2:33: server 'a': unknown risk 'safe'; expected \"read\", "
                                      "\"mutating\" or \"dangerous\""));
    QVERIFY(!session.config().find(QStringLiteral("a")));
    QVERIFY(session.config().find(QStringLiteral("b")));
    QVERIFY(session.untrustedServers().isEmpty()); // a --config file is the user's choice
}

// A server's "timeout" limits its calls; the values its variables put into env are secrets,
// and so are the face's extra ones; apply() updates both.
void tst_Session::configDecidesTimeoutsAndSecrets()
{
    QTemporaryDir ws;
    const QString file = QDir(ws.path()).filePath(QStringLiteral("given.json"));
    const QByteArray text = QStringLiteral("{\"mcpServers\": {\"f\": {\"command\": \"%1\", "
                                           "\"timeout\": 0.3, \"env\": {\"T\": \"${SB_TOKEN}\"}, "
                                           "\"tools\": {\"slow\": {\"risk\": \"read\"}}}}}")
                                    .arg(fixture())
                                    .toUtf8();
    QVERIFY(write(file, text));
    SessionOptions opts = options(ws.path());
    opts.configFile = file;
    opts.environment.insert(QStringLiteral("SB_TOKEN"), QStringLiteral("tok-5a8e1c"));
    Session session(opts);
    session.load();
    QCOMPARE(session.configErrors().size(), 0);
    QVERIFY(session.secrets().contains(QStringLiteral("tok-5a8e1c")));
    session.setExtraSecrets({QStringLiteral("stored-key-42")});
    QVERIFY(session.secrets().contains(QStringLiteral("tok-5a8e1c")));
    QVERIFY(session.secrets().contains(QStringLiteral("stored-key-42")));

    session.start();
    QVERIFY(settle(session));
    QCOMPARE(session.manager()->status(QStringLiteral("f")).state, Mcp::ServerState::Connected);
    QElapsedTimer clock;
    clock.start();
    std::optional<ToolRunResult> result;
    ToolCallRequest call;
    call.id = QStringLiteral("c1");
    call.name = QStringLiteral("mcp__f__slow");
    call.arguments = Json{{"ms", 20000}};
    ToolRunner::Callbacks callbacks;
    callbacks.onDone = [&result](ToolRunResult r) {
        result = std::move(r);
    };
    session.runner()->run(call, QStringLiteral("conv"), this, callbacks);
    QVERIFY(QTest::qWaitFor([&] { return result.has_value(); }, 10000));
    QVERIFY(result->timedOut);
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));

    // Without the variable, its value is no longer a secret of this configuration.
    Mcp::McpConfig changed = session.config();
    changed.servers.first().env.clear();
    changed.servers.first().expandedSecrets.clear();
    session.apply(changed);
    QVERIFY(!session.secrets().contains(QStringLiteral("tok-5a8e1c")));
    QVERIFY(session.secrets().contains(QStringLiteral("stored-key-42")));
    QVERIFY(stop(session));
}

// The dock's switch changes the Manager and the file; the session's configuration follows, so
// applying the file as it now reads restarts nothing.
void tst_Session::disabledSwitchSurvivesApply()
{
    QTemporaryDir ws;
    const QString file = QDir(ws.path()).filePath(QStringLiteral("given.json"));
    QVERIFY(write(file, QStringLiteral("{\"mcpServers\": {\"f\": {\"command\": \"%1\"}}}")
                                .arg(fixture())
                                .toUtf8()));
    SessionOptions opts = options(ws.path());
    opts.configFile = file;
    Session session(opts);
    session.load();
    session.setServerDisabled(QStringLiteral("f"), true);
    QVERIFY(session.config().find(QStringLiteral("f"))->disabled);

    QVERIFY(write(file, QStringLiteral("{\"mcpServers\": {\"f\": {\"command\": \"%1\", "
                                       "\"disabled\": true}}}")
                                .arg(fixture())
                                .toUtf8()));
    const Mcp::McpConfig reread
            = loadConfig(ws.path(), file, QProcessEnvironment::systemEnvironment());
    const Mcp::ReloadPlan plan = Mcp::ReloadPlan::compute(session.config(), reread);
    QCOMPARE(plan.changed, QStringList());
    QCOMPARE(plan.unchanged, QStringList({QStringLiteral("f")}));
}

QTEST_GUILESS_MAIN(tst_Session)

#include "tst_session.moc"
