#include "bundlefixture.h"
#include "keychaintest.h"
#include "pinnednode.h"
#include "registryfixture.h"

#include <engine/install/installedserver.h>
#include <engine/install/serverinstaller.h>
#include <engine/secrets/secretstore.h>
#include <engine/secrets/serversecrets.h>

#include <mcp/config/config.h>
#include <mcp/config/configpatcher.h>
#include <mcp/registry/serverjson.h>

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using Engine::InstallOutcome;
using Engine::InstallRequest;
using Engine::ServerInstaller;
using Mcp::Json;

// Installing a server from the MCP Registry: the registry on 127.0.0.1 serves real server.json
// documents (tests/fixtures/registry); `switchboard-cli install` writes the definition into the
// user's mcp.json and starts it; the real @modelcontextprotocol/server-memory (run by npx from
// the pinned node_modules) is installed and its tools called; secret answers go to the keychain
// and never into a file (where no keychain answers: a ${VAR} reference and a note); hostile
// entries and answers are refused with nothing written. Run plainly and, as
// tst_serverinstall_keychain, against gnome-keyring.
namespace {

// JSON with single quotes reads better in C++ literals: every ' becomes ".
std::string q(const char *text)
{
    std::string result(text);
    std::replace(result.begin(), result.end(), '\'', '"');
    return result;
}

} // namespace

class tst_ServerInstall : public QObject
{
    Q_OBJECT

    // Under the build folder, so that npx finds the pinned packages of the source tree.
    QTemporaryDir m_dir{QStringLiteral(SWITCHBOARD_BINARY_DIR "/install-XXXXXX")};
    FakeRegistry m_registry;
    const QString m_service
            = QStringLiteral("switchboard-test-install-%1").arg(QCoreApplication::applicationPid());

    QString userConfig() const
    {
        return m_dir.filePath(QStringLiteral("config/switchboard/mcp.json"));
    }
    QString workspace() const { return m_dir.filePath(QStringLiteral("ws")); }

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_dir.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("SWITCHBOARD_KEYCHAIN_SERVICE"), m_service);
        env.insert(QStringLiteral("SWITCHBOARD_REGISTRY"), m_registry.base().toString());
        // npx runs the servers on the pinned Node.
        env.insert(QStringLiteral("PATH"), QFileInfo(PinnedNode::program()).path()
                                                   + QLatin1Char(':')
                                                   + env.value(QStringLiteral("PATH")));
        env.insert(QStringLiteral("npm_config_offline"), QStringLiteral("true"));
        return env;
    }

    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };
    Run cli(const QStringList &args) const
    {
        QProcess process;
        process.setProcessEnvironment(environment());
        process.setWorkingDirectory(workspace());
        process.start(QStringLiteral(SWITCHBOARD_CLI),
                      QStringList{QStringLiteral("--workspace"), workspace()} + args);
        process.closeWriteChannel();
        // The registry answers from this thread: wait on its event loop, not in waitForFinished.
        if (!QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, 120000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }

    static QByteArray contents(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    // Every file under the run's folder whose bytes hold `value`.
    QStringList filesHolding(const QString &value) const
    {
        QStringList found;
        QDirIterator it(m_dir.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            if (file.open(QIODevice::ReadOnly) && file.readAll().contains(value.toUtf8()))
                found << file.fileName();
        }
        return found;
    }

    static Mcp::Registry::ServerJson entryNamed(const QString &name)
    {
        for (const Json &entry : RegistryFixture::realEntries()) {
            if (entry["server"]["name"] == name.toStdString()) {
                QString problem;
                const auto listing = Mcp::Registry::readEntry(entry, &problem);
                return listing ? listing->server : Mcp::Registry::ServerJson{};
            }
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_registry.port);
        m_registry.entries = RegistryFixture::realEntries();
        QCOMPARE(m_registry.entries.size(), size_t(4));
        QVERIFY(QDir().mkpath(workspace()));
    }

    void names_data()
    {
        QTest::addColumn<QString>("registryName");
        QTest::addColumn<QString>("expected");
        QTest::newRow("server- prefix") << "io.github.modelcontextprotocol/server-memory"
                                        << "memory";
        QTest::newRow("-mcp-server suffix") << "io.github.github/github-mcp-server"
                                            << "github";
        QTest::newRow("mcp- prefix") << "com.example/mcp-Weather"
                                     << "weather";
        QTest::newRow("odd characters") << "com.example/a b+c"
                                        << "a_b_c";
        QTest::newRow("reserved") << "com.example/builtin"
                                  << "builtin-server";
    }
    void names()
    {
        QFETCH(QString, registryName);
        QFETCH(QString, expected);
        QCOMPARE(ServerInstaller::suggestedName(registryName), expected);
        QCOMPARE(ServerInstaller::nameProblem(expected, {}), QString());
        QVERIFY(ServerInstaller::nameProblem(expected, {expected})
                        .contains(QStringLiteral("exists already")));
        QVERIFY(!ServerInstaller::nameProblem(QStringLiteral("a/b"), {}).isEmpty());
        QCOMPARE(ServerInstaller::secretName(QStringLiteral("github"),
                                             QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN")),
                 QStringLiteral("github.GITHUB_PERSONAL_ACCESS_TOKEN"));
        QVERIFY(Mcp::ConfigLoader::isSecretName(
                ServerInstaller::secretName(QStringLiteral("9x"), QStringLiteral("a b"))));
    }

    // An update of a registry package changes only the argument naming its version (an
    // image's tag), and refuses what it cannot do that way, saying what to do instead.
    void updatedDefinitions()
    {
        Engine::InstalledServer memory;
        memory.name = QStringLiteral("memory");
        memory.registryName = QStringLiteral("io.github.modelcontextprotocol/server-memory");
        memory.version = QStringLiteral("2025.1.1");
        memory.package = QStringLiteral("npm @modelcontextprotocol/server-memory");
        memory.definition = nlohmann::ordered_json::parse(q(
                "{'command': 'npx', 'args': ['-y', '@modelcontextprotocol/server-memory@2025.1.1'],"
                " 'env': {'MEMORY_FILE_PATH': '/x'}, 'timeout': 9000, 'installedFrom': {}}"));
        const Mcp::Registry::ServerJson latest = entryNamed(memory.registryName);
        QString problem;
        const auto updated = ServerInstaller::updatedDefinition(memory, latest, &problem);
        QVERIFY2(updated, qPrintable(problem));
        QVERIFY((*updated)["args"][1] == "@modelcontextprotocol/server-memory@2026.8.31");
        QVERIFY((*updated)["env"]["MEMORY_FILE_PATH"] == "/x");
        QVERIFY((*updated)["timeout"] == 9000);
        QVERIFY((*updated)["installedFrom"]["version"] == "2026.8.31");

        const auto refused = [&](Engine::InstalledServer installed,
                                 const Mcp::Registry::ServerJson &entry) {
            problem.clear();
            return ServerInstaller::updatedDefinition(installed, entry, &problem) ? QString()
                                                                                  : problem;
        };
        Engine::InstalledServer same = memory;
        same.version = QStringLiteral("2026.8.31");
        QVERIFY(refused(same, latest).contains(QStringLiteral("there is nothing to update")));
        Engine::InstalledServer remote = memory;
        remote.package.clear();
        QVERIFY(refused(remote, latest).contains(QStringLiteral("whoever runs it updates it")));
        Engine::InstalledServer gone = memory;
        gone.package = QStringLiteral("npm @example/other");
        QVERIFY(refused(gone, latest).contains(QStringLiteral("no longer has the npm package")));
        Engine::InstalledServer edited = memory;
        edited.definition["args"] = nlohmann::ordered_json::array({"-y", "something-else"});
        QVERIFY(refused(edited, latest).contains(QStringLiteral("no longer names")));

        // An image: its tag changes; a variable the new version requires must have a value.
        Engine::InstalledServer github;
        github.name = QStringLiteral("github");
        github.registryName = QStringLiteral("io.github.github/github-mcp-server");
        github.version = QStringLiteral("0.19.0");
        github.package = QStringLiteral("oci ghcr.io/github/github-mcp-server:0.19.0");
        github.definition = nlohmann::ordered_json::parse(
                q("{'command': 'docker', 'args': ['run', '-i', '--rm', '-e', "
                  "'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server:0.19.0'], "
                  "'env': {'GITHUB_PERSONAL_ACCESS_TOKEN': '${secret:github.x}'}}"));
        const Mcp::Registry::ServerJson image = entryNamed(github.registryName);
        const auto retagged = ServerInstaller::updatedDefinition(github, image, &problem);
        QVERIFY2(retagged, qPrintable(problem));
        QVERIFY((*retagged)["args"][5] == "ghcr.io/github/github-mcp-server:0.20.1");
        github.definition.erase("env");
        QVERIFY(refused(github, image)
                        .contains(QStringLiteral("asks for GITHUB_PERSONAL_ACCESS_TOKEN")));
    }

    // What the dialog shows before anything is written: the command line with the secret as a
    // reference, never the value; a runtime not on PATH named with how to install it.
    void previewAndRuntimes()
    {
        InstallRequest request;
        request.server = entryNamed(QStringLiteral("io.github.github/github-mcp-server"));
        request.name = QStringLiteral("github");
        request.remote = 0;
        request.answers[QStringLiteral("header:Authorization/token")] = QStringLiteral("ghp_x1");
        QString problem;
        const auto remote = ServerInstaller::preview(request, &problem);
        QVERIFY2(remote, qPrintable(problem));
        QCOMPARE(remote->url, QStringLiteral("https://api.githubcopilot.com/mcp/"));
        QCOMPARE(remote->headers.value(0).second, QStringLiteral("Bearer ${secret:github.token}"));

        request.remote = -1;
        request.package = 0;
        QVERIFY(!ServerInstaller::preview(request, &problem));
        QVERIFY2(problem.contains(QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN is required")),
                 qPrintable(problem));

        const QByteArray path = qgetenv("PATH");
        QTemporaryDir empty;
        qputenv("PATH", empty.path().toUtf8());
        const QString npx = ServerInstaller::missingRuntime(QStringLiteral("npx"));
        const QString uvx = ServerInstaller::missingRuntime(QStringLiteral("uvx"));
        const QString docker = ServerInstaller::missingRuntime(QStringLiteral("docker"));
        qputenv("PATH", path);
        QVERIFY2(npx.contains(QStringLiteral("Node.js")), qPrintable(npx));
        QVERIFY2(uvx.contains(QStringLiteral("uv")), qPrintable(uvx));
        QVERIFY2(docker.contains(QStringLiteral("docker.io")), qPrintable(docker));
        QCOMPARE(ServerInstaller::missingRuntime(QStringLiteral("sh")), QString());
    }

    // The acceptance: the registry's entry of @modelcontextprotocol/server-memory installed by
    // the CLI into the user's file, started, its tools called, and uninstalled again.
    void cliInstallsMemoryAndCallsIt()
    {
        const QString memoryFile = m_dir.filePath(QStringLiteral("memory.jsonl"));
        Run run = cli({QStringLiteral("install"),
                       QStringLiteral("io.github.modelcontextprotocol/server-memory"),
                       QStringLiteral("--set"), QStringLiteral("MEMORY_FILE_PATH=") + memoryFile});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QStringLiteral(
                         "runs: npx -y @modelcontextprotocol/server-memory@2026.8.31")),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("memory connected: 9 tools")),
                 qPrintable(run.out));
        const Mcp::McpConfig written = Mcp::ConfigLoader::loadFile(userConfig(), {});
        QVERIFY(written.errors.isEmpty());
        const Mcp::ServerConfig *memory = written.find(QStringLiteral("memory"));
        QVERIFY(memory);
        QCOMPARE(memory->command, QStringLiteral("npx"));
        QCOMPARE(memory->args,
                 QStringList({"-y", "@modelcontextprotocol/server-memory@2026.8.31"}));
        QCOMPARE(memory->env.value(QStringLiteral("MEMORY_FILE_PATH")), memoryFile);
        QVERIFY(memory->definition["installedFrom"]["name"]
                == "io.github.modelcontextprotocol/server-memory");

        run = cli({QStringLiteral("call"), QStringLiteral("memory"),
                   QStringLiteral("create_entities"),
                   QStringLiteral(R"({"entities": [{"name": "Switchboard", "entityType": "app",
                                  "observations": ["installed from the registry"]}]})"),
                   QStringLiteral("--approve"), QStringLiteral("yes")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        run = cli({QStringLiteral("call"), QStringLiteral("memory"), QStringLiteral("read_graph")});
        QVERIFY2(run.code == 0 && run.out.contains(QStringLiteral("installed from the registry")),
                 qPrintable(run.out + run.err));
        QVERIFY(contents(memoryFile).contains("Switchboard"));

        // Installed twice under the same name: refused, the file as it was.
        const QByteArray before = contents(userConfig());
        run = cli({QStringLiteral("install"),
                   QStringLiteral("io.github.modelcontextprotocol/server-memory")});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(QStringLiteral("a server named 'memory' exists already")),
                 qPrintable(run.err));
        QCOMPARE(contents(userConfig()), before);

        run = cli({QStringLiteral("uninstall"), QStringLiteral("memory")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY(!Mcp::ConfigLoader::loadFile(userConfig(), {}).find(QStringLiteral("memory")));
    }

    // An older version installed (the registry listed it then), then `update`: the registry's
    // latest replaces the version in its command line, the answers stay, and it starts; a
    // second update has nothing to do. `update` of a server no install made says what to do.
    void cliUpdatesFromTheRegistry()
    {
        Json *entry = nullptr;
        for (Json &candidate : m_registry.entries) {
            if (candidate["server"]["name"] == "io.github.modelcontextprotocol/server-memory")
                entry = &candidate;
        }
        QVERIFY(entry);
        const Json latest = *entry;
        (*entry)["server"]["version"] = "2025.9.25";
        (*entry)["server"]["packages"][0]["version"] = "2025.9.25";
        const QString memoryFile = m_dir.filePath(QStringLiteral("memory-update.jsonl"));
        Run run = cli({QStringLiteral("install"),
                       QStringLiteral("io.github.modelcontextprotocol/server-memory"),
                       QStringLiteral("--set"), QStringLiteral("MEMORY_FILE_PATH=") + memoryFile,
                       QStringLiteral("--no-start")});
        *entry = latest;
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QStringLiteral("server-memory@2025.9.25")), qPrintable(run.out));

        run = cli({QStringLiteral("update"), QStringLiteral("memory")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QStringLiteral("updated memory from 2025.9.25 to 2026.8.31")),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("memory connected: 9 tools")),
                 qPrintable(run.out + run.err));
        const Mcp::McpConfig written = Mcp::ConfigLoader::loadFile(userConfig(), {});
        const Mcp::ServerConfig *memory = written.find(QStringLiteral("memory"));
        QVERIFY(memory);
        QCOMPARE(memory->args,
                 QStringList({"-y", "@modelcontextprotocol/server-memory@2026.8.31"}));
        QCOMPARE(memory->env.value(QStringLiteral("MEMORY_FILE_PATH")), memoryFile);
        QVERIFY(memory->definition["installedFrom"]["version"] == "2026.8.31");

        run = cli({QStringLiteral("update"), QStringLiteral("memory")});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(QStringLiteral("there is nothing to update")),
                 qPrintable(run.err));

        QVERIFY(cli({QStringLiteral("uninstall"), QStringLiteral("memory")}).code == 0);
        run = cli({QStringLiteral("update"), QStringLiteral("memory")});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(QStringLiteral("no server named 'memory'")), qPrintable(run.err));
    }

    // A secret answer: into the keychain and read as ${secret:NAME}; where no keychain answers,
    // nothing secret is kept: ${VAR} and a note naming the variable. Never in a file.
    void secretAnswersStayOutOfFiles()
    {
        const QString token = QStringLiteral("ghp_5e1d9c2b7a4f3e8d");
        Run run = cli(
                {QStringLiteral("install"), QStringLiteral("io.github.github/github-mcp-server"),
                 QStringLiteral("--set"), QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN=") + token,
                 QStringLiteral("--no-start")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const Mcp::ServerConfig *github = nullptr;
        const Mcp::McpConfig written = Mcp::ConfigLoader::loadFile(userConfig(), {});
        github = written.find(QStringLiteral("github"));
        QVERIFY2(github, qPrintable(contents(userConfig())));
        QCOMPARE(github->command, QStringLiteral("docker"));
        QVERIFY(!run.out.contains(token) && !run.err.contains(token));
        if (keychainRequired()) {
            QCOMPARE(github->env.value(QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN")),
                     QStringLiteral("${secret:github.GITHUB_PERSONAL_ACCESS_TOKEN}"));
            QCOMPARE(secretServiceValue(
                             m_service,
                             QStringLiteral("server-secret/github.GITHUB_PERSONAL_ACCESS_TOKEN")),
                     std::optional<QString>(token));
            const Run listed = cli({QStringLiteral("secret"), QStringLiteral("list")});
            QVERIFY2(listed.out.contains(
                             QStringLiteral("github.GITHUB_PERSONAL_ACCESS_TOKEN  used by github")),
                     qPrintable(listed.out));
        } else {
            QVERIFY(github->definition["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"]
                    == Json("${GITHUB_PERSONAL_ACCESS_TOKEN}"));
            QVERIFY2(run.err.contains(QStringLiteral("export GITHUB_PERSONAL_ACCESS_TOKEN")),
                     qPrintable(run.err));
        }
        QCOMPARE(filesHolding(token), QStringList());

        run = cli({QStringLiteral("uninstall"), QStringLiteral("github")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        if (keychainRequired()) {
            QVERIFY2(run.out.contains(QStringLiteral("secret github.GITHUB_PERSONAL_ACCESS_TOKEN "
                                                     "deleted from the keychain")),
                     qPrintable(run.out));
            QCOMPARE(secretServiceValue(
                             m_service,
                             QStringLiteral("server-secret/github.GITHUB_PERSONAL_ACCESS_TOKEN")),
                     std::nullopt);
        }
        QVERIFY(!Mcp::ConfigLoader::loadFile(userConfig(), {}).find(QStringLiteral("github")));

        // The remote of the same entry: a header with the token as a variable.
        run = cli({QStringLiteral("install"), QStringLiteral("io.github.github/github-mcp-server"),
                   QStringLiteral("--remote"), QStringLiteral("1"), QStringLiteral("--set"),
                   QStringLiteral("token=") + token, QStringLiteral("--no-start"),
                   QStringLiteral("--scope"), QStringLiteral("workspace")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const Json remote = Json::parse(
                contents(QDir(workspace()).filePath(QStringLiteral(".mcp.json"))).toStdString(),
                nullptr, false);
        QVERIFY(remote["mcpServers"]["github"]["type"] == "http");
        QVERIFY(remote["mcpServers"]["github"]["url"] == "https://api.githubcopilot.com/mcp/");
        QVERIFY(remote["mcpServers"]["github"]["headers"]["Authorization"]
                == (keychainRequired() ? "Bearer ${secret:github.token}"
                                       : "Bearer ${GITHUB_TOKEN}"));
        QCOMPARE(filesHolding(token), QStringList());
        QVERIFY(cli({QStringLiteral("uninstall"), QStringLiteral("github")}).code == 0);
    }

    // The acceptance for bundles: one packed by the pinned @anthropic-ai/mcpb from a small Node
    // server with a sensitive user_config field, installed from the CLI; the server gets the
    // value (its key_sha256 tool says the digest of what it was given); the value is in no file
    // under the config and data folders; uninstall removes the entry, the folder and the secret.
    void cliInstallsABundle()
    {
        QString output;
        const QString packed = packFixtureBundle(m_dir.path(), &output);
        QVERIFY2(!packed.isEmpty(), qPrintable(output));

        const QString key = QStringLiteral("kx-3e9a1f7c2d5b");
        Run run = cli({QStringLiteral("install"), packed, QStringLiteral("--set"),
                       QStringLiteral("api_key=") + key, QStringLiteral("--set"),
                       QStringLiteral("folder=") + workspace()});
        QVERIFY2(run.out.contains(QLatin1String("Key Echo 1.0.0 by Switchboard tests")),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QLatin1String("not signed: nothing says who made it")),
                 qPrintable(run.out));
        const QString folder
                = m_dir.filePath(QStringLiteral("data/switchboard/extensions/key-echo"));
        QVERIFY2(QFileInfo(folder + QStringLiteral("/server/index.js")).isFile(),
                 qPrintable(run.out + run.err));
        const Mcp::McpConfig written = Mcp::ConfigLoader::loadFile(userConfig(), {});
        const Mcp::ServerConfig *echo = written.find(QStringLiteral("key-echo"));
        QVERIFY2(echo, qPrintable(contents(userConfig())));
        QCOMPARE(echo->args.first(), folder + QStringLiteral("/server/index.js"));
        QVERIFY(echo->definition["installedFrom"]["bundle"] == "key-echo");
        QStringList callArgs{QStringLiteral("call"), QStringLiteral("key-echo"),
                             QStringLiteral("key_sha256")};
        if (keychainRequired()) {
            QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
            QVERIFY2(run.out.contains(QLatin1String("key-echo connected: 3 tools")),
                     qPrintable(run.out));
            QCOMPARE(echo->env.value(QStringLiteral("KEY_ECHO_API_KEY")),
                     QStringLiteral("${secret:key-echo.api_key}"));
            QCOMPARE(
                    secretServiceValue(m_service, QStringLiteral("server-secret/key-echo.api_key")),
                    std::optional<QString>(key));
            run = cli(callArgs);
        } else {
            // No keychain: nothing kept; the person exports the variable the note names.
            QCOMPARE(run.code, 3);
            QVERIFY2(run.err.contains(QLatin1String("export KEY_ECHO_API_KEY")),
                     qPrintable(run.err));
            QProcess process;
            QProcessEnvironment withKey = environment();
            withKey.insert(QStringLiteral("KEY_ECHO_API_KEY"), key);
            process.setProcessEnvironment(withKey);
            process.start(QStringLiteral(SWITCHBOARD_CLI),
                          QStringList{QStringLiteral("--workspace"), workspace()} + callArgs);
            QVERIFY(QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; },
                                    60000));
            run = {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                   QString::fromUtf8(process.readAllStandardError())};
        }
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        const QString digest = QString::fromLatin1(
                QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha256).toHex());
        QVERIFY2(run.out.contains(digest), qPrintable(run.out + run.err));
        QCOMPARE(filesHolding(key), QStringList());

        // A newer version updates it: the answers and the entry's own settings are kept, the
        // secret still reaches the server, and the same version again is refused.
        QString error;
        QVERIFY2(Mcp::ConfigPatcher::setServerDisabled(userConfig(), QStringLiteral("key-echo"),
                                                       true, &error),
                 qPrintable(error));
        const QString newer = packFixtureBundle(m_dir.path(), &output, QStringLiteral("1.1.0"));
        QVERIFY2(!newer.isEmpty(), qPrintable(output));
        run = cli({QStringLiteral("install"), newer, QStringLiteral("--no-start")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QLatin1String("updating key-echo from 1.0.0 to 1.1.0")),
                 qPrintable(run.out));
        const Mcp::McpConfig updated = Mcp::ConfigLoader::loadFile(userConfig(), {});
        const Mcp::ServerConfig *echo2 = updated.find(QStringLiteral("key-echo"));
        QVERIFY2(echo2, qPrintable(contents(userConfig())));
        QVERIFY(echo2->disabled);
        QVERIFY(echo2->definition["installedFrom"]["version"] == "1.1.0");
        QCOMPARE(echo2->args, echo->args);
        QCOMPARE(echo2->env, echo->env);
        QVERIFY(QFileInfo(folder + QStringLiteral("/server/index.js")).isFile());
        QCOMPARE(QDir(m_dir.filePath(QStringLiteral("data/switchboard/extensions")))
                         .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("key-echo")});
        QVERIFY(Mcp::ConfigPatcher::setServerDisabled(userConfig(), QStringLiteral("key-echo"),
                                                      false, &error));
        if (keychainRequired()) {
            run = cli(callArgs);
            QVERIFY2(run.code == 0 && run.out.contains(digest), qPrintable(run.out + run.err));
        }
        run = cli({QStringLiteral("install"), newer});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(QLatin1String("which is not newer")), qPrintable(run.err));
        QCOMPARE(filesHolding(key), QStringList());

        run = cli({QStringLiteral("uninstall"), QStringLiteral("key-echo")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY(!QFileInfo::exists(folder));
        QVERIFY(!Mcp::ConfigLoader::loadFile(userConfig(), {}).find(QStringLiteral("key-echo")));
        if (keychainRequired())
            QCOMPARE(
                    secretServiceValue(m_service, QStringLiteral("server-secret/key-echo.api_key")),
                    std::nullopt);
    }

    // A registry entry whose package is an MCP Bundle: downloaded from where the entry says,
    // its SHA-256 checked, then installed as the file would be. A download that is not the file
    // the entry names, or an entry that names no digest, is refused with nothing kept.
    void cliInstallsABundleFromTheRegistry()
    {
        QString output;
        const QString folder = m_dir.filePath(QStringLiteral("registry-bundle"));
        QVERIFY(QDir().mkpath(folder));
        const QString packed = packFixtureBundle(folder, &output);
        QVERIFY2(!packed.isEmpty(), qPrintable(output));
        QFile file(packed);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        const QString sha = QString::fromLatin1(
                QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
        m_registry.files.insert(QStringLiteral("/downloads/key-echo.mcpb"), bytes);
        m_registry.files.insert(QStringLiteral("/downloads/other.mcpb"), bytes + "x");
        const auto entry = [this](const QString &name, const QString &path, const QString &sha) {
            Json package{
                    {"registryType", "mcpb"},
                    {"identifier", m_registry.base().resolved(QUrl(path)).toString().toStdString()},
                    {"transport", {{"type", "stdio"}}}};
            if (!sha.isEmpty())
                package["fileSha256"] = sha.toStdString();
            return Json{{"server",
                         {{"name", name.toStdString()},
                          {"description", "Key Echo as a bundle"},
                          {"version", "1.0.0"},
                          {"packages", Json::array({package})}}}};
        };
        m_registry.entries.push_back(entry(QStringLiteral("io.example/key-echo"),
                                           QStringLiteral("/downloads/key-echo.mcpb"), sha));
        m_registry.entries.push_back(entry(QStringLiteral("io.example/changed"),
                                           QStringLiteral("/downloads/other.mcpb"), sha));
        m_registry.entries.push_back(entry(QStringLiteral("io.example/unchecked"),
                                           QStringLiteral("/downloads/key-echo.mcpb"), {}));
        const QString extension
                = m_dir.filePath(QStringLiteral("data/switchboard/extensions/key-echo"));
        const QString downloads = m_dir.filePath(QStringLiteral("cache/switchboard/bundles"));

        Run run = cli({QStringLiteral("install"), QStringLiteral("io.example/changed"),
                       QStringLiteral("--set"), QStringLiteral("api_key=k")});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.err.contains(QLatin1String("is not the file the registry names")),
                 qPrintable(run.err));
        QVERIFY(!QFileInfo::exists(extension));
        QCOMPARE(QDir(downloads).entryList(QDir::Files | QDir::Hidden), QStringList());
        run = cli({QStringLiteral("install"), QStringLiteral("io.example/unchecked")});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.err.contains(QLatin1String("names no SHA-256")), qPrintable(run.err));

        run = cli({QStringLiteral("install"), QStringLiteral("io.example/key-echo"),
                   QStringLiteral("--set"), QStringLiteral("api_key=kr-0a1b2c"),
                   QStringLiteral("--no-start")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QLatin1String("its SHA-256 is the one the registry names")),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QLatin1String("Key Echo 1.0.0 by Switchboard tests")),
                 qPrintable(run.out));
        QVERIFY(QFileInfo(extension + QStringLiteral("/server/index.js")).isFile());
        QCOMPARE(QDir(downloads).entryList(QDir::Files),
                 QStringList{sha + QStringLiteral(".mcpb")});
        const Mcp::McpConfig written = Mcp::ConfigLoader::loadFile(userConfig(), {});
        const Mcp::ServerConfig *echo = written.find(QStringLiteral("key-echo"));
        QVERIFY(echo);
        QVERIFY(echo->definition["installedFrom"]["sha256"] == sha.toStdString());
        QCOMPARE(filesHolding(QStringLiteral("kr-0a1b2c")), QStringList());
        QVERIFY(cli({QStringLiteral("uninstall"), QStringLiteral("key-echo")}).code == 0);
        QVERIFY(!QFileInfo::exists(extension));
    }

    // Hostile or wrong answers and entries: refused with why, nothing written.
    void refusedWithNothingWritten_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("says");
        QTest::newRow("a required answer missing")
                << QStringList{"io.github.modelcontextprotocol/server-filesystem"} << 1
                << "allowed_directory is required";
        QTest::newRow("an answer it does not ask for")
                << QStringList{"io.github.modelcontextprotocol/server-memory", "--set", "EVIL=1"}
                << 1 << "'EVIL' is not one of what";
        QTest::newRow("a control character")
                << QStringList{"io.github.modelcontextprotocol/server-memory", "--set",
                               "MEMORY_FILE_PATH=a\x1b[2Jb"}
                << 1 << "holds a control character";
        QTest::newRow("not in the registry")
                << QStringList{"io.example/nothing"} << 3 << "io.example/nothing: the registry at";
        QTest::newRow("a name that cannot be one")
                << QStringList{"io.github.modelcontextprotocol/server-memory", "--name", "a b"} << 1
                << "a server name may only contain";
        QTest::newRow("no such remote")
                << QStringList{"io.github.modelcontextprotocol/server-memory", "--remote", "1"} << 1
                << "no such package or remote";
    }
    void refusedWithNothingWritten()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, says);
        const QByteArray before = contents(userConfig());
        const Run run = cli(QStringList{QStringLiteral("install")} + args);
        QCOMPARE(run.code, code);
        QVERIFY2(run.err.contains(says), qPrintable(run.err));
        QCOMPARE(contents(userConfig()), before);
    }

    // A registry answering an identifier with a shell command in it: refused by the reader.
    void hostileRegistryEntryIsRefused()
    {
        FakeRegistry hostile;
        Json entry;
        for (const Json &real : RegistryFixture::realEntries()) {
            if (real["server"]["name"] == "io.github.modelcontextprotocol/server-memory")
                entry = real;
        }
        entry["server"]["packages"][0]["identifier"] = "x; rm -rf ~";
        hostile.entries.push_back(entry);
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("SWITCHBOARD_REGISTRY"), hostile.base().toString());
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SWITCHBOARD_CLI),
                      {QStringLiteral("--workspace"), workspace(), QStringLiteral("install"),
                       QStringLiteral("io.github.modelcontextprotocol/server-memory")});
        QVERIFY(QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, 60000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() != 0 && err.contains(QStringLiteral("x; rm -rf ~")),
                 qPrintable(err));
        QVERIFY(!Mcp::ConfigLoader::loadFile(userConfig(), {}).find(QStringLiteral("memory")));
    }
};

QTEST_GUILESS_MAIN(tst_ServerInstall)
#include "tst_serverinstall.moc"
