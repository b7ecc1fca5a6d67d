#include "openaiprovider.h"

#include <mcp/wire/jsonparser.h>
#include <mcp/wire/sseparser.h>

#include <QLoggingCategory>
#include <QNetworkRequest>
#include <QUrl>

#include <algorithm>
#include <map>

namespace Engine {

Q_LOGGING_CATEGORY(lcOpenAi, "switchboard.engine.openai", QtWarningMsg)

namespace {

// An attachment as a part of a user message: an image as a data URL, WAV or MP3 audio as
// input_audio (models that hear), anything else as text.
Json attachmentPart(const Attachment &attachment)
{
    if (attachment.isImage()) {
        const QByteArray url = "data:" + attachment.mimeType.toLatin1() + ";base64,"
                               + attachment.data.toBase64();
        return {{"type", "image_url"}, {"image_url", {{"url", url.toStdString()}}}};
    }
    const QString mime = attachment.mimeType;
    const char *format
            = mime == QLatin1String("audio/wav") || mime == QLatin1String("audio/x-wav")  ? "wav"
              : mime == QLatin1String("audio/mpeg") || mime == QLatin1String("audio/mp3") ? "mp3"
                                                                                          : nullptr;
    if (format) {
        return {{"type", "input_audio"},
                {"input_audio",
                 {{"data", attachment.data.toBase64().toStdString()}, {"format", format}}}};
    }
    return {{"type", "text"}, {"text", attachment.modelText().toStdString()}};
}

QString stringAt(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

qint64 integerAt(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<qint64>() : -1;
}

// Parses the streamed arguments: "" means no arguments (some servers send nothing for a
// parameterless tool); anything but a JSON object is reported to the agent as null.
Json parseArguments(const QString &text)
{
    if (text.trimmed().isEmpty())
        return Json::object();
    const std::string utf8 = text.toStdString();
    Json json = Mcp::parseJson(utf8);
    return json.is_object() ? json : Json();
}

// One Chat Completions stream. Tool calls are keyed by their "index" (several may stream
// interleaved); a server that gives no index gets one per new id, or per fragment.
class OpenAiDecoder : public StreamingLlmProvider::StreamDecoder
{
public:
    void handle(const Mcp::SseEvent &event) override
    {
        const QByteArray data = event.data.trimmed();
        if (data == "[DONE]") {
            complete = true;
            return;
        }
        const Json chunk = Mcp::parseJson(std::string_view(data.constData(), data.size()));
        if (!chunk.is_object()) {
            qCWarning(lcOpenAi) << "skipping a stream event that is not a JSON object:"
                                << data.left(200);
            return;
        }
        if (const auto err = chunk.find("error"); err != chunk.end() && !err->is_null()) {
            CompletionError streamError;
            streamError.message = err->is_string() ? QString::fromStdString(err->get<std::string>())
                                  : err->is_object() ? stringAt(*err, "message")
                                                     : QString();
            if (streamError.message.isEmpty())
                streamError.message = QString::fromStdString(err->dump());
            const QString type = err->is_object() ? stringAt(*err, "type") : QString();
            streamError.retryable = type.contains(QLatin1String("server_error"))
                                    || type.contains(QLatin1String("overloaded"));
            error = streamError;
            return;
        }
        if (const auto usage = chunk.find("usage"); usage != chunk.end() && usage->is_object()) {
            if (const qint64 in = integerAt(*usage, "prompt_tokens"); in >= 0)
                result.usage.inputTokens = in;
            if (const qint64 out = integerAt(*usage, "completion_tokens"); out >= 0)
                result.usage.outputTokens = out;
        }
        const auto choices = chunk.find("choices");
        if (choices == chunk.end() || !choices->is_array() || choices->empty())
            return;
        const Json &choice = choices->front();
        if (!choice.is_object())
            return;
        if (const QString finish = stringAt(choice, "finish_reason"); !finish.isEmpty())
            result.stopReason = finish;
        // Some servers put the whole message in "message" rather than "delta".
        auto delta = choice.find("delta");
        if (delta == choice.end() || !delta->is_object())
            delta = choice.find("message");
        if (delta == choice.end() || !delta->is_object())
            return;
        // reasoning_content (DeepSeek, some vLLM models) is deliberately not shown as text.
        if (const QString content = stringAt(*delta, "content"); !content.isEmpty()) {
            result.text += content;
            textDeltas.append(content);
        }
        if (const auto calls = delta->find("tool_calls");
            calls != delta->end() && calls->is_array()) {
            for (const Json &fragment : *calls) {
                if (fragment.is_object())
                    addToolCallFragment(fragment);
            }
        }
    }

    // A non-streamed completion is one chunk whose choice holds "message" (handle() reads
    // that like a delta) and then the end marker. Its tool calls get the index a stream gives.
    std::vector<Mcp::SseEvent> eventsForWholeResponse(const Json &response) const override
    {
        if (!response.contains("choices") && !response.contains("error"))
            return {};
        Json chunk = response;
        if (auto choices = chunk.find("choices"); choices != chunk.end() && choices->is_array()) {
            for (Json &choice : *choices) {
                if (!choice.is_object() || !choice.contains("message"))
                    continue;
                Json &message = choice["message"];
                if (!message.is_object() || !message.contains("tool_calls")
                    || !message["tool_calls"].is_array())
                    continue;
                int index = 0;
                for (Json &call : message["tool_calls"]) {
                    if (call.is_object() && !call.contains("index"))
                        call["index"] = index;
                    ++index;
                }
            }
        }
        Mcp::SseEvent event;
        event.data = QByteArray::fromStdString(
                chunk.dump(-1, ' ', false, Json::error_handler_t::replace));
        Mcp::SseEvent done;
        done.data = QByteArrayLiteral("[DONE]");
        return {std::move(event), std::move(done)};
    }

    void finish() override
    {
        // In the order the calls began: the positions their deltas gave.
        int n = 0;
        for (const qint64 index : m_order) {
            ToolCallRequest &call = m_calls[index];
            ++n;
            if (call.id.isEmpty())
                call.id = QStringLiteral("call_%1").arg(n);
            call.arguments = parseArguments(call.argumentsText);
            result.toolCalls.push_back(std::move(call));
        }
        m_calls.clear();
        m_order.clear();
    }

private:
    void addToolCallFragment(const Json &fragment)
    {
        const QString id = stringAt(fragment, "id");
        qint64 index = -1;
        if (const auto it = fragment.find("index"); it != fragment.end() && it->is_number_integer())
            index = it->get<qint64>();
        if (index < 0) {
            // No index: continue the call with this id, or the last one for an id-less
            // fragment that carries only arguments, else start a new call.
            for (const auto &[i, call] : m_calls) {
                if (!id.isEmpty() && call.id == id)
                    index = i;
            }
            if (index < 0) {
                const auto function = fragment.find("function");
                const bool named = function != fragment.end() && function->is_object()
                                   && !stringAt(*function, "name").isEmpty();
                if (id.isEmpty() && !named && !m_calls.empty())
                    index = m_calls.rbegin()->first;
                else
                    index = m_calls.empty() ? 0 : m_calls.rbegin()->first + 1;
            }
        }
        if (!m_calls.count(index))
            m_order.push_back(index);
        ToolCallRequest &call = m_calls[index];
        if (!id.isEmpty())
            call.id = id;
        const auto function = fragment.find("function");
        if (function == fragment.end() || !function->is_object())
            return;
        ToolCallDelta delta;
        delta.position = int(std::find(m_order.begin(), m_order.end(), index) - m_order.begin());
        if (const QString name = stringAt(*function, "name");
            !name.isEmpty() && call.name.isEmpty())
            call.name = name;
        if (const auto args = function->find("arguments"); args != function->end()) {
            if (args->is_string()) {
                delta.argumentsDelta = QString::fromStdString(args->get<std::string>());
                call.argumentsText += delta.argumentsDelta;
            } else if (args->is_object() && call.argumentsText.isEmpty()) {
                call.argumentsText = QString::fromStdString(args->dump()); // sent whole, as JSON
                delta.argumentsDelta = call.argumentsText;
            }
        }
        delta.name = call.name;
        if (!delta.name.isEmpty() || !delta.argumentsDelta.isEmpty())
            toolCallDeltas.push_back(std::move(delta));
    }

    std::map<qint64, ToolCallRequest> m_calls;
    std::vector<qint64> m_order; // the calls' indices, in the order they began
};

} // namespace

OpenAiProvider::OpenAiProvider(ProviderConfig config, QObject *parent)
    : StreamingLlmProvider((config.kind = ProviderConfig::OpenAi, std::move(config)), parent)
{
}

QString OpenAiProvider::describe() const
{
    return tr("OpenAI-compatible %1 at %2")
            .arg(config().effectiveModel(), config().effectiveBaseUrl());
}

QString OpenAiProvider::providerName() const
{
    return tr("OpenAI-compatible server");
}

const QLoggingCategory &OpenAiProvider::logCategory() const
{
    return lcOpenAi();
}

QUrl OpenAiProvider::endpoint() const
{
    return QUrl(config().effectiveBaseUrl() + QStringLiteral("/chat/completions"));
}

QUrl OpenAiProvider::modelsEndpoint() const
{
    return QUrl(config().effectiveBaseUrl() + QStringLiteral("/models"));
}

void OpenAiProvider::addHeaders(QNetworkRequest &request) const
{
    if (!config().apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + config().apiKey.toUtf8());
}

std::unique_ptr<StreamingLlmProvider::StreamDecoder> OpenAiProvider::createDecoder() const
{
    return std::make_unique<OpenAiDecoder>();
}

Json OpenAiProvider::requestBody(const CompletionRequest &request) const
{
    Json messages = Json::array();
    if (!request.system.isEmpty())
        messages.push_back({{"role", "system"}, {"content", request.system.toStdString()}});
    Json mediaParts = Json::array();
    const auto flushMedia = [&messages, &mediaParts] {
        if (mediaParts.empty())
            return;
        messages.push_back({{"role", "user"}, {"content", std::move(mediaParts)}});
        mediaParts = Json::array();
    };
    const std::vector<ChatMessage> sent = withUniqueToolCallIds(request.messages);
    for (auto it = sent.begin(); it != sent.end(); ++it) {
        const ChatMessage &message = *it;
        const auto next = std::next(it);
        switch (message.role) {
        case ChatMessage::Role::System:
            messages.push_back({{"role", "system"}, {"content", message.text.toStdString()}});
            break;
        case ChatMessage::Role::User: {
            if (message.attachments.empty()) {
                messages.push_back({{"role", "user"}, {"content", message.text.toStdString()}});
                break;
            }
            // With attachments, the content is a list of parts: the text, each file as text,
            // each image as a data URL.
            Json parts = Json::array();
            if (!message.text.isEmpty())
                parts.push_back({{"type", "text"}, {"text", message.text.toStdString()}});
            for (const Attachment &attachment : message.attachments)
                parts.push_back(attachmentPart(attachment));
            messages.push_back({{"role", "user"}, {"content", std::move(parts)}});
            break;
        }
        case ChatMessage::Role::Assistant: {
            Json json = {{"role", "assistant"}};
            // null content is what OpenAI itself returns for a tool-call-only turn.
            json["content"] = message.text.isEmpty() && !message.toolCalls.empty()
                                      ? Json()
                                      : Json(message.text.toStdString());
            if (!message.toolCalls.empty()) {
                Json calls = Json::array();
                for (const ToolCallRequest &call : message.toolCalls) {
                    // Invalid arguments are sent back as "{}": some servers (vLLM chat
                    // templates) reject the whole request over unparsable history, and the
                    // tool result already tells the model what was wrong.
                    const std::string arguments = call.arguments.is_object() ? call.arguments.dump()
                                                                             : std::string("{}");
                    calls.push_back(
                            {{"id", call.id.toStdString()},
                             {"type", "function"},
                             {"function",
                              {{"name", call.name.toStdString()}, {"arguments", arguments}}}});
                }
                json["tool_calls"] = std::move(calls);
            }
            messages.push_back(std::move(json));
            break;
        }
        case ChatMessage::Role::Tool: {
            // Chat Completions has no error flag for tool results: say it in the content.
            QString content = message.text;
            if (message.isError && !content.startsWith(QLatin1String("Error")))
                content.prepend(QStringLiteral("Error: "));
            messages.push_back({{"role", "tool"},
                                {"tool_call_id", message.toolCallId.toStdString()},
                                {"content", content.toStdString()}});
            // A tool message holds text only: its images (and audio) follow all the turn's
            // tool messages as one user message, each named after the call it came from.
            for (const Attachment &attachment : message.attachments) {
                mediaParts.push_back({{"type", "text"},
                                      {"text", QStringLiteral("[%1 from the %2 call %3]")
                                                       .arg(attachment.name, message.toolName,
                                                            message.toolCallId)
                                                       .toStdString()}});
                mediaParts.push_back(attachmentPart(attachment));
            }
            if (next == sent.end() || next->role != ChatMessage::Role::Tool)
                flushMedia();
            break;
        }
        }
    }

    Json body = {{"model", config().effectiveModel().toStdString()},
                 {"stream", true},
                 {"stream_options", {{"include_usage", true}}},
                 {"messages", std::move(messages)}};
    if (request.maxTokens > 0) {
        // OpenAI's own API (and Azure's) wants max_completion_tokens: its reasoning models
        // (o-series, gpt-5) reject max_tokens. Most OpenAI-compatible servers (DeepSeek,
        // Ollama, vLLM, llama.cpp) know only max_tokens.
        const QString host = QUrl(config().effectiveBaseUrl()).host().toLower();
        const bool openAiItself = host == QLatin1String("api.openai.com")
                                  || host.endsWith(QLatin1String(".openai.azure.com"));
        body[openAiItself ? "max_completion_tokens" : "max_tokens"] = request.maxTokens;
    }
    if (!request.tools.empty()) {
        Json tools = Json::array();
        for (const ToolSpec &tool : request.tools) {
            Json parameters = tool.inputSchema.is_object()
                                      ? tool.inputSchema
                                      : Json{{"type", "object"}, {"properties", Json::object()}};
            tools.push_back({{"type", "function"},
                             {"function",
                              {{"name", tool.name.toStdString()},
                               {"description", tool.description.toStdString()},
                               {"parameters", std::move(parameters)}}}});
        }
        body["tools"] = std::move(tools);
    }
    return body;
}

} // namespace Engine
