// Engine::A2A::Client against real agents: the official @a2a-js/sdk server (tests/a2a/
// sdkserver.mjs) in its 1.0, 0.3-only and stale-card modes, and Qt HTTP servers for the
// envelope and for where credentials may go.

#include "a2apeer.h"

#include <engine/a2a/client.h>

#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTest>

using namespace Engine::A2A;

namespace {

struct Sent
{
    std::optional<Outcome> outcome;
    QList<StreamEvent> events;
    Stop stop;
};

// Starts a send; the outcome and the events arrive in the returned object.
std::shared_ptr<Sent> start(Client &client, const Endpoint &endpoint, const QString &text,
                            SendOptions options = {})
{
    auto sent = std::make_shared<Sent>();
    std::weak_ptr<Sent> weak = sent;
    sent->stop = client.send(
            endpoint, text, options,
            [weak](const StreamEvent &event) {
                if (auto s = weak.lock())
                    s->events << event;
            },
            [weak](const Outcome &outcome) {
                if (auto s = weak.lock()) {
                    QVERIFY2(!s->outcome, "Done ran twice");
                    s->outcome = outcome;
                }
            });
    return sent;
}

Outcome send(Client &client, const Endpoint &endpoint, const QString &text,
             SendOptions options = {})
{
    auto sent = start(client, endpoint, text, options);
    if (!QTest::qWaitFor([&] { return sent->outcome.has_value(); }, 30000)) {
        Outcome none;
        none.error = QStringLiteral("no outcome in 30 s");
        return none;
    }
    return *sent->outcome;
}

Endpoint endpointOf(const QString &url)
{
    Endpoint endpoint;
    endpoint.url = QUrl(url);
    endpoint.timeoutMs = 30000;
    return endpoint;
}

bool hasEvent(const QList<StreamEvent> &events, StreamEvent::Kind kind)
{
    return std::any_of(events.begin(), events.end(),
                       [kind](const StreamEvent &event) { return event.kind == kind; });
}

// A free port nothing listens on.
quint16 closedPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

class tst_A2AClient : public QObject
{
    Q_OBJECT

private slots:
    void cardOfTheSdkAgent()
    {
        SdkAgent agent;
        QVERIFY(agent.start());
        Client client;
        std::optional<AgentCard> card;
        QString error = QStringLiteral("pending");
        client.fetchCard(endpointOf(agent.url()),
                         [&](std::optional<AgentCard> c, const QString &e) {
                             card = std::move(c);
                             error = e;
                         });
        QVERIFY(QTest::qWaitFor([&] { return error != QLatin1String("pending"); }, 10000));
        QVERIFY2(card, qPrintable(error));
        QCOMPARE(card->name, QStringLiteral("SDK echo agent"));
        QVERIFY(card->streaming);
        QCOMPARE(card->skills.size(), 1);
        QCOMPARE(card->skills.first().name, QStringLiteral("Echo"));
        QVERIFY(agent.log().contains("request GET /.well-known/agent-card.json 1.0"));
    }

    void completes_data()
    {
        QTest::addColumn<QStringList>("mode");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<int>("version");
        QTest::newRow("1.0 blocking") << QStringList() << false << int(Version::V1_0);
        QTest::newRow("1.0 streaming") << QStringList() << true << int(Version::V1_0);
        QTest::newRow("0.3-only blocking")
                << QStringList{QStringLiteral("--v03-only")} << false << int(Version::V0_3);
        QTest::newRow("0.3-only streaming")
                << QStringList{QStringLiteral("--v03-only")} << true << int(Version::V0_3);
        QTest::newRow("both, 1.0 chosen")
                << QStringList{QStringLiteral("--compat")} << true << int(Version::V1_0);
    }
    void completes()
    {
        QFETCH(QStringList, mode);
        QFETCH(bool, stream);
        QFETCH(int, version);
        SdkAgent agent(mode);
        QVERIFY(agent.start());
        Client client;
        SendOptions options;
        options.stream = stream;
        auto sent = start(client, endpointOf(agent.url()), QStringLiteral("hello there"), options);
        QVERIFY(QTest::qWaitFor([&] { return sent->outcome.has_value(); }, 30000));
        const Outcome &outcome = *sent->outcome;
        QVERIFY2(outcome.ok(), qPrintable(outcome.summary()));
        QCOMPARE(outcome.text, QStringLiteral("echo: hello there"));
        QCOMPARE(outcome.state, TaskState::Completed);
        QCOMPARE(int(outcome.version), version);
        QVERIFY(!outcome.taskId.isEmpty());
        const QByteArray method = version == int(Version::V1_0)
                                          ? (stream ? "SendStreamingMessage" : "SendMessage")
                                          : (stream ? "message/stream" : "message/send");
        QVERIFY2(agent.log().contains(" " + method + "\n"), agent.log().constData());
        if (stream) {
            QVERIFY(hasEvent(sent->events, StreamEvent::Kind::Task));
            QVERIFY(hasEvent(sent->events, StreamEvent::Kind::StatusUpdate));
            QVERIFY(hasEvent(sent->events, StreamEvent::Kind::ArtifactUpdate));
        }
    }

    // The card says 1.0, the agent knows only 0.3: -32601, then 0.3, remembered.
    void fallsBackTo03AndRemembers()
    {
        SdkAgent agent({QStringLiteral("--v03-only"), QStringLiteral("--stale-card")});
        QVERIFY(agent.start());
        Client client;
        const Endpoint endpoint = endpointOf(agent.url());
        Outcome first = send(client, endpoint, QStringLiteral("one"));
        QVERIFY2(first.ok(), qPrintable(first.summary()));
        QCOMPARE(first.version, Version::V0_3);
        QCOMPARE(first.text, QStringLiteral("echo: one"));
        QCOMPARE(agent.count("SendStreamingMessage"), 1);
        QCOMPARE(agent.count("message/stream"), 1);
        QCOMPARE(client.knownVersion(QUrl(agent.url())), std::optional(Version::V0_3));

        Outcome second = send(client, endpoint, QStringLiteral("two"));
        QVERIFY2(second.ok(), qPrintable(second.summary()));
        QCOMPARE(agent.count("SendStreamingMessage"), 1); // not asked again
        QCOMPARE(agent.count("message/stream"), 2);
    }

    void stopCancelsTheRemoteTask_data()
    {
        QTest::addColumn<QStringList>("mode");
        QTest::newRow("1.0") << QStringList();
        QTest::newRow("0.3-only") << QStringList{QStringLiteral("--v03-only")};
    }
    void stopCancelsTheRemoteTask()
    {
        QFETCH(QStringList, mode);
        SdkAgent agent(mode);
        QVERIFY(agent.start());
        Client client;
        const Endpoint endpoint = endpointOf(agent.url());
        auto sent = start(client, endpoint, QStringLiteral("slow work"));
        QVERIFY(QTest::qWaitFor(
                [&] {
                    return std::any_of(sent->events.begin(), sent->events.end(),
                                       [](const StreamEvent &e) {
                                           return e.status.state == TaskState::Working;
                                       });
                },
                20000));
        QVERIFY(!sent->outcome);
        sent->stop();
        QVERIFY(QTest::qWaitFor([&] { return sent->outcome.has_value(); }, 10000));
        QCOMPARE(sent->outcome->kind, Outcome::Kind::Stopped);
        const QString taskId = sent->outcome->taskId;
        QVERIFY(!taskId.isEmpty());
        QVERIFY2(agent.log().contains("canceled " + taskId.toUtf8()), agent.log().constData());

        // The remote says so too.
        Json task;
        QString error = QStringLiteral("pending");
        client.getTask(endpoint, taskId, [&](const Json &result, const QString &e) {
            task = result;
            error = e;
        });
        QVERIFY(QTest::qWaitFor([&] { return error != QLatin1String("pending"); }, 10000));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const std::optional<Task> read = readTask(task);
        QVERIFY(read);
        QCOMPARE(read->status.state, TaskState::Canceled);
    }

    void timeoutCancelsTheRemoteTask()
    {
        SdkAgent agent;
        QVERIFY(agent.start());
        Client client;
        Endpoint endpoint = endpointOf(agent.url());
        endpoint.timeoutMs = 1500;
        QElapsedTimer clock;
        clock.start();
        const Outcome outcome = send(client, endpoint, QStringLiteral("slow again"));
        QCOMPARE(outcome.kind, Outcome::Kind::TimedOut);
        QVERIFY(clock.elapsed() < 15000);
        QVERIFY(outcome.error.contains(QLatin1String("1.5 s")));
        QVERIFY(!outcome.taskId.isEmpty());
        QVERIFY(QTest::qWaitFor(
                [&] { return agent.log().contains("canceled " + outcome.taskId.toUtf8()); }, 5000));
    }

    void inputRequiredThenAnswered_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::newRow("streaming") << true;
        QTest::newRow("blocking") << false;
    }
    void inputRequiredThenAnswered()
    {
        QFETCH(bool, stream);
        SdkAgent agent;
        QVERIFY(agent.start());
        Client client;
        const Endpoint endpoint = endpointOf(agent.url());
        SendOptions options;
        options.stream = stream;
        const Outcome asked = send(client, endpoint, QStringLiteral("input please"), options);
        QCOMPARE(asked.kind, Outcome::Kind::Interrupted);
        QCOMPARE(asked.state, TaskState::InputRequired);
        QCOMPARE(asked.text, QStringLiteral("which colour?"));
        QVERIFY(asked.summary().contains(QLatin1String("which colour?")));

        options.taskId = asked.taskId;
        options.contextId = asked.contextId;
        const Outcome answered = send(client, endpoint, QStringLiteral("blue"), options);
        QVERIFY2(answered.ok(), qPrintable(answered.summary()));
        QCOMPARE(answered.taskId, asked.taskId);
        QCOMPARE(answered.text, QStringLiteral("echo: blue (continued)"));
    }

    void failedAndMessageAnswers()
    {
        SdkAgent agent;
        QVERIFY(agent.start());
        Client client;
        const Endpoint endpoint = endpointOf(agent.url());
        const Outcome failed = send(client, endpoint, QStringLiteral("fail now"));
        QCOMPARE(failed.kind, Outcome::Kind::Failed);
        QCOMPARE(failed.state, TaskState::Failed);
        QCOMPARE(failed.text, QStringLiteral("it went wrong"));

        const Outcome message = send(client, endpoint, QStringLiteral("msg hi"));
        QVERIFY2(message.ok(), qPrintable(message.summary()));
        QCOMPARE(message.text, QStringLiteral("echo: msg hi"));
        QVERIFY(message.taskId.isEmpty());
    }

    void listTasksIn10Only()
    {
        SdkAgent agent;
        QVERIFY(agent.start());
        Client client;
        const Endpoint endpoint = endpointOf(agent.url());
        QVERIFY(send(client, endpoint, QStringLiteral("a")).ok());
        Json result;
        QString error = QStringLiteral("pending");
        client.listTasks(endpoint, Json::object(), [&](const Json &r, const QString &e) {
            result = r;
            error = e;
        });
        QVERIFY(QTest::qWaitFor([&] { return error != QLatin1String("pending"); }, 10000));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(result.contains("tasks") && result["tasks"].size() == 1);

        SdkAgent old({QStringLiteral("--v03-only")});
        QVERIFY(old.start());
        error = QStringLiteral("pending");
        client.listTasks(endpointOf(old.url()), Json::object(),
                         [&](const Json &, const QString &e) { error = e; });
        QVERIFY(QTest::qWaitFor([&] { return error != QLatin1String("pending"); }, 10000));
        QVERIFY2(error.contains(QLatin1String("0.3, which has no ListTasks")), qPrintable(error));
    }

    void unreachableAndNoCard()
    {
        Client client;
        const Outcome closed
                = send(client, endpointOf(QStringLiteral("http://127.0.0.1:%1/").arg(closedPort())),
                       QStringLiteral("hello"));
        QCOMPARE(closed.kind, Outcome::Kind::Unreachable);
        QVERIFY2(closed.error.contains(QLatin1String("could not reach")), qPrintable(closed.error));

        QHttpServer http;
        http.route(QStringLiteral("/"), [] { return QStringLiteral("not an agent"); });
        const quint16 port = http.listen(QHostAddress::LocalHost);
        QVERIFY(port);
        const Outcome noCard
                = send(client, endpointOf(QStringLiteral("http://127.0.0.1:%1/").arg(port)),
                       QStringLiteral("hello"));
        QCOMPARE(noCard.kind, Outcome::Kind::Unreachable);
        QVERIFY2(noCard.error.contains(QLatin1String("no agent card at"))
                         && noCard.error.contains(QLatin1String("/.well-known/agent.json")),
                 qPrintable(noCard.error));
    }

    void credentialsGoToTheEndpointOnly()
    {
        SdkAgent agent({QStringLiteral("--token"), QStringLiteral("s3cret-token")});
        QVERIFY(agent.start());
        Client client;
        Endpoint endpoint = endpointOf(agent.url());
        const Outcome refused = send(client, endpoint, QStringLiteral("hello"));
        QCOMPARE(refused.kind, Outcome::Kind::Unreachable);
        QVERIFY2(refused.error.contains(QLatin1String("401")), qPrintable(refused.error));

        endpoint.headers.insert(QStringLiteral("Authorization"),
                                QStringLiteral("Bearer s3cret-token"));
        const Outcome ok = send(client, endpoint, QStringLiteral("hello"));
        QVERIFY2(ok.ok(), qPrintable(ok.summary()));
        QVERIFY(!ok.summary().contains(QLatin1String("s3cret")));

        // A card (served with the token) whose interface is at another origin: the token does
        // not go there.
        QByteArray seenAuthorization = "none";
        QHttpServer elsewhere;
        elsewhere.route(QStringLiteral("/rpc"), [&](const QHttpServerRequest &request) {
            seenAuthorization = request.value("Authorization");
            return QHttpServerResponse(
                    "application/json",
                    "{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"message\": {\"messageId\": "
                    "\"m\", \"role\": \"ROLE_AGENT\", \"parts\": [{\"text\": \"elsewhere\"}]}}}");
        });
        const quint16 elsewherePort = elsewhere.listen(QHostAddress::LocalHost);
        QVERIFY(elsewherePort);
        QHttpServer cardHost;
        QByteArray cardAuthorization;
        const QByteArray card = "{\"name\": \"split\", \"supportedInterfaces\": [{\"url\": "
                                "\"http://127.0.0.1:"
                                + QByteArray::number(elsewherePort)
                                + "/rpc\", \"protocolBinding\": \"JSONRPC\", "
                                  "\"protocolVersion\": \"1.0\"}]}";
        cardHost.route(QStringLiteral("/.well-known/agent-card.json"),
                       [&](const QHttpServerRequest &request) {
                           cardAuthorization = request.value("Authorization");
                           return QHttpServerResponse("application/json", card);
                       });
        const quint16 cardPort = cardHost.listen(QHostAddress::LocalHost);
        QVERIFY(cardPort);
        Endpoint split = endpointOf(QStringLiteral("http://127.0.0.1:%1").arg(cardPort));
        split.headers = endpoint.headers;
        SendOptions blocking;
        blocking.stream = false;
        const Outcome answered = send(client, split, QStringLiteral("hello"), blocking);
        QVERIFY2(answered.ok(), qPrintable(answered.summary()));
        QCOMPARE(answered.text, QStringLiteral("elsewhere"));
        QCOMPARE(cardAuthorization, QByteArray("Bearer s3cret-token"));
        QCOMPARE(seenAuthorization, QByteArray());
    }

    void envelope()
    {
        QHttpServer http;
        QByteArray received;
        http.route(QStringLiteral("/a2a/message"), [&](const QHttpServerRequest &request) {
            received = request.body();
            const QJsonObject body = QJsonDocument::fromJson(request.body()).object();
            if (body.value(QStringLiteral("message")).toString() == QLatin1String("bad"))
                return QHttpServerResponse(
                        QJsonObject{{QStringLiteral("code"), 400},
                                    {QStringLiteral("message"), QStringLiteral("empty message")}},
                        QHttpServerResponse::StatusCode::BadRequest);
            return QHttpServerResponse(
                    QJsonObject{{QStringLiteral("code"), 0},
                                {QStringLiteral("message"), QStringLiteral("ok")},
                                {QStringLiteral("data"),
                                 QJsonObject{{QStringLiteral("reply"), QStringLiteral("hi back")},
                                             {QStringLiteral("taskId"), QStringLiteral("t-1")}}}});
        });
        const quint16 port = http.listen(QHostAddress::LocalHost);
        QVERIFY(port);
        Client client;
        const Endpoint endpoint
                = endpointOf(QStringLiteral("http://127.0.0.1:%1/a2a/message").arg(port));
        const Outcome ok = send(client, endpoint, QStringLiteral("hello"));
        QVERIFY2(ok.ok(), qPrintable(ok.summary()));
        QVERIFY(ok.envelope);
        QCOMPARE(ok.text, QStringLiteral("hi back"));
        QCOMPARE(ok.taskId, QStringLiteral("t-1"));
        QCOMPARE(QJsonDocument::fromJson(received)
                         .object()
                         .value(QStringLiteral("message"))
                         .toString(),
                 QStringLiteral("hello"));

        const Outcome bad = send(client, endpoint, QStringLiteral("bad"));
        QCOMPARE(bad.kind, Outcome::Kind::Error);
        QVERIFY2(bad.error.contains(QLatin1String("code 400: empty message")),
                 qPrintable(bad.error));
    }

    // Garbage from an agent: a clear error, never a crash or a hang.
    void malformedAnswers_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("application/json") << QByteArray("{oops")
                                  << QStringLiteral("not JSON");
        QTest::newRow("no result")
                << QByteArray("application/json") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1}")
                << QStringLiteral("not JSON");
        QTest::newRow("result not A2A")
                << QByteArray("application/json")
                << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":42}")
                << QStringLiteral("not A2A");
        QTest::newRow("error")
                << QByteArray("application/json")
                << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32004,"
                              "\"message\":\"nope\"}}")
                << QStringLiteral("error -32004: nope");
        QTest::newRow("stream without task")
                << QByteArray("text/event-stream") << QByteArray(": nothing\n\n")
                << QStringLiteral("without a task");
        QTest::newRow("over 16 MiB")
                << QByteArray("application/json") << QByteArray(17 * 1024 * 1024, ' ')
                << QStringLiteral("larger than 16 MiB");
        QTest::newRow("stream error event")
                << QByteArray("text/event-stream")
                << QByteArray("event: error\ndata: "
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,"
                              "\"message\":\"boom\"}}\n\n")
                << QStringLiteral("error -32603: boom");
    }
    void malformedAnswers()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        QHttpServer http;
        const quint16 port = http.listen(QHostAddress::LocalHost);
        QVERIFY(port);
        const QString url = QStringLiteral("http://127.0.0.1:%1/").arg(port);
        const QByteArray card = "{\"name\": \"odd\", \"capabilities\": {\"streaming\": true}, "
                                "\"supportedInterfaces\": [{\"url\": \""
                                + url.toUtf8()
                                + "\", \"protocolBinding\": \"JSONRPC\", \"protocolVersion\": "
                                  "\"1.0\"}]}";
        http.route(QStringLiteral("/.well-known/agent-card.json"),
                   [card] { return QHttpServerResponse("application/json", card); });
        http.route(QStringLiteral("/"), QHttpServerRequest::Method::Post,
                   [contentType, body] { return QHttpServerResponse(contentType, body); });
        Client client;
        const Outcome outcome = send(client, endpointOf(url), QStringLiteral("hello"));
        QCOMPARE(outcome.kind, Outcome::Kind::Error);
        QVERIFY2(outcome.error.contains(expected), qPrintable(outcome.error));
    }
};

QTEST_GUILESS_MAIN(tst_A2AClient)
#include "tst_a2aclient.moc"
