// A server asking the user's model for a completion: the request read and bounded, the
// decision asked first, the model asked only after a yes, at most Sampler::PerMinute a minute.

#include "fakellmserver.h"
#include "postedevents.h"

#include <engine/serverrequests/sampling.h>

#include <QTest>

using namespace Engine;
using namespace Engine::Sampling;

namespace {

Json request(const std::string &text, Json maxTokens = 50)
{
    return {{"messages",
             Json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", text}}}}})},
            {"systemPrompt", "Be brief."},
            {"maxTokens", maxTokens}};
}

} // namespace

class tst_Sampling : public QObject
{
    Q_OBJECT

private slots:
    void readsRequests()
    {
        QString error;
        Json params = request("hello", 1e9);
        params["messages"].push_back(
                {{"role", "assistant"},
                 {"content",
                  Json::array({{{"type", "text"}, {"text", "a"}},
                               {{"type", "image"}, {"mimeType", "image/png"}, {"data", "AA"}}})}});
        const std::optional<Request> read = Sampling::read(params, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->maxTokens, MaxTokens);
        QCOMPARE(read->system, QStringLiteral("Be brief."));
        QCOMPARE(int(read->messages.size()), 2);
        QVERIFY(read->messages[1].text.startsWith(QLatin1String("a\n[image image/png")));
        QVERIFY(read->shown["messages"][0]["text"] == "hello");

        for (const Json &bad :
             {Json::array(), Json{{"maxTokens", 5}}, request("x", 0), request("x", "many"),
              Json{{"messages", {{{"role", "system"}, {"content", {}}}}}, {"maxTokens", 5}},
              Json{{"messages", {3}}, {"maxTokens", 5}}}) {
            error.clear();
            QVERIFY2(!Sampling::read(bad, &error), bad.dump().c_str());
            QVERIFY(!error.isEmpty());
        }

        // Hostile sizes: more text than MaxTextChars in all (here over two messages) is
        // refused, so no dialog or model is handed megabytes; exactly the limit is taken.
        Json big = request(std::string(MaxTextChars / 2, 'a'), 10);
        big["systemPrompt"] = "";
        big["messages"].push_back(
                {{"role", "assistant"},
                 {"content", {{"type", "text"}, {"text", std::string(MaxTextChars / 2, 'b')}}}});
        QVERIFY2(Sampling::read(big, &error), qPrintable(error));
        big["messages"][1]["content"]["text"] = std::string(20 << 20, 'b');
        error.clear();
        QVERIFY(!Sampling::read(big, &error));
        QVERIFY2(error.contains(QString::number(MaxTextChars)), qPrintable(error));
    }

    void asksFirstThenTheModel()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        ProviderConfig config;
        config.baseUrl = model.baseUrl();
        config.model = QStringLiteral("scripted");
        bool approve = false;
        int asked = 0;
        bool configured = false;
        Sampler sampler(
                [&]() -> std::optional<ProviderConfig> {
                    return configured ? std::optional(config) : std::nullopt;
                },
                [&](const QString &server, const Request &request,
                    std::function<void(std::optional<Request>)> decide) {
                    QCOMPARE(server, QStringLiteral("srv"));
                    ++asked;
                    decide(approve ? std::optional(request) : std::nullopt);
                });
        const auto ask = [&](const Json &params) {
            std::optional<Mcp::Response> answer;
            int replies = 0;
            sampler.answer(QStringLiteral("srv"), params, [&](Mcp::Response r) {
                answer = std::move(r);
                ++replies;
            });
            (void)QTest::qWaitFor([&] { return replies > 0; }, 10000);
            (void)deliverPostedEvents(); // a second reply would have been posted by now
            return std::make_pair(answer, replies);
        };

        auto [none, replies] = ask(request("hi"));
        QCOMPARE(replies, 1);
        QVERIFY(!none->ok()); // no model: refused before anyone is asked
        QCOMPARE(asked, 0);

        configured = true;
        auto [denied, r2] = ask(request("hi"));
        QCOMPARE(r2, 1);
        QVERIFY(!denied->ok());
        QCOMPARE(denied->error->code, -1);
        QCOMPARE(asked, 1);
        QCOMPARE(model.requests().size(), 0); // the model never saw it

        approve = true;
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Hello back.")));
        auto [answered, r3] = ask(request("hi"));
        QCOMPARE(r3, 1);
        QVERIFY2(answered->ok(), answered->error ? answered->error->message.c_str() : "");
        QVERIFY(answered->result["content"]["text"] == "Hello back.");
        QVERIFY(answered->result["role"] == "assistant");
        QVERIFY(answered->result["model"] == "scripted");
        QCOMPARE(model.requests().size(), 1);
        QVERIFY(model.requests().at(0).dump().find("Be brief.") != std::string::npos);

        auto [bad, r4] = ask(Json::array());
        QVERIFY(!bad->ok());
        QCOMPARE(bad->error->code, -32602);

        // The rate: what is left of this minute's allowance, then refusals without a question.
        approve = false;
        for (int i = 2; i < Sampler::PerMinute; ++i) // two so far: the denied and the answered
            ask(request("again"));
        const int before = asked;
        auto [limited, r5] = ask(request("one too many"));
        QVERIFY(!limited->ok());
        QVERIFY(QString::fromStdString(limited->error->message)
                        .contains(QLatin1String("Too many")));
        QCOMPARE(asked, before);
    }

    // The person may change the request before it goes (what the model reads is theirs) and
    // the answer before it returns; refusing the answer is an error for the server.
    void editedRequestAndAnswer()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        ProviderConfig config;
        config.baseUrl = model.baseUrl();
        config.model = QStringLiteral("scripted");
        bool keep = true;
        QString reviewed;
        Sampler sampler([&]() -> std::optional<ProviderConfig> { return config; },
                        [&](const QString &, const Request &request,
                            std::function<void(std::optional<Request>)> decide) {
                            Request edited = request;
                            edited.system = QStringLiteral("Answer in one word.");
                            edited.messages.back().text = QStringLiteral("edited question");
                            edited.maxTokens = 1000000; // bounded again
                            edited.review = [&](const QString &answer,
                                                std::function<void(std::optional<QString>)> back) {
                                reviewed = answer;
                                back(keep ? std::optional(QStringLiteral("edited answer"))
                                          : std::nullopt);
                            };
                            decide(edited);
                        });
        const auto ask = [&] {
            std::optional<Mcp::Response> answer;
            sampler.answer(QStringLiteral("srv"), request("original question"),
                           [&](Mcp::Response r) { answer = std::move(r); });
            (void)QTest::qWaitFor([&] { return answer.has_value(); }, 10000);
            return answer;
        };
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Model words.")));
        const auto answered = ask();
        QVERIFY(answered && answered->ok());
        QCOMPARE(reviewed, QStringLiteral("Model words."));
        QVERIFY(answered->result["content"]["text"] == "edited answer");
        const std::string sent = model.requests().at(0).dump();
        QVERIFY(sent.find("edited question") != std::string::npos);
        QVERIFY(sent.find("original question") == std::string::npos);
        QVERIFY(sent.find("Answer in one word.") != std::string::npos);
        QVERIFY(model.requests().at(0).value("max_tokens", 0) == MaxTokens);

        keep = false;
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Secret words.")));
        const auto refused = ask();
        QVERIFY(refused && !refused->ok());
        QVERIFY(refused->error->message.find("Secret") == std::string::npos);
    }

    // 2025-11-25 sampling with tools: the server's tools reach the model, its earlier
    // tool_use / tool_result blocks become the provider's tool calls and tool messages, and a
    // model that asks for a tool answers with tool_use blocks and stopReason toolUse.
    void toolsReachTheModel()
    {
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        ProviderConfig config;
        config.baseUrl = model.baseUrl();
        config.model = QStringLiteral("scripted");
        Sampler sampler([&]() -> std::optional<ProviderConfig> { return config; },
                        [&](const QString &, const Request &request,
                            std::function<void(std::optional<Request>)> decide) {
                            QVERIFY(request.shown["tools"] == Json::array({"weather"}));
                            decide(request);
                        });
        const Json weather
                = {{"name", "weather"},
                   {"description", "The weather in a city"},
                   {"inputSchema",
                    {{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}}}}};
        const Json params = {
                {"maxTokens", 100},
                {"tools", Json::array({weather})},
                {"toolChoice", {{"mode", "auto"}}},
                {"messages",
                 Json::array(
                         {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Paris?"}}}},
                          {{"role", "assistant"},
                           {"content", Json::array({{{"type", "tool_use"},
                                                     {"id", "call-1"},
                                                     {"name", "weather"},
                                                     {"input", {{"city", "Paris"}}}}})}},
                          {{"role", "user"},
                           {"content",
                            Json::array({{{"type", "tool_result"},
                                          {"toolUseId", "call-1"},
                                          {"content", Json::array({{{"type", "text"},
                                                                    {"text", "rain"}}})}}})}}})}};
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("weather"), Json{{"city", "Lyon"}}}}));
        std::optional<Mcp::Response> answer;
        sampler.answer(QStringLiteral("srv"), params,
                       [&](Mcp::Response r) { answer = std::move(r); });
        QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 10000);
        QVERIFY2(answer->ok(), answer->error ? answer->error->message.c_str() : "");
        QVERIFY(answer->result["stopReason"] == "toolUse");
        const Json &content = answer->result["content"];
        QVERIFY(content.is_array() && content.back()["type"] == "tool_use");
        QVERIFY(content.back()["name"] == "weather");
        QVERIFY(content.back()["input"]["city"] == "Lyon");
        const Json sent = model.requests().at(0);
        QVERIFY(sent["tools"][0]["function"]["name"] == "weather");
        const std::string messages = sent["messages"].dump();
        QVERIFY2(messages.find("\"tool_call_id\":\"call-1\"") != std::string::npos,
                 messages.c_str());
        QVERIFY(messages.find("rain") != std::string::npos);

        // toolChoice none: no tools go to the model.
        Json none = params;
        none["toolChoice"] = {{"mode", "none"}};
        QString error;
        const auto read = Sampling::read(none, &error);
        QVERIFY2(read, qPrintable(error));
        QVERIFY(read->tools.empty());
        Json bad = params;
        bad["tools"] = Json::array({{{"name", "x"}}});
        QVERIFY(!Sampling::read(bad, &error));
    }
};

QTEST_MAIN(tst_Sampling)
#include "tst_sampling.moc"
