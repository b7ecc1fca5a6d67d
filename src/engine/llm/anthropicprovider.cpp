#include "anthropicprovider.h"

#include <algorithm>

#include <mcp/wire/jsonparser.h>
#include <mcp/wire/sseparser.h>

#include <QLoggingCategory>
#include <QNetworkRequest>

#include <map>

namespace Engine {

Q_LOGGING_CATEGORY(lcAnthropic, "switchboard.engine.anthropic", QtWarningMsg)

namespace {

QString stringAt(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

void readUsage(const Json &usage, Usage *out)
{
    if (!usage.is_object())
        return;
    if (const auto it = usage.find("input_tokens"); it != usage.end() && it->is_number_integer())
        out->inputTokens = it->get<qint64>();
    if (const auto it = usage.find("output_tokens"); it != usage.end() && it->is_number_integer())
        out->outputTokens = it->get<qint64>();
}

// One Messages stream. Content blocks are keyed by index; only text and tool_use matter
// (thinking blocks and their signatures are not shown).
class AnthropicDecoder : public StreamingLlmProvider::StreamDecoder
{
public:
    void handle(const Mcp::SseEvent &event) override
    {
        const Json json
                = Mcp::parseJson(std::string_view(event.data.constData(), event.data.size()));
        if (!json.is_object()) {
            qCWarning(lcAnthropic)
                    << "skipping a stream event that is not a JSON object:" << event.event
                    << event.data.left(200);
            return;
        }
        // The data's "type" is authoritative; the SSE event name repeats it.
        QString type = stringAt(json, "type");
        if (type.isEmpty())
            type = QString::fromUtf8(event.event);

        if (type == QLatin1String("message_start")) {
            if (const auto message = json.find("message");
                message != json.end() && message->is_object()) {
                if (const auto usage = message->find("usage"); usage != message->end())
                    readUsage(*usage, &result.usage);
            }
        } else if (type == QLatin1String("content_block_start")) {
            const auto block = json.find("content_block");
            if (block == json.end() || !block->is_object())
                return;
            const qint64 index = indexOf(json);
            const QString blockType = stringAt(*block, "type");
            if (blockType == QLatin1String("tool_use")) {
                if (!m_calls.count(index))
                    m_order.push_back(index);
                ToolCallRequest &call = m_calls[index];
                call.id = stringAt(*block, "id");
                call.name = stringAt(*block, "name");
                if (!call.name.isEmpty())
                    toolCallDeltas.push_back({positionOf(index), call.name, QString()});
                // The input normally streams as input_json_delta; a non-empty one given here
                // (some proxies) is used when no delta follows.
                if (const auto input = block->find("input");
                    input != block->end() && input->is_object() && !input->empty()) {
                    m_initialInput[index] = QString::fromStdString(input->dump());
                }
            } else if (blockType == QLatin1String("text")) {
                appendText(stringAt(*block, "text"));
            }
        } else if (type == QLatin1String("content_block_delta")) {
            const auto delta = json.find("delta");
            if (delta == json.end() || !delta->is_object())
                return;
            const QString deltaType = stringAt(*delta, "type");
            if (deltaType == QLatin1String("text_delta")) {
                appendText(stringAt(*delta, "text"));
            } else if (deltaType == QLatin1String("input_json_delta")) {
                const qint64 index = indexOf(json);
                if (const auto it = m_calls.find(index); it != m_calls.end()) {
                    const QString piece = stringAt(*delta, "partial_json");
                    it->second.argumentsText += piece;
                    if (!piece.isEmpty())
                        toolCallDeltas.push_back({positionOf(index), it->second.name, piece});
                }
            }
        } else if (type == QLatin1String("message_delta")) {
            if (const auto delta = json.find("delta"); delta != json.end() && delta->is_object()) {
                if (const QString stop = stringAt(*delta, "stop_reason"); !stop.isEmpty())
                    result.stopReason = stop;
            }
            if (const auto usage = json.find("usage"); usage != json.end())
                readUsage(*usage, &result.usage);
        } else if (type == QLatin1String("message_stop")) {
            complete = true;
        } else if (type == QLatin1String("error")) {
            CompletionError streamError;
            const auto err = json.find("error");
            const QString errorType
                    = err != json.end() && err->is_object() ? stringAt(*err, "type") : QString();
            streamError.message
                    = err != json.end() && err->is_object() ? stringAt(*err, "message") : QString();
            if (streamError.message.isEmpty())
                streamError.message = QString::fromUtf8(event.data.left(300));
            if (!errorType.isEmpty())
                streamError.message = QStringLiteral("%1 (%2)").arg(streamError.message, errorType);
            // Overload and internal errors are transient; everything else is the request's fault.
            streamError.retryable = errorType == QLatin1String("overloaded_error")
                                    || errorType == QLatin1String("api_error");
            error = streamError;
        }
        // ping, content_block_stop and unknown events need nothing.
    }

    // A non-streamed Messages response ({"type": "message", "content": [...]}) as the events
    // a stream carries: message_start, a content_block_start per block (handle() takes the
    // text or the tool input given there whole), message_delta, message_stop. An error
    // document is its own event.
    std::vector<Mcp::SseEvent> eventsForWholeResponse(const Json &response) const override
    {
        auto event = [](const Json &data) {
            Mcp::SseEvent e;
            e.data = QByteArray::fromStdString(
                    data.dump(-1, ' ', false, Json::error_handler_t::replace));
            return e;
        };
        const QString type = stringAt(response, "type");
        if (type == QLatin1String("error"))
            return {event(response)};
        const auto content = response.find("content");
        if (content == response.end() || !content->is_array())
            return {};
        const Json usage = response.value("usage", Json::object());
        std::vector<Mcp::SseEvent> events;
        events.push_back(event({{"type", "message_start"}, {"message", {{"usage", usage}}}}));
        for (size_t i = 0; i < content->size(); ++i) {
            events.push_back(event({{"type", "content_block_start"},
                                    {"index", i},
                                    {"content_block", (*content)[i]}}));
        }
        events.push_back(event({{"type", "message_delta"},
                                {"delta", {{"stop_reason", response.value("stop_reason", Json())}}},
                                {"usage", usage}}));
        events.push_back(event({{"type", "message_stop"}}));
        return events;
    }

    void finish() override
    {
        // In the order the calls began: the positions their deltas gave.
        for (const qint64 index : m_order) {
            ToolCallRequest &call = m_calls[index];
            if (call.argumentsText.isEmpty())
                call.argumentsText = m_initialInput.value(index);
            if (call.argumentsText.trimmed().isEmpty()) {
                call.arguments = Json::object(); // a tool without parameters
            } else {
                const std::string utf8 = call.argumentsText.toStdString();
                Json json = Mcp::parseJson(utf8);
                call.arguments = json.is_object() ? std::move(json) : Json();
            }
            if (call.id.isEmpty())
                call.id = QStringLiteral("toolu_%1").arg(index);
            result.toolCalls.push_back(std::move(call));
        }
        m_calls.clear();
        m_order.clear();
    }

private:
    int positionOf(qint64 index) const
    {
        return int(std::find(m_order.begin(), m_order.end(), index) - m_order.begin());
    }

    static qint64 indexOf(const Json &json)
    {
        const auto it = json.find("index");
        return it != json.end() && it->is_number_integer() ? it->get<qint64>() : 0;
    }

    void appendText(const QString &text)
    {
        if (text.isEmpty())
            return;
        result.text += text;
        textDeltas.append(text);
    }

    std::map<qint64, ToolCallRequest> m_calls;
    std::vector<qint64> m_order; // the tool_use blocks' indices, in the order they began
    QHash<qint64, QString> m_initialInput;
};

// Messages must alternate user/assistant; consecutive same-role messages (several tool
// results, a tool result followed by the user's next words) are merged into one.
void appendMessage(Json &messages, const char *role, Json content)
{
    if (content.empty())
        return; // the API rejects empty content
    if (!messages.empty() && messages.back()["role"] == role) {
        for (Json &block : content)
            messages.back()["content"].push_back(std::move(block));
        return;
    }
    messages.push_back({{"role", role}, {"content", std::move(content)}});
}

Json textBlock(const QString &text)
{
    return {{"type", "text"}, {"text", text.toStdString()}};
}

Json imageBlock(const Attachment &attachment)
{
    return {{"type", "image"},
            {"source",
             {{"type", "base64"},
              {"media_type", attachment.mimeType.toStdString()},
              {"data", attachment.data.toBase64().toStdString()}}}};
}

} // namespace

AnthropicProvider::AnthropicProvider(ProviderConfig config, QObject *parent)
    : StreamingLlmProvider((config.kind = ProviderConfig::Anthropic, std::move(config)), parent)
{
}

QString AnthropicProvider::describe() const
{
    return tr("Anthropic %1 at %2").arg(config().effectiveModel(), config().effectiveBaseUrl());
}

QString AnthropicProvider::providerName() const
{
    return tr("Anthropic API");
}

const QLoggingCategory &AnthropicProvider::logCategory() const
{
    return lcAnthropic();
}

QUrl AnthropicProvider::endpoint() const
{
    return QUrl(config().effectiveBaseUrl() + QStringLiteral("/v1/messages"));
}

QUrl AnthropicProvider::modelsEndpoint() const
{
    return QUrl(config().effectiveBaseUrl() + QStringLiteral("/v1/models?limit=1000"));
}

void AnthropicProvider::addHeaders(QNetworkRequest &request) const
{
    if (!config().apiKey.isEmpty())
        request.setRawHeader("x-api-key", config().apiKey.toUtf8());
    request.setRawHeader("anthropic-version", ApiVersion);
}

std::unique_ptr<StreamingLlmProvider::StreamDecoder> AnthropicProvider::createDecoder() const
{
    return std::make_unique<AnthropicDecoder>();
}

Json AnthropicProvider::requestBody(const CompletionRequest &request) const
{
    QStringList system;
    if (!request.system.isEmpty())
        system << request.system;
    Json messages = Json::array();
    for (const ChatMessage &message : withUniqueToolCallIds(request.messages)) {
        switch (message.role) {
        case ChatMessage::Role::System:
            // The Messages API has no system role: fold into the top-level system prompt.
            if (!message.text.isEmpty())
                system << message.text;
            break;
        case ChatMessage::Role::User: {
            Json content = message.text.isEmpty() ? Json::array()
                                                  : Json::array({textBlock(message.text)});
            for (const Attachment &attachment : message.attachments) {
                if (attachment.isImage()) {
                    content.push_back(imageBlock(attachment));
                } else {
                    content.push_back(textBlock(attachment.modelText()));
                }
            }
            appendMessage(messages, "user", std::move(content));
            break;
        }
        case ChatMessage::Role::Assistant: {
            Json content = Json::array();
            if (!message.text.isEmpty())
                content.push_back(textBlock(message.text));
            for (const ToolCallRequest &call : message.toolCalls) {
                // Invalid streamed arguments are sent back as {}: the API requires an object,
                // and the tool result already tells the model what was wrong.
                content.push_back(
                        {{"type", "tool_use"},
                         {"id", call.id.toStdString()},
                         {"name", call.name.toStdString()},
                         {"input", call.arguments.is_object() ? call.arguments : Json::object()}});
            }
            appendMessage(messages, "assistant", std::move(content));
            break;
        }
        case ChatMessage::Role::Tool: {
            // Images go inside the result as image blocks, after its text (which names them);
            // audio, which the Messages API does not take, stays that line of text.
            Json content = Json(message.text.toStdString());
            if (std::any_of(message.attachments.begin(), message.attachments.end(),
                            [](const Attachment &attachment) { return attachment.isImage(); })) {
                content = Json::array({textBlock(message.text)});
                for (const Attachment &attachment : message.attachments) {
                    if (attachment.isImage())
                        content.push_back(imageBlock(attachment));
                }
            }
            Json result = {{"type", "tool_result"},
                           {"tool_use_id", message.toolCallId.toStdString()},
                           {"content", std::move(content)}};
            if (message.isError)
                result["is_error"] = true;
            appendMessage(messages, "user", Json::array({std::move(result)}));
            break;
        }
        }
    }

    Json body = {{"model", config().effectiveModel().toStdString()},
                 {"max_tokens", request.maxTokens > 0 ? request.maxTokens : 4096},
                 {"stream", true},
                 {"messages", std::move(messages)}};
    if (!system.isEmpty())
        body["system"] = system.join(QStringLiteral("\n\n")).toStdString();
    if (!request.tools.empty()) {
        Json tools = Json::array();
        for (const ToolSpec &tool : request.tools) {
            tools.push_back({{"name", tool.name.toStdString()},
                             {"description", tool.description.toStdString()},
                             {"input_schema",
                              tool.inputSchema.is_object()
                                      ? tool.inputSchema
                                      : Json{{"type", "object"}, {"properties", Json::object()}}}});
        }
        body["tools"] = std::move(tools);
    }
    return body;
}

} // namespace Engine
