#include "fakellmserver.h"
#include "jsontest.h"
#include "providertest.h"

#include <engine/llm/openaiprovider.h>

#include <QElapsedTimer>
#include <QTest>

#include <memory>

using namespace Engine;

// OpenAiProvider against FakeLlmServer over real localhost HTTP: streamed text, parallel
// tool calls split across chunks, usage, request shape, auth header, the model list, lenient
// servers. What every dialect does (errors, retries, cancel, timeout) is in
// tst_streamingllmprovider.
class tst_OpenAiProvider : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *Key = "sk-test-secret-key-123";

    static ProviderConfig config(const FakeLlmServer &server,
                                 const QString &key = QString::fromLatin1(Key))
    {
        ProviderConfig c;
        c.kind = ProviderConfig::OpenAi;
        c.baseUrl = server.baseUrl();
        c.model = QStringLiteral("test-model");
        c.apiKey = key;
        c.retryBaseDelayMs = 20;
        c.requestTimeoutMs = 10000;
        return c;
    }

    static CompletionRequest userRequest(const QString &text = QStringLiteral("hi"))
    {
        CompletionRequest r;
        r.system = QStringLiteral("You are a test.");
        ChatMessage m;
        m.text = text;
        r.messages.push_back(m);
        return r;
    }

    static QByteArray chunk(const Json &delta, const Json &finish = nullptr)
    {
        return openAiChunk(delta, finish);
    }

private slots:
    // The model list, from the shapes servers answer with: the id, a display name, and the
    // context window from whichever field names it.
    void modelListShapes()
    {
        const auto parse = [](const char *text) {
            return StreamingLlmProvider::parseModelList(Json::parse(text));
        };
        const ModelList openAi = parse(R"({"object":"list","data":[{"id":"gpt-4o","object":"model"},
            {"id":"gpt-4o-mini"},{"id":"gpt-4o"},{"object":"no id"},7]})");
        QVERIFY(openAi.error.isEmpty());
        QCOMPARE(openAi.models.size(), std::size_t(2)); // sorted, once each, unnamed skipped
        QCOMPARE(openAi.models[0].id, QStringLiteral("gpt-4o"));
        QCOMPARE(openAi.models[0].contextTokens, 0);
        const ModelList windows = parse(R"({"data":[
            {"id":"a","context_length":200000,"name":"Model A"},
            {"id":"b","max_model_len":32768},
            {"id":"c","display_name":"Claude C","max_input_tokens":1000000},
            {"id":"d","top_provider":{"context_length":65536}},
            {"id":"e","context_length":-5},
            {"id":"f","context_length":"big"}]})");
        QCOMPARE(windows.models.size(), std::size_t(6));
        QCOMPARE(windows.models[0].contextTokens, 200000);
        QCOMPARE(windows.models[0].name, QStringLiteral("Model A"));
        QCOMPARE(windows.models[1].contextTokens, 32768);
        QCOMPARE(windows.models[2].contextTokens, 1000000);
        QCOMPARE(windows.models[2].name, QStringLiteral("Claude C"));
        QCOMPARE(windows.models[3].contextTokens, 65536);
        QCOMPARE(windows.models[4].contextTokens, 0);
        QCOMPARE(windows.models[5].contextTokens, 0);
        QCOMPARE(parse(R"([{"id":"bare"}])").models.size(), std::size_t(1));
        QCOMPARE(parse(R"({"models":[{"name":"llama3:8b","model":"llama3:8b"}]})").models[0].id,
                 QStringLiteral("llama3:8b"));
        QVERIFY(!parse(R"({"data":"nope"})").error.isEmpty());
        QVERIFY(!parse("42").error.isEmpty());
    }

    void modelListOverHttp()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        OpenAiProvider provider(config(server));
        QCOMPARE(provider.model(), QStringLiteral("test-model"));

        // No list there (404): an error that says where, and never the key.
        std::optional<ModelList> missing;
        provider.listModels([&](ModelList list) { missing = std::move(list); });
        QTRY_VERIFY(missing);
        QVERIFY(missing->models.empty());
        QVERIFY2(missing->error.contains(QLatin1String("404")), qPrintable(missing->error));
        QVERIFY2(missing->error.contains(server.baseUrl()), qPrintable(missing->error));
        QCOMPARE(server.modelListPath(), QByteArray("/v1/models"));
        QVERIFY(server.modelListHeaders().contains("Authorization: Bearer " + QByteArray(Key)));

        server.setModelList(R"({"data":[{"id":"test-model","context_length":4096}]})");
        std::optional<ModelList> listed;
        int calls = 0;
        provider.listModels([&](ModelList list) {
            ++calls;
            listed = std::move(list);
        });
        QTRY_VERIFY(listed);
        QVERIFY2(listed->error.isEmpty(), qPrintable(listed->error));
        QCOMPARE(listed->models.size(), std::size_t(1));
        QCOMPARE(listed->models[0].contextTokens, 4096);
        QCOMPARE(calls, 1);
        QVERIFY(server.requests().isEmpty()); // the script (completions) was never touched
    }

    void streamsText()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::openAiText(QStringLiteral("Hello, streaming world!"), 3));
        OpenAiProvider provider(config(server));
        auto o = std::make_shared<CompletionOutcome>();
        CompletionRequest request = userRequest();
        request.tools.push_back(
                {QStringLiteral("read_file"), QStringLiteral("Reads a file"),
                 Json{{"type", "object"}, {"properties", {{"path", {{"type", "string"}}}}}}});
        provider.complete(request, recordInto(o));
        QTRY_COMPARE(o->finals, 1);
        QVERIFY(!o->error);
        QCOMPARE(o->deltas.size(), 3);
        QCOMPARE(o->deltas.join(QString()), QStringLiteral("Hello, streaming world!"));
        QCOMPARE(o->result->text, QStringLiteral("Hello, streaming world!"));
        QCOMPARE(o->result->stopReason, QStringLiteral("stop"));
        QCOMPARE(o->result->usage.inputTokens, 11);
        QCOMPARE(o->result->usage.outputTokens, 7);
        QVERIFY(o->result->toolCalls.empty());

        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(server.requestPaths().value(0), QByteArray("/v1/chat/completions"));
        const Json body = server.requests().at(0);
        QCOMPARE_JSON(body["model"], "test-model");
        QCOMPARE_JSON(body["stream"], true);
        QCOMPARE_JSON(body["stream_options"], (Json{{"include_usage", true}}));
        QCOMPARE_JSON(body["messages"],
                      (Json::array({{{"role", "system"}, {"content", "You are a test."}},
                                    {{"role", "user"}, {"content", "hi"}}})));
        QCOMPARE_JSON(body["tools"][0]["type"], "function");
        QCOMPARE_JSON(body["tools"][0]["function"]["name"], "read_file");
        QCOMPARE_JSON(body["tools"][0]["function"]["description"], "Reads a file");
        QCOMPARE_JSON(body["tools"][0]["function"]["parameters"]["properties"]["path"]["type"],
                      "string");
        QVERIFY(server.requestHeaders(0).contains(QByteArray("Authorization: Bearer ") + Key));
        QCOMPARE(provider.pendingCalls(), 0);
    }

    // A server that ignores "stream": true and answers one JSON document (some proxies and
    // local servers do): its text and tool calls arrive as if streamed, in one piece.
    void nonStreamingAnswerIsDecoded()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        FakeLlmServer::Reply reply;
        reply.body = Json{{"id", "chatcmpl-1"},
                          {"object", "chat.completion"},
                          {"choices",
                           {{{"index", 0},
                             {"message",
                              {{"role", "assistant"},
                               {"content", "Let me look."},
                               {"tool_calls",
                                {{{"id", "call_a"},
                                  {"type", "function"},
                                  {"function",
                                   {{"name", "read_file"}, {"arguments", R"({"path":"a.txt"})"}}}},
                                 {{"id", "call_b"},
                                  {"type", "function"},
                                  {"function",
                                   {{"name", "list_dir"}, {"arguments", R"({"path":"."})"}}}}}}}},
                             {"finish_reason", "tool_calls"}}}},
                          {"usage", {{"prompt_tokens", 21}, {"completion_tokens", 9}}}}
                             .dump()
                             .c_str();
        server.enqueue(reply);
        OpenAiProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY2(!o->error, o->error ? qPrintable(o->error->message) : "");
        QCOMPARE(o->deltas, QStringList{QStringLiteral("Let me look.")});
        QCOMPARE(o->result->text, QStringLiteral("Let me look."));
        QCOMPARE(o->result->stopReason, QStringLiteral("tool_calls"));
        QCOMPARE(o->result->usage.inputTokens, 21);
        QCOMPARE(o->result->usage.outputTokens, 9);
        QCOMPARE(o->result->toolCalls.size(), size_t(2));
        QCOMPARE(o->result->toolCalls[0].id, QStringLiteral("call_a"));
        QCOMPARE(o->result->toolCalls[0].name, QStringLiteral("read_file"));
        QCOMPARE_JSON(o->result->toolCalls[0].arguments, (Json{{"path", "a.txt"}}));
        QCOMPARE(o->result->toolCalls[1].name, QStringLiteral("list_dir"));
        QCOMPARE_JSON(o->result->toolCalls[1].arguments, (Json{{"path", "."}}));
        QCOMPARE(provider.pendingCalls(), 0);
    }

    // JSON that is no completion is an error naming the server, not a hang or an empty answer.
    void nonStreamingGarbageIsAnError()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        FakeLlmServer::Reply reply;
        reply.body = R"({"hello": "world"})";
        server.enqueue(reply);
        OpenAiProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->error);
        QVERIFY2(o->error->message.contains(QStringLiteral("not a completion")),
                 qPrintable(o->error->message));
        QVERIFY(o->error->message.contains(server.baseUrl()));
    }

    // OpenAI itself (and Azure OpenAI) gets max_completion_tokens, which its reasoning models
    // require; other OpenAI-compatible servers get the max_tokens they know.
    void maxTokensFieldFollowsTheServer_data()
    {
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("field");
        QTest::newRow("openai") << QString() << QStringLiteral("max_completion_tokens");
        QTest::newRow("openai explicit") << QStringLiteral("https://API.openai.com/v1/")
                                         << QStringLiteral("max_completion_tokens");
        QTest::newRow("azure") << QStringLiteral("https://me.openai.azure.com/openai/deployments/x")
                               << QStringLiteral("max_completion_tokens");
        QTest::newRow("deepseek") << QStringLiteral("https://api.deepseek.com/v1")
                                  << QStringLiteral("max_tokens");
        QTest::newRow("ollama") << QStringLiteral("http://127.0.0.1:11434/v1")
                                << QStringLiteral("max_tokens");
        QTest::newRow("lookalike") << QStringLiteral("https://api.openai.com.example.org/v1")
                                   << QStringLiteral("max_tokens");
    }

    void maxTokensFieldFollowsTheServer()
    {
        QFETCH(QString, baseUrl);
        QFETCH(QString, field);
        ProviderConfig c;
        c.kind = ProviderConfig::OpenAi;
        c.baseUrl = baseUrl;
        OpenAiProvider provider(c);
        CompletionRequest request = userRequest();
        request.maxTokens = 1234;
        const Json body = provider.requestBody(request);
        const std::string other
                = field == QLatin1String("max_tokens") ? "max_completion_tokens" : "max_tokens";
        QVERIFY2(body.contains(field.toStdString()), body.dump().c_str());
        QCOMPARE(body[field.toStdString()].get<int>(), 1234);
        QVERIFY(!body.contains(other));
    }

    void noKeyNoAuthorizationHeader()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        OpenAiProvider provider(config(server, QString()));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->result);
        for (const QByteArray &h : server.requestHeaders(0))
            QVERIFY2(!h.toLower().startsWith("authorization:"), h.constData());
    }

    void parallelToolCalls()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        const Json a{{"path", "src/main.cpp"}, {"limit", 20}};
        const Json b{{"command", "ls -la && echo \"done\""}};
        server.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("read_file"), a}, {QStringLiteral("bash"), b}}));
        OpenAiProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->result);
        QVERIFY(o->deltas.isEmpty());
        QCOMPARE(o->result->stopReason, QStringLiteral("tool_calls"));
        QCOMPARE(o->result->toolCalls.size(), size_t(2));
        QCOMPARE(o->result->toolCalls[0].id, QStringLiteral("call_fake_0"));
        QCOMPARE(o->result->toolCalls[0].name, QStringLiteral("read_file"));
        QCOMPARE_JSON(o->result->toolCalls[0].arguments, a);
        QCOMPARE(o->result->toolCalls[1].id, QStringLiteral("call_fake_1"));
        QCOMPARE(o->result->toolCalls[1].name, QStringLiteral("bash"));
        QCOMPARE_JSON(o->result->toolCalls[1].arguments, b);
        QCOMPARE(o->result->toolCalls[1].argumentsText, QString::fromStdString(b.dump()));
        QCOMPARE(o->result->usage.outputTokens, 7);
        compareStreamedCalls(*o);
    }

    // Calls streamed as they are written; a server whose indices are not in order (it began
    // index 3 before index 1) still gets positions in the order the calls began, the same
    // order as the result's.
    void callsStreamInTheOrderTheyBegan()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        FakeLlmServer::Reply reply;
        const auto piece = [](int index, const char *name, const char *arguments) {
            Json function{{"arguments", arguments}};
            if (name)
                function["name"] = name;
            return openAiChunk(
                    {{"tool_calls", Json::array({{{"index", index}, {"function", function}}})}});
        };
        reply.events << piece(3, "second_in_index", "{\"a\":") << piece(1, "first_in_index", "")
                     << piece(1, nullptr, "{}") << piece(3, nullptr, "1}")
                     << openAiChunk(Json::object(), "tool_calls") << "[DONE]";
        server.enqueue(reply);
        OpenAiProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QCOMPARE(o->result->toolCalls.size(), size_t(2));
        QCOMPARE(o->result->toolCalls[0].name, QStringLiteral("second_in_index"));
        QCOMPARE_JSON(o->result->toolCalls[0].arguments, (Json{{"a", 1}}));
        QCOMPARE(o->result->toolCalls[1].name, QStringLiteral("first_in_index"));
        compareStreamedCalls(*o);
    }

    void requestWithToolResults()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        OpenAiProvider provider(config(server));
        CompletionRequest request = userRequest(QStringLiteral("list"));
        ChatMessage assistant;
        assistant.role = ChatMessage::Role::Assistant;
        assistant.toolCalls.push_back(
                {QStringLiteral("c1"), QStringLiteral("list_dir"), Json{{"path", "."}}, {}});
        assistant.toolCalls.push_back(
                {QStringLiteral("c2"), QStringLiteral("bash"), Json(), QStringLiteral("{bad")});
        request.messages.push_back(assistant);
        ChatMessage r1;
        r1.role = ChatMessage::Role::Tool;
        r1.toolCallId = QStringLiteral("c1");
        r1.toolName = QStringLiteral("list_dir");
        r1.text = QStringLiteral("a.txt");
        ChatMessage r2 = r1;
        r2.toolCallId = QStringLiteral("c2");
        r2.text = QStringLiteral("invalid arguments");
        r2.isError = true;
        request.messages.push_back(r1);
        request.messages.push_back(r2);
        const auto o = completeOnce(provider, request);
        QCOMPARE(o->finals, 1);
        const Json messages = server.requests().at(0)["messages"];
        QCOMPARE(messages.size(), size_t(5));
        QCOMPARE_JSON(
                messages[2],
                (Json{{"role", "assistant"},
                      {"content", nullptr},
                      {"tool_calls",
                       Json::array({{{"id", "c1"},
                                     {"type", "function"},
                                     {"function",
                                      {{"name", "list_dir"}, {"arguments", "{\"path\":\".\"}"}}}},
                                    {{"id", "c2"},
                                     {"type", "function"},
                                     {"function", {{"name", "bash"}, {"arguments", "{}"}}}}})}}));
        QCOMPARE_JSON(messages[3],
                      (Json{{"role", "tool"}, {"tool_call_id", "c1"}, {"content", "a.txt"}}));
        QCOMPARE_JSON(messages[4], (Json{{"role", "tool"},
                                         {"tool_call_id", "c2"},
                                         {"content", "Error: invalid arguments"}}));
        QVERIFY(!server.requests().at(0).contains("tools"));
    }

    // A user message with a file and an image: a list of parts (the text, the file as named
    // text, the image as a data URL); a message without attachments stays a plain string.
    void attachmentsBecomeContentParts()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        OpenAiProvider provider(config(server));
        CompletionRequest request = userRequest(QStringLiteral("first"));
        ChatMessage user;
        user.text = QStringLiteral("what is in these?");
        user.attachments.push_back(
                {QStringLiteral("src/a.txt"), QStringLiteral("text/plain"), QByteArray("alpha")});
        user.attachments.push_back(
                {QStringLiteral("pasted.png"), QStringLiteral("image/png"), QByteArray("PNG!")});
        request.messages.push_back(user);
        const auto o = completeOnce(provider, request);
        QCOMPARE(o->finals, 1);
        const Json messages = server.requests().at(0)["messages"];
        QCOMPARE_JSON(messages[1]["content"], "first");
        QCOMPARE_JSON(
                messages[2],
                (Json{{"role", "user"},
                      {"content",
                       Json::array(
                               {{{"type", "text"}, {"text", "what is in these?"}},
                                {{"type", "text"},
                                 {"text", "[attached file src/a.txt]\nalpha\n[end of src/a.txt]"}},
                                {{"type", "image_url"},
                                 {"image_url", {{"url", "data:image/png;base64,UE5HIQ=="}}}}})}}));
    }

    // Tool messages hold text only: the images and audio of a turn's results follow all its
    // tool messages as one user message, each named after its call.
    void toolResultMediaFollowTheToolMessages()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        OpenAiProvider provider(config(server));
        CompletionRequest request = userRequest(QStringLiteral("look"));
        ChatMessage assistant;
        assistant.role = ChatMessage::Role::Assistant;
        assistant.toolCalls.push_back(
                {QStringLiteral("c1"), QStringLiteral("shot"), Json::object(), {}});
        assistant.toolCalls.push_back(
                {QStringLiteral("c2"), QStringLiteral("rec"), Json::object(), {}});
        request.messages.push_back(assistant);
        ChatMessage r1;
        r1.role = ChatMessage::Role::Tool;
        r1.toolCallId = QStringLiteral("c1");
        r1.toolName = QStringLiteral("shot");
        r1.text = QStringLiteral("[image image/png]");
        r1.attachments.push_back(
                {QStringLiteral("shot image 1"), QStringLiteral("image/png"), QByteArray("PNG!")});
        ChatMessage r2 = r1;
        r2.toolCallId = QStringLiteral("c2");
        r2.toolName = QStringLiteral("rec");
        r2.text = QStringLiteral("[audio audio/wav]");
        r2.attachments = {
                {QStringLiteral("rec audio 1"), QStringLiteral("audio/wav"), QByteArray("RIFF")},
                {QStringLiteral("rec audio 2"), QStringLiteral("audio/ogg"), QByteArray("OggS")}};
        request.messages.push_back(r1);
        request.messages.push_back(r2);
        ChatMessage next;
        next.text = QStringLiteral("and?");
        request.messages.push_back(next);
        const auto o = completeOnce(provider, request);
        QCOMPARE(o->finals, 1);
        const Json messages = server.requests().at(0)["messages"];
        QCOMPARE(messages.size(), size_t(7));
        QCOMPARE_JSON(messages[3]["role"], "tool");
        QCOMPARE_JSON(messages[4]["role"], "tool");
        QCOMPARE_JSON(
                messages[5],
                (Json{{"role", "user"},
                      {"content",
                       Json::array(
                               {{{"type", "text"},
                                 {"text", "[shot image 1 from the shot call c1]"}},
                                {{"type", "image_url"},
                                 {"image_url", {{"url", "data:image/png;base64,UE5HIQ=="}}}},
                                {{"type", "text"}, {"text", "[rec audio 1 from the rec call c2]"}},
                                {{"type", "input_audio"},
                                 {"input_audio", {{"data", "UklGRg=="}, {"format", "wav"}}}},
                                {{"type", "text"}, {"text", "[rec audio 2 from the rec call c2]"}},
                                {{"type", "text"},
                                 {"text", "[rec audio 2 audio/ogg, 4 bytes]"}}})}}));
        QCOMPARE_JSON(messages[6], (Json{{"role", "user"}, {"content", "and?"}}));
    }

    void lenientServers()
    {
        // No ids, no index, arguments sent whole as an object, reasoning_content, no [DONE]
        // (the stream just ends after finish_reason), no usage.
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        FakeLlmServer::Reply reply;
        reply.events << chunk({{"reasoning_content", "thinking..."}})
                     << chunk({{"content", "Let me look."}})
                     << chunk({{"tool_calls", Json::array({{{"function",
                                                             {{"name", "read_file"},
                                                              {"arguments", {{"path", "a"}}}}}}})}})
                     << chunk({{"tool_calls",
                                Json::array({{{"function",
                                               {{"name", "list_dir"}, {"arguments", ""}}}}})}})
                     << chunk(Json::object(), "tool_calls");
        server.enqueue(reply);
        OpenAiProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->result);
        QCOMPARE(o->result->text, QStringLiteral("Let me look."));
        QCOMPARE(o->deltas, QStringList{QStringLiteral("Let me look.")});
        QCOMPARE(o->result->toolCalls.size(), size_t(2));
        QCOMPARE(o->result->toolCalls[0].id, QStringLiteral("call_1"));
        QCOMPARE(o->result->toolCalls[1].id, QStringLiteral("call_2"));
        QCOMPARE_JSON(o->result->toolCalls[0].arguments, (Json{{"path", "a"}}));
        QCOMPARE_JSON(o->result->toolCalls[1].arguments, Json::object());
        QCOMPARE(o->result->usage.inputTokens, -1);
    }
};

QTEST_GUILESS_MAIN(tst_OpenAiProvider)
#include "tst_openaiprovider.moc"
