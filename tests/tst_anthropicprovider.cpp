#include "fakellmserver.h"
#include "jsontest.h"
#include "providertest.h"

#include <engine/llm/anthropicprovider.h>

#include <QTest>

#include <memory>

using namespace Engine;

// AnthropicProvider against FakeLlmServer over real localhost HTTP: streamed text, tool_use
// blocks with input split across input_json_delta events, usage, the request shape (top-level
// system, tool_use / tool_result blocks merged into alternating turns), headers, an error event
// that is not worth a retry. What every dialect does (errors, retries, cancel, timeout) is in
// tst_streamingllmprovider.
class tst_AnthropicProvider : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *Key = "sk-ant-test-secret-456";

    static ProviderConfig config(const FakeLlmServer &server)
    {
        ProviderConfig c;
        c.kind = ProviderConfig::Anthropic;
        c.baseUrl = server.baseUrl();
        c.model = QStringLiteral("claude-test");
        c.apiKey = QString::fromLatin1(Key);
        c.retryBaseDelayMs = 20;
        return c;
    }

    static CompletionRequest userRequest()
    {
        CompletionRequest r;
        r.system = QStringLiteral("Be terse.");
        ChatMessage m;
        m.text = QStringLiteral("hi");
        r.messages.push_back(m);
        return r;
    }

    static QByteArray event(const char *type, const Json &data)
    {
        return anthropicEvent(type, data);
    }

private slots:
    // Anthropic's list: GET /v1/models with its own headers; display names and, where given,
    // the input window.
    void modelList()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(server.listen());
        server.setModelList(
                R"({"data":[{"type":"model","id":"claude-test","display_name":"Claude Test","max_input_tokens":200000}],"has_more":false})");
        AnthropicProvider provider(config(server));
        std::optional<ModelList> listed;
        provider.listModels([&](ModelList list) { listed = std::move(list); });
        QTRY_VERIFY(listed);
        QVERIFY2(listed->error.isEmpty(), qPrintable(listed->error));
        QCOMPARE(server.modelListPath(), QByteArray("/v1/models?limit=1000"));
        QVERIFY(server.modelListHeaders().contains("x-api-key: " + QByteArray(Key)));
        QCOMPARE(listed->models.size(), std::size_t(1));
        QCOMPARE(listed->models[0].name, QStringLiteral("Claude Test"));
        QCOMPARE(listed->models[0].contextTokens, 200000);
    }

    void streamsText()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::anthropicText(QStringLiteral("Bonjour, le monde – ✓"), 3));
        AnthropicProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->result);
        QCOMPARE(o->deltas.size(), 3);
        QCOMPARE(o->result->text, QStringLiteral("Bonjour, le monde – ✓"));
        QCOMPARE(o->result->stopReason, QStringLiteral("end_turn"));
        QCOMPARE(o->result->usage.inputTokens, 11);
        QCOMPARE(o->result->usage.outputTokens, 7);

        QCOMPARE(server.requestPaths().value(0), QByteArray("/v1/messages"));
        const QList<QByteArray> headers = server.requestHeaders(0);
        QVERIFY(headers.contains(QByteArray("x-api-key: ") + Key));
        QVERIFY(headers.contains("anthropic-version: 2023-06-01"));
        QVERIFY(headers.contains("Content-Type: application/json"));
        const Json body = server.requests().at(0);
        QCOMPARE_JSON(body["model"], "claude-test");
        QCOMPARE_JSON(body["stream"], true);
        QCOMPARE_JSON(body["max_tokens"], 4096);
        QCOMPARE_JSON(body["system"], "Be terse.");
        QCOMPARE_JSON(
                body["messages"],
                (Json::array({{{"role", "user"},
                               {"content", Json::array({{{"type", "text"}, {"text", "hi"}}})}}})));
    }

    void toolUse()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(server.listen());
        const Json a{{"path", "README.md"}};
        const Json b{{"pattern", "TODO"}, {"glob", "**/*.cpp"}};
        server.enqueue(FakeLlmServer::anthropicToolUse(
                {{QStringLiteral("read_file"), a}, {QStringLiteral("search_files"), b}}));
        AnthropicProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->result);
        QCOMPARE(o->result->stopReason, QStringLiteral("tool_use"));
        QCOMPARE(o->result->toolCalls.size(), size_t(2));
        QCOMPARE(o->result->toolCalls[0].id, QStringLiteral("toolu_fake_0"));
        QCOMPARE(o->result->toolCalls[0].name, QStringLiteral("read_file"));
        QCOMPARE_JSON(o->result->toolCalls[0].arguments, a);
        QCOMPARE(o->result->toolCalls[1].name, QStringLiteral("search_files"));
        QCOMPARE_JSON(o->result->toolCalls[1].arguments, b);
        compareStreamedCalls(*o);
    }

    // A proxy that ignores "stream": true answers one Messages document: decoded the same way.
    void nonStreamingAnswerIsDecoded()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(server.listen());
        FakeLlmServer::Reply reply;
        reply.body = Json{{"id", "msg_1"},
                          {"type", "message"},
                          {"role", "assistant"},
                          {"content",
                           {{{"type", "text"}, {"text", "Reading it."}},
                            {{"type", "tool_use"},
                             {"id", "toolu_1"},
                             {"name", "read_file"},
                             {"input", {{"path", "README.md"}}}},
                            {{"type", "tool_use"},
                             {"id", "toolu_2"},
                             {"name", "list_dir"},
                             {"input", Json::object()}}}},
                          {"stop_reason", "tool_use"},
                          {"usage", {{"input_tokens", 30}, {"output_tokens", 12}}}}
                             .dump()
                             .c_str();
        server.enqueue(reply);
        AnthropicProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY2(o->result, o->error ? qPrintable(o->error->message) : "");
        QCOMPARE(o->result->text, QStringLiteral("Reading it."));
        QCOMPARE(o->result->stopReason, QStringLiteral("tool_use"));
        QCOMPARE(o->result->usage.inputTokens, 30);
        QCOMPARE(o->result->usage.outputTokens, 12);
        QCOMPARE(o->result->toolCalls.size(), size_t(2));
        QCOMPARE(o->result->toolCalls[0].id, QStringLiteral("toolu_1"));
        QCOMPARE_JSON(o->result->toolCalls[0].arguments, (Json{{"path", "README.md"}}));
        QCOMPARE(o->result->toolCalls[1].name, QStringLiteral("list_dir"));
        QCOMPARE_JSON(o->result->toolCalls[1].arguments, Json::object());
    }

    // A user message with a file and an image: a text block, the file as a named text block,
    // the image as a base64 source.
    void attachmentsBecomeBlocks()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::anthropicText(QStringLiteral("ok")));
        AnthropicProvider provider(config(server));
        CompletionRequest request = userRequest();
        ChatMessage &user = request.messages.back();
        user.attachments.push_back(
                {QStringLiteral("src/a.txt"), QStringLiteral("text/plain"), QByteArray("alpha")});
        user.attachments.push_back(
                {QStringLiteral("shot.jpg"), QStringLiteral("image/jpeg"), QByteArray("JPG!")});
        const auto o = completeOnce(provider, request);
        QCOMPARE(o->finals, 1);
        const Json content = server.requests().at(0)["messages"].back()["content"];
        QCOMPARE(content.size(), size_t(3));
        QCOMPARE_JSON(content[0]["type"], "text");
        QCOMPARE_JSON(content[1],
                      (Json{{"type", "text"},
                            {"text", "[attached file src/a.txt]\nalpha\n[end of src/a.txt]"}}));
        QCOMPARE_JSON(
                content[2],
                (Json{{"type", "image"},
                      {"source",
                       {{"type", "base64"}, {"media_type", "image/jpeg"}, {"data", "SlBHIQ=="}}}}));
    }

    void requestWithToolResults()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::anthropicText(QStringLiteral("ok")));
        AnthropicProvider provider(config(server));
        CompletionRequest request = userRequest();
        request.tools.push_back(
                {QStringLiteral("bash"), QStringLiteral("Runs a command"),
                 Json{{"type", "object"}, {"properties", {{"command", {{"type", "string"}}}}}}});
        ChatMessage assistant;
        assistant.role = ChatMessage::Role::Assistant;
        assistant.text = QStringLiteral("Running.");
        assistant.toolCalls.push_back(
                {QStringLiteral("t1"), QStringLiteral("bash"), Json{{"command", "ls"}}, {}});
        assistant.toolCalls.push_back(
                {QStringLiteral("t2"), QStringLiteral("bash"), Json(), QStringLiteral("{oops")});
        request.messages.push_back(assistant);
        ChatMessage r1;
        r1.role = ChatMessage::Role::Tool;
        r1.toolCallId = QStringLiteral("t1");
        r1.text = QStringLiteral("a.txt");
        ChatMessage r2 = r1;
        r2.toolCallId = QStringLiteral("t2");
        r2.text = QStringLiteral("bad arguments");
        r2.isError = true;
        ChatMessage next;
        next.text = QStringLiteral("and now?");
        request.messages.push_back(r1);
        request.messages.push_back(r2);
        request.messages.push_back(next);
        const auto o = completeOnce(provider, request);
        QCOMPARE(o->finals, 1);
        const Json body = server.requests().at(0);
        QCOMPARE_JSON(body["tools"],
                      (Json::array({{{"name", "bash"},
                                     {"description", "Runs a command"},
                                     {"input_schema",
                                      {{"type", "object"},
                                       {"properties", {{"command", {{"type", "string"}}}}}}}}})));
        const Json messages = body["messages"];
        QCOMPARE(messages.size(), size_t(3));
        QCOMPARE_JSON(messages[1],
                      (Json{{"role", "assistant"},
                            {"content", Json::array({{{"type", "text"}, {"text", "Running."}},
                                                     {{"type", "tool_use"},
                                                      {"id", "t1"},
                                                      {"name", "bash"},
                                                      {"input", {{"command", "ls"}}}},
                                                     {{"type", "tool_use"},
                                                      {"id", "t2"},
                                                      {"name", "bash"},
                                                      {"input", Json::object()}}})}}));
        QCOMPARE_JSON(messages[2],
                      (Json{{"role", "user"},
                            {"content", Json::array({{{"type", "tool_result"},
                                                      {"tool_use_id", "t1"},
                                                      {"content", "a.txt"}},
                                                     {{"type", "tool_result"},
                                                      {"tool_use_id", "t2"},
                                                      {"content", "bad arguments"},
                                                      {"is_error", true}},
                                                     {{"type", "text"}, {"text", "and now?"}}})}}));
    }

    // A tool result with an image: the result's content is a list, its text then the image as
    // a base64 source; audio, which the API does not take, stays a line of the text.
    void toolResultImagesBecomeImageBlocks()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(server.listen());
        server.enqueue(FakeLlmServer::anthropicText(QStringLiteral("ok")));
        AnthropicProvider provider(config(server));
        CompletionRequest request = userRequest();
        ChatMessage assistant;
        assistant.role = ChatMessage::Role::Assistant;
        assistant.toolCalls.push_back(
                {QStringLiteral("t1"), QStringLiteral("shot"), Json::object(), {}});
        request.messages.push_back(assistant);
        ChatMessage result;
        result.role = ChatMessage::Role::Tool;
        result.toolCallId = QStringLiteral("t1");
        result.toolName = QStringLiteral("shot");
        result.text = QStringLiteral("[image image/png, 8 bytes base64]");
        result.attachments.push_back(
                {QStringLiteral("shot image 1"), QStringLiteral("image/png"), QByteArray("PNG!")});
        result.attachments.push_back(
                {QStringLiteral("shot audio 1"), QStringLiteral("audio/wav"), QByteArray("RIFF")});
        request.messages.push_back(result);
        const auto o = completeOnce(provider, request);
        QCOMPARE(o->finals, 1);
        const Json messages = server.requests().at(0)["messages"];
        QCOMPARE(messages.size(), size_t(3));
        QCOMPARE_JSON(
                messages[2],
                (Json{{"role", "user"},
                      {"content",
                       Json::array({{{"type", "tool_result"},
                                     {"tool_use_id", "t1"},
                                     {"content",
                                      Json::array({{{"type", "text"},
                                                    {"text", "[image image/png, 8 bytes base64]"}},
                                                   {{"type", "image"},
                                                    {"source",
                                                     {{"type", "base64"},
                                                      {"media_type", "image/png"},
                                                      {"data", "UE5HIQ=="}}}}})}}})}}));
    }

    void invalidRequestErrorEventNotRetried()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::Anthropic);
        QVERIFY(server.listen());
        FakeLlmServer::Reply reply;
        reply.events << event("error", {{"type", "error"},
                                        {"error",
                                         {{"type", "invalid_request_error"},
                                          {"message", "prompt is too long"}}}});
        server.enqueue(reply);
        AnthropicProvider provider(config(server));
        const auto o = completeOnce(provider, userRequest());
        QCOMPARE(o->finals, 1);
        QVERIFY(o->error);
        QVERIFY(o->error->message.contains(QLatin1String("prompt is too long")));
        QCOMPARE(provider.pendingCalls(), 0); // over: no retry can follow
        QCOMPARE(server.requests().size(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_AnthropicProvider)
#include "tst_anthropicprovider.moc"
