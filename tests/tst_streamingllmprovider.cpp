#include "fakellmserver.h"
#include "providertest.h"

#include <engine/llm/anthropicprovider.h>
#include <engine/llm/openaiprovider.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Engine;

Q_DECLARE_METATYPE(FakeLlmServer::Dialect)
Q_DECLARE_METATYPE(FakeLlmServer::Reply)

// What StreamingLlmProvider does for every dialect, run once for OpenAiProvider and once for
// AnthropicProvider against FakeLlmServer over real localhost HTTP: tool call ids made unique,
// errors reported without the key and retried only while nothing was shown (429 with
// retry-after, 5xx, a stream broken before output) and up to a limit, cancel (also from inside
// a callback), timeout, a refused connection. What only one dialect does (its wire format) is
// in tst_openaiprovider and tst_anthropicprovider.
class tst_StreamingLlmProvider : public QObject
{
    Q_OBJECT

private:
    using Dialect = FakeLlmServer::Dialect;
    static constexpr const char *Key = "sk-test-secret-key-123";

    static ProviderConfig config(Dialect dialect, const QString &baseUrl)
    {
        ProviderConfig c;
        c.kind = dialect == Dialect::OpenAi ? ProviderConfig::OpenAi : ProviderConfig::Anthropic;
        c.baseUrl = baseUrl;
        c.model = QStringLiteral("test-model");
        c.apiKey = QString::fromLatin1(Key);
        c.retryBaseDelayMs = 20;
        c.requestTimeoutMs = 10000;
        return c;
    }
    static ProviderConfig config(Dialect dialect, const FakeLlmServer &server)
    {
        return config(dialect, server.baseUrl());
    }

    static std::unique_ptr<StreamingLlmProvider> provider(const ProviderConfig &c)
    {
        if (c.kind == ProviderConfig::Anthropic)
            return std::make_unique<AnthropicProvider>(c);
        return std::make_unique<OpenAiProvider>(c);
    }

    static FakeLlmServer::Reply text(Dialect dialect, const QString &text, int chunks = 3)
    {
        return dialect == Dialect::OpenAi ? FakeLlmServer::openAiText(text, chunks)
                                          : FakeLlmServer::anthropicText(text, chunks);
    }

    static CompletionRequest userRequest()
    {
        CompletionRequest r;
        r.system = QStringLiteral("You are a test.");
        ChatMessage m;
        m.text = QStringLiteral("hi");
        r.messages.push_back(m);
        return r;
    }

    static QByteArray chunk(const Json &delta, const Json &finish = nullptr)
    {
        return openAiChunk(delta, finish);
    }
    static QByteArray event(const char *type, const Json &data)
    {
        return anthropicEvent(type, data);
    }
    static QByteArray overloadedEvent()
    {
        return event("error",
                     {{"type", "error"},
                      {"error", {{"type", "overloaded_error"}, {"message", "Overloaded"}}}});
    }

    static void dialects()
    {
        QTest::addColumn<Dialect>("dialect");
        QTest::newRow("openai") << Dialect::OpenAi;
        QTest::newRow("anthropic") << Dialect::Anthropic;
    }

private slots:
    // A history that repeats a tool call id is sent with an id of its own for each call and
    // each result answering its own call, so that a server that checks (as OpenAI does) takes
    // it; the conversation's messages keep the model's ids.
    void repeatedToolCallIdsAreSentUnique_data() { dialects(); }
    void repeatedToolCallIdsAreSentUnique()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        server.setStrictToolCallIds(true);
        server.enqueue(text(dialect, QStringLiteral("ok")));
        auto p = provider(config(dialect, server));
        const CompletionRequest request = repeatedToolCallIds();
        const auto o = completeOnce(*p, request);
        QCOMPARE(o->finals, 1);
        QVERIFY2(o->result, o->error ? qPrintable(o->error->message) : "");
        const Json body = server.requests().at(0);
        QVERIFY2(FakeLlmServer::repeatedToolCallId(body).isEmpty(), body.dump().c_str());
        const QMap<int, QString> results = resultsByCall(body);
        QCOMPARE(results.size(), 3);
        for (int n = 0; n < 3; ++n)
            QCOMPARE(results.value(n), QStringLiteral("result %1").arg(n));
        QCOMPARE(request.messages.at(1).toolCalls.at(1).id, QStringLiteral("call_0"));
    }

    // 401: one error that names the provider, its URL, the status, the server's words and the
    // variable to set, never the key; not retried (the call is over once it is reported).
    void unauthorizedIsClearAndNotRetried_data()
    {
        QTest::addColumn<Dialect>("dialect");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QStringList>("said");
        QTest::addColumn<QString>("profile");
        QTest::newRow("openai")
                << Dialect::OpenAi
                << QByteArray(QByteArray("{\"error\":{\"message\":\"Incorrect API key provided: ")
                              + Key
                              + ".\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_"
                                "key\"}}")
                << QStringList{QStringLiteral("OpenAI"),
                               QStringLiteral("Incorrect API key provided"),
                               QStringLiteral("OPENAI_API_KEY")}
                << QString();
        QTest::newRow("anthropic")
                << Dialect::Anthropic
                << QByteArray("{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
                              "\"message\":\"invalid x-api-key\"}}")
                << QStringList{QStringLiteral("Anthropic"), QStringLiteral("invalid x-api-key"),
                               QStringLiteral("ANTHROPIC_API_KEY")}
                << QString();
        // A profile from Settings: the refusal names it and where its key came from.
        QTest::newRow("profile")
                << Dialect::OpenAi
                << QByteArray("{\"error\":{\"message\":\"Incorrect API key provided\"}}")
                << QStringList{QStringLiteral("refused the API key of the profile \"Work "
                                              "laptop\" (the key saved in Settings)"),
                               QStringLiteral("Incorrect API key provided")}
                << QStringLiteral("Work laptop");
    }
    void unauthorizedIsClearAndNotRetried()
    {
        QFETCH(Dialect, dialect);
        QFETCH(QByteArray, body);
        QFETCH(QStringList, said);
        QFETCH(QString, profile);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        FakeLlmServer::Reply reply;
        reply.status = 401;
        reply.body = body;
        server.enqueue(reply);
        ProviderConfig c = config(dialect, server);
        if (!profile.isEmpty()) {
            c.profile = profile;
            c.keyFrom = ProviderConfig::KeyFrom::Settings;
        }
        auto p = provider(c);
        const auto o = completeOnce(*p, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->error);
        QCOMPARE(o->error->httpStatus, 401);
        QVERIFY(!o->error->retryable);
        const QString message = o->error->message;
        QVERIFY2(message.contains(QLatin1String("401")), qPrintable(message));
        QVERIFY2(message.contains(server.baseUrl()), qPrintable(message));
        for (const QString &words : said)
            QVERIFY2(message.contains(words), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1String(Key)), qPrintable(message));
        // The call is gone with its retry timer: nothing can be sent for it any more.
        QCOMPARE(p->pendingCalls(), 0);
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(o->finals, 1);
        // Listing the models (Settings' "Test connection") says the same.
        server.setModelList(body, 401);
        std::optional<ModelList> listed;
        p->listModels([&](ModelList list) { listed = std::move(list); });
        QTRY_VERIFY(listed);
        QVERIFY(listed->models.empty());
        for (const QString &words : said)
            QVERIFY2(listed->error.contains(words), qPrintable(listed->error));
        QVERIFY2(!listed->error.contains(QLatin1String(Key)), qPrintable(listed->error));
    }

    // 429 with retry-after: the next attempt waits as long as the server asked.
    void rateLimitHonoursRetryAfter_data() { dialects(); }
    void rateLimitHonoursRetryAfter()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        FakeLlmServer::Reply limited;
        limited.status = 429;
        limited.headers << "retry-after: 1";
        limited.body = "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}";
        server.enqueue(limited);
        server.enqueue(text(dialect, QStringLiteral("after the wait")));
        auto p = provider(config(dialect, server));
        auto o = std::make_shared<CompletionOutcome>();
        QElapsedTimer timer;
        timer.start();
        p->complete(userRequest(), recordInto(o));
        QTRY_COMPARE_WITH_TIMEOUT(o->finals, 1, 10000);
        QVERIFY(o->result);
        QCOMPARE(o->result->text, QStringLiteral("after the wait"));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY2(timer.elapsed() >= 950, qPrintable(QString::number(timer.elapsed())));
    }

    void serverErrorsRetried_data() { dialects(); }
    void serverErrorsRetried()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        FakeLlmServer::Reply failure;
        failure.status = 500;
        failure.body = "{\"error\":{\"message\":\"boom\"}}";
        server.enqueue(failure);
        server.enqueue(failure);
        server.enqueue(text(dialect, QStringLiteral("third time")));
        auto p = provider(config(dialect, server));
        const auto o = completeOnce(*p, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->result);
        QCOMPARE(o->result->text, QStringLiteral("third time"));
        QCOMPARE(server.requests().size(), 3);
    }

    void serverErrorsBeyondMaxRetries_data() { dialects(); }
    void serverErrorsBeyondMaxRetries()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        FakeLlmServer::Reply failure;
        failure.status = 503;
        failure.body = "{\"error\":{\"message\":\"overloaded\"}}";
        for (int i = 0; i < 5; ++i)
            server.enqueue(failure);
        ProviderConfig c = config(dialect, server);
        c.maxRetries = 2;
        auto p = provider(c);
        const auto o = completeOnce(*p, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->error);
        QCOMPARE(o->error->httpStatus, 503);
        QVERIFY(o->error->message.contains(QLatin1String("overloaded")));
        // The call is gone with its retry timer: no fourth attempt can follow.
        QCOMPARE(p->pendingCalls(), 0);
        QCOMPARE(server.requests().size(), 3);
        QCOMPARE(o->finals, 1);
    }

    // A failure before any text (a stream broken off, Anthropic's overloaded error event) is
    // tried again, and the answer comes whole.
    void failureBeforeOutputRetried_data()
    {
        QTest::addColumn<Dialect>("dialect");
        QTest::addColumn<FakeLlmServer::Reply>("failure");
        QTest::addColumn<QString>("answer");
        FakeLlmServer::Reply broken;
        broken.events << chunk({{"role", "assistant"}, {"content", ""}});
        broken.dropConnectionAfterEvents = true;
        QTest::newRow("openai broken stream")
                << Dialect::OpenAi << broken << QStringLiteral("whole answer");
        FakeLlmServer::Reply overloaded;
        overloaded.events << overloadedEvent();
        QTest::newRow("anthropic overloaded event")
                << Dialect::Anthropic << overloaded << QStringLiteral("fine now");
    }
    void failureBeforeOutputRetried()
    {
        QFETCH(Dialect, dialect);
        QFETCH(FakeLlmServer::Reply, failure);
        QFETCH(QString, answer);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        server.enqueue(failure);
        server.enqueue(text(dialect, answer, 2));
        auto p = provider(config(dialect, server));
        const auto o = completeOnce(*p, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->result);
        QCOMPARE(o->result->text, answer);
        QCOMPARE(o->deltas.join(QString()), answer);
        QCOMPARE(server.requests().size(), 2);
    }

    // A failure once text was shown (a stream broken off, an error event) is the call's end:
    // a retry would repeat the text.
    void failureAfterOutputIsFinal_data()
    {
        QTest::addColumn<Dialect>("dialect");
        QTest::addColumn<FakeLlmServer::Reply>("failure");
        QTest::addColumn<QStringList>("deltas");
        QTest::addColumn<QString>("said"); // in the error's message
        FakeLlmServer::Reply broken;
        broken.events << chunk({{"content", "Half an "}}) << chunk({{"content", "answer"}});
        broken.dropConnectionAfterEvents = true;
        QTest::newRow("openai broken stream")
                << Dialect::OpenAi << broken
                << QStringList{QStringLiteral("Half an "), QStringLiteral("answer")} << QString();
        FakeLlmServer::Reply overloaded;
        overloaded.events << event("content_block_start",
                                   {{"type", "content_block_start"},
                                    {"index", 0},
                                    {"content_block", {{"type", "text"}, {"text", ""}}}})
                          << event("content_block_delta",
                                   {{"type", "content_block_delta"},
                                    {"index", 0},
                                    {"delta", {{"type", "text_delta"}, {"text", "partial"}}}})
                          << overloadedEvent();
        QTest::newRow("anthropic error event")
                << Dialect::Anthropic << overloaded << QStringList{QStringLiteral("partial")}
                << QStringLiteral("Overloaded");
    }
    void failureAfterOutputIsFinal()
    {
        QFETCH(Dialect, dialect);
        QFETCH(FakeLlmServer::Reply, failure);
        QFETCH(QStringList, deltas);
        QFETCH(QString, said);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        server.enqueue(failure);
        server.enqueue(text(dialect, QStringLiteral("must not be used")));
        auto p = provider(config(dialect, server));
        const auto o = completeOnce(*p, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->error);
        QVERIFY(!o->result);
        QVERIFY2(o->error->message.contains(said), qPrintable(o->error->message));
        QCOMPARE(o->deltas, deltas);
        // The call is gone with its retry timer: nothing can be sent for it any more.
        QCOMPARE(p->pendingCalls(), 0);
        QCOMPARE(server.requests().size(), 1);
    }

    // Arguments that are no JSON: the call is kept, its arguments as the text that came.
    void invalidArgumentsKeptAsText_data()
    {
        QTest::addColumn<Dialect>("dialect");
        QTest::addColumn<FakeLlmServer::Reply>("reply");
        QTest::addColumn<QString>("argumentsText");
        FakeLlmServer::Reply openAi;
        openAi.events
                << chunk({{"tool_calls",
                           Json::array({{{"index", 0},
                                         {"id", "call_x"},
                                         {"type", "function"},
                                         {"function",
                                          {{"name", "bash"}, {"arguments", "{\"command\": "}}}}})}})
                << chunk({{"tool_calls",
                           Json::array({{{"index", 0}, {"function", {{"arguments", "\"ls"}}}}})}})
                << chunk(Json::object(), "tool_calls") << "[DONE]";
        QTest::newRow("openai") << Dialect::OpenAi << openAi
                                << QStringLiteral("{\"command\": \"ls");
        FakeLlmServer::Reply anthropic;
        anthropic.events
                << event("content_block_start", {{"type", "content_block_start"},
                                                 {"index", 0},
                                                 {"content_block",
                                                  {{"type", "tool_use"},
                                                   {"id", "toolu_1"},
                                                   {"name", "bash"},
                                                   {"input", Json::object()}}}})
                << event("content_block_delta",
                         {{"type", "content_block_delta"},
                          {"index", 0},
                          {"delta",
                           {{"type", "input_json_delta"}, {"partial_json", "{\"command\": tru"}}}})
                << event("content_block_stop", {{"type", "content_block_stop"}, {"index", 0}})
                << event("message_delta",
                         {{"type", "message_delta"}, {"delta", {{"stop_reason", "tool_use"}}}})
                << event("message_stop", {{"type", "message_stop"}});
        QTest::newRow("anthropic")
                << Dialect::Anthropic << anthropic << QStringLiteral("{\"command\": tru");
    }
    void invalidArgumentsKeptAsText()
    {
        QFETCH(Dialect, dialect);
        QFETCH(FakeLlmServer::Reply, reply);
        QFETCH(QString, argumentsText);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        server.enqueue(reply);
        auto p = provider(config(dialect, server));
        const auto o = completeOnce(*p, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->result);
        QCOMPARE(o->result->toolCalls.size(), size_t(1));
        QVERIFY(o->result->toolCalls[0].arguments.is_null());
        QCOMPARE(o->result->toolCalls[0].argumentsText, argumentsText);
    }

    // Cancelled mid-stream: no more text and no end is reported, though the server goes on
    // sending the rest and the provider goes on serving the next call.
    void cancelMidStream_data() { dialects(); }
    void cancelMidStream()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        FakeLlmServer::Reply slow = text(dialect, QStringLiteral("one two three four"), 4);
        slow.delayBetweenEventsMs = 60;
        server.enqueue(slow);
        server.enqueue(text(dialect, QStringLiteral("next")));
        auto p = provider(config(dialect, server));
        auto o = std::make_shared<CompletionOutcome>();
        QSignalSpy ended(&server, &FakeLlmServer::replyEnded);
        const auto cancel = p->complete(userRequest(), recordInto(o));
        QTRY_COMPARE(o->deltas.size(), 1);
        cancel();
        QCOMPARE(p->pendingCalls(), 0);
        // The first answer's connection is closed (all of it written, or the client gone):
        // whatever it carried reached this process before the next answer does.
        QVERIFY(ended.wait(5000));
        QCOMPARE(ended.first().at(0).toInt(), 0);
        const auto next = completeOnce(*p, userRequest());
        QCOMPARE(next->finals, 1);
        QVERIFY(next->result);
        QCOMPARE(next->result->text, QStringLiteral("next"));
        QCOMPARE(o->deltas.size(), 1);
        QCOMPARE(o->finals, 0);
        cancel(); // harmless twice
    }

    // Cancelled from inside its own onText, with the rest of the answer already on its way:
    // nothing more is reported, though the provider goes on serving the next call.
    void cancelFromInsideOnText_data() { dialects(); }
    void cancelFromInsideOnText()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        server.enqueue(text(dialect, QStringLiteral("abcdef"), 3)); // no delays
        server.enqueue(text(dialect, QStringLiteral("next")));
        auto p = provider(config(dialect, server));
        auto o = std::make_shared<CompletionOutcome>();
        std::function<void()> cancel;
        LlmProvider::Callbacks c = recordInto(o);
        c.onText = [o, &cancel](const QString &d) {
            o->deltas << d;
            cancel();
        };
        cancel = p->complete(userRequest(), c);
        QTRY_COMPARE(o->deltas.size(), 1);
        QCOMPARE(p->pendingCalls(), 0);
        // The server wrote the whole first answer before it read the next request: by the
        // time that one is answered, the rest of the first has reached this process.
        const auto next = completeOnce(*p, userRequest());
        QCOMPARE(next->finals, 1);
        QVERIFY(next->result);
        QCOMPARE(next->result->text, QStringLiteral("next"));
        QCOMPARE(o->deltas.size(), 1);
        QCOMPARE(o->finals, 0);
    }

    void timeout_data() { dialects(); }
    void timeout()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        FakeLlmServer::Reply stalled = text(dialect, QStringLiteral("late"), 2);
        stalled.delayBetweenEventsMs = 3000;
        server.enqueue(stalled);
        ProviderConfig c = config(dialect, server);
        c.requestTimeoutMs = 300;
        auto p = provider(c);
        auto o = std::make_shared<CompletionOutcome>();
        QElapsedTimer timer;
        timer.start();
        p->complete(userRequest(), recordInto(o));
        QTRY_COMPARE_WITH_TIMEOUT(o->finals, 1, 3000);
        QVERIFY(o->error);
        QVERIFY2(o->error->message.contains(QLatin1String("0.3 s")), qPrintable(o->error->message));
        QVERIFY(timer.elapsed() < 2500);
        QCOMPARE(server.requests().size(), 1);
    }

    void connectionRefused_data() { dialects(); }
    void connectionRefused()
    {
        QFETCH(Dialect, dialect);
        ProviderConfig c = config(dialect, dialect == Dialect::OpenAi
                                                   ? QStringLiteral("http://127.0.0.1:1/v1")
                                                   : QStringLiteral("http://127.0.0.1:1"));
        c.maxRetries = 1;
        c.retryBaseDelayMs = 10;
        auto p = provider(c);
        const auto o = completeOnce(*p, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->error);
        QVERIFY(o->error->message.contains(QLatin1String("127.0.0.1:1")));
        QVERIFY(!o->error->message.contains(QLatin1String(Key)));
    }

    void emptyScriptAnswers500_data() { dialects(); }
    void emptyScriptAnswers500()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        ProviderConfig c = config(dialect, server);
        c.maxRetries = 0;
        auto p = provider(c);
        const auto o = completeOnce(*p, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->error);
        QCOMPARE(o->error->httpStatus, 500);
        QVERIFY(o->error->message.contains(QLatin1String("no scripted reply")));
    }

    // A model list cancelled, or asked of a provider that is gone: no callback, while the
    // provider answers the next one.
    void modelListCancelled_data() { dialects(); }
    void modelListCancelled()
    {
        QFETCH(Dialect, dialect);
        FakeLlmServer server(dialect);
        QVERIFY(server.listen());
        server.setModelList(R"({"data":[{"id":"test-model"}]})");
        auto p = provider(config(dialect, server));
        bool called = false;
        p->listModels([&](ModelList) { called = true; })();
        {
            auto shortLived = provider(config(dialect, server));
            shortLived->listModels([&](ModelList) { called = true; });
        }
        std::optional<ModelList> listed;
        p->listModels([&](ModelList list) { listed = std::move(list); });
        QTRY_VERIFY(listed);
        QVERIFY2(listed->error.isEmpty(), qPrintable(listed->error));
        QVERIFY(!called);
        QVERIFY(server.requests().isEmpty()); // the script (completions) was never touched
    }
};

QTEST_GUILESS_MAIN(tst_StreamingLlmProvider)
#include "tst_streamingllmprovider.moc"
