// Tests for Engine::TrustStore: which workspace servers may start. Keyed per workspace and
// server by a hash of the definition; a changed definition is untrusted again; the file is
// private to the user and lives outside the workspace.
#include <engine/policy/truststore.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace Engine;
using Mcp::ConfigOrigin;
using Mcp::McpConfig;
using Mcp::ServerConfig;

class tst_TrustStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static McpConfig parse(const QByteArray &text, ConfigOrigin origin = ConfigOrigin::Workspace)
    {
        McpConfig config = Mcp::ConfigLoader::parse(text, QStringLiteral("ws/.mcp.json"),
                                                    QProcessEnvironment());
        for (ServerConfig &server : config.servers)
            server.origin = origin;
        return config;
    }
    static ServerConfig server(const QByteArray &definition)
    {
        const McpConfig config = parse("{\"mcpServers\": {\"s\": " + definition + "}}");
        return config.servers.value(0);
    }
    QString storePath(const QString &name = QStringLiteral("data/trust.json")) const
    {
        return m_dir.filePath(name);
    }
    static int modeOf(const QString &path)
    {
        struct stat st = {};
        return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
    }

    void defaultPathIsInTheUsersDataFolder()
    {
        QVERIFY(TrustStore::defaultPath().endsWith(QLatin1String("/trust.json")));
        QVERIFY(TrustStore::defaultPath().startsWith(
                QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
    }

    void hashCoversWhatRuns_data()
    {
        QTest::addColumn<QByteArray>("a");
        QTest::addColumn<QByteArray>("b");
        QTest::addColumn<bool>("same");
        const QByteArray base = R"({"command": "node", "args": ["srv.js"], "env": {"A": "1"}})";
        QTest::newRow("identical") << base << base << true;
        QTest::newRow("member order does not matter")
                << base
                << QByteArray(R"({"env": {"A": "1"}, "args": ["srv.js"], "command": "node"})")
                << true;
        QTest::newRow("disabled, timeout and startupTimeout do not matter")
                << base << QByteArray(R"({"command": "node", "args": ["srv.js"], "env": {"A": "1"},
                                   "disabled": true, "timeout": 5, "startupTimeout": 9})")
                << true;
        QTest::newRow("command")
                << base << QByteArray(R"({"command": "sh", "args": ["srv.js"], "env": {"A": "1"}})")
                << false;
        QTest::newRow("args")
                << base
                << QByteArray(R"({"command": "node", "args": ["evil.js"], "env": {"A": "1"}})")
                << false;
        QTest::newRow("env value, unexpanded")
                << QByteArray(R"({"command": "node", "env": {"A": "${X}"}})")
                << QByteArray(R"({"command": "node", "env": {"A": "${Y}"}})") << false;
        QTest::newRow("autoApprove")
                << base
                << QByteArray(
                           R"({"command": "node", "args": ["srv.js"], "env": {"A": "1"}, "autoApprove": ["rm"]})")
                << false;
        QTest::newRow("risk")
                << base
                << QByteArray(
                           R"({"command": "node", "args": ["srv.js"], "env": {"A": "1"}, "risk": "read"})")
                << false;
        QTest::newRow("tools risk")
                << base
                << QByteArray(
                           R"({"command": "node", "args": ["srv.js"], "env": {"A": "1"}, "tools": {"x": {"risk": "read"}}})")
                << false;
        QTest::newRow("trust")
                << base
                << QByteArray(
                           R"({"command": "node", "args": ["srv.js"], "env": {"A": "1"}, "trust": true})")
                << false;
        QTest::newRow("url and headers")
                << QByteArray(R"({"url": "https:\/\/a.example/mcp", "headers": {"H": "1"}})")
                << QByteArray(R"({"url": "https:\/\/a.example/mcp", "headers": {"H": "2"}})")
                << false;
    }
    void hashCoversWhatRuns()
    {
        QFETCH(QByteArray, a);
        QFETCH(QByteArray, b);
        QFETCH(bool, same);
        const ServerConfig first = server(a);
        const ServerConfig second = server(b);
        QVERIFY(!first.name.isEmpty());
        QVERIFY(!second.name.isEmpty());
        QCOMPARE(TrustStore::definitionHash(first).size(), 64);
        QCOMPARE(TrustStore::definitionHash(first) == TrustStore::definitionHash(second), same);
    }

    void trustIsPerWorkspaceAndServerAndDefinition()
    {
        QTemporaryDir wsA, wsB;
        TrustStore store(storePath());
        QVERIFY(store.load());
        McpConfig config = parse(R"({"mcpServers": {
            "one": {"command": "node", "args": ["one.js"]},
            "two": {"command": "node", "args": ["two.js"]}}})");
        QCOMPARE(store.apply(config, wsA.path()), QStringList({"one", "two"}));
        QVERIFY(config.servers[0].untrusted && config.servers[1].untrusted);

        QString error;
        QVERIFY2(store.trust(wsA.path(), *config.find("one"), &error), qPrintable(error));
        // A new store reads what the first one wrote.
        TrustStore reread(storePath());
        QVERIFY(reread.load());
        QCOMPARE(reread.apply(config, wsA.path()), QStringList({"two"}));
        QVERIFY(!config.find("one")->untrusted);
        // Another folder with the same file is another folder.
        QCOMPARE(reread.apply(config, wsB.path()), QStringList({"one", "two"}));
        // The same folder reached through a symbolic link is the same folder.
        const QString link = m_dir.filePath(QStringLiteral("link-to-a"));
        QVERIFY(QFile::link(wsA.path(), link));
        QCOMPARE(reread.apply(config, link), QStringList({"two"}));

        // A changed definition is untrusted again.
        McpConfig changed = parse(R"({"mcpServers": {
            "one": {"command": "node", "args": ["one.js", "--evil"]},
            "two": {"command": "node", "args": ["two.js"]}}})");
        QCOMPARE(reread.apply(changed, wsA.path()), QStringList({"one", "two"}));

        QVERIFY(reread.revoke(wsA.path(), QStringLiteral("one"), &error));
        TrustStore afterRevoke(storePath());
        QVERIFY(afterRevoke.load());
        QCOMPARE(afterRevoke.apply(config, wsA.path()), QStringList({"one", "two"}));
    }

    void usersOwnServersNeedNoTrust()
    {
        TrustStore store(storePath(QStringLiteral("empty/trust.json")));
        QVERIFY(store.load()); // no file: nothing trusted
        for (ConfigOrigin origin : {ConfigOrigin::User, ConfigOrigin::CommandLine}) {
            McpConfig config = parse(R"({"mcpServers": {"mine": {"command": "x"}}})", origin);
            QCOMPARE(store.apply(config, m_dir.path()), QStringList());
            QVERIFY(!config.servers[0].untrusted);
        }
    }

    void fileIsPrivate()
    {
        const QString path = storePath(QStringLiteral("private/sub/trust.json"));
        TrustStore store(path);
        const ServerConfig x = server(R"({"command": "x"})");
        QVERIFY(store.trust(m_dir.path(), x));
        QCOMPARE(modeOf(path), 0600);
        QCOMPARE(modeOf(QFileInfo(path).absolutePath()), 0700);
    }

    void damagedFileTrustsNothing_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("not json") << QByteArray("{{{");
        QTest::newRow("array") << QByteArray("[]");
        QTest::newRow("no workspaces") << QByteArray(R"({"version": 1})");
        QTest::newRow("workspaces not an object") << QByteArray(R"({"workspaces": 3})");
    }
    void damagedFileTrustsNothing()
    {
        QFETCH(QByteArray, text);
        const QString path = storePath(QStringLiteral("damaged.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
        file.close();
        TrustStore store(path);
        QString error;
        QVERIFY(!store.load(&error));
        QVERIFY2(error.contains(QLatin1String("damaged.json")), qPrintable(error));
        McpConfig config = parse(R"({"mcpServers": {"s": {"command": "x"}}})");
        QCOMPARE(store.apply(config, m_dir.path()), QStringList({"s"}));
    }

    void wrongShapesInsideAreUntrusted()
    {
        // Hand-edited values of the wrong type never count as trust, and never crash.
        const QString path = storePath(QStringLiteral("shapes.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        const QByteArray ws = QFileInfo(m_dir.path()).canonicalFilePath().toUtf8();
        file.write(R"({"workspaces": {")" + ws + R"(": {"servers": {"s": 42}}}})");
        file.close();
        TrustStore store(path);
        QVERIFY(store.load());
        McpConfig config = parse(R"({"mcpServers": {"s": {"command": "x"}}})");
        QCOMPARE(store.apply(config, m_dir.path()), QStringList({"s"}));
    }

    void commandLineShowsWhatRuns_data()
    {
        QTest::addColumn<QByteArray>("definition");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QByteArray(R"({"command": "npx", "args": ["-y", "pkg@1.2"]})")
                               << QStringLiteral("npx -y pkg@1.2");
        // Where each argument ends stays visible.
        QTest::newRow("shell") << QByteArray(
                R"({"command": "sh", "args": ["-c", "touch pwned; rm -rf ~"]})")
                               << QStringLiteral("sh -c 'touch pwned; rm -rf ~'");
        // Variables are shown as written, quotes inside quoted.
        QTest::newRow("variables and quotes")
                << QByteArray(R"({"command": "x", "args": ["${TOKEN}", "it\u0027s"]})")
                << QStringLiteral("x ${TOKEN} 'it'\\''s'");
        QTest::newRow("url") << QByteArray(R"({"url": "https:\/\/a.example/mcp"})")
                             << QStringLiteral("https://a.example/mcp");
    }
    void commandLineShowsWhatRuns()
    {
        QFETCH(QByteArray, definition);
        QFETCH(QString, expected);
        QCOMPARE(TrustStore::commandLine(server(definition)), expected);
    }

    void requestsNameWhatTheDefinitionAsksFor()
    {
        const QStringList requests = TrustStore::requests(server(R"({
            "command": "x", "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"},
            "autoApprove": ["write_file"], "risk": "read",
            "tools": {"delete_all": {"risk": "read"}}, "trust": true, "inheritEnv": true})"));
        const QString all = requests.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("GITHUB_TOKEN")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("also asks to run write_file without asking")),
                 qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("delete_all")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("'read'")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("\"trust\": true")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("inheritEnv")), qPrintable(all));
        const ServerConfig plain = server(R"({"command": "x"})");
        QVERIFY(TrustStore::requests(plain).isEmpty());
    }

    // The issue's hostile definition: what reads your variables says which and where, and a
    // sandbox says what it still allows (a write to / and the network are not "a sandbox").
    void requestsNameVariablesAndWhatASandboxAllows()
    {
        const QString all = TrustStore::requests(server(R"({
            "command": "${TOOL_BIN:-node}", "args": ["s.js", "--token=${CI_TOKEN}"],
            "env": {"DEBUG": "${DEPLOY_KEY}"},
            "sandbox": {"write": ["/", "${HOME}/.npm"], "network": true}})"))
                                    .join(QLatin1Char('\n'));
        for (const char *expected : {"${DEPLOY_KEY} (in env.DEBUG)", "${CI_TOKEN} (in args[1])",
                                     "${TOOL_BIN} (in command)", "writes in the workspace and in /",
                                     "/.npm", "with network access"})
            QVERIFY2(all.contains(QLatin1String(expected)), qPrintable(expected + ("\n" + all)));
        const QString remote
                = TrustStore::requests(server("{\"url\": \"https://h/mcp?key=${URL_KEY}\", "
                                              "\"headers\": {\"Authorization\": \"Bearer ${T}\"}}"))
                          .join(QLatin1Char('\n'));
        const QString keychain
                = TrustStore::requests(server(R"({"command": "x", "args": ["${secret:A}"],
                    "env": {"B": "${secret:B.b}"}})"))
                          .join(QLatin1Char('\n'));
        QVERIFY2(keychain.contains(QLatin1String("reads secrets from your keychain: ${secret:A} "
                                                 "(in args[0]), ${secret:B.b} (in env.B)")),
                 qPrintable(keychain));
        QVERIFY2(remote.contains(QLatin1String("${URL_KEY} (in url)"))
                         && remote.contains(QLatin1String("${T} (in headers.Authorization)")),
                 qPrintable(remote));
        const QString boxed
                = TrustStore::requests(server(R"({"command": "x", "sandbox": {"network": false}})"))
                          .join(QLatin1Char('\n'));
        QVERIFY2(boxed.contains(QLatin1String("writes only in the workspace"))
                         && boxed.contains(QLatin1String("without network")),
                 qPrintable(boxed));
    }
};

QTEST_GUILESS_MAIN(tst_TrustStore)
#include "tst_truststore.moc"
