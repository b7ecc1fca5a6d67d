#include "keychaintest.h"
#include "quiethost.h"

#include <engine/approval/toolrunner.h>
#include <engine/secrets/secretstore.h>
#include <engine/secrets/serversecrets.h>
#include <engine/session.h>

#include <mcp/manager.h>

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;
using Mcp::Json;

// A server's secrets in the keychain (`${secret:NAME}`): stored, listed by name, read when the
// server starts and put into its process only; known as secrets from then on; never in a file.
// Run twice by ctest: plainly, where no keychain answers (a value then lives for the session
// only, and the CLI stores nothing), and as tst_serversecrets_keychain inside
// tests/keychain-session.sh, against a real Secret Service (gnome-keyring).
class tst_ServerSecrets : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    // A service of this run's own, so that nothing else in a keyring is touched.
    const QString m_service
            = QStringLiteral("switchboard-test-secrets-%1").arg(QCoreApplication::applicationPid());
    QString dataDir() const { return m_dir.filePath(QStringLiteral("data")); }
    QString indexFile() const { return m_dir.filePath(QStringLiteral("data/server-secrets.json")); }

    static ServerSecrets::Outcome wait(const std::function<void(ServerSecrets::Done)> &start)
    {
        std::optional<ServerSecrets::Outcome> outcome;
        start([&outcome](const ServerSecrets::Outcome &o) { outcome = o; });
        if (!QTest::qWaitFor([&] { return outcome.has_value(); }, 20000))
            return {false, false, QStringLiteral("no answer")};
        return *outcome;
    }

    // Every file under `dir` whose bytes hold `value`.
    static QStringList filesHolding(const QString &dir, const QString &value)
    {
        QStringList found;
        QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            if (file.open(QIODevice::ReadOnly) && file.readAll().contains(value.toUtf8()))
                found << file.fileName();
        }
        return found;
    }

    QProcessEnvironment cliEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("xdgdata")));
        env.insert(QStringLiteral("SWITCHBOARD_KEYCHAIN_SERVICE"), m_service);
        return env;
    }

    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };
    Run cli(const QStringList &args, const QByteArray &input = {}) const
    {
        QProcess process;
        process.setProcessEnvironment(cliEnvironment());
        process.start(
                QStringLiteral(SWITCHBOARD_CLI),
                QStringList{QStringLiteral("--workspace"), m_dir.filePath(QStringLiteral("ws"))}
                        + args);
        process.write(input);
        process.closeWriteChannel();
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }

    // Every file of the user's under this run's folder; this run's keychain service.
    SessionOptions sessionOptions(const QString &workspace, QuietHost *host) const
    {
        SessionOptions options;
        options.workspace = workspace;
        options.trustFile = m_dir.filePath(
                QStringLiteral("data/trust-%1.json").arg(QFileInfo(workspace).fileName()));
        options.approvalsFile = m_dir.filePath(QStringLiteral("data/approvals.json"));
        options.auditLogFile = m_dir.filePath(QStringLiteral("data/audit.jsonl"));
        options.eraCacheFile = m_dir.filePath(QStringLiteral("data/eras.json"));
        options.serverSecretsFile = indexFile();
        options.keychainService = m_service;
        options.host = host;
        return options;
    }

    // A Session whose one server, "fx", reads MY_TOKEN into its environment and FILLER into its
    // arguments (the fixture's count of filler tools).
    std::unique_ptr<Session> makeSession(QuietHost *host, const QString &configFile)
    {
        const Json servers{{"mcpServers",
                            {{"fx",
                              {{"command", SWITCHBOARD_FIXTURE_SERVER},
                               {"args", {"--env-tool", "--tools", "${secret:FILLER}"}},
                               {"env", {{"MY_TOKEN", "Bearer ${secret:MY_TOKEN}"}}},
                               {"tools", {{"get_env", {{"risk", "read"}}}}}}}}}};
        QFile file(configFile);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return nullptr;
        file.write(QByteArray::fromStdString(servers.dump(2)));
        file.close();
        SessionOptions options = sessionOptions(m_dir.filePath(QStringLiteral("ws")), host);
        options.configFile = configFile;
        auto session = std::make_unique<Session>(options);
        session->load();
        return session;
    }

    static bool settle(Session &session)
    {
        return QTest::qWaitFor([&] { return session.manager()->isSettled(); }, 30000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("ws"))));
        QVERIFY(QDir().mkpath(dataDir()));
    }

    void cleanupTestCase()
    {
        // Nothing of this run stays in the keyring.
        SecretStore store(m_service);
        ServerSecrets secrets(&store, indexFile());
        for (const QString &name :
             {QStringLiteral("MY_TOKEN"), QStringLiteral("FILLER"), QStringLiteral("CLI_TOKEN")})
            wait([&](ServerSecrets::Done done) { secrets.remove(name, this, std::move(done)); });
    }

    void badNamesAndValuesAreRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty name") << QString() << QStringLiteral("v") << QStringLiteral("''");
        QTest::newRow("digit first") << QStringLiteral("1TOKEN") << QStringLiteral("v")
                                     << QStringLiteral("'1TOKEN' cannot name a secret");
        QTest::newRow("a slash") << QStringLiteral("a/b") << QStringLiteral("v")
                                 << QStringLiteral("cannot name a secret");
        QTest::newRow("a brace") << QStringLiteral("A}") << QStringLiteral("v")
                                 << QStringLiteral("cannot name a secret");
        QTest::newRow("65 characters") << QString(65, u'A') << QStringLiteral("v")
                                       << QStringLiteral("at most 64 characters");
        QTest::newRow("empty value") << QStringLiteral("OK") << QString()
                                     << QStringLiteral("the secret OK would be empty");
        QTest::newRow("NUL") << QStringLiteral("OK") << QString::fromUtf16(u"a\0b", 3)
                             << QStringLiteral("NUL character");
        QTest::newRow("too long") << QStringLiteral("OK")
                                  << QString(ServerSecrets::MaxValueChars + 1, u'x')
                                  << QStringLiteral("longer than 65536 characters");
    }

    void badNamesAndValuesAreRefused()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, says);
        SecretStore store(m_service);
        ServerSecrets secrets(&store, indexFile());
        const ServerSecrets::Outcome outcome = wait(
                [&](ServerSecrets::Done done) { secrets.set(name, value, this, std::move(done)); });
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(says), qPrintable(outcome.error));
        QVERIFY(!secrets.names().contains(name));
    }

    // Stored, listed by name, read back, deleted. With a keychain the value is in the Secret
    // Service (read by secret-tool from another process) and the name in the index file; without
    // one the value lives in this session's memory and no file is written.
    void storesListsReadsAndDeletes()
    {
        SecretStore store(m_service);
        ServerSecrets secrets(&store, indexFile());
        QSignalSpy changed(&secrets, &ServerSecrets::changed);
        const QString value = QStringLiteral("ghp_7f3a9c1e5b2d4f6a8c0e");
        const ServerSecrets::Outcome stored = wait([&](ServerSecrets::Done done) {
            secrets.set(QStringLiteral("MY_TOKEN"), value, this, std::move(done));
        });
        QVERIFY2(stored.ok, qPrintable(stored.error));
        QCOMPARE(changed.size(), 1);
        QVERIFY(secrets.names().contains(QStringLiteral("MY_TOKEN")));
        if (keychainRequired()) {
            QVERIFY2(!stored.sessionOnly, qPrintable(stored.error));
            QCOMPARE(secretServiceValue(m_service, QStringLiteral("server-secret/MY_TOKEN")),
                     std::optional<QString>(value));
            QFile index(indexFile());
            QVERIFY(index.open(QIODevice::ReadOnly));
            const QByteArray text = index.readAll();
            QVERIFY(text.contains("\"MY_TOKEN\""));
            QVERIFY(!text.contains(value.toUtf8()));
            // Another reader of the same index (the CLI, another window) sees the name.
            SecretStore other(m_service);
            QVERIFY(ServerSecrets(&other, indexFile())
                            .names()
                            .contains(QStringLiteral("MY_TOKEN")));
        } else {
            QVERIFY(stored.sessionOnly);
            QVERIFY(secrets.isSessionOnly(QStringLiteral("MY_TOKEN")));
            QVERIFY2(!stored.error.isEmpty(), "a session-only value says why");
        }
        QCOMPARE(filesHolding(m_dir.path(), value), QStringList());

        std::optional<QHash<QString, QString>> values;
        QString error = QStringLiteral("unset");
        secrets.read({QStringLiteral("MY_TOKEN"), QStringLiteral("NEVER_SET"),
                      QStringLiteral("MY_TOKEN")},
                     this, [&](const QHash<QString, QString> &v, const QString &e) {
                         QVERIFY(!values);
                         values = v;
                         error = e;
                     });
        QVERIFY(QTest::qWaitFor([&] { return values.has_value(); }, 20000));
        QCOMPARE(values->value(QStringLiteral("MY_TOKEN")), value);
        QVERIFY(!values->contains(QStringLiteral("NEVER_SET")));
        if (keychainRequired())
            QCOMPARE(error, QString());

        const ServerSecrets::Outcome removed = wait([&](ServerSecrets::Done done) {
            secrets.remove(QStringLiteral("MY_TOKEN"), this, std::move(done));
        });
        QVERIFY2(removed.ok || !keychainRequired(), qPrintable(removed.error));
        QVERIFY(!secrets.names().contains(QStringLiteral("MY_TOKEN")));
        if (keychainRequired())
            QCOMPARE(secretServiceValue(m_service, QStringLiteral("server-secret/MY_TOKEN")),
                     std::nullopt);
    }

    // A server reads two secrets: the value goes into its environment and its arguments (in its
    // process only), is hidden from what the model and the audit log see, and lands in no file.
    void serverGetsItsSecrets()
    {
        QuietHost host;
        const QString config = m_dir.filePath(QStringLiteral("servers.json"));
        auto session = makeSession(&host, config);
        QVERIFY(session);
        QCOMPARE(session->configErrors().size(), 0);
        const Mcp::ServerConfig *fx = session->config().find(QStringLiteral("fx"));
        QVERIFY(fx);
        QCOMPARE(fx->secretReferences.size(), 2);

        // Not stored yet: the server fails, saying which secret and how to set it.
        session->start();
        QVERIFY(settle(*session));
        Mcp::ServerStatus status = session->manager()->status(QStringLiteral("fx"));
        QCOMPARE(status.state, Mcp::ServerState::Failed);
        // Where no keychain answers, the reason is that.
        const QString expected = keychainRequired()
                                         ? QStringLiteral("switchboard-cli secret set")
                                         : QStringLiteral("could not be read from the keychain");
        QVERIFY2(status.reason.contains(expected), qPrintable(status.reason));

        const QString token = QStringLiteral("tok-4d9e2b7a1c");
        for (const auto &[name, value] :
             {std::pair{QStringLiteral("MY_TOKEN"), token},
              std::pair{QStringLiteral("FILLER"), QStringLiteral("12")}}) {
            const ServerSecrets::Outcome outcome = wait([&](ServerSecrets::Done done) {
                session->serverSecrets()->set(name, value, this, std::move(done));
            });
            QVERIFY2(outcome.ok, qPrintable(outcome.error));
        }
        QVERIFY(!session->secrets().contains(token));
        session->manager()->restartServer(QStringLiteral("fx"));
        QVERIFY(settle(*session));
        status = session->manager()->status(QStringLiteral("fx"));
        QCOMPARE(status.state, Mcp::ServerState::Connected);
        QVERIFY2(status.toolCount >= 12, qPrintable(QString::number(status.toolCount)));
        QVERIFY(session->secrets().contains(token));
        // What files and the Manager's view of the definition hold: the reference as written.
        QCOMPARE(session->manager()
                         ->serverConfig(QStringLiteral("fx"))
                         ->env.value(QStringLiteral("MY_TOKEN")),
                 QStringLiteral("Bearer ${secret:MY_TOKEN}"));

        // The server has the value: straight from the client, not through the redacting runner.
        Mcp::Client *client = session->manager()->client(QStringLiteral("fx"));
        QVERIFY(client);
        std::optional<Mcp::ToolResult> raw;
        client->callTool("get_env", Json{{"name", "MY_TOKEN"}}, this,
                         [&raw](Mcp::ToolResult r) { raw = std::move(r); });
        QVERIFY(QTest::qWaitFor([&] { return raw.has_value(); }, 10000));
        QVERIFY2(
                QString::fromStdString(raw->raw.dump()).contains(QStringLiteral("Bearer ") + token),
                raw->raw.dump().c_str());

        // The model's copy of the same call has it hidden, and so does the audit log.
        std::optional<ToolRunResult> result;
        ToolCallRequest call;
        call.id = QStringLiteral("c1");
        call.name = QStringLiteral("mcp__fx__get_env");
        call.arguments = Json{{"name", "MY_TOKEN"}};
        ToolRunner::Callbacks callbacks;
        callbacks.onDone = [&result](ToolRunResult r) {
            result = std::move(r);
        };
        session->runner()->run(call, QStringLiteral("conv"), this, callbacks);
        QVERIFY(QTest::qWaitFor([&] { return result.has_value(); }, 10000));
        const QString seen = QString::fromStdString(result->output.content.dump())
                             + QString::fromStdString(result->output.structuredContent.dump());
        QVERIFY2(!seen.contains(token), qPrintable(seen));
        QVERIFY2(seen.contains(QStringLiteral("redacted")), qPrintable(seen));

        bool stopped = false;
        connect(session->manager(), &Mcp::Manager::stopped, this, [&] { stopped = true; });
        session->manager()->stop();
        QVERIFY(QTest::qWaitFor([&] { return stopped; }, 10000));
        QCOMPARE(filesHolding(m_dir.path(), token), QStringList());
    }

    // A workspace's own .mcp.json may name a secret, but nothing is read until the server is
    // trusted (as it is written), and the trust prompt's definition shows the reference.
    void workspaceServerReadsOnlyOnceTrusted()
    {
        QuietHost host;
        QTemporaryDir ws;
        QFile file(QDir(ws.path()).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("{\"mcpServers\": {\"cloned\": {\"command\": \"%1\", \"env\": "
                                  "{\"X\": \"${secret:MY_TOKEN}\"}}}}")
                           .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                           .toUtf8());
        file.close();
        Session session(sessionOptions(ws.path(), &host));
        session.load();
        const ServerSecrets::Outcome outcome = wait([&](ServerSecrets::Done done) {
            session.serverSecrets()->set(QStringLiteral("MY_TOKEN"),
                                         QStringLiteral("tok-for-the-cloned"), this,
                                         std::move(done));
        });
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        session.start();
        QVERIFY(settle(session));
        QCOMPARE(session.manager()->status(QStringLiteral("cloned")).state,
                 Mcp::ServerState::Untrusted);
        QVERIFY(!session.secrets().contains(QStringLiteral("tok-for-the-cloned")));
        const QList<Mcp::ServerConfig> waiting = session.untrustedServers();
        QCOMPARE(waiting.size(), 1);
        QVERIFY(waiting.first().definition["env"]["X"] == Json("${secret:MY_TOKEN}"));

        QCOMPARE(session.trust({QStringLiteral("cloned")}), QStringList());
        QVERIFY(settle(session));
        QCOMPARE(session.manager()->status(QStringLiteral("cloned")).state,
                 Mcp::ServerState::Connected);
        QVERIFY(session.secrets().contains(QStringLiteral("tok-for-the-cloned")));
        bool stopped = false;
        connect(session.manager(), &Mcp::Manager::stopped, this, [&] { stopped = true; });
        session.manager()->stop();
        QVERIFY(QTest::qWaitFor([&] { return stopped; }, 10000));
    }

    // switchboard-cli secret set (from standard input), list, delete; and `call` starting a
    // server that reads the secret.
    void cliSetsListsAndDeletes()
    {
        const QString ws = m_dir.filePath(QStringLiteral("ws"));
        QFile mcp(QDir(ws).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(mcp.open(QIODevice::WriteOnly | QIODevice::Truncate));
        mcp.write(QStringLiteral("{\"mcpServers\": {\"fx\": {\"command\": \"%1\", \"args\": "
                                 "[\"--env-tool\"], \"env\": {\"CLI_TOKEN\": "
                                 "\"${secret:CLI_TOKEN}\"}}}}")
                          .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                          .toUtf8());
        mcp.close();
        QCOMPARE(cli({QStringLiteral("trust"), QStringLiteral("fx")}).code, 0);

        Run listed = cli({QStringLiteral("secret"), QStringLiteral("list")});
        QCOMPARE(listed.code, 0);
        QVERIFY2(listed.out.contains(QStringLiteral("CLI_TOKEN (not stored)  used by fx")),
                 qPrintable(listed.out));

        const QString value = QStringLiteral("cli-9b1f4e7d2a");
        const Run set = cli(
                {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("CLI_TOKEN")},
                value.toUtf8() + "\n");
        const Run call
                = cli({QStringLiteral("call"), QStringLiteral("fx"), QStringLiteral("get_env"),
                       QStringLiteral("{\"name\":\"CLI_TOKEN\"}"), QStringLiteral("--json")});
        if (!keychainRequired()) {
            QCOMPARE(set.code, 3);
            QVERIFY2(set.err.contains(QStringLiteral("nothing was stored"))
                             && set.err.contains(QStringLiteral("${CLI_TOKEN}")),
                     qPrintable(set.err));
            QCOMPARE(call.code, 3);
            QVERIFY2(call.err.contains(QStringLiteral("the secret CLI_TOKEN could not be read "
                                                      "from the keychain")),
                     qPrintable(call.err));
            return;
        }
        QCOMPARE(set.code, 0);
        QVERIFY2(set.out.contains(QStringLiteral("CLI_TOKEN is stored in the keychain")),
                 qPrintable(set.out));
        QVERIFY(!set.out.contains(value) && !set.err.contains(value));
        QCOMPARE(secretServiceValue(m_service, QStringLiteral("server-secret/CLI_TOKEN")),
                 std::optional<QString>(value)); // the line break is not part of it
        listed = cli({QStringLiteral("secret"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(listed.code, 0);
        const Json list = Json::parse(listed.out.toStdString(), nullptr, false);
        QVERIFY2(list.is_array() && list.size() == 1, qPrintable(listed.out));
        QVERIFY(list[0] == (Json{{"name", "CLI_TOKEN"}, {"stored", true}, {"servers", {"fx"}}}));

        // The CLI's own output of the call is the model's view: the value is hidden there too.
        QCOMPARE(call.code, 0);
        QVERIFY2(!call.out.contains(value), qPrintable(call.out));
        QVERIFY2(call.out.contains(QStringLiteral("redacted")), qPrintable(call.out));
        QCOMPARE(filesHolding(m_dir.path(), value), QStringList());

        const Run deleted = cli(
                {QStringLiteral("secret"), QStringLiteral("delete"), QStringLiteral("CLI_TOKEN")});
        QCOMPARE(deleted.code, 0);
        QCOMPARE(secretServiceValue(m_service, QStringLiteral("server-secret/CLI_TOKEN")),
                 std::nullopt);
        listed = cli({QStringLiteral("secret"), QStringLiteral("list")});
        QVERIFY2(listed.out.contains(QStringLiteral("CLI_TOKEN (not stored)")),
                 qPrintable(listed.out));
    }
};

QTEST_GUILESS_MAIN(tst_ServerSecrets)
#include "tst_serversecrets.moc"
