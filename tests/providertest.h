#pragma once

#include <engine/llm/llm.h>

#include <QList>
#include <QMap>
#include <QStringList>
#include <QTest>

#include <memory>
#include <optional>

// What one completion call reported, for the provider tests: the text deltas, and the result
// or the error (finals counts onDone + onError: exactly one is the contract).
struct CompletionOutcome
{
    QStringList deltas;
    // onToolCall: each call's pieces joined, and the name it gave, by position; and the order
    // the positions were first seen in.
    QMap<int, QString> callArguments;
    QMap<int, QString> callNames;
    QList<int> callOrder;
    std::optional<Engine::CompletionResult> result;
    std::optional<Engine::CompletionError> error;
    int finals = 0;
};

inline Engine::LlmProvider::Callbacks recordInto(const std::shared_ptr<CompletionOutcome> &o)
{
    Engine::LlmProvider::Callbacks c;
    c.onText = [o](const QString &d) {
        o->deltas << d;
    };
    c.onToolCall = [o](const Engine::ToolCallDelta &d) {
        if (!o->callOrder.contains(d.position))
            o->callOrder << d.position;
        o->callArguments[d.position] += d.argumentsDelta;
        o->callNames[d.position] = d.name;
    };
    c.onDone = [o](Engine::CompletionResult r) {
        o->result = std::move(r);
        ++o->finals;
    };
    c.onError = [o](Engine::CompletionError e) {
        o->error = std::move(e);
        ++o->finals;
    };
    return c;
}

// What onToolCall streamed is what the result holds: the same calls, in the same order, each
// with its name and its arguments' text.
inline void compareStreamedCalls(const CompletionOutcome &o)
{
    QVERIFY(o.result);
    QCOMPARE(o.callOrder.size(), qsizetype(o.result->toolCalls.size()));
    for (int i = 0; i < o.callOrder.size(); ++i) {
        QCOMPARE(o.callOrder.at(i), i);
        QCOMPARE(o.callNames.value(i), o.result->toolCalls[size_t(i)].name);
        QCOMPARE(o.callArguments.value(i), o.result->toolCalls[size_t(i)].argumentsText);
    }
}

// An OpenAI stream chunk: one choice with this delta (and finish reason).
inline QByteArray openAiChunk(const nlohmann::json &delta, const nlohmann::json &finish = nullptr)
{
    return QByteArray::fromStdString(nlohmann::json{
            {"choices",
             nlohmann::json::array({{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}}
                                             .dump());
}

// An Anthropic stream event ("event: TYPE", "data: JSON").
inline QByteArray anthropicEvent(const char *type, const nlohmann::json &data)
{
    return QByteArray("event: ") + type + "\ndata: " + QByteArray::fromStdString(data.dump());
}

// Starts one completion and waits (event loop running) until it has ended; the caller checks
// finals == 1.
inline std::shared_ptr<CompletionOutcome> completeOnce(Engine::LlmProvider &provider,
                                                       const Engine::CompletionRequest &request)
{
    auto o = std::make_shared<CompletionOutcome>();
    provider.complete(request, recordInto(o));
    (void)QTest::qWaitFor([&] { return o->finals > 0; }, 10000);
    return o;
}

// A history whose tool calls repeat one id, as local OpenAI-compatible servers send it:
// "call_0" for both calls of the first turn and again for the call of the second. Call n has
// the arguments {"n": n} and its result the text "result n".
inline Engine::CompletionRequest repeatedToolCallIds()
{
    using Engine::ChatMessage;
    Engine::CompletionRequest request;
    ChatMessage user;
    user.text = QStringLiteral("go");
    request.messages.push_back(user);
    int n = 0;
    for (int calls : {2, 1}) {
        ChatMessage assistant;
        assistant.role = ChatMessage::Role::Assistant;
        for (int i = 0; i < calls; ++i) {
            Engine::ToolCallRequest call;
            call.id = QStringLiteral("call_0");
            call.name = QStringLiteral("echo");
            call.arguments = nlohmann::json{{"n", n + i}};
            assistant.toolCalls.push_back(call);
        }
        request.messages.push_back(assistant);
        for (int i = 0; i < calls; ++i, ++n) {
            ChatMessage result;
            result.role = ChatMessage::Role::Tool;
            result.toolCallId = QStringLiteral("call_0");
            result.toolName = QStringLiteral("echo");
            result.text = QStringLiteral("result %1").arg(n);
            request.messages.push_back(result);
        }
    }
    return request;
}

// For a request body of either dialect: call n's id → the text of the result that answers it
// ("result n" when each result answers its own call).
inline QMap<int, QString> resultsByCall(const nlohmann::json &body)
{
    QMap<QString, int> callOf; // id → n
    QMap<int, QString> results;
    const auto text = [](const nlohmann::json &content) {
        if (content.is_string())
            return QString::fromStdString(content.get<std::string>());
        QString joined;
        if (content.is_array()) {
            for (const nlohmann::json &part : content) {
                if (part.is_object() && part.value("type", "") == "text")
                    joined += QString::fromStdString(part.value("text", std::string()));
            }
        }
        return joined;
    };
    for (const nlohmann::json &message : body.value("messages", nlohmann::json::array())) {
        for (const nlohmann::json &call : message.value("tool_calls", nlohmann::json::array())) {
            const auto arguments = nlohmann::json::parse(
                    call["function"].value("arguments", std::string("{}")), nullptr, false);
            callOf[QString::fromStdString(call.value("id", std::string()))]
                    = arguments.value("n", -1);
        }
        if (message.value("role", "") == "tool")
            results[callOf.value(
                    QString::fromStdString(message.value("tool_call_id", std::string())), -1)]
                    = text(message["content"]);
        const nlohmann::json content = message.value("content", nlohmann::json());
        if (!content.is_array())
            continue;
        for (const nlohmann::json &block : content) {
            if (block.value("type", "") == "tool_use")
                callOf[QString::fromStdString(block.value("id", std::string()))]
                        = block["input"].value("n", -1);
            if (block.value("type", "") == "tool_result")
                results[callOf.value(
                        QString::fromStdString(block.value("tool_use_id", std::string())), -1)]
                        = text(block["content"]);
        }
    }
    return results;
}
