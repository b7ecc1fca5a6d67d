#include "jsontest.h"
#include "postedevents.h"
#include "sandboxtest.h"

#include <mcp/process/sandbox.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

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

    void tmpEntries()
    {
        QCOMPARE(Sandbox::tmpEntriesNamed(
                         {QStringLiteral("/tmp/b/ws"), QStringLiteral("relative"),
                          QStringLiteral("/tmp/a"), QStringLiteral("/tmp"), QStringLiteral("/tmp/"),
                          QStringLiteral("/tmpx/y"), QStringLiteral("/tmp/b/other"),
                          QStringLiteral("/tmp/c/../d/x"), QStringLiteral("/tmp/../etc/passwd"),
                          QStringLiteral("//tmp//e/"), QStringLiteral("/tmp/my dir/x")}),
                 QStringList({QStringLiteral("/tmp/a"), QStringLiteral("/tmp/b"),
                              QStringLiteral("/tmp/c"), QStringLiteral("/tmp/d"),
                              QStringLiteral("/tmp/e"), QStringLiteral("/tmp/my"),
                              QStringLiteral("/tmp/my dir")}));
        // In a command line (bash -c), an option or a list of paths.
        QCOMPARE(Sandbox::tmpEntriesNamed(
                         {QStringLiteral("cat /tmp/log/x; ls '/tmp/out' \"/tmp/q\"|wc"),
                          QStringLiteral("--config=/tmp/conf.json"),
                          QStringLiteral("/usr/lib:/tmp/lib:/tmp/bin"),
                          QStringLiteral("ls /var/tmp/v a/tmp/w /tmp/. /tmp/.. $X/tmp/y")}),
                 QStringList({QStringLiteral("/tmp/bin"), QStringLiteral("/tmp/conf.json"),
                              QStringLiteral("/tmp/lib"), QStringLiteral("/tmp/log"),
                              QStringLiteral("/tmp/out"), QStringLiteral("/tmp/q")}));
    }

    // Only what the command names is bound back from /tmp, so another program's temporary
    // file that vanishes meanwhile cannot make bwrap fail ("Can't bind mount ... No such
    // file or directory", seen when tests ran in parallel).
    void tmpKeepsWhatTheCommandNames()
    {
        SKIP_UNLESS_SANDBOX();
        std::vector<std::unique_ptr<QTemporaryDir>> dirs;
        for (int i = 0; i < 4; ++i) {
            dirs.push_back(
                    std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/tst_sandbox-XXXXXX")));
            QVERIFY(dirs.back()->isValid());
        }
        const QString program = dirs[0]->filePath(QStringLiteral("server.sh"));
        const QString data = dirs[1]->filePath(QStringLiteral("data.txt"));
        const QString unnamed = dirs[2]->path();
        const QString fromEnvironment = dirs[3]->path();
        QFile script(program);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(QStringLiteral("#!/bin/sh\ncat \"$1\"\n"
                                    "[ -e %1 ] && echo unnamed-visible || echo unnamed-hidden\n"
                                    "[ -d \"$FROM_ENV\" ] && echo env-visible\n"
                                    "echo new > /tmp/made && cat /tmp/made\n")
                             .arg(unnamed)
                             .toUtf8());
        script.close();
        QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::ExeOwner));
        QFile file(data);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("data\n");
        file.close();

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("FROM_ENV"), fromEnvironment);
        QString error;
        const auto command = Sandbox::wrap(SandboxPolicy{true, false, {}}, QStringLiteral("bwrap"),
                                           m_dir.path(), program, {data}, &env, &error);
        QVERIFY2(command, qPrintable(error));
        QVERIFY(!command->arguments.contains(unnamed));
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(command->program, command->arguments);
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(QString::fromUtf8(process.readAllStandardError()), QString());
        QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()),
                 QStringLiteral("data\nunnamed-hidden\nenv-visible\nnew\n"));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/made")));
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
