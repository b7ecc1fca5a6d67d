#include "jsontest.h"
#include "mcptest.h"
#include "processtest.h"
#include "sandboxtest.h"

#include <mcp/config/redaction.h>
#include <mcp/manager.h>
#include <mcp/transport/stdiotransport.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Mcp;

// The Manager with real fixture processes: concurrent fail-soft start, every state, the
// startup timeout, crash restarts within a budget (never for a server that never
// initialized), reload that restarts only what changed, and an orderly stop.
class tst_Manager : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static QString fixture() { return QStringLiteral(SWITCHBOARD_FIXTURE_SERVER); }

    McpConfig parse(const QByteArray &json)
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("FIXTURE"), fixture());
        McpConfig config = ConfigLoader::parse(json, QStringLiteral("test.json"), env);
        for (const ConfigError &e : config.errors)
            qWarning() << e.toString();
        return config;
    }

    std::unique_ptr<Manager> makeManager()
    {
        ManagerOptions options;
        options.startOnThread = startOnThread();
        options.workspaceDir = m_dir.path();
        options.restartDelayMs = 50;
        options.transports.stdio.shutdownStageMs = 300;
        return std::make_unique<Manager>(options);
    }

    // Every test runs twice: servers started on this thread, and on the Manager's start thread
    // (the window's way), from which each comes here once ready or failed.
    static bool startOnThread()
    {
        QFETCH_GLOBAL(bool, onThread);
        return onThread;
    }

    static bool waitSettled(Manager &manager, int ms = 15000)
    {
        return QTest::qWaitFor([&] { return manager.isSettled(); }, ms);
    }

    static qint64 pidOf(Manager &manager, const QString &name)
    {
        Client *client = manager.client(name);
        return client ? static_cast<StdioTransport *>(client->transport())->processId() : -1;
    }

    static std::optional<ToolResult> call(Manager &manager, const QString &server,
                                          const std::string &tool, Json args = Json::object())
    {
        return callAndWait(manager.client(server), tool, std::move(args), 10000);
    }

private slots:
    void initTestCase_data()
    {
        QTest::addColumn<bool>("onThread");
        QTest::newRow("this thread") << false;
        QTest::newRow("start thread") << true;
    }
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The start thread: a client is here (owned by the Manager, on its thread) once it is
    // connected; a Manager destroyed while servers are still starting over there ends them
    // and its thread cleanly; the protocol log sees the handshake's traffic, in order.
    void startThreadHandsClientsOver()
    {
        if (!startOnThread())
            QSKIP("the start thread only");
        {
            auto manager = makeManager();
            QList<QByteArray> seen;
            manager->setTrafficObserver([&](const QString &, TrafficDirection direction,
                                            QByteArrayView text, qint64) {
                QVERIFY(QThread::currentThread() == manager->thread());
                seen << (direction == TrafficDirection::Sent ? "> " : "< ") + text.toByteArray();
            });
            manager->start(parse(R"({"mcpServers": {"good": {"command": "${FIXTURE}"}}})"));
            QVERIFY(waitSettled(*manager));
            Client *client = manager->client(QStringLiteral("good"));
            QVERIFY(client);
            QCOMPARE(client->thread(), manager->thread());
            QCOMPARE(client->parent(), manager.get());
            QCOMPARE(client->transport()->thread(), manager->thread());
            auto r = call(*manager, QStringLiteral("good"), "echo", Json{{"text", "hi"}});
            QVERIFY(r && !r->failed());
            QTRY_VERIFY(!seen.isEmpty() && seen.last().startsWith("< "));
            QVERIFY(seen.size() >= 5);
            QVERIFY(seen[0].startsWith("> ") && seen[0].contains("server/discover"));
            QVERIFY(seen[2].contains("initialize"));
        }
        // Destroyed while two servers are still starting over there: each has sent its
        // initialize, which their fixture answers only 2 s later.
        auto manager = makeManager();
        QSet<QString> initializing;
        manager->setTrafficObserver([&](const QString &server, TrafficDirection direction,
                                        QByteArrayView text, qint64) {
            if (direction == TrafficDirection::Sent
                && text.toByteArray().contains("\"method\":\"initialize\""))
                initializing << server;
        });
        manager->start(parse(R"({"mcpServers": {
            "slow1": {"command": "${FIXTURE}", "args": ["--init-delay-ms", "2000"]},
            "slow2": {"command": "${FIXTURE}", "args": ["--init-delay-ms", "2000"]}}})"));
        QTRY_COMPARE_WITH_TIMEOUT(initializing.size(), qsizetype(2), 10000);
        QVERIFY(!manager->isSettled());
        manager.reset(); // no crash, no hang, no leak (the ASan run)
    }

    // `${secret:NAME}`: read through ManagerOptions::readSecrets before each start, the values
    // in the process only; an answer for an earlier launch is dropped; no reader, or a reader's
    // error, fails the server saying why.
    void secretsAreReadBeforeEachStart()
    {
        const QByteArray text = R"({"mcpServers": {"s": {"command": "${FIXTURE}",
            "args": ["--env-tool"], "env": {"TOKEN": "t=${secret:TOKEN}"}}}})";
        {
            auto manager = makeManager();
            manager->start(parse(text));
            QVERIFY(waitSettled(*manager));
            const ServerStatus status = manager->status(QStringLiteral("s"));
            QCOMPARE(status.state, ServerState::Failed);
            QVERIFY2(status.reason.contains(QStringLiteral("keychain secret TOKEN")),
                     qPrintable(status.reason));
        }
        ManagerOptions options;
        options.startOnThread = startOnThread();
        options.workspaceDir = m_dir.path();
        options.transports.stdio.shutdownStageMs = 300;
        QList<ManagerOptions::SecretsRead> asked;
        QStringList askedFor;
        options.readSecrets
                = [&](const ServerConfig &server, QObject *, ManagerOptions::SecretsRead done) {
                      askedFor << server.args.join(u' ');
                      asked << std::move(done);
                  };
        Manager manager(options);
        manager.start(parse(text));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(manager.status(QStringLiteral("s")).state, ServerState::Pending);
        QVERIFY(!manager.isSettled());
        // Changed before the keychain answered: the first answer is for a launch that is over.
        manager.reload(parse(
                QByteArray(text).replace("\"--env-tool\"", "\"--env-tool\", \"--tools\", \"1\"")));
        QCOMPARE(asked.size(), 2);
        QCOMPARE(askedFor.last(), QStringLiteral("--env-tool --tools 1"));
        asked[0]({{QStringLiteral("TOKEN"), QStringLiteral("stale-value")}}, {});
        QCOMPARE(manager.status(QStringLiteral("s")).state, ServerState::Pending);
        asked[1]({{QStringLiteral("TOKEN"), QStringLiteral("fresh-value")}}, {});
        QVERIFY(waitSettled(manager));
        QCOMPARE(manager.status(QStringLiteral("s")).state, ServerState::Connected);
        auto r = call(manager, QStringLiteral("s"), "get_env", Json{{"name", "TOKEN"}});
        QVERIFY(r && !r->failed());
        QVERIFY2(r->text().contains(QStringLiteral("t=fresh-value")), qPrintable(r->text()));
        // The definition keeps the reference; the value is known, for the protocol log.
        const ServerConfig *config = manager.serverConfig(QStringLiteral("s"));
        QCOMPARE(config->env.value(QStringLiteral("TOKEN")), QStringLiteral("t=${secret:TOKEN}"));
        QVERIFY(config->expandedSecrets.contains(QStringLiteral("fresh-value")));

        // Each start reads again; a keychain that fails fails the server with its reason.
        manager.restartServer(QStringLiteral("s"));
        QCOMPARE(asked.size(), 3);
        asked[2]({}, QStringLiteral("the keychain is locked"));
        QVERIFY(waitSettled(manager));
        QCOMPARE(manager.status(QStringLiteral("s")).state, ServerState::Failed);
        QCOMPARE(manager.status(QStringLiteral("s")).reason,
                 QStringLiteral("the keychain is locked"));
        // A secret the keychain does not have: named, with where it is used.
        manager.restartServer(QStringLiteral("s"));
        asked[3]({}, {});
        QVERIFY(waitSettled(manager));
        QVERIFY2(manager.status(QStringLiteral("s"))
                         .reason.startsWith(QStringLiteral(
                                 "the keychain secret TOKEN (used in env.TOKEN) is not set")),
                 qPrintable(manager.status(QStringLiteral("s")).reason));
    }

    void failSoftStart()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        auto manager = makeManager();
        QSignalSpy settled(manager.get(), &Manager::settled);
        manager->start(parse(R"({"mcpServers": {
            "good":     {"command": "${FIXTURE}"},
            "slowinit": {"command": "${FIXTURE}", "args": ["--init-delay-ms", "300"]},
            "missing":  {"command": "switchboard-no-such-command"},
            "secret":   {"command": "${FIXTURE}", "env": {"TOKEN": "${SB_UNSET_TOKEN_VARIABLE}"}},
            "dies":     {"command": "${FIXTURE}", "args": ["--exit-at-startup", "5"]},
            "off":      {"command": "${FIXTURE}", "disabled": true}
        }})"));
        QCOMPARE(manager->status("good").state, ServerState::Pending);
        QVERIFY(waitSettled(*manager));
        QCOMPARE(settled.count(), 1);

        QCOMPARE(manager->status("good").state, ServerState::Connected);
        QCOMPARE(manager->status("good").toolCount, 16);
        QCOMPARE(manager->status("slowinit").state, ServerState::Connected);
        QCOMPARE(manager->status("missing").state, ServerState::Failed);
        QVERIFY(manager->status("missing").reason.contains(
                QStringLiteral("switchboard-no-such-command")));
        QCOMPARE(manager->status("secret").state, ServerState::Failed);
        QVERIFY(manager->status("secret").reason.contains(
                QStringLiteral("SB_UNSET_TOKEN_VARIABLE")));
        QCOMPARE(manager->status("dies").state, ServerState::Failed);
        QVERIFY(manager->status("dies").reason.contains(QStringLiteral("code 5")));
        QCOMPARE(manager->status("off").state, ServerState::Disabled);
        QVERIFY(!manager->client("off"));
        QVERIFY(!manager->client("dies"));
        QCOMPARE(manager->status("dies").restarts, 0); // never initialized: never restarted

        auto r = call(*manager, "good", "echo", Json{{"text", "works"}});
        QVERIFY(r && !r->failed());
    }

    void startupTimeout()
    {
        auto manager = makeManager();
        manager->start(parse(R"({"mcpServers": {
            "mute": {"command": "${FIXTURE}", "args": ["--no-init-reply"], "startupTimeout": 0.3},
            "fine": {"command": "${FIXTURE}"}
        }})"));
        QVERIFY(waitSettled(*manager));
        QCOMPARE(manager->status("mute").state, ServerState::Failed);
        QVERIFY2(manager->status("mute").reason.contains(QStringLiteral("within")),
                 qPrintable(manager->status("mute").reason));
        QCOMPARE(manager->status("fine").state, ServerState::Connected);
    }

    void crashRestartsWithinBudget()
    {
        auto manager = makeManager();
        manager->start(parse(R"({"mcpServers": {"crashy": {"command": "${FIXTURE}"},
                                                 "steady": {"command": "${FIXTURE}"}}})"));
        QVERIFY(waitSettled(*manager));
        const qint64 steadyPid = pidOf(*manager, "steady");
        QList<ServerState> seen;
        connect(manager.get(), &Manager::serverStatusChanged, this, [&](const QString &name) {
            if (name == QLatin1String("crashy"))
                seen << manager->status(name).state;
        });
        for (int i = 1; i <= 3; ++i) {
            const qint64 before = pidOf(*manager, "crashy");
            auto r = call(*manager, "crashy", "crash");
            QVERIFY(r && r->error);
            QTRY_COMPARE_WITH_TIMEOUT(manager->status("crashy").state, ServerState::Connected,
                                      10000);
            QVERIFY(pidOf(*manager, "crashy") != before);
            QCOMPARE(manager->status("crashy").restarts, i);
        }
        QVERIFY(seen.contains(ServerState::Restarting));
        // The budget (3 within 60 s) is spent: the fourth crash is final.
        auto r = call(*manager, "crashy", "crash");
        QVERIFY(r && r->error);
        QTRY_COMPARE_WITH_TIMEOUT(manager->status("crashy").state, ServerState::Failed, 10000);
        QVERIFY(manager->status("crashy").reason.contains(QStringLiteral("gave up")));
        // The other server never noticed.
        QCOMPARE(pidOf(*manager, "steady"), steadyPid);
        auto ok = call(*manager, "steady", "echo", Json{{"text", "x"}});
        QVERIFY(ok && !ok->failed());
    }

    void reloadRestartsOnlyChanged()
    {
        auto manager = makeManager();
        manager->start(parse(R"({"mcpServers": {
            "same":    {"command": "${FIXTURE}"},
            "changed": {"command": "${FIXTURE}"},
            "removed": {"command": "${FIXTURE}"}
        }})"));
        QVERIFY(waitSettled(*manager));
        const qint64 samePid = pidOf(*manager, "same");
        const qint64 changedPid = pidOf(*manager, "changed");
        const qint64 removedPid = pidOf(*manager, "removed");
        QVERIFY(samePid > 0 && changedPid > 0 && removedPid > 0);

        const ReloadPlan plan = manager->reload(parse(R"({"mcpServers": {
            "same":    {"command": "${FIXTURE}"},
            "changed": {"command": "${FIXTURE}", "args": ["--tools", "3"]},
            "added":   {"command": "${FIXTURE}"}
        }})"));
        QCOMPARE(plan.unchanged, QStringList{"same"});
        QCOMPARE(plan.changed, QStringList{"changed"});
        QCOMPARE(plan.added, QStringList{"added"});
        QCOMPARE(plan.removed, QStringList{"removed"});
        QVERIFY(waitSettled(*manager));
        QCOMPARE(manager->serverNames(), (QStringList{"added", "changed", "same"}));
        QCOMPARE(pidOf(*manager, "same"), samePid);
        QVERIFY(pidOf(*manager, "changed") != changedPid);
        QCOMPARE(manager->status("changed").toolCount, 19);
        QCOMPARE(manager->status("added").state, ServerState::Connected);
        QCOMPARE(manager->status("removed").state, ServerState::Pending); // unknown now
        QTRY_VERIFY(!processAlive(removedPid));
    }

    // The era each server spoke is remembered: a legacy server is sent initialize at once the
    // next time (no server/discover); a modern one is probed as modern; a wrong guess is found
    // out and the cache corrected.
    void eraCache()
    {
        QTemporaryDir dir;
        const QString cache = dir.filePath(QStringLiteral("data/eras.json"));
        const QString log = dir.filePath(QStringLiteral("received.log"));
        const QByteArray config = QStringLiteral(R"({"mcpServers": {
            "legacy": {"command": "${FIXTURE}", "args": ["--log-file", "%1"]},
            "modern": {"command": "${FIXTURE}", "args": ["--era", "modern"]}}})")
                                          .arg(log)
                                          .toUtf8();
        const auto run = [&](const QByteArray &json, Era legacyNow) {
            ManagerOptions options;
            options.startOnThread = startOnThread();
            options.workspaceDir = m_dir.path();
            options.eraCacheFile = cache;
            Manager manager(options);
            manager.start(parse(json));
            QVERIFY(waitSettled(manager));
            for (const char *name : {"legacy", "modern"})
                QCOMPARE(manager.status(QLatin1String(name)).state, ServerState::Connected);
            QCOMPARE(manager.client("legacy")->era(), legacyNow);
            QCOMPARE(manager.client("modern")->era(), Era::Rev2026_07_28);
            QSignalSpy stopped(&manager, &Manager::stopped);
            manager.stop();
            QTRY_COMPARE(stopped.count(), 1);
        };
        const auto read = [](const QString &path) {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        run(config, Era::Rev2025_11_25);
        QVERIFY(read(log).contains("server/discover")); // nothing cached: probed
        QVERIFY(QFileInfo::exists(cache));
        QCOMPARE(QFileInfo(cache).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
                 QFileDevice::Permissions());
        // Digests only: nothing of the definitions (an argument or a URL may hold a key).
        QVERIFY2(!read(cache).contains("log-file"), read(cache).constData());
        QFile::remove(log);
        run(config, Era::Rev2025_11_25);
        QVERIFY(read(log).contains("initialize"));
        QVERIFY(!read(log).contains("server/discover")); // known legacy: initialize at once

        // The same definition now speaks only the modern era (its environment is not part of
        // the key): initialize is refused, the probe finds out, the cache is corrected.
        const QByteArray turned = QByteArray(config).replace(
                R"("args": ["--log-file")",
                R"("env": {"SB_FIXTURE_ERA": "modern"}, "args": ["--log-file")");
        QVERIFY(turned != config);
        run(turned, Era::Rev2026_07_28);
        QFile::remove(log);
        run(turned, Era::Rev2026_07_28);
        QVERIFY(!read(log).contains("\"initialize\"")); // known modern now
    }

    void enableDisableAndRestart()
    {
        auto manager = makeManager();
        manager->start(parse(R"({"mcpServers": {"s": {"command": "${FIXTURE}"}}})"));
        QVERIFY(waitSettled(*manager));
        const qint64 pid = pidOf(*manager, "s");
        manager->setServerEnabled("s", false);
        QCOMPARE(manager->status("s").state, ServerState::Disabled);
        QTRY_VERIFY(!processAlive(pid));
        manager->setServerEnabled("s", true);
        QVERIFY(waitSettled(*manager));
        QCOMPARE(manager->status("s").state, ServerState::Connected);
        const qint64 second = pidOf(*manager, "s");
        manager->restartServer("s");
        QVERIFY(waitSettled(*manager));
        QCOMPARE(manager->status("s").state, ServerState::Connected);
        QVERIFY(pidOf(*manager, "s") != second);
    }

    void stderrTailSurvivesRestart()
    {
        auto manager = makeManager();
        manager->start(parse(
                R"({"mcpServers": {"s": {"command": "${FIXTURE}", "args": ["--stderr-lines", "3"]}}})"));
        QVERIFY(waitSettled(*manager));
        QTRY_VERIFY(manager->stderrTail("s").size() >= 3);
    }

    // A server that prints its token to stderr: the tail and the signal carry it redacted.
    void stderrIsRedacted()
    {
        auto manager = makeManager();
        QSignalSpy lines(manager.get(), &Manager::serverStderr);
        manager->start(parse(R"({"mcpServers": {"s": {"command": "sh",
            "args": ["-c", "echo starting with $API_TOKEN >&2; exec $0", "${FIXTURE}"],
            "env": {"API_TOKEN": "tok-0123456789abcdef"}}}})"));
        QVERIFY(waitSettled(*manager));
        QTRY_VERIFY(!manager->stderrTail("s").isEmpty());
        const QString tail = manager->stderrTail("s").join(QLatin1Char('\n'));
        QVERIFY2(tail.contains(QLatin1String("starting with")), qPrintable(tail));
        QVERIFY2(!tail.contains(QLatin1String("tok-0123456789abcdef")), qPrintable(tail));
        QVERIFY2(tail.contains(QString::fromUtf8(Redactor::Marker.data(),
                                                 qsizetype(Redactor::Marker.size()))),
                 qPrintable(tail));
        QVERIFY(!lines.isEmpty());
        for (const QList<QVariant> &line : std::as_const(lines))
            QVERIFY(!line.at(1).toString().contains(QLatin1String("tok-0123456789abcdef")));
    }

    void oversizedReplyDoesNotStallOtherServers()
    {
        auto manager = makeManager();
        manager->start(parse(R"({"mcpServers": {"big": {"command": "${FIXTURE}"},
                                                 "other": {"command": "${FIXTURE}"}}})"));
        QVERIFY(waitSettled(*manager));
        std::optional<ToolResult> big;
        QObject context;
        manager->client("big")->callTool("big", Json{{"bytes", 100 * 1000 * 1000}}, &context,
                                         [&](ToolResult r) { big = std::move(r); });
        // While 100 MB stream in from one server (and are dropped over the cap), the other
        // keeps answering: echo after echo completes before the big call ends.
        int answered = 0;
        while (!big.has_value() && answered < 100000) {
            auto r = call(*manager, "other", "echo", Json{{"text", "ping"}});
            QVERIFY(r && !r->failed());
            ++answered;
        }
        qInfo("%d echoes answered during the 100 MB reply", answered);
        QVERIFY2(answered >= 10, qPrintable(QString::number(answered)));
        QTRY_VERIFY_WITH_TIMEOUT(big.has_value(), 60000);
        QVERIFY(big->error && big->error->is(ErrorCode::MessageTooLarge));
        QCOMPARE(manager->status("big").state, ServerState::Connected);
    }

#ifdef Q_OS_LINUX
    // "sandbox" and "inheritEnv" from the config reach the process; a missing bubblewrap fails
    // only the sandboxed server, with a reason naming it.
    void sandboxAndEnvironmentFromConfig()
    {
        SKIP_UNLESS_SANDBOX();
        QTemporaryDir outside(QDir::currentPath() + QStringLiteral("/manager-outside-XXXXXX"));
        QVERIFY(outside.isValid());
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("sandboxed")));
        qputenv("SB_MANAGER_UNLISTED", "unlisted");
        auto manager = makeManager();
        manager->start(parse(R"({"mcpServers": {
            "boxed": {"command": "${FIXTURE}", "args": ["--env-tool"], "sandbox": {"network": false}},
            "open":  {"command": "${FIXTURE}", "args": ["--env-tool"], "inheritEnv": true}
        }})"));
        QVERIFY(waitSettled(*manager));
        qunsetenv("SB_MANAGER_UNLISTED");
        QCOMPARE(manager->status("boxed").state, ServerState::Connected);
        QCOMPARE(manager->status("open").state, ServerState::Connected);

        const QString blocked = outside.filePath(QStringLiteral("blocked.txt"));
        auto r = call(*manager, "boxed", "write_file",
                      Json{{"path", blocked.toStdString()}, {"content", "x"}});
        QVERIFY(r && r->failed());
        QVERIFY(!QFileInfo::exists(blocked));
        r = call(*manager, "boxed", "write_file",
                 Json{{"path", "sandboxed/inside.txt"}, {"content", "x"}});
        QVERIFY(r && !r->failed());
        QVERIFY(QFileInfo::exists(m_dir.filePath(QStringLiteral("sandboxed/inside.txt"))));

        r = call(*manager, "boxed", "env");
        QVERIFY(r && !r->failed());
        QVERIFY(!r->text().contains(QStringLiteral("SB_MANAGER_UNLISTED")));
        QVERIFY(r->text().contains(QStringLiteral("TMPDIR=/tmp\n")));
        r = call(*manager, "open", "env");
        QVERIFY(r && !r->failed());
        QVERIFY(r->text().contains(QStringLiteral("SB_MANAGER_UNLISTED=unlisted\n")));
        manager->stop();
    }

    void sandboxWithoutBubblewrap()
    {
        ManagerOptions options;
        options.startOnThread = startOnThread();
        options.workspaceDir = m_dir.path();
        options.transports.stdio.shutdownStageMs = 300;
        options.transports.stdio.sandboxProgram = QStringLiteral("/nonexistent/bwrap");
        Manager manager(options);
        manager.start(parse(R"({"mcpServers": {
            "boxed": {"command": "${FIXTURE}", "sandbox": true},
            "plain": {"command": "${FIXTURE}"}
        }})"));
        QVERIFY(waitSettled(manager));
        QCOMPARE(manager.status("boxed").state, ServerState::Failed);
        QVERIFY2(manager.status("boxed").reason.contains(QStringLiteral("bubblewrap")),
                 qPrintable(manager.status("boxed").reason));
        QCOMPARE(manager.status("plain").state, ServerState::Connected);
        manager.stop();
    }
#endif

    // The protocol log's tap: nothing installed until someone observes; then both directions
    // of every server, bounded to the record size at a character boundary, on clients
    // launched later too (restart, reload); removing the observer removes every tap.
    void trafficObserver()
    {
        ManagerOptions options;
        options.startOnThread = startOnThread();
        options.workspaceDir = m_dir.path();
        options.transports.stdio.shutdownStageMs = 300;
        options.maxTrafficRecordBytes = 1001;
        Manager manager(options);
        manager.start(parse(R"({"mcpServers": {
            "a": {"command": "${FIXTURE}"},
            "b": {"command": "${FIXTURE}"}
        }})"));
        QVERIFY(waitSettled(manager));
        QVERIFY(!manager.hasTrafficObserver());
        QVERIFY(!manager.client("a")->transport()->hasTrafficTap());

        struct Record
        {
            QString server;
            TrafficDirection direction;
            QByteArray text;
            qint64 fullSize;
        };
        std::vector<Record> records;
        manager.setTrafficObserver([&](const QString &server, TrafficDirection direction,
                                       QByteArrayView text, qint64 fullSize) {
            records.push_back({server, direction, text.toByteArray(), fullSize});
        });
        QVERIFY(manager.hasTrafficObserver());
        QVERIFY(manager.client("a")->transport()->hasTrafficTap());
        QVERIFY(manager.client("b")->transport()->hasTrafficTap());

        auto r = call(manager, "a", "echo", Json{{"text", "hello tap"}});
        QVERIFY(r && !r->failed());
        QCOMPARE(records.size(), size_t(2));
        QCOMPARE(records[0].server, QStringLiteral("a"));
        QCOMPARE(records[0].direction, TrafficDirection::Sent);
        const Json sent = Json::parse(records[0].text.toStdString());
        QCOMPARE_JSON(sent["method"], Json("tools/call"));
        QCOMPARE_JSON(sent["params"]["arguments"]["text"], Json("hello tap"));
        QCOMPARE(records[0].fullSize, records[0].text.size());
        QCOMPARE(records[1].direction, TrafficDirection::Received);
        QVERIFY(records[1].text.contains("hello tap"));
        QCOMPARE_JSON(Json::parse(records[1].text.toStdString())["id"], sent["id"]);

        // A big reply: the observer gets the first 1001 bytes and the whole size.
        records.clear();
        r = call(manager, "b", "big", Json{{"bytes", 200000}});
        QVERIFY(r && !r->failed());
        QCOMPARE(records.size(), size_t(2));
        QCOMPARE(records[1].server, QStringLiteral("b"));
        QCOMPARE(records[1].text.size(), 1001);
        QVERIFY(records[1].fullSize > 200000);
        QVERIFY(records[1].text.startsWith('{'));

        // Never half a character: with a one-byte shift, one of the two cuts would fall
        // inside a two-byte "é" if it were not moved back.
        for (const char *prefix : {"", "x"}) {
            records.clear();
            std::string text = prefix;
            for (int i = 0; i < 1000; ++i)
                text += "\xC3\xA9";
            r = call(manager, "a", "echo", Json{{"text", text}});
            QVERIFY(r && !r->failed());
            QCOMPARE(records.size(), size_t(2));
            for (const Record &record : records) {
                QVERIFY(record.text.size() <= 1001 && record.text.size() >= 1000);
                QCOMPARE(QString::fromUtf8(record.text).toUtf8(), record.text);
            }
        }

        // A restarted server and a reloaded one get the tap; their handshake is seen.
        records.clear();
        manager.restartServer("a");
        QVERIFY(waitSettled(manager));
        QVERIFY(manager.client("a")->transport()->hasTrafficTap());
        auto sawInitialize = [&](const QString &server) {
            return std::any_of(records.begin(), records.end(), [&](const Record &record) {
                return record.server == server && record.direction == TrafficDirection::Sent
                       && record.text.contains("\"initialize\"");
            });
        };
        QVERIFY(sawInitialize("a"));
        QVERIFY(!sawInitialize("b"));
        manager.reload(parse(R"({"mcpServers": {
            "a": {"command": "${FIXTURE}"},
            "b": {"command": "${FIXTURE}", "args": ["--tools", "2"]}
        }})"));
        QVERIFY(waitSettled(manager));
        QVERIFY(sawInitialize("b"));
        QVERIFY(manager.client("b")->transport()->hasTrafficTap());

        // Observer removed: no tap anywhere, nothing recorded.
        manager.setTrafficObserver({});
        QVERIFY(!manager.hasTrafficObserver());
        QVERIFY(!manager.client("a")->transport()->hasTrafficTap());
        QVERIFY(!manager.client("b")->transport()->hasTrafficTap());
        records.clear();
        r = call(manager, "a", "echo", Json{{"text", "unseen"}});
        QVERIFY(r && !r->failed());
        manager.restartServer("b");
        QVERIFY(waitSettled(manager));
        QVERIFY(!manager.client("b")->transport()->hasTrafficTap());
        QCOMPARE(records.size(), size_t(0));
    }

    // A server of an untrusted workspace never runs: its command would create a marker file.
    void untrustedServerNeverStarts()
    {
        const QString marker = m_dir.filePath(QStringLiteral("pwned"));
        QFile::remove(marker);
        McpConfig config
                = parse("{\"mcpServers\": {"
                        "\"evil\": {\"command\": \"sh\", "
                        "\"args\": [\"-c\", \"echo run >> pwned; exec $0\", \"${FIXTURE}\"]},"
                        "\"good\": {\"command\": \"${FIXTURE}\"}}}");
        QCOMPARE(config.servers.size(), 2);
        config.servers[0].untrusted = true;
        auto manager = makeManager();
        manager->start(config);
        QVERIFY(waitSettled(*manager));
        QCOMPARE(manager->status("evil").state, ServerState::Untrusted);
        QCOMPARE(serverStateName(ServerState::Untrusted), QStringLiteral("untrusted"));
        QVERIFY(manager->status("evil").reason.contains(QLatin1String("not trusted")));
        QCOMPARE(manager->status("good").state, ServerState::Connected);
        QVERIFY(!manager->client("evil"));
        // Restart and enable do not get around it.
        manager->restartServer("evil");
        manager->setServerEnabled("evil", false);
        manager->setServerEnabled("evil", true);
        QVERIFY(waitSettled(*manager));
        QCOMPARE(manager->status("evil").state, ServerState::Untrusted);
        QVERIFY(!manager->client("evil"));
        QVERIFY(!QFile::exists(marker));

        // Trusted (the same definition, no longer marked): reload starts it.
        config.servers[0].untrusted = false;
        const ReloadPlan plan = manager->reload(config);
        QCOMPARE(plan.changed, QStringList({"evil"}));
        QVERIFY(waitSettled(*manager));
        QCOMPARE(manager->status("evil").state, ServerState::Connected);
        // Each start adds a line: one line once it has connected after the trust shows that
        // neither the first start, nor the restart, nor enabling it ran it before.
        QFile pwned(marker);
        QVERIFY(pwned.open(QIODevice::ReadOnly));
        QCOMPARE(pwned.readAll(), QByteArray("run\n"));
        pwned.close();
        QFile::remove(marker);
        QSignalSpy stopped(manager.get(), &Manager::stopped);
        manager->stop();
        QVERIFY(stopped.wait(5000));
    }

    // At most maxConcurrentStarts servers are starting at once; the rest wait as "pending",
    // and all of them connect. Each server logs when its process starts; the test sees when
    // it connects: no moment has more than the cap in between.
    void concurrentStartsAreCapped()
    {
        constexpr int Servers = 7;
        constexpr int Cap = 3;
        const QString log = m_dir.filePath(QStringLiteral("starts.log"));
        QFile::remove(log);
        QByteArray json = "{\"mcpServers\": {";
        for (int i = 0; i < Servers; ++i) {
            // sh -c SCRIPT FIXTURE NAME: $0 is the fixture, $1 the name of the server.
            const QByteArray name = "s" + QByteArray::number(i);
            json += QByteArray(i ? "," : "") + "\"" + name
                    + "\": {\"command\": \"sh\", \"args\": [\"-c\", \"echo $1 $(date +%s%3N) >> "
                    + log.toUtf8() + "; exec $0 --init-delay-ms 300\", \"${FIXTURE}\", \"" + name
                    + "\"]}";
        }
        json += "}}";
        ManagerOptions options;
        options.startOnThread = startOnThread();
        options.workspaceDir = m_dir.path();
        options.maxConcurrentStarts = Cap;
        Manager manager(options);
        QHash<QString, qint64> connectedAt;
        connect(&manager, &Manager::serverStatusChanged, this, [&](const QString &name) {
            if (manager.status(name).state == ServerState::Connected && !connectedAt.contains(name))
                connectedAt.insert(name, QDateTime::currentMSecsSinceEpoch());
        });
        manager.start(parse(json));
        for (int i = 0; i < Servers; ++i)
            QCOMPARE(manager.status(QStringLiteral("s%1").arg(i)).state, ServerState::Pending);
        QVERIFY(waitSettled(manager, 30000));
        QCOMPARE(connectedAt.size(), Servers);

        QFile file(log);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QHash<QString, qint64> startedAt;
        for (const QByteArray &line : file.readAll().split('\n')) {
            const QList<QByteArray> parts = line.split(' ');
            if (parts.size() == 2)
                startedAt.insert(QString::fromUtf8(parts[0]), parts[1].toLongLong());
        }
        QCOMPARE(startedAt.size(), Servers);
        int maxOverlap = 0;
        for (auto it = startedAt.cbegin(); it != startedAt.cend(); ++it) {
            // How many servers were starting when this one's process began?
            int overlap = 0;
            for (auto other = startedAt.cbegin(); other != startedAt.cend(); ++other) {
                if (other.value() <= it.value() && connectedAt.value(other.key()) > it.value())
                    ++overlap;
            }
            maxOverlap = std::max(maxOverlap, overlap);
        }
        QVERIFY2(maxOverlap <= Cap, qPrintable(QString::number(maxOverlap)));
        QVERIFY2(maxOverlap >= 2, "servers should still start in parallel");
        QSignalSpy stopped(&manager, &Manager::stopped);
        manager.stop();
        QVERIFY(stopped.wait(5000));
    }

    // The setting changes while servers wait: a raised limit starts them at once.
    void raisingTheStartLimitStartsWaitingServers()
    {
        ManagerOptions options;
        options.startOnThread = startOnThread();
        options.workspaceDir = m_dir.path();
        options.maxConcurrentStarts = 1;
        Manager manager(options);
        manager.start(parse(R"({"mcpServers": {
            "a": {"command": "${FIXTURE}", "args": ["--init-delay-ms", "3000"]},
            "b": {"command": "${FIXTURE}"}}})"));
        // "a" is past its start (its initialize sent; answered only 3 s later), and "b" still
        // waits for its turn.
        QSet<QString> initializing;
        manager.setTrafficObserver([&](const QString &server, TrafficDirection direction,
                                       QByteArrayView text, qint64) {
            if (direction == TrafficDirection::Sent
                && text.toByteArray().contains("\"method\":\"initialize\""))
                initializing << server;
        });
        QTRY_VERIFY_WITH_TIMEOUT(initializing.contains(QStringLiteral("a")), 10000);
        QCOMPARE(manager.status(QStringLiteral("b")).state, ServerState::Pending);
        manager.setMaxConcurrentStarts(2);
        QTRY_COMPARE_WITH_TIMEOUT(manager.status(QStringLiteral("b")).state, ServerState::Connected,
                                  2000);
        QCOMPARE(manager.status(QStringLiteral("a")).state, ServerState::Pending); // still starting
        QSignalSpy stopped(&manager, &Manager::stopped);
        manager.stop();
        QVERIFY(stopped.wait(5000));
    }

    void stopEndsEverything()
    {
        auto manager = makeManager();
        manager->start(parse(R"({"mcpServers": {
            "a": {"command": "${FIXTURE}"},
            "b": {"command": "${FIXTURE}", "args": ["--ignore-eof"]}
        }})"));
        QVERIFY(waitSettled(*manager));
        const qint64 a = pidOf(*manager, "a");
        const qint64 b = pidOf(*manager, "b");
        QSignalSpy stopped(manager.get(), &Manager::stopped);
        manager->stop();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
        QVERIFY(!processAlive(a));
        QTRY_VERIFY(!processAlive(b));
    }
};

QTEST_GUILESS_MAIN(tst_Manager)
#include "tst_manager.moc"
