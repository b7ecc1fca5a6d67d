#include "jsontest.h"
#include "postedevents.h"
#include "sandboxtest.h"

#include <mcp/process/sandbox.h>

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Mcp;

// The bubblewrap command line and the probe of whether bwrap works here. (What a sandboxed
// program can and cannot do is checked with real processes in tst_stdiotransport and
// tst_builtintools.)
class tst_Sandbox : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void modeNames()
    {
        for (const auto mode : {Sandbox::Mode::Off, Sandbox::Mode::On, Sandbox::Mode::Auto})
            QCOMPARE(Sandbox::modeFromName(Sandbox::modeName(mode)), mode);
        QCOMPARE(Sandbox::modeName(Sandbox::Mode::Auto), QStringLiteral("auto"));
        QVERIFY(!Sandbox::modeFromName(QStringLiteral("ON")));
        QVERIFY(!Sandbox::modeFromName(QString()));
    }

    void commandLine()
    {
        const QStringList args = Sandbox::bwrapArguments(
                SandboxPolicy{true, false, {}}, QStringLiteral("/ws"),
                {QStringLiteral("/data/out")}, QStringLiteral("/usr/bin/server"),
                {QStringLiteral("--flag"), QStringLiteral("a b")});
        const QStringList expected = {"--ro-bind",
                                      "/",
                                      "/",
                                      "--dev",
                                      "/dev",
                                      "--proc",
                                      "/proc",
                                      "--tmpfs",
                                      "/tmp",
                                      "--bind",
                                      "/ws",
                                      "/ws",
                                      "--bind",
                                      "/data/out",
                                      "/data/out",
                                      "--unshare-pid",
                                      "--unshare-net",
                                      "--die-with-parent",
                                      "--new-session",
                                      "--chdir",
                                      "/ws",
                                      "--",
                                      "/usr/bin/server",
                                      "--flag",
                                      "a b"};
        QCOMPARE(args, expected);

        const QStringList withNetwork
                = Sandbox::bwrapArguments(SandboxPolicy{true, true, {}}, QStringLiteral("/ws"), {},
                                          QStringLiteral("/bin/true"), {});
        QVERIFY(!withNetwork.contains(QStringLiteral("--unshare-net")));
        QCOMPARE(withNetwork.count(QStringLiteral("--bind")), 1);
        QCOMPARE(withNetwork.last(), QStringLiteral("/bin/true"));
    }

    void wrapResolvesWritePaths()
    {
        const QString bwrap = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
        if (bwrap.isEmpty())
            QSKIP("bwrap is not installed");
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("ws/out")));
        const QString ws = QDir(m_dir.path()).filePath(QStringLiteral("ws"));
        const QString canonicalWs = QFileInfo(ws).canonicalFilePath();
        QProcessEnvironment env;
        env.insert(QStringLiteral("TMPDIR"), QStringLiteral("/var/tmp/elsewhere"));
        QString error;
        const auto command
                = Sandbox::wrap(SandboxPolicy{true, true, {QStringLiteral("out"), m_dir.path()}},
                                QStringLiteral("bwrap"), ws, QStringLiteral("/bin/sh"),
                                {QStringLiteral("-c")}, &env, &error);
        QVERIFY2(command, qPrintable(error));
        QCOMPARE(command->program, bwrap);
        const QStringList &args = command->arguments;
        const auto bound = [&args](const QString &path) {
            for (qsizetype i = 0; i + 2 < args.size(); ++i) {
                if (args[i] == QLatin1String("--bind") && args[i + 1] == path
                    && args[i + 2] == path)
                    return true;
            }
            return false;
        };
        QVERIFY(bound(canonicalWs));
        QVERIFY(bound(canonicalWs + QStringLiteral("/out")));
        QVERIFY(bound(QFileInfo(m_dir.path()).canonicalFilePath()));
        QCOMPARE(args.mid(args.indexOf(QStringLiteral("--chdir")), 2),
                 QStringList({QStringLiteral("--chdir"), canonicalWs}));
        QCOMPARE(env.value(QStringLiteral("TMPDIR")), QStringLiteral("/tmp"));
    }

    void wrapErrors()
    {
        QString error;
        QVERIFY(!Sandbox::wrap(SandboxPolicy{true, true, {}},
                               QStringLiteral("/nonexistent/switchboard-bwrap"), m_dir.path(),
                               QStringLiteral("/bin/true"), {}, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("bubblewrap"))
                         && error.contains(QStringLiteral("/nonexistent/switchboard-bwrap")),
                 qPrintable(error));

        error.clear();
        QVERIFY(!Sandbox::wrap(SandboxPolicy{true, true, {}},
                               QStringLiteral("switchboard-no-such-bwrap"), m_dir.path(),
                               QStringLiteral("/bin/true"), {}, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("bubblewrap")), qPrintable(error));

        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            QSKIP("bwrap is not installed");
        error.clear();
        QVERIFY(!Sandbox::wrap(SandboxPolicy{true, true, {QStringLiteral("no/such/folder")}},
                               QStringLiteral("bwrap"), m_dir.path(), QStringLiteral("/bin/true"),
                               {}, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("sandbox.write"))
                         && error.contains(QStringLiteral("no/such/folder")),
                 qPrintable(error));
    }

    void policyJson()
    {
        QCOMPARE_JSON(SandboxPolicy{}.toJson(), nullptr);
        QCOMPARE_JSON((SandboxPolicy{true, true, {}}.toJson()), true);
        QCOMPARE_JSON((SandboxPolicy{true, false, {QStringLiteral("out")}}.toJson()),
                      nlohmann::json::parse(R"({"network": false, "write": ["out"]})"));
    }

    void probeMissing()
    {
        std::optional<std::pair<bool, QString>> answer;
        QObject context;
        Sandbox::probe(QStringLiteral("/nonexistent/switchboard-bwrap"), &context,
                       [&](bool works, const QString &reason) {
                           answer = {works, reason};
                       });
        QVERIFY(!answer); // never synchronously
        QTRY_VERIFY(answer);
        QVERIFY(!answer->first);
        QVERIFY2(answer->second.contains(QStringLiteral("bubblewrap")), qPrintable(answer->second));
    }

    void probeWorks()
    {
        SKIP_UNLESS_SANDBOX();
        int calls = 0;
        bool works = false;
        QObject context;
        for (int i = 0; i < 2; ++i)
            Sandbox::probe(QStringLiteral("bwrap"), &context, [&](bool ok, const QString &why) {
                ++calls;
                works = ok;
                if (!ok)
                    qWarning() << why;
            });
        QTRY_COMPARE(calls, 2);
        QVERIFY(works);
        // Cached: answered again, still from the event loop; a dead context gets nothing.
        auto dead = std::make_unique<QObject>();
        Sandbox::probe(QStringLiteral("bwrap"), dead.get(),
                       [&](bool, const QString &) { ++calls; });
        dead.reset();
        Sandbox::probe(QStringLiteral("bwrap"), &context, [&](bool, const QString &) { ++calls; });
        QCOMPARE(calls, 2);
        QTRY_COMPARE(calls, 3);
        QVERIFY(deliverPostedEvents()); // the dead context's answer would be posted with it
        QCOMPARE(calls, 3);
    }
};

QTEST_GUILESS_MAIN(tst_Sandbox)
#include "tst_sandbox.moc"
