#include "a2apeer.h"
#include "everythinghttp.h"
#include "fakellmserver.h"
#include "jsontest.h"
#include "processtest.h"

#include <mcp/client/client.h>
#include <mcp/config/config.h>
#include <mcp/manager.h>
#include <mcp/transport/stdiotransport.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace Mcp;

// Integration with the reference server @modelcontextprotocol/server-everything over stdio,
// the npm package pinned by the project's package-lock.json (scripts/bootstrap.sh installs it).
class tst_IntegrationEverything : public QObject
{
    Q_OBJECT

    std::unique_ptr<Client> m_client;
    QTemporaryDir m_dir;

    static QString entryPoint()
    {
        return QDir(QStringLiteral(SWITCHBOARD_SOURCE_DIR))
                .filePath(QStringLiteral(
                        "node_modules/@modelcontextprotocol/server-everything/dist/index.js"));
    }

    std::optional<ToolResult> call(const std::string &tool, Json args, RequestOptions options = {})
    {
        std::optional<ToolResult> result;
        m_client->callTool(
                tool, std::move(args), this, [&](ToolResult r) { result = std::move(r); },
                std::move(options));
        (void)QTest::qWaitFor([&] { return result.has_value(); }, 30000);
        return result;
    }

    // A --config file in `home` naming server-everything "ev"; empty if it cannot be written.
    static QString everythingConfig(const QTemporaryDir &home)
    {
        QFile config(home.filePath(QStringLiteral("everything.json")));
        if (!config.open(QIODevice::WriteOnly))
            return {};
        config.write(QStringLiteral("{\"mcpServers\": {\"ev\": {\"command\": \"%1\", "
                                    "\"args\": [\"%2\", \"stdio\"]}}}")
                             .arg(PinnedNode::program(), entryPoint())
                             .toUtf8());
        return config.fileName();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(entryPoint()),
                 qPrintable(QStringLiteral("%1 is missing: run scripts/bootstrap.sh (npm ci)")
                                    .arg(entryPoint())));
        StdioOptions options;
        options.program = PinnedNode::program();
        options.arguments = {entryPoint(), QStringLiteral("stdio")};
        options.workingDirectory = m_dir.path();
        ClientOptions clientOptions;
        clientOptions.serverName = QStringLiteral("everything");
        // As the CLI's clients do (server-everything offers get-roots-list,
        // trigger-elicitation-request and trigger-sampling-request to those).
        clientOptions.capabilities["roots"] = Json::object();
        clientOptions.capabilities["sampling"] = Json::object();
        clientOptions.capabilities["elicitation"] = {{"form", Json::object()}};
        m_client = std::make_unique<Client>(new StdioTransport(options), clientOptions);
        m_client->setRequestHandler("roots/list", [this](const Json &, Client::Reply reply) {
            reply(Response::success({{"roots", Manager::workspaceRoots(m_dir.path())}}));
        });
        m_client->setRequestHandler("elicitation/create", [](const Json &, Client::Reply reply) {
            reply(Response::success({{"action", "decline"}}));
        });
        m_client->setRequestHandler("sampling/createMessage",
                                    [](const Json &, Client::Reply reply) {
                                        reply(Response::failure(-1, "declined"));
                                    });
        m_client->connectToServer();
        QVERIFY(QTest::qWaitFor(
                [this] {
                    return m_client->state() == Client::State::Ready
                           || m_client->state() == Client::State::Failed;
                },
                60000));
        QVERIFY2(m_client->state() == Client::State::Ready, qPrintable(m_client->errorString()));
    }

    void handshake()
    {
        QCOMPARE(m_client->protocolVersion(), std::string("2025-11-25"));
        QVERIFY(m_client->serverInfo().contains("name"));
        for (const char *name : {"echo", "get-sum", "get-tiny-image", "get-resource-links",
                                 "trigger-long-running-operation"})
            QVERIFY2(m_client->findTool(name), name);
        const Json *sum = m_client->findTool("get-sum");
        QCOMPARE_JSON((*sum)["inputSchema"]["type"], "object");
    }

    void echo()
    {
        auto r = call("echo", Json{{"message", "hello ✓ 世界"}});
        QVERIFY(r && !r->failed());
        QCOMPARE(r->text(), QStringLiteral("Echo: hello ✓ 世界"));
    }

    void getSum()
    {
        auto r = call("get-sum", Json{{"a", 2}, {"b", 40}});
        QVERIFY(r && !r->failed());
        QVERIFY2(r->text().contains(QStringLiteral("42")), qPrintable(r->text()));
    }

    void tinyImage()
    {
        auto r = call("get-tiny-image", Json::object());
        QVERIFY(r && !r->failed());
        bool sawImage = false;
        for (const Json &block : r->content()) {
            if (block["type"] != "image")
                continue;
            sawImage = true;
            QCOMPARE_JSON(block["mimeType"], "image/png");
            const QByteArray png = QByteArray::fromBase64(
                    QByteArray::fromStdString(block["data"].get<std::string>()));
            QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
        }
        QVERIFY(sawImage);
    }

    void resourceLinks()
    {
        auto r = call("get-resource-links", Json{{"count", 3}});
        QVERIFY(r && !r->failed());
        int links = 0;
        for (const Json &block : r->content()) {
            if (block["type"] == "resource_link") {
                ++links;
                QVERIFY(block["uri"].is_string());
                QVERIFY(block["name"].is_string());
            }
        }
        QCOMPARE(links, 3);
    }

    void longRunningWithProgress()
    {
        std::vector<Progress> seen;
        RequestOptions options;
        options.timeoutMs = 400; // shorter than the whole run: progress keeps it alive
        options.onProgress = [&](const Progress &p) {
            seen.push_back(p);
        };
        auto r = call("trigger-long-running-operation", Json{{"duration", 1}, {"steps", 5}},
                      options);
        QVERIFY(r);
        QVERIFY2(!r->failed(), qPrintable(r->text()));
        QCOMPARE(int(seen.size()), 5);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(seen[std::size_t(i)].progress, double(i + 1));
            QCOMPARE(seen[std::size_t(i)].total.value_or(0), 5.0);
        }
        QVERIFY(r->text().contains(QStringLiteral("completed")));
    }

    void timeoutCancelsAndServerStaysUsable()
    {
        RequestOptions options;
        options.timeoutMs = 300;
        auto r = call("trigger-long-running-operation", Json{{"duration", 5}, {"steps", 1}},
                      options);
        QVERIFY(r && r->error);
        QVERIFY(r->error->is(ErrorCode::RequestTimeout));
        auto after = call("echo", Json{{"message", "still alive"}});
        QVERIFY(after && !after->failed());
    }

    // A task-only tool (execution.taskSupport "required"): the call asks for a task, follows
    // its status as progress and returns the result fetched when it ends; Stop is
    // tasks/cancel, and the server says the task was cancelled.
    void taskOnlyToolCompletesAndCancels()
    {
        QTRY_VERIFY_WITH_TIMEOUT(m_client->findTool("simulate-research-query"), 10000);
        std::vector<Progress> seen;
        RequestOptions options;
        options.timeoutMs = 3000; // shorter than the task: each new status renews it
        options.onProgress = [&](const Progress &p) {
            seen.push_back(p);
        };
        auto r = call("simulate-research-query", Json{{"topic", "tides"}}, options);
        QVERIFY(r);
        QVERIFY2(!r->failed(), qPrintable(r->text()));
        QVERIFY2(r->text().contains(QLatin1String("# Research Report: tides")),
                 qPrintable(r->text()));
        QVERIFY(seen.size() >= 2);
        QVERIFY2(seen.front().message.contains(QLatin1String("working")),
                 qPrintable(seen.front().message));
        QVERIFY(seen.back().message.startsWith(QLatin1String("completed")));
        QCOMPARE(m_client->runningTaskCount(), std::size_t(0));

        std::optional<ToolResult> stopped;
        options.onProgress = [](const Progress &) {
        };
        const RequestId id = m_client->callTool(
                "simulate-research-query", Json{{"topic", "storms"}}, this,
                [&](ToolResult result) { stopped = std::move(result); }, options);
        QTRY_VERIFY_WITH_TIMEOUT(!m_client->taskId(id).empty(), 5000);
        const std::string taskId = m_client->taskId(id);
        // Cancelling sends tasks/cancel; the server has handled it once it has answered it
        // (the server may handle a tasks/get sent meanwhile first).
        Json cancelRequest;
        bool cancelAnswered = false;
        m_client->transport()->setTrafficTap(
                [&](TrafficDirection direction, std::string_view text) {
                    const Json message = Json::parse(text, nullptr, false);
                    if (!message.is_object())
                        return;
                    if (direction == TrafficDirection::Sent
                        && message.value("method", "") == "tasks/cancel")
                        cancelRequest = message;
                    else if (direction == TrafficDirection::Received && cancelRequest.is_object()
                             && !message.contains("method")
                             && message.value("id", Json()) == cancelRequest["id"])
                        cancelAnswered = true;
                });
        m_client->cancel(id, QStringLiteral("stopped by the test"));
        QTRY_VERIFY_WITH_TIMEOUT(stopped.has_value(), 5000);
        QVERIFY(stopped->error && stopped->error->is(ErrorCode::RequestCancelled));
        QCOMPARE(m_client->runningTaskCount(), std::size_t(0));
        QTRY_VERIFY_WITH_TIMEOUT(cancelAnswered, 5000);
        m_client->transport()->setTrafficTap({});
        QCOMPARE_JSON(cancelRequest["params"]["taskId"], taskId);
        std::optional<Response> reply;
        m_client->request("tasks/get", Json{{"taskId", taskId}}, this,
                          [&](Response response) { reply = std::move(response); });
        QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 5000);
        QVERIFY2(reply->ok(), reply->error ? reply->error->message.c_str() : "");
        QCOMPARE(reply->result.value("status", ""), std::string("cancelled"));
    }

    // Acceptance (issue 13): simulate-research-query, which runs only as a task, completes
    // through switchboard-cli; its status changes are shown as progress.
    void cliTaskOnlyToolCompletes()
    {
        QTemporaryDir home;
        const QString configFile = everythingConfig(home);
        QVERIFY(!configFile.isEmpty());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        const ProcessRun run
                = runWhileServing(QStringLiteral(SWITCHBOARD_CLI),
                                  {QStringLiteral("--config"), configFile, QStringLiteral("call"),
                                   QStringLiteral("ev"), QStringLiteral("simulate-research-query"),
                                   QStringLiteral("{\"topic\": \"python\", \"ambiguous\": true}")},
                                  env);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QLatin1String("# Research Report: python")), qPrintable(run.out));
        // It needed input on the way: asked through tasks/result, declined without a terminal.
        QVERIFY2(run.err.contains(QLatin1String("input_required")), qPrintable(run.err));
        QVERIFY2(run.out.contains(QLatin1String("User declined")), qPrintable(run.out));
        QVERIFY(run.err.contains(QLatin1String("completed")));
    }

    // The acceptance example: server-everything, a command that does not exist and a
    // server whose ${TOKEN} is unset. Everything connects or fails with a reason, exit 3.
    void cliServersWithFailures()
    {
        QTemporaryDir ws;
        QFile config(QDir(ws.path()).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral(
                             "{\"mcpServers\": {"
                             "\"everything\": {\"command\": \"%1\", \"args\": [\"%2\", \"stdio\"]},"
                             "\"ghost\": {\"command\": \"switchboard-ghost-server\"},"
                             "\"remote\": {\"command\": \"%1\", \"env\": {\"API_TOKEN\": "
                             "\"${TOKEN}\"}}}}")
                             .arg(PinnedNode::program(), entryPoint())
                             .toUtf8());
        config.close();
        QTemporaryDir home;
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("TOKEN"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        cli.setProcessEnvironment(env);
        // The workspace's servers run once trusted, as a user does first.
        cli.start(QStringLiteral(SWITCHBOARD_CLI),
                  {QStringLiteral("--workspace"), ws.path(), QStringLiteral("trust")});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        cli.start(QStringLiteral(SWITCHBOARD_CLI),
                  {QStringLiteral("--workspace"), ws.path(), QStringLiteral("servers")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 3);
        const QStringList lines = QString::fromUtf8(cli.readAllStandardOutput())
                                          .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith(QStringLiteral("everything"))
                         && lines[0].contains(QStringLiteral("connected")),
                 qPrintable(lines[0]));
        const int tools = lines[0].split(QLatin1Char(' '), Qt::SkipEmptyParts).at(2).toInt();
        QCOMPARE(tools, int(m_client->tools().size()));
        QVERIFY(lines[1].contains(QStringLiteral("ghost"))
                && lines[1].contains(QStringLiteral("failed"))
                && lines[1].contains(QStringLiteral("'switchboard-ghost-server'")));
        QVERIFY(lines[2].contains(QStringLiteral("remote"))
                && lines[2].contains(QStringLiteral("failed"))
                && lines[2].contains(QStringLiteral("TOKEN")));
    }

    // Every npm peer runs on the Node package-lock.json pins, never on the first `node` on
    // PATH (Debian 12's Node 18 lacks the global `crypto` the peers use): the tests' launcher,
    // an A2A SDK peer (it prints its process.version when it listens), and the example
    // workspace's stdio servers as its .mcp.json resolves their command with
    // SWITCHBOARD_NODE_MODULES unset, as scripts/run.sh runs it.
    void peersRunOnThePinnedNode()
    {
        const QString pinned = PinnedNode::version();
        QVERIFY2(pinned.startsWith(QLatin1Char('v')), "package-lock.json pins no node");
        const auto versionOf = [](const QString &program, const QString &workingDirectory) {
            QProcess node;
            node.setWorkingDirectory(workingDirectory);
            node.start(program, {QStringLiteral("-p"), QStringLiteral("process.version")});
            if (!node.waitForFinished(30000) || node.exitCode() != 0)
                return QStringLiteral("%1 did not run: %2")
                        .arg(program, QString::fromUtf8(node.readAllStandardError()));
            return QString::fromUtf8(node.readAllStandardOutput()).trimmed();
        };
        QCOMPARE(versionOf(PinnedNode::program(), m_dir.path()), pinned);

        SdkAgent agent;
        QVERIFY2(agent.start(), agent.log().constData());
        QVERIFY2(agent.log().contains("(node " + pinned.toUtf8() + ")"), agent.log().constData());

        const QString workspace = QStringLiteral(SWITCHBOARD_SOURCE_DIR "/examples/workspace");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("SWITCHBOARD_NODE_MODULES"));
        const McpConfig example
                = ConfigLoader::loadFile(QDir(workspace).filePath(QStringLiteral(".mcp.json")), env,
                                         ConfigOrigin::Workspace);
        QVERIFY(example.errors.isEmpty());
        int stdio = 0;
        for (const ServerConfig &server : example.servers) {
            if (server.type != TransportType::Stdio)
                continue;
            ++stdio;
            // A relative command is resolved against the server's working directory, the
            // workspace (StdioTransport).
            const QString program = QDir(workspace).absoluteFilePath(server.command);
            QVERIFY2(QFileInfo(program).canonicalFilePath()
                             == QFileInfo(PinnedNode::program()).canonicalFilePath(),
                     qPrintable(server.name + QStringLiteral(": ") + server.command));
            QCOMPARE(versionOf(program, workspace), pinned);
        }
        QCOMPARE(stdio, 3);
    }

    // The example workspace copied elsewhere, as its README suggests: with
    // SWITCHBOARD_NODE_MODULES naming the repository's node_modules, its three stdio servers
    // connect (and the HTTP one, where EVERYTHING_PORT says); without it, each fails naming
    // the path it could not find.
    void exampleWorkspaceWorksWhenCopied()
    {
        EverythingHttp http; // what scripts/run.sh starts for "everything-http"
        QVERIFY2(http.start(), http.log().constData());
        QTemporaryDir copy, home;
        QVERIFY(QFile::copy(QStringLiteral(SWITCHBOARD_SOURCE_DIR "/examples/workspace/.mcp.json"),
                            QDir(copy.path()).filePath(QStringLiteral(".mcp.json"))));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        env.insert(QStringLiteral("SWITCHBOARD_MEMORY_FILE"),
                   QDir(home.path()).filePath(QStringLiteral("memory.jsonl")));
        env.remove(QStringLiteral("SWITCHBOARD_NODE_MODULES"));
        env.insert(QStringLiteral("EVERYTHING_PORT"), QString::number(http.port()));
        const auto run = [&](const QString &command, const QProcessEnvironment &environment) {
            QProcess cli;
            cli.setProcessEnvironment(environment);
            cli.start(QStringLiteral(SWITCHBOARD_CLI),
                      {QStringLiteral("--workspace"), copy.path(), command});
            if (!cli.waitForFinished(90000))
                return std::make_pair(-1, QString());
            return std::make_pair(cli.exitCode(), QString::fromUtf8(cli.readAllStandardOutput()));
        };
        QCOMPARE(run(QStringLiteral("trust"), env).first, 0);
        const auto [failedCode, failed] = run(QStringLiteral("servers"), env);
        QCOMPARE(failedCode, 3);
        QVERIFY2(failed.contains(QStringLiteral("node_modules/node/bin/node")), qPrintable(failed));

        QProcessEnvironment withModules = env;
        withModules.insert(QStringLiteral("SWITCHBOARD_NODE_MODULES"),
                           QStringLiteral(SWITCHBOARD_SOURCE_DIR "/node_modules"));
        QCOMPARE(run(QStringLiteral("trust"), withModules).first, 0);
        const auto [code, out] = run(QStringLiteral("servers"), withModules);
        QVERIFY2(code == 0, qPrintable(out));
        for (const char *server : {"everything", "files", "memory", "everything-http"}) {
            bool connected = false;
            for (const QString &line : out.split(QLatin1Char('\n'))) {
                if (line.startsWith(QLatin1String(server) + QLatin1Char(' ')))
                    connected = line.contains(QStringLiteral("connected"));
            }
            QVERIFY2(connected, qPrintable(QLatin1String(server) + QStringLiteral(": ") + out));
        }
    }

    // The reference server's get-env through switchboard-cli: the CLI's provider keys and
    // anything outside the allow-list stay out of the server's environment.
    void cliGetEnvHasNoProviderKey()
    {
        QTemporaryDir ws, home;
        QFile config(QDir(home.path()).filePath(QStringLiteral("mcp.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("{\"mcpServers\": {\"everything\": {\"command\": \"%1\", "
                                    "\"args\": [\"%2\", \"stdio\"]}}}")
                             .arg(PinnedNode::program(), entryPoint())
                             .toUtf8());
        config.close();
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-everything-secret"));
        env.insert(QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("sk-ant-everything-secret"));
        env.insert(QStringLiteral("SB_NOT_ALLOWED"), QStringLiteral("not-allowed-value"));
        // The audit record of this call stays in the test's folders, not the user's.
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(SWITCHBOARD_CLI),
                  {QStringLiteral("--workspace"), ws.path(), QStringLiteral("--config"),
                   config.fileName(), QStringLiteral("call"), QStringLiteral("everything"),
                   QStringLiteral("get-env")});
        QVERIFY(cli.waitForFinished(60000));
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY2(cli.exitCode() == 0,
                 qPrintable(out + QString::fromUtf8(cli.readAllStandardError())));
        QVERIFY2(out.contains(QStringLiteral("PATH")), qPrintable(out));
        QVERIFY(!out.contains(QStringLiteral("everything-secret")));
        QVERIFY(!out.contains(QStringLiteral("API_KEY")));
        QVERIFY(!out.contains(QStringLiteral("not-allowed-value")));
    }

    // Resources (static and templated, text and blob) and prompts (with arguments, and one
    // that embeds a resource) through switchboard-cli, as a user reads them.
    void cliResourcesAndPrompts()
    {
        QTemporaryDir home;
        const QString configFile = everythingConfig(home);
        QVERIFY(!configFile.isEmpty());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        const auto cli = [&](const QStringList &args) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(SWITCHBOARD_CLI),
                          QStringList{QStringLiteral("--config"), configFile} + args);
            process.closeWriteChannel();
            process.waitForFinished(60000);
            return std::make_tuple(process.exitCode(),
                                   QString::fromUtf8(process.readAllStandardOutput()),
                                   QString::fromUtf8(process.readAllStandardError()));
        };

        auto [code, out, err] = cli({QStringLiteral("resources"), QStringLiteral("ev")});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY2(out.contains(QLatin1String(
                         "demo://resource/static/document/architecture.md\tarchitecture.md\t"
                         "text/markdown\n")),
                 qPrintable(out));
        QVERIFY(out.contains(QLatin1String(
                "template demo://resource/dynamic/text/{resourceId}\tDynamic Text Resource")));
        std::tie(code, out, err) = cli(
                {QStringLiteral("resources"), QStringLiteral("ev"), QStringLiteral("--json")});
        const Json listed = Json::parse(out.toStdString(), nullptr, false);
        QVERIFY(listed["resources"].size() >= 7);
        QVERIFY(listed["resourceTemplates"].size() >= 2);

        std::tie(code, out, err) = cli({QStringLiteral("read"), QStringLiteral("ev"),
                                        QStringLiteral("demo://resource/dynamic/text/7")});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY2(out.startsWith(QLatin1String("Resource 7: This is a plaintext resource")),
                 qPrintable(out));
        std::tie(code, out, err) = cli({QStringLiteral("read"), QStringLiteral("ev"),
                                        QStringLiteral("demo://resource/dynamic/blob/3")});
        QCOMPARE(code, 0);
        QVERIFY2(out.startsWith(QLatin1String("[blob ")), qPrintable(out));
        std::tie(code, out, err) = cli({QStringLiteral("read"), QStringLiteral("ev"),
                                        QStringLiteral("demo://resource/static/document/"
                                                       "features.md")});
        QCOMPARE(code, 0);
        QVERIFY(out.size() > 100);
        std::tie(code, out, err)
                = cli({QStringLiteral("read"), QStringLiteral("ev"), QStringLiteral("nope://x")});
        QCOMPARE(code, 4);
        QVERIFY2(err.contains(QLatin1String("not found")), qPrintable(err));

        std::tie(code, out, err) = cli({QStringLiteral("prompts"), QStringLiteral("ev")});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY2(out.contains(QLatin1String("args-prompt(city*, state)\t")), qPrintable(out));
        QVERIFY(out.contains(QLatin1String("simple-prompt()\t")));
        std::tie(code, out, err) = cli(
                {QStringLiteral("prompt"), QStringLiteral("ev"), QStringLiteral("args-prompt"),
                 QStringLiteral("{\"city\": \"Paris\", \"state\": \"TX\"}")});
        QVERIFY2(code == 0, qPrintable(err));
        QCOMPARE(out, QStringLiteral("[user] What's weather in Paris, TX?\n"));
        std::tie(code, out, err) = cli({QStringLiteral("prompt"), QStringLiteral("ev"),
                                        QStringLiteral("resource-prompt"),
                                        QStringLiteral("{\"resourceType\": \"Text\", "
                                                       "\"resourceId\": 2}"),
                                        QStringLiteral("--json")});
        QVERIFY2(code == 0, qPrintable(err));
        const Json prompt = Json::parse(out.toStdString(), nullptr, false);
        QVERIFY2(prompt["messages"].size() == 2, out.toUtf8().constData());
        QVERIFY(prompt["messages"][1]["content"]["type"] == "resource");
        // A required argument missing: the server's error, exit 4.
        std::tie(code, out, err) = cli(
                {QStringLiteral("prompt"), QStringLiteral("ev"), QStringLiteral("args-prompt")});
        QCOMPARE(code, 4);
        QVERIFY2(err.contains(QLatin1String("city")), qPrintable(err));
        std::tie(code, out, err) = cli({QStringLiteral("prompt"), QStringLiteral("ev")});
        QCOMPARE(code, 1);

        // Roots: the workspace folder, as a file:// URI (the server asks back during the call).
        QTemporaryDir workspace;
        const QString canonical = QDir(workspace.path()).canonicalPath();
        std::tie(code, out, err)
                = cli({QStringLiteral("--workspace"), workspace.path(), QStringLiteral("call"),
                       QStringLiteral("ev"), QStringLiteral("get-roots-list")});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY2(out.contains(QStringLiteral("URI: ") + QUrl::fromLocalFile(canonical).toString()),
                 qPrintable(out));
        QVERIFY(out.contains(QLatin1String("(1 total)")));

        // Elicitation without a terminal: declined, and stderr says what was asked.
        std::tie(code, out, err) = cli({QStringLiteral("call"), QStringLiteral("ev"),
                                        QStringLiteral("trigger-elicitation-request")});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY2(out.contains(QLatin1String("\"action\": \"decline\"")), qPrintable(out));
        QVERIFY2(err.contains(QLatin1String("[elicitation] ev asks:")), qPrintable(err));
        std::tie(code, out, err)
                = cli({QStringLiteral("--elicit"), QStringLiteral("cancel"), QStringLiteral("call"),
                       QStringLiteral("ev"), QStringLiteral("trigger-elicitation-request")});
        QVERIFY2(out.contains(QLatin1String("\"action\": \"cancel\"")), qPrintable(out));
        std::tie(code, out, err) = cli(
                {QStringLiteral("--elicit"), QStringLiteral("yes"), QStringLiteral("servers")});
        QCOMPARE(code, 1);
    }

    // Sampling: the server asks the user's model; with --approve yes the model answers (it got
    // the server's prompt and system prompt), with --approve deny it is never asked and the
    // server gets the refusal.
    void cliSamplingFollowsApprove()
    {
        QTemporaryDir home;
        const QString configFile = everythingConfig(home);
        QVERIFY(!configFile.isEmpty());
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Forty-two, says the model.")));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        env.insert(QStringLiteral("OPENAI_BASE_URL"), model.baseUrl());
        env.insert(QStringLiteral("OPENAI_MODEL"), QStringLiteral("scripted"));
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        const auto call = [&](const QString &approve) {
            return runWhileServing(QStringLiteral(SWITCHBOARD_CLI),
                                   {QStringLiteral("--config"), configFile, QStringLiteral("call"),
                                    QStringLiteral("ev"),
                                    QStringLiteral("trigger-sampling-request"),
                                    QStringLiteral("{\"prompt\": \"the answer?\"}"),
                                    QStringLiteral("--approve"), approve},
                                   env);
        };
        const ProcessRun yes = call(QStringLiteral("yes"));
        QVERIFY2(yes.code == 0, qPrintable(yes.err));
        QVERIFY2(yes.out.contains(QLatin1String("Forty-two, says the model.")),
                 qPrintable(yes.out));
        QVERIFY(yes.out.contains(QLatin1String("\"model\": \"scripted\"")));
        QVERIFY2(yes.err.contains(QLatin1String("[sampling] ev asks your model")),
                 qPrintable(yes.err));
        QCOMPARE(model.requests().size(), 1);
        const QString asked = QString::fromStdString(model.requests().at(0).dump());
        QVERIFY2(asked.contains(QLatin1String("the answer?")), qPrintable(asked));
        QVERIFY(asked.contains(QLatin1String("You are a helpful test server.")));

        const ProcessRun deny = call(QStringLiteral("deny"));
        QCOMPARE(model.requests().size(), 1); // never reached the model
        QVERIFY2(deny.out.contains(QLatin1String("declined the sampling request"))
                         || deny.err.contains(QLatin1String("declined the sampling request")),
                 qPrintable(deny.out + deny.err));
    }

    // On a terminal (a pty from script(1)) and without --elicit, trigger-elicitation-request's
    // form is asked field by field: an empty answer takes the default, a required field asks
    // again, and the answers are what the server gets.
    void cliElicitationAsksOnATerminal()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("script")).isEmpty())
            QSKIP("script(1) is not installed (util-linux / bsdutils)");
        QTemporaryDir home;
        const QString configFile = everythingConfig(home);
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        process.setProcessEnvironment(env);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral("script"),
                      {QStringLiteral("-qec"),
                       QStringLiteral("'%1' --config '%2' call ev trigger-elicitation-request")
                               .arg(QStringLiteral(SWITCHBOARD_CLI), configFile),
                       QStringLiteral("/dev/null")});
        QVERIFY(process.waitForStarted(5000));
        // Answer, then every field empty (defaults) but the required name: typed ahead, and
        // each line waits for its question. stdin stays open (its end would cancel).
        QByteArray typed = "a\n";
        for (int i = 0; i < 7; ++i)
            typed += "\n";
        typed += "\nAna Lima\n"; // the name: empty is refused once, then given
        for (int i = 0; i < 40; ++i)
            typed += "\n";
        process.write(typed);
        QVERIFY(process.waitForFinished(30000));
        const QString out = QString::fromUtf8(process.readAll());
        QVERIFY2(out.contains(QLatin1String("[a] answer  [d] decline  [c] cancel")),
                 qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("needs an answer")), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("\"action\": \"accept\"")), qPrintable(out));
        QVERIFY(out.contains(QLatin1String("\"name\": \"Ana Lima\"")));
        QVERIFY(out.contains(QLatin1String("\"integer\": 42"))); // its default
    }

    // Acceptance (issue 13): get-tiny-image's result reaches an Anthropic model as an image
    // block inside the tool result, after the text that names it.
    void cliImageReachesAnthropic()
    {
        QTemporaryDir home;
        const QString configFile = everythingConfig(home);
        QVERIFY(!configFile.isEmpty());
        FakeLlmServer model(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::anthropicToolUse(
                {{QStringLiteral("mcp__ev__get_tiny_image"), nlohmann::json::object()}}));
        model.enqueue(FakeLlmServer::anthropicText(QStringLiteral("A tiny picture.")));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        env.remove(QStringLiteral("OPENAI_BASE_URL"));
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        env.insert(QStringLiteral("ANTHROPIC_BASE_URL"), model.baseUrl());
        env.insert(QStringLiteral("ANTHROPIC_MODEL"), QStringLiteral("scripted"));
        const ProcessRun run
                = runWhileServing(QStringLiteral(SWITCHBOARD_CLI),
                                  {QStringLiteral("--config"), configFile, QStringLiteral("run"),
                                   QStringLiteral("show me the tiny image"),
                                   QStringLiteral("--approve"), QStringLiteral("yes")},
                                  env);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QLatin1String("A tiny picture.")), qPrintable(run.out));
        QCOMPARE(model.requests().size(), 2);
        nlohmann::json result;
        for (const nlohmann::json &message : model.requests().at(1)["messages"]) {
            if (!message.is_object() || !message["content"].is_array())
                continue;
            for (const nlohmann::json &block : message["content"]) {
                if (block.is_object() && block.value("type", "") == "tool_result")
                    result = block;
            }
        }
        QVERIFY2(result.is_object() && result["content"].is_array(),
                 model.requests().at(1).dump().substr(0, 2000).c_str());
        const nlohmann::json &content = result["content"];
        QCOMPARE(content.size(), size_t(2));
        QVERIFY(content[0].value("type", "") == "text");
        QVERIFY(content[1].value("type", "") == "image");
        const nlohmann::json &source = content[1]["source"];
        QVERIFY(source.value("type", "") == "base64");
        QVERIFY(source.value("media_type", "") == "image/png");
        const QByteArray png = QByteArray::fromBase64(
                QByteArray::fromStdString(source.value("data", std::string())));
        QVERIFY2(png.startsWith("\x89PNG\r\n\x1a\n"), png.left(16).toHex().constData());
    }

    void cleanupTestCase()
    {
        if (!m_client)
            return;
        m_client->close();
        QTRY_COMPARE_WITH_TIMEOUT(m_client->state(), Client::State::Closed, 10000);
    }
};

QTEST_GUILESS_MAIN(tst_IntegrationEverything)
#include "tst_integration_everything.moc"
