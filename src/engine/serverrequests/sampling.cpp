#include "sampling.h"

#include <algorithm>

#include <QCoreApplication>
#include <QPointer>

#include <memory>

namespace Engine::Sampling {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::Sampling", text);
}

// A message's content: one block or (2025-11-25) a list of blocks; text joined, the rest named.
QString contentText(const Json &content)
{
    const Json blocks = content.is_array() ? content : Json::array({content});
    QStringList parts;
    for (const Json &block : blocks) {
        if (!block.is_object())
            continue;
        const QString type = Mcp::stringMember(block, "type");
        if (type == QLatin1String("text"))
            parts << Mcp::stringMember(block, "text");
        else
            parts << tr("[%1 %2 from the server, not shown to the model]")
                             .arg(type.isEmpty() ? tr("content") : type,
                                  Mcp::stringMember(block, "mimeType"));
    }
    return parts.join(QLatin1Char('\n'));
}

Mcp::Response refusal(const QString &why)
{
    // -1: the code the SDKs use for "the user rejected the request".
    return Mcp::Response::failure(-1, why.toStdString());
}

} // namespace

std::optional<Request> read(const Json &params, QString *error)
{
    if (!params.is_object()) {
        *error = tr("the request's params are not an object");
        return std::nullopt;
    }
    const Json messages = params.value("messages", Json());
    if (!messages.is_array() || messages.empty() || messages.size() > size_t(MaxMessages)) {
        *error = tr("the request needs 1 to %1 messages").arg(MaxMessages);
        return std::nullopt;
    }
    Request request;
    request.system = Mcp::stringMember(params, "systemPrompt");
    const Json maxTokens = params.value("maxTokens", Json());
    if (!maxTokens.is_number() || maxTokens.get<double>() < 1) {
        *error = tr("maxTokens must be a positive number");
        return std::nullopt;
    }
    request.maxTokens = int(std::min<double>(maxTokens.get<double>(), MaxTokens));
    Json shown = Json::array();
    for (const Json &message : messages) {
        if (!message.is_object()) {
            *error = tr("a message is not an object");
            return std::nullopt;
        }
        const QString role = Mcp::stringMember(message, "role");
        if (role != QLatin1String("user") && role != QLatin1String("assistant")) {
            *error = tr("a message's role must be user or assistant");
            return std::nullopt;
        }
        ChatMessage chat;
        chat.role = role == QLatin1String("user") ? ChatMessage::Role::User
                                                  : ChatMessage::Role::Assistant;
        const Json content = message.value("content", Json());
        const Json blocks = content.is_array() ? content : Json::array({content});
        // Tool use (the model's earlier asks) and tool results (the server's answers to them)
        // become the provider's own tool calls and tool messages.
        Json rest = Json::array();
        for (const Json &block : blocks) {
            const QString type = Mcp::stringMember(block, "type");
            if (type == QLatin1String("tool_use") && chat.role == ChatMessage::Role::Assistant) {
                const Json input = block.value("input", Json::object());
                chat.toolCalls.push_back({Mcp::stringMember(block, "id"),
                                          Mcp::stringMember(block, "name"),
                                          input.is_object() ? input : Json::object(), QString()});
            } else if (type == QLatin1String("tool_result")
                       && chat.role == ChatMessage::Role::User) {
                ChatMessage result;
                result.role = ChatMessage::Role::Tool;
                result.toolCallId = Mcp::stringMember(block, "toolUseId");
                result.text = contentText(block.value("content", Json::array()));
                result.isError = block.value("isError", Json()) == true;
                shown.push_back({{"role", "tool"}, {"text", result.text.toStdString()}});
                request.messages.push_back(std::move(result));
            } else {
                rest.push_back(block);
            }
        }
        chat.text = contentText(rest);
        if (chat.role == ChatMessage::Role::User && chat.text.isEmpty() && rest.empty())
            continue; // only tool results
        Json seen = {{"role", role.toStdString()}, {"text", chat.text.toStdString()}};
        for (const ToolCallRequest &call : chat.toolCalls)
            seen["toolUse"].push_back(
                    {{"name", call.name.toStdString()}, {"input", call.arguments}});
        shown.push_back(std::move(seen));
        request.messages.push_back(std::move(chat));
    }
    if (request.messages.size() > size_t(MaxMessages) * 2) {
        *error = tr("the request needs 1 to %1 messages").arg(MaxMessages);
        return std::nullopt;
    }
    qsizetype chars = request.system.size();
    for (const ChatMessage &message : request.messages)
        chars += message.text.size();
    if (chars > MaxTextChars) {
        *error = tr("the request's text is %1 characters; at most %2 are taken")
                         .arg(chars)
                         .arg(MaxTextChars);
        return std::nullopt;
    }
    const Json tools = params.value("tools", Json());
    const QString choice = Mcp::stringMember(params.value("toolChoice", Json()), "mode");
    if (!tools.is_null()) {
        if (!tools.is_array() || tools.size() > size_t(MaxTools)) {
            *error = tr("tools must be a list of at most %1 tools").arg(MaxTools);
            return std::nullopt;
        }
        for (const Json &tool : tools) {
            const QString name = Mcp::stringMember(tool, "name");
            const Json schema = tool.is_object() ? tool.value("inputSchema", Json()) : Json();
            if (name.isEmpty() || !schema.is_object()) {
                *error = tr("a tool needs a name and an inputSchema object");
                return std::nullopt;
            }
            if (choice != QLatin1String("none"))
                request.tools.push_back({name, Mcp::stringMember(tool, "description"), schema});
        }
    }
    request.shown = {{"systemPrompt", request.system.toStdString()},
                     {"maxTokens", request.maxTokens},
                     {"messages", shown}};
    if (!request.tools.empty()) {
        Json names = Json::array();
        for (const ToolSpec &tool : request.tools)
            names.push_back(tool.name.toStdString());
        request.shown["tools"] = std::move(names);
    }
    return request;
}

Json result(const CompletionResult &completion, const QString &model)
{
    const bool limit = completion.stopReason == QLatin1String("length")
                       || completion.stopReason == QLatin1String("max_tokens");
    if (!completion.toolCalls.empty()) {
        // The model asks for tools: the server runs them (2025-11-25).
        Json content = Json::array();
        if (!completion.text.isEmpty())
            content.push_back({{"type", "text"}, {"text", completion.text.toStdString()}});
        for (const ToolCallRequest &call : completion.toolCalls)
            content.push_back(
                    {{"type", "tool_use"},
                     {"id", call.id.toStdString()},
                     {"name", call.name.toStdString()},
                     {"input", call.arguments.is_object() ? call.arguments : Json::object()}});
        return {{"role", "assistant"},
                {"content", std::move(content)},
                {"model", model.toStdString()},
                {"stopReason", "toolUse"}};
    }
    return {{"role", "assistant"},
            {"content", {{"type", "text"}, {"text", completion.text.toStdString()}}},
            {"model", model.toStdString()},
            {"stopReason", limit ? "maxTokens" : "endTurn"}};
}

Sampler::Sampler(std::function<std::optional<ProviderConfig>()> model, Approve approve,
                 QObject *parent)
    : QObject(parent)
    , m_model(std::move(model))
    , m_approve(std::move(approve))
{
}

bool Sampler::withinRate(const QString &server)
{
    const qint64 now = Mcp::steadyNowMs();
    std::deque<qint64> &recent = m_recent[server];
    while (!recent.empty() && recent.front() <= now - 60000)
        recent.pop_front();
    if (int(recent.size()) >= PerMinute)
        return false;
    recent.push_back(now);
    return true;
}

void Sampler::answer(const QString &server, const Json &params, Mcp::Client::Reply reply)
{
    QString error;
    std::optional<Request> request = read(params, &error);
    if (!request)
        return reply(Mcp::Response::failure(
                Mcp::ErrorCode::InvalidParams,
                tr("Invalid sampling request: %1").arg(error).toStdString()));
    const std::optional<ProviderConfig> model = m_model ? m_model() : std::nullopt;
    if (!model)
        return reply(refusal(tr("No model is configured to answer sampling requests.")));
    if (!withinRate(server))
        return reply(refusal(tr("Too many sampling requests from %1 (at most %2 a minute).")
                                     .arg(server)
                                     .arg(PerMinute)));
    QPointer<Sampler> self(this);
    auto shared = std::make_shared<Request>(std::move(*request));
    m_approve(server, *shared, [self, shared, model, reply](std::optional<Request> approved) {
        if (!approved)
            return reply(refusal(tr("The user declined the sampling request.")));
        if (!self)
            return reply(refusal(tr("The client is closing.")));
        *shared = std::move(*approved);
        shared->maxTokens = std::clamp(shared->maxTokens, 1, MaxTokens);
        // A child of the sampler: it goes with it, or when it has answered.
        LlmProvider *provider = createProvider(*model, self.data()).release();
        CompletionRequest completion;
        completion.system = shared->system;
        completion.messages = shared->messages;
        completion.maxTokens = shared->maxTokens;
        completion.tools = shared->tools;
        LlmProvider::Callbacks callbacks;
        callbacks.onDone = [provider, reply, review = shared->review](CompletionResult done) {
            const QString model = provider->model();
            provider->deleteLater();
            if (!review)
                return reply(Mcp::Response::success(result(done, model)));
            auto answer = std::make_shared<CompletionResult>(std::move(done));
            review(answer->text, [answer, model, reply](std::optional<QString> returned) {
                if (!returned)
                    return reply(refusal(tr("The user did not let the model's answer go "
                                            "back.")));
                answer->text = *returned;
                reply(Mcp::Response::success(result(*answer, model)));
            });
        };
        callbacks.onError = [provider, reply, onFailure = shared->failed](CompletionError failed) {
            if (onFailure)
                onFailure(failed.message);
            reply(Mcp::Response::failure(
                    Mcp::ErrorCode::InternalError,
                    tr("The model failed: %1").arg(failed.message).toStdString()));
            provider->deleteLater();
        };
        provider->complete(completion, std::move(callbacks));
    });
}

} // namespace Engine::Sampling
