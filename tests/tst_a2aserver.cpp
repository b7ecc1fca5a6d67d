// The inbound A2A server: `switchboard-cli a2a serve` driven by a scripted model server, spoken
// to by the official @a2a-js/sdk client (tests/a2a/sdkclient.mjs) in 1.0 and 0.3, by another
// Switchboard (`a2a send`, JSON-RPC and the envelope) and by raw HTTP for the refusals. The
// request parser alone is checked first.

#include "fakellmserver.h"
#include "nodepeer.h"
#include "processtest.h"

#include <engine/a2a/inbound.h>
#include <engine/approval/auditlog.h>

#include <QDir>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Engine::A2A;
using Json = nlohmann::json;

namespace {

struct Answer
{
    int status = 0;
    QByteArray body;
    QList<QNetworkReply::RawHeaderPair> headers;
    Json json() const { return Json::parse(body.toStdString(), nullptr, false); }
};

// One HTTP request on the event loop (a FakeLlmServer on this thread keeps answering).
Answer http(const QByteArray &verb, const QString &url, const QByteArray &body = {},
            const QList<QPair<QByteArray, QByteArray>> &headers
            = {{"Content-Type", "application/json"}, {"A2A-Version", "1.0"}})
{
    static QNetworkAccessManager network;
    QNetworkRequest request{QUrl(url)};
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply = network.sendCustomRequest(request, verb, body);
    if (!QTest::qWaitFor([reply] { return reply->isFinished(); }, 60000))
        reply->abort();
    Answer answer{reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
                  reply->readAll(), reply->rawHeaderPairs()};
    reply->deleteLater();
    return answer;
}

QByteArray rpc(const char *method, const Json &params, const Json &id = 1)
{
    return QByteArray::fromStdString(
            Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump());
}

Json userMessage(const std::string &text)
{
    return {{"message",
             {{"messageId", "m-" + text.substr(0, 8)},
              {"role", "ROLE_USER"},
              {"parts", Json::array({{{"text", text}}})}}}};
}

// `switchboard-cli --workspace WS a2a serve ARGS` with its data folders in `home` and the
// scripted model, for as long as this object lives.
class Serve
{
public:
    Serve(const QString &workspace, const QString &home, const QString &modelUrl,
          const QStringList &args = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home);
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        env.remove(QStringLiteral("SWITCHBOARD_A2A_TOKEN"));
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-test"));
        env.insert(QStringLiteral("OPENAI_BASE_URL"), modelUrl);
        env.insert(QStringLiteral("OPENAI_MODEL"), QStringLiteral("scripted"));
        m_process.setProcessEnvironment(env);
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &m_process,
                         [this] { m_out += m_process.readAllStandardOutput(); });
        QObject::connect(&m_process, &QProcess::readyReadStandardError, &m_process,
                         [this] { m_err += m_process.readAllStandardError(); });
        m_process.start(QStringLiteral(SWITCHBOARD_CLI),
                        QStringList{QStringLiteral("--workspace"), workspace, QStringLiteral("a2a"),
                                    QStringLiteral("serve")}
                                + args);
        m_process.closeWriteChannel();
    }
    ~Serve()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }
    // The base URL once it serves; empty when it ended first (or took too long).
    QString waitForUrl()
    {
        static const QRegularExpression line(QStringLiteral("on (http://\\S+)"));
        (void)QTest::qWaitFor(
                [this] {
                    return m_process.state() == QProcess::NotRunning
                           || line.match(QString::fromUtf8(m_out)).hasMatch();
                },
                30000);
        return line.match(QString::fromUtf8(m_out)).captured(1);
    }
    // SIGTERM, then the exit code (-1: it did not end by itself).
    int terminate()
    {
        m_process.terminate();
        (void)QTest::qWaitFor([this] { return m_process.state() == QProcess::NotRunning; }, 15000);
        return m_process.state() == QProcess::NotRunning
                               && m_process.exitStatus() == QProcess::NormalExit
                       ? m_process.exitCode()
                       : -1;
    }
    int waitForExit()
    {
        (void)QTest::qWaitFor([this] { return m_process.state() == QProcess::NotRunning; }, 60000);
        return m_process.state() == QProcess::NotRunning ? m_process.exitCode() : -1;
    }
    QString err() const { return QString::fromUtf8(m_err); }
    QProcess &process() { return m_process; }

private:
    QProcess m_process;
    QByteArray m_out, m_err;
};

using Run = ProcessRun;

Run sdkClient(const QStringList &args)
{
    return runWhileServing(PinnedNode::program(),
                           QStringList{NodePeer::sourcePath("tests/a2a/sdkclient.mjs")} + args);
}

} // namespace

class tst_A2AServer : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_workspace;

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        m_workspace = m_home.filePath(QStringLiteral("ws"));
        QVERIFY(QDir().mkpath(m_workspace));
        QFile notes(m_workspace + QStringLiteral("/notes.txt"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("the launch code is 42\n");
    }

    // --- the request parser ----------------------------------------------------------------

    void parsesRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("version");
        QTest::addColumn<int>("code"); // 0: accepted
        QTest::newRow("1.0 send") << rpc("SendMessage", userMessage("hi")) << QByteArray("1.0")
                                  << 0;
        QTest::newRow("1.0 without header")
                << rpc("SendMessage", userMessage("hi")) << QByteArray() << 0;
        QTest::newRow("0.3 send") << rpc("message/send", userMessage("hi")) << QByteArray("0.3")
                                  << 0;
        QTest::newRow("0.3 name under 1.0")
                << rpc("message/send", userMessage("hi")) << QByteArray("1.0") << -32601;
        QTest::newRow("1.0 name under 0.3")
                << rpc("SendMessage", userMessage("hi")) << QByteArray("0.3") << -32601;
        QTest::newRow("unknown method")
                << rpc("Foo", Json::object()) << QByteArray("1.0") << -32601;
        QTest::newRow("version 2.0")
                << rpc("SendMessage", userMessage("hi")) << QByteArray("2.0") << -32009;
        QTest::newRow("not JSON") << QByteArray("{\"jsonrpc\": ") << QByteArray("1.0") << -32700;
        QTest::newRow("batch") << QByteArray("[]") << QByteArray("1.0") << -32600;
        QTest::newRow("jsonrpc 1.0")
                << QByteArray("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"GetTask\"}")
                << QByteArray("1.0") << -32600;
        QTest::newRow("array params")
                << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":[]}")
                << QByteArray("1.0") << -32602;
        QTest::newRow("object id")
                << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"GetTask\"}")
                << QByteArray("1.0") << -32600;
    }

    void parsesRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, version);
        QFETCH(int, code);
        const auto parsed = Inbound::parseRpc(body, version);
        if (code == 0) {
            QVERIFY(std::holds_alternative<Inbound::RpcCall>(parsed));
            QCOMPARE(std::get<Inbound::RpcCall>(parsed).method, Inbound::Method::Send);
        } else {
            QVERIFY(std::holds_alternative<Inbound::RpcError>(parsed));
            QCOMPARE(std::get<Inbound::RpcError>(parsed).code, code);
            QVERIFY(!std::get<Inbound::RpcError>(parsed).message.isEmpty());
        }
    }

    void readsSendParams()
    {
        const auto call = [](const Json &params, const char *method = "SendMessage") {
            return std::get<Inbound::RpcCall>(Inbound::parseRpc(rpc(method, params), {}));
        };
        auto send = Inbound::readSendParams(call(userMessage("do it")));
        QVERIFY(std::holds_alternative<Inbound::SendParams>(send));
        QCOMPARE(std::get<Inbound::SendParams>(send).message.text(), QStringLiteral("do it"));
        QVERIFY(std::get<Inbound::SendParams>(send).blocking);

        Json immediate = userMessage("x");
        immediate["configuration"] = {{"returnImmediately", true}};
        QVERIFY(!std::get<Inbound::SendParams>(Inbound::readSendParams(call(immediate))).blocking);
        Json v03 = {{"message",
                     {{"kind", "message"},
                      {"messageId", "a"},
                      {"role", "user"},
                      {"parts", Json::array({{{"kind", "text"}, {"text", "hi"}}})}}},
                    {"configuration", {{"blocking", false}}}};
        QVERIFY(!std::get<Inbound::SendParams>(Inbound::readSendParams(call(v03, "message/send")))
                         .blocking);

        const auto refused = [&](const Json &params) {
            const auto result = Inbound::readSendParams(call(params));
            return std::holds_alternative<Inbound::RpcError>(result)
                           ? std::get<Inbound::RpcError>(result)
                           : Inbound::RpcError{0, {}, nullptr, 0};
        };
        QCOMPARE(refused(Json::object()).code, -32602);
        const Inbound::RpcError empty = refused(userMessage("   "));
        QCOMPARE(empty.code, -32602);
        QCOMPARE(empty.httpStatus, 400);
        Json agent = userMessage("hi");
        agent["message"]["role"] = "ROLE_AGENT";
        QCOMPARE(refused(agent).code, -32602);

        QVERIFY(std::holds_alternative<QString>(Inbound::readEnvelope("{\"message\": \"\"}")));
        QVERIFY(std::holds_alternative<QString>(Inbound::readEnvelope("{\"msg\": \"x\"}")));
        QVERIFY(std::holds_alternative<QString>(Inbound::readEnvelope("nope")));
        const auto envelope
                = Inbound::readEnvelope("{\"message\": \"hello\", \"contextId\": \"c\"}");
        QVERIFY(std::holds_alternative<Inbound::EnvelopeRequest>(envelope));
        QCOMPARE(std::get<Inbound::EnvelopeRequest>(envelope).contextId, QStringLiteral("c"));
    }

    // --- a2a serve -------------------------------------------------------------------------

    // The card at both addresses, with the interfaces of both versions, the envelope's, and
    // the read-only tools as skills.
    void servesTheCard()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        Serve serve(m_workspace, m_home.filePath(QStringLiteral("card")), model.baseUrl());
        const QString url = serve.waitForUrl();
        QVERIFY2(!url.isEmpty(), qPrintable(serve.err()));
        QVERIFY(url.startsWith(QLatin1String("http://127.0.0.1:")));
        for (const char *path : {".well-known/agent-card.json", "a2a/agent-card"}) {
            const Answer card = http("GET", url + QLatin1String(path), {}, {});
            QCOMPARE(card.status, 200);
            const Json json = card.json();
            QVERIFY2(json.value("name", "").rfind("Switchboard", 0) == 0, card.body.constData());
            QVERIFY(json["capabilities"]["streaming"] == true);
            QCOMPARE(json["supportedInterfaces"].size(), size_t(3));
            QVERIFY(json["supportedInterfaces"][0]["protocolVersion"] == "1.0");
            QVERIFY(json["supportedInterfaces"][0]["url"].get<std::string>().rfind(
                            url.toStdString(), 0)
                    == 0);
            QVERIFY(json["supportedInterfaces"][1]["protocolVersion"] == "0.3");
            QVERIFY(json["supportedInterfaces"][2]["protocolBinding"] == "SWITCHBOARD-ENVELOPE");
            QStringList skills;
            for (const Json &skill : json["skills"])
                skills << QString::fromStdString(skill.value("id", ""));
            QVERIFY2(skills.contains(QStringLiteral("read_file")), qPrintable(skills.join(' ')));
            QVERIFY(!skills.contains(QStringLiteral("write_file"))); // never runs inbound
        }
        QCOMPARE(serve.terminate(), 0);
    }

    // The official SDK's client completes a task against `a2a serve`, blocking and streamed,
    // in 1.0 and in 0.3; the answer is the scripted model's.
    void sdkClientCompletes_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<bool>("v03");
        QTest::newRow("1.0 send") << QStringLiteral("send") << false;
        QTest::newRow("1.0 stream") << QStringLiteral("stream") << false;
        QTest::newRow("0.3 send") << QStringLiteral("send") << true;
        QTest::newRow("0.3 stream") << QStringLiteral("stream") << true;
    }

    void sdkClientCompletes()
    {
        QFETCH(QString, operation);
        QFETCH(bool, v03);
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("The answer is 42.")));
        Serve serve(m_workspace, m_home.filePath(QStringLiteral("sdk")), model.baseUrl());
        const QString url = serve.waitForUrl();
        QVERIFY2(!url.isEmpty(), qPrintable(serve.err()));

        QStringList args{url, operation, QStringLiteral("what is the answer?")};
        if (v03)
            args << QStringLiteral("--v03");
        const Run client = sdkClient(args);
        QVERIFY2(client.code == 0, qPrintable(client.out + client.err));
        QCOMPARE(client.out.trimmed(), QStringLiteral("TASK_STATE_COMPLETED The answer is 42."));
        QVERIFY2(client.err.contains(v03 ? QLatin1String("# wire 0.3")
                                         : QLatin1String("# wire 1.0")),
                 qPrintable(client.err));
        if (operation == QLatin1String("stream")) {
            QVERIFY2(client.err.contains(QLatin1String("# event task")), qPrintable(client.err));
            QVERIFY(client.err.contains(QLatin1String("# event artifactUpdate")));
        }
        // The model was asked what the remote asked.
        QCOMPARE(model.requests().size(), 1);
        QVERIFY(QString::fromStdString(model.requests().at(0).dump())
                        .contains(QLatin1String("what is the answer?")));

        // The task is saved as an inbound conversation.
        const QString folder
                = m_home.filePath(QStringLiteral("sdk/data/switchboard/conversations"));
        const QStringList files = QDir(folder).entryList({QStringLiteral("*.jsonl")});
        QVERIFY2(!files.isEmpty(), qPrintable(folder));
        bool inbound = false;
        for (const QString &name : files) {
            QFile file(folder + QLatin1Char('/') + name);
            QVERIFY(file.open(QIODevice::ReadOnly));
            inbound = inbound || file.readLine().contains("\"origin\":\"a2a-inbound\"");
        }
        QVERIFY(inbound);
        QCOMPARE(serve.terminate(), 0);
        QDir(m_home.filePath(QStringLiteral("sdk"))).removeRecursively();
    }

    // The model asks for a mutating tool: the runner denies it without asking anyone, the tool
    // never runs, the model gets the denial, and the audit log records it.
    // Credentials the read tools would otherwise read (a token in a git remote's URL, npm's
    // token) are refused the same way, never asked: nobody is there to answer.
    void inboundMutatingToolIsDenied()
    {
        QVERIFY(QDir(m_workspace).mkpath(QStringLiteral(".git")));
        for (const char *name : {"/.git/config", "/.npmrc"}) {
            QFile secret(m_workspace + QLatin1String(name));
            QVERIFY(secret.open(QIODevice::WriteOnly));
            secret.write("url = https://user:ghp_inboundSecret42@example.test/repo.git\n");
        }
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("write_file"), {{"path", "pwned.txt"}, {"content", "x"}}},
                 {QStringLiteral("read_file"), {{"path", "notes.txt"}}},
                 {QStringLiteral("read_file"), {{"path", ".git/config"}}},
                 {QStringLiteral("read_file"), {{"path", ".npmrc"}}},
                 {QStringLiteral("search_files"),
                  {{"pattern", "**/*"}, {"query", "ghp_"}, {"include_sensitive", true}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("I may not write files here.")));
        const QString home = m_home.filePath(QStringLiteral("deny"));
        Serve serve(m_workspace, home, model.baseUrl());
        const QString url = serve.waitForUrl();
        QVERIFY2(!url.isEmpty(), qPrintable(serve.err()));

        const Answer answer = http("POST", url + QLatin1String("a2a/jsonrpc"),
                                   rpc("SendMessage", userMessage("write pwned.txt")));
        QCOMPARE(answer.status, 200);
        const Json task = answer.json()["result"]["task"];
        QVERIFY2(task["status"]["state"] == "TASK_STATE_COMPLETED", answer.body.constData());
        QVERIFY(task["artifacts"][0]["parts"][0]["text"] == "I may not write files here.");
        QVERIFY(!QFile::exists(m_workspace + QStringLiteral("/pwned.txt")));

        // The model's second request holds the denial and the read's result.
        QCOMPARE(model.requests().size(), 2);
        const QString second = QString::fromStdString(model.requests().at(1).dump());
        QVERIFY2(second.contains(QLatin1String("Denied")), qPrintable(second));
        QVERIFY2(second.contains(QLatin1String("the launch code is 42")), qPrintable(second));
        QVERIFY2(!second.contains(QLatin1String("ghp_inboundSecret42")), qPrintable(second));

        bool deniedWrite = false, ranRead = false;
        for (const Json &record : Engine::AuditLog::readRecords(
                     home + QStringLiteral("/data/switchboard/audit.jsonl"))) {
            const QString text = QString::fromStdString(record.dump());
            if (text.contains(QLatin1String("write_file")) && text.contains(QLatin1String("deny"))
                && text.contains(QLatin1String("read-only")))
                deniedWrite = true;
            if (text.contains(QLatin1String("read_file")) && text.contains(QLatin1String("\"ok\"")))
                ranRead = true;
        }
        QVERIFY(deniedWrite);
        QVERIFY(ranRead);
        QVERIFY2(serve.terminate() == 0, qPrintable(serve.err()));
        QVERIFY2(serve.err().contains(QLatin1String("refused: write_file")),
                 qPrintable(serve.err()));
    }

    // Another address without a token: refused before anything runs. With a token: 401
    // without it, 413 for 2 MB, the card with it.
    void tokenAndLimits()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        const QString home = m_home.filePath(QStringLiteral("token"));
        {
            Serve open(m_workspace, home, model.baseUrl(),
                       {QStringLiteral("--host"), QStringLiteral("0.0.0.0")});
            QCOMPARE(open.waitForExit(), 1);
            QVERIFY2(open.err().contains(QLatin1String("without a token")), qPrintable(open.err()));
        }
        Serve serve(m_workspace, home, model.baseUrl(),
                    {QStringLiteral("--host"), QStringLiteral("0.0.0.0"), QStringLiteral("--token"),
                     QStringLiteral("s3cret-token")});
        const QString url = serve.waitForUrl();
        QVERIFY2(!url.isEmpty(), qPrintable(serve.err()));
        const QString local = QStringLiteral("http://127.0.0.1:%1/").arg(QUrl(url).port());

        const Answer noToken = http("POST", local + QLatin1String("a2a/jsonrpc"),
                                    rpc("SendMessage", userMessage("hi")));
        QCOMPARE(noToken.status, 401);
        QCOMPARE(http("GET", local + QLatin1String(".well-known/agent-card.json"), {}, {}).status,
                 401);
        const Answer wrong = http("GET", local + QLatin1String(".well-known/agent-card.json"), {},
                                  {{"Authorization", "Bearer s3cret-tokem"}});
        QCOMPARE(wrong.status, 401);
        const QList<QPair<QByteArray, QByteArray>> auth{{"Authorization", "Bearer s3cret-token"},
                                                        {"Content-Type", "application/json"},
                                                        {"A2A-Version", "1.0"}};
        const Answer card
                = http("GET", local + QLatin1String(".well-known/agent-card.json"), {}, auth);
        QCOMPARE(card.status, 200);
        QVERIFY(card.json().contains("securitySchemes"));

        Json big = userMessage(std::string(2 * 1024 * 1024, 'a'));
        const Answer tooBig
                = http("POST", local + QLatin1String("a2a/jsonrpc"),
                       QByteArray::fromStdString(rpc("SendMessage", big).toStdString()), auth);
        QCOMPARE(tooBig.status, 413);
        const Answer envelopeTooBig = http(
                "POST", local + QLatin1String("a2a/message"),
                QByteArray::fromStdString(Json{{"message", std::string(2 << 20, 'b')}}.dump()),
                auth);
        QCOMPARE(envelopeTooBig.status, 413);
        // Just under the limit is read and answered.
        const std::string pad(1000 * 1000, 'p');
        const Answer underLimit
                = http("POST", local + QLatin1String("a2a/jsonrpc"),
                       QByteArray::fromStdString(
                               rpc("GetTask", {{"id", "nope"}, {"pad", pad}}).toStdString()),
                       auth);
        QCOMPARE(underLimit.status, 200);
        QVERIFY(underLimit.json()["error"]["code"] == -32001);
        // 200 MB announced and sent without a token: a 413 at once and the connection closed,
        // nothing read past the headers; the server goes on answering.
        QTcpSocket flood;
        flood.connectToHost(QHostAddress::LocalHost, QUrl(url).port());
        QVERIFY(flood.waitForConnected(5000));
        flood.write("POST /a2a/jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                    "application/json\r\nContent-Length: 200000000\r\n\r\n");
        const QByteArray chunk(64 * 1024, 'x');
        qint64 sent = 0;
        QByteArray floodAnswer;
        while (sent < 200000000 && flood.state() == QAbstractSocket::ConnectedState) {
            sent += flood.write(chunk);
            (void)QTest::qWaitFor([&] { return flood.bytesToWrite() < 256 * 1024; }, 2000);
            floodAnswer += flood.readAll();
        }
        (void)QTest::qWaitFor([&] { return flood.state() != QAbstractSocket::ConnectedState; },
                              5000);
        floodAnswer += flood.readAll();
        QVERIFY2(floodAnswer.startsWith("HTTP/1.1 413"), floodAnswer.left(200).constData());
        QVERIFY2(sent < 200000000, QByteArray::number(sent).constData());
        QCOMPARE(http("GET", local + QLatin1String(".well-known/agent-card.json"), {}, auth).status,
                 200);
        QCOMPARE(model.requests().size(), 0); // nothing reached the model

        // The SDK client with the token completes.
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("with token")));
        const Run client = sdkClient({local, QStringLiteral("send"), QStringLiteral("hi"),
                                      QStringLiteral("--token"), QStringLiteral("s3cret-token")});
        QVERIFY2(client.code == 0, qPrintable(client.out + client.err));
        QCOMPARE(client.out.trimmed(), QStringLiteral("TASK_STATE_COMPLETED with token"));
        QCOMPARE(serve.terminate(), 0);
    }

    // What the protocol refuses, each with its code.
    void refusals()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        Serve serve(m_workspace, m_home.filePath(QStringLiteral("refusals")), model.baseUrl());
        const QString url = serve.waitForUrl();
        QVERIFY2(!url.isEmpty(), qPrintable(serve.err()));
        const QString rpcUrl = url + QLatin1String("a2a/jsonrpc");
        const auto code = [](const Answer &answer) {
            const Json json = answer.json();
            return json.is_object() && json.contains("error") ? json["error"].value("code", 0) : 0;
        };

        QCOMPARE(code(http("POST", rpcUrl, "{not json")), -32700);
        QCOMPARE(code(http("POST", rpcUrl, rpc("Frobnicate", Json::object()))), -32601);
        QCOMPARE(code(http("POST", rpcUrl, rpc("SendMessage", userMessage("hi")),
                           {{"Content-Type", "application/json"}, {"A2A-Version", "9.9"}})),
                 -32009);
        const Answer empty = http("POST", rpcUrl, rpc("SendMessage", userMessage(" ")));
        QCOMPARE(empty.status, 400);
        QCOMPARE(code(empty), -32602);
        const Answer emptyEnvelope
                = http("POST", url + QLatin1String("a2a/message"), "{\"message\": \"\"}");
        QCOMPARE(emptyEnvelope.status, 400);
        QCOMPARE(emptyEnvelope.json().value("code", 0), 400);
        // A form post from a web page is not JSON: refused before it is read.
        const Answer form = http("POST", url + QLatin1String("a2a/message"), "message=hi",
                                 {{"Content-Type", "application/x-www-form-urlencoded"}});
        QCOMPARE(form.status, 415);
        // DNS rebinding: a name that is not loopback's.
        QCOMPARE(http("GET", url + QLatin1String(".well-known/agent-card.json"), {},
                      {{"Host", "evil.example"}})
                         .status,
                 403);
        QCOMPARE(http("GET", url + QLatin1String("nothing"), {}, {}).status, 404);
        QCOMPARE(http("GET", rpcUrl, {}, {}).status, 405);
        QCOMPARE(code(http("POST", rpcUrl, rpc("GetTask", {{"id", "nope"}}))), -32001);
        QCOMPARE(code(http("POST", rpcUrl, rpc("CancelTask", {{"id", "nope"}}))), -32001);
        QCOMPARE(model.requests().size(), 0);
        QCOMPARE(serve.terminate(), 0);
    }

    // A slow task is canceled (its model stream stopped); with --max-tasks 1 a second task
    // meanwhile gets 429; GetTask and ListTasks see the outcome.
    void cancelAndBusy()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        FakeLlmServer::Reply slow = FakeLlmServer::openAiText(QStringLiteral("s l o w"), 20);
        slow.delayBetweenEventsMs = 1000;
        model.enqueue(slow);
        Serve serve(m_workspace, m_home.filePath(QStringLiteral("cancel")), model.baseUrl(),
                    {QStringLiteral("--max-tasks"), QStringLiteral("1")});
        const QString url = serve.waitForUrl();
        QVERIFY2(!url.isEmpty(), qPrintable(serve.err()));
        const QString rpcUrl = url + QLatin1String("a2a/jsonrpc");

        Json params = userMessage("take your time");
        params["configuration"] = {{"returnImmediately", true}};
        const Answer started = http("POST", rpcUrl, rpc("SendMessage", params));
        const Json task = started.json()["result"]["task"];
        QVERIFY2(task["status"]["state"] == "TASK_STATE_WORKING", started.body.constData());
        const std::string id = task["id"];
        QVERIFY(QTest::qWaitFor([&] { return model.requests().size() == 1; }, 10000));

        const Answer busy = http("POST", rpcUrl, rpc("SendMessage", userMessage("me too")));
        QCOMPARE(busy.status, 429);
        QCOMPARE(busy.json()["error"].value("code", 0), -32000);
        const Answer busyEnvelope
                = http("POST", url + QLatin1String("a2a/message"), "{\"message\": \"me too\"}");
        QCOMPARE(busyEnvelope.status, 429);

        // The SDK's client cancels it.
        const Run cancel = sdkClient({url, QStringLiteral("cancel"), QString::fromStdString(id)});
        QVERIFY2(cancel.code == 0, qPrintable(cancel.out + cancel.err));
        QVERIFY2(cancel.out.startsWith(QLatin1String("TASK_STATE_CANCELED")),
                 qPrintable(cancel.out));
        const Answer get = http("POST", rpcUrl, rpc("GetTask", {{"id", id}}));
        QVERIFY2(get.json()["result"]["status"]["state"] == "TASK_STATE_CANCELED",
                 get.body.constData());
        // Canceling again is no error; the slot is free again.
        QVERIFY(http("POST", rpcUrl, rpc("CancelTask", {{"id", id}})).json()["result"]["id"]
                == Json(id));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("second")));
        const Answer second = http("POST", rpcUrl, rpc("SendMessage", userMessage("again")));
        QVERIFY2(second.json()["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED",
                 second.body.constData());
        // A completed task cannot be canceled.
        const std::string done = second.json()["result"]["task"]["id"];
        QVERIFY(http("POST", rpcUrl, rpc("CancelTask", {{"id", done}})).json()["error"]["code"]
                == Json(-32002));

        const Answer list = http("POST", rpcUrl, rpc("ListTasks", {{"pageSize", 1}}));
        const Json result = list.json()["result"];
        QVERIFY2(result["totalSize"] == 2, list.body.constData());
        QVERIFY(result["tasks"][0]["id"] == done); // newest first
        QVERIFY(!result["nextPageToken"].get<std::string>().empty());
        const Answer page2
                = http("POST", rpcUrl,
                       rpc("ListTasks", {{"pageSize", 1}, {"pageToken", result["nextPageToken"]}}));
        QVERIFY2(page2.json()["result"]["tasks"][0]["id"] == id, page2.body.constData());
        QCOMPARE(serve.terminate(), 0);
    }

    // A streaming client that goes away mid-task: the task runs on, and the server keeps
    // serving (writes to the gone connection are dropped, not made to freed sockets).
    void clientGoneMidStream()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        FakeLlmServer::Reply slow = FakeLlmServer::openAiText(QStringLiteral("done at last"), 6);
        slow.delayBetweenEventsMs = 300;
        model.enqueue(slow);
        Serve serve(m_workspace, m_home.filePath(QStringLiteral("gone")), model.baseUrl());
        const QString url = serve.waitForUrl();
        QVERIFY2(!url.isEmpty(), qPrintable(serve.err()));
        const QString rpcUrl = url + QLatin1String("a2a/jsonrpc");

        QNetworkAccessManager network;
        QNetworkRequest request{QUrl(rpcUrl)};
        request.setRawHeader("Content-Type", "application/json");
        request.setRawHeader("A2A-Version", "1.0");
        QNetworkReply *reply
                = network.post(request, rpc("SendStreamingMessage", userMessage("stream it")));
        QByteArray first;
        QVERIFY(QTest::qWaitFor(
                [&] {
                    first += reply->readAll();
                    return first.contains("\"task\"");
                },
                10000));
        const qsizetype start = first.indexOf("data: ") + 6;
        const Json event = Json::parse(
                first.mid(start, first.indexOf('\n', start) - start).toStdString(), nullptr, false);
        QVERIFY2(event.is_object(), first.constData());
        const std::string id = event["result"]["task"]["id"];
        reply->abort();
        reply->deleteLater();

        QVERIFY(QTest::qWaitFor(
                [&] {
                    return http("POST", rpcUrl, rpc("GetTask", {{"id", id}}))
                                   .json()["result"]["status"]["state"]
                           == "TASK_STATE_COMPLETED";
                },
                15000));
        const Json task = http("POST", rpcUrl, rpc("GetTask", {{"id", id}})).json()["result"];
        QVERIFY(task["artifacts"][0]["parts"][0]["text"] == "done at last");
        QCOMPARE(serve.terminate(), 0);
    }

    // Two Switchboards: `a2a send` to the envelope URL, and to the card (JSON-RPC, streamed).
    void twoSwitchboards()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("hello from the other side")));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("and over JSON-RPC")));
        const QString home = m_home.filePath(QStringLiteral("two"));
        Serve serve(m_workspace, home, model.baseUrl());
        const QString url = serve.waitForUrl();
        QVERIFY2(!url.isEmpty(), qPrintable(serve.err()));

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/client"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/client/data"));
        const QString other = m_home.filePath(QStringLiteral("two/otherws"));
        QVERIFY(QDir().mkpath(other));
        const Run envelope
                = runWhileServing(QStringLiteral(SWITCHBOARD_CLI),
                                  {QStringLiteral("--workspace"), other, QStringLiteral("a2a"),
                                   QStringLiteral("send"), url + QLatin1String("a2a/message"),
                                   QStringLiteral("say hello"), QStringLiteral("--json")},
                                  env);
        QVERIFY2(envelope.code == 0, qPrintable(envelope.out + envelope.err));
        const Json json = Json::parse(envelope.out.toStdString(), nullptr, false);
        QVERIFY2(json.value("text", "") == "hello from the other side", qPrintable(envelope.out));
        QVERIFY(!json.value("taskId", "").empty());

        const Run streamed
                = runWhileServing(QStringLiteral(SWITCHBOARD_CLI),
                                  {QStringLiteral("--workspace"), other, QStringLiteral("a2a"),
                                   QStringLiteral("send"), url, QStringLiteral("and again"),
                                   QStringLiteral("--stream")},
                                  env);
        QVERIFY2(streamed.code == 0, qPrintable(streamed.out + streamed.err));
        QVERIFY2(streamed.out.contains(QLatin1String("and over JSON-RPC")),
                 qPrintable(streamed.out));
        QCOMPARE(serve.terminate(), 0);
    }
};

QTEST_MAIN(tst_A2AServer)
#include "tst_a2aserver.moc"
