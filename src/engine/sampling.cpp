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
        chat.text = contentText(message.value("content", Json()));
        shown.push_back({{"role", role.toStdString()}, {"text", chat.text.toStdString()}});
        request.messages.push_back(std::move(chat));
    }
    request.shown = {{"systemPrompt", request.system.toStdString()},
                     {"maxTokens", request.maxTokens},
                     {"messages", shown}};
    return request;
}

Json result(const CompletionResult &completion, const QString &model)
{
    const bool limit = completion.stopReason == QLatin1String("length")
                       || completion.stopReason == QLatin1String("max_tokens");
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
