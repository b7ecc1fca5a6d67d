#include "jsontest.h"

#include <engine/a2a/wire.h>

#include <QTest>

using namespace Engine::A2A;

// The A2A data in both wire forms: what this client writes in 1.0 and 0.3, and that it reads
// what peers of either version send (tasks, messages, stream events, agent cards), refusing
// what is not one with a reason.
class tst_A2AWire : public QObject
{
    Q_OBJECT

    static Json parse(const char *text) { return Json::parse(text); }

private slots:
    void messageInBothVersions()
    {
        Message message;
        message.messageId = QStringLiteral("m1");
        message.contextId = QStringLiteral("c1");
        message.parts << Part::fromText(QStringLiteral("hello"));
        Part data;
        data.kind = Part::Kind::Data;
        data.data = {{"n", 1}};
        message.parts << data;

        const Json v1 = toJson(message, Version::V1_0);
        QVERIFY(v1
                == parse("{\"messageId\": \"m1\", \"contextId\": \"c1\", \"role\": \"ROLE_USER\", "
                         "\"parts\": [{\"text\": \"hello\"}, {\"data\": {\"n\": 1}}]}"));
        const Json v03 = toJson(message, Version::V0_3);
        QVERIFY(v03
                == parse("{\"messageId\": \"m1\", \"contextId\": \"c1\", \"role\": \"user\", "
                         "\"kind\": \"message\", \"parts\": [{\"kind\": \"text\", \"text\": "
                         "\"hello\"}, {\"kind\": \"data\", \"data\": {\"n\": 1}}]}"));
        for (const Json &json : {v1, v03}) {
            const std::optional<Message> back = readMessage(json);
            QVERIFY(back);
            QCOMPARE(back->role, Role::User);
            QCOMPARE(back->parts.size(), 2);
            QCOMPARE(back->text(), QStringLiteral("hello"));
            QVERIFY(back->parts[1].data == Json({{"n", 1}}));
        }
    }

    void filePartsBothWays()
    {
        const std::optional<Part> url
                = readPart(parse("{\"kind\": \"file\", \"file\": {\"uri\": \"https://x/a.pdf\", "
                                 "\"mimeType\": \"application/pdf\", \"name\": \"a.pdf\"}}"));
        QVERIFY(url);
        QCOMPARE(url->kind, Part::Kind::Url);
        QCOMPARE(url->url, QStringLiteral("https://x/a.pdf"));
        QCOMPARE(url->mediaType, QStringLiteral("application/pdf"));
        QVERIFY(toJson(*url, Version::V1_0)
                == parse("{\"url\": \"https://x/a.pdf\", \"mediaType\": \"application/pdf\", "
                         "\"filename\": \"a.pdf\"}"));
        const std::optional<Part> raw
                = readPart(parse("{\"raw\": \"aGk=\", \"filename\": \"hi.txt\"}"));
        QVERIFY(raw);
        QCOMPARE(raw->raw, QByteArray("hi"));
        QVERIFY(toJson(*raw, Version::V0_3)
                == parse("{\"kind\": \"file\", \"file\": {\"bytes\": \"aGk=\", \"name\": "
                         "\"hi.txt\"}}"));
    }

    void tasksAndTheirReport()
    {
        const char *v1 = "{\"id\": \"t1\", \"contextId\": \"c1\", \"status\": {\"state\": "
                         "\"TASK_STATE_COMPLETED\", \"message\": {\"messageId\": \"s\", \"role\": "
                         "\"ROLE_AGENT\", \"parts\": [{\"text\": \"done\"}]}}, \"artifacts\": "
                         "[{\"artifactId\": \"a1\", \"parts\": [{\"text\": \"first\"}]}, "
                         "{\"artifactId\": \"a2\", \"parts\": [{\"text\": \"second\"}]}]}";
        std::optional<Task> task = readTask(parse(v1));
        QVERIFY(task);
        QCOMPARE(task->status.state, TaskState::Completed);
        QVERIFY(isTerminal(task->status.state));
        QCOMPARE(task->reportText(), QStringLiteral("first\n\nsecond"));
        // Without artifacts, the status message is the report.
        task->artifacts.clear();
        QCOMPARE(task->reportText(), QStringLiteral("done"));
        // Written back and read again, in 0.3.
        const std::optional<Task> again = readTask(toJson(*task, Version::V0_3));
        QVERIFY(again);
        QCOMPARE(again->id, QStringLiteral("t1"));
        QCOMPARE(again->status.state, TaskState::Completed);

        const char *v03 = "{\"kind\": \"task\", \"id\": \"t2\", \"contextId\": \"c\", \"status\": "
                          "{\"state\": \"input-required\"}}";
        task = readTask(parse(v03));
        QVERIFY(task);
        QCOMPARE(task->status.state, TaskState::InputRequired);
        QVERIFY(isInterrupted(task->status.state) && !isTerminal(task->status.state));
        QCOMPARE(
                readTask(parse("{\"id\": \"t3\", \"status\": {\"state\": \"TASK_STATE_MADE_UP\"}}"))
                        ->status.state,
                TaskState::Unknown);
    }

    void streamEventsOfBothVersions()
    {
        const std::optional<StreamEvent> status = readStreamEvent(
                parse("{\"statusUpdate\": {\"taskId\": \"t\", \"contextId\": \"c\", \"status\": "
                      "{\"state\": \"TASK_STATE_WORKING\"}}}"));
        QVERIFY(status);
        QCOMPARE(status->kind, StreamEvent::Kind::StatusUpdate);
        QCOMPARE(status->taskId, QStringLiteral("t"));
        QCOMPARE(status->status.state, TaskState::Working);

        const std::optional<StreamEvent> artifact = readStreamEvent(
                parse("{\"kind\": \"artifact-update\", \"taskId\": \"t\", \"contextId\": \"c\", "
                      "\"append\": true, \"lastChunk\": true, \"artifact\": {\"artifactId\": "
                      "\"a\", \"parts\": [{\"kind\": \"text\", \"text\": \"x\"}]}}"));
        QVERIFY(artifact);
        QCOMPARE(artifact->kind, StreamEvent::Kind::ArtifactUpdate);
        QVERIFY(artifact->append && artifact->lastChunk);
        QCOMPARE(artifact->artifact->parts.first().text, QStringLiteral("x"));

        const std::optional<StreamEvent> task = readStreamEvent(parse(
                "{\"task\": {\"id\": \"t\", \"status\": {\"state\": \"TASK_STATE_SUBMITTED\"}}}"));
        QVERIFY(task && task->kind == StreamEvent::Kind::Task && task->taskId == "t");
        const std::optional<StreamEvent> message = readStreamEvent(
                parse("{\"kind\": \"message\", \"messageId\": \"m\", \"role\": \"agent\", "
                      "\"parts\": [{\"kind\": \"text\", \"text\": \"hi\"}]}"));
        QVERIFY(message && message->kind == StreamEvent::Kind::Message);
        QCOMPARE(message->message->role, Role::Agent);
    }

    void badInputIsRefusedWithAReason()
    {
        QString why;
        QVERIFY(!readMessage(parse("{\"messageId\": \"m\", \"role\": \"ROLE_USER\"}"), &why));
        QVERIFY2(why.contains(QLatin1String("no parts")), qPrintable(why));
        QVERIFY(!readPart(parse("{\"kind\": \"text\", \"text\": 5}"), &why));
        QVERIFY2(why.contains(QLatin1String("no text")), qPrintable(why));
        QVERIFY(!readPart(parse("{\"what\": 1}"), &why));
        QVERIFY(!readTask(parse("{\"status\": {\"state\": \"working\"}}"), &why));
        QVERIFY2(why.contains(QLatin1String("no id")), qPrintable(why));
        QVERIFY(!readTask(parse("{\"id\": \"t\", \"status\": {}, \"artifacts\": {}}"), &why));
        QVERIFY(!readStreamEvent(parse("{\"kind\": \"surprise\"}"), &why));
        QVERIFY(!readStreamEvent(parse("[1]"), &why));
        QVERIFY(!readAgentCard(parse("{\"description\": \"no name\"}"), &why));
        QVERIFY2(why.contains(QLatin1String("no name")), qPrintable(why));
    }

    void agentCards()
    {
        const std::optional<AgentCard> v1 = readAgentCard(parse(
                "{ \"name\": \"Helper\", \"description\": \"d\", \"version\": \"2\", "
                "\"supportedInterfaces\": [ {\"url\": \"http://h/grpc\", \"protocolBinding\": "
                "\"GRPC\", \"protocolVersion\": \"1.0\"}, {\"url\": \"http://h/old\", "
                "\"protocolBinding\": \"JSONRPC\", \"protocolVersion\": \"0.3\"}, {\"url\": "
                "\"http://h/rpc\", \"protocolBinding\": \"JSONRPC\", \"protocolVersion\": "
                "\"1.0\"}], \"capabilities\": {\"streaming\": true}, \"skills\": [{\"id\": \"s\", "
                "\"name\": \"Summaries\", \"description\": \"summarises\"}]}"));
        QVERIFY(v1);
        QCOMPARE(v1->jsonRpcInterface()->url, QStringLiteral("http://h/rpc"));
        QVERIFY(v1->streaming);
        QCOMPARE(v1->skills.first().name, QStringLiteral("Summaries"));

        const std::optional<AgentCard> v03 = readAgentCard(
                parse("{ \"name\": \"Old\", \"url\": \"http://o/a2a\", \"protocolVersion\": "
                      "\"0.3.0\", \"capabilities\": {}, \"skills\": []}"));
        QVERIFY(v03);
        QCOMPARE(v03->jsonRpcInterface()->url, QStringLiteral("http://o/a2a"));
        QCOMPARE(v03->jsonRpcInterface()->protocolVersion, QStringLiteral("0.3.0"));
        QVERIFY(!readAgentCard(parse("{\"name\": \"Nothing\"}"))->jsonRpcInterface());
    }

    void methodNames()
    {
        QCOMPARE(QLatin1String(methods(Version::V1_0).send), QLatin1String("SendMessage"));
        QCOMPARE(QLatin1String(methods(Version::V0_3).stream), QLatin1String("message/stream"));
        QCOMPARE(QLatin1String(methods(Version::V0_3).cancel), QLatin1String("tasks/cancel"));
    }
};

QTEST_GUILESS_MAIN(tst_A2AWire)
#include "tst_a2awire.moc"
