#pragma once

#include <nlohmann/json.hpp>

#include <QDateTime>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

// The vocabulary shared by the agent loop and the model providers: messages, tool calls,
// tool specifications, one streamed completion.
namespace Engine {

using Json = nlohmann::json;

struct ToolCallRequest
{
    QString id;            // the provider's call id (OpenAI "call_…", Anthropic "toolu_…")
    QString name;          // the registry name
    Json arguments;        // an object; null if argumentsText was not valid JSON
    QString argumentsText; // as streamed, for error reporting
};

// A file or an image the user attached to a message. A text file reaches the model as text
// after the message (named, so it can be told apart from what the user wrote); an image as
// data, for models that see images.
struct Attachment
{
    QString name;     // shown on its chip and to the model: a workspace path, or "pasted.png"
    QString mimeType; // "image/png", "image/jpeg", ... for images; "text/plain" for files
    QByteArray data;  // the file's bytes (UTF-8 text), or the encoded image

    bool isImage() const { return mimeType.startsWith(QLatin1String("image/")); }
    bool isAudio() const { return mimeType.startsWith(QLatin1String("audio/")); }
    // What the model reads for a text file: its name, then its content between markers; for
    // audio, which only some models hear, a line that names it.
    QString modelText() const;
    // Image types every provider we speak accepts.
    static bool isModelImageType(const QString &mimeType);

    static constexpr qint64 MaxTextBytes = 256 * 1024;
    static constexpr qint64 MaxImageBytes = 5 * 1024 * 1024; // what the providers accept
    static constexpr int MaxPerMessage = 10;
    static constexpr int MaxPerToolResult = 4;
};

struct ChatMessage
{
    enum class Role { System, User, Assistant, Tool };
    Role role = Role::User;
    QString text;
    std::vector<ToolCallRequest> toolCalls; // Assistant
    QString toolCallId;                     // Tool: which call this answers
    QString toolName;                       // Tool
    bool isError = false;                   // Tool
    bool denied = false;                    // Tool: the call was refused and never ran
    // Assistant: why the answer ended before the model finished it ("Stopped.", or the
    // error), with `text` what had streamed by then; empty for a whole answer.
    QString interruption;
    // Tool: the whole result as the chat showed it ({"content": [MCP blocks], "isError",
    // "structuredContent"}), when the conversation keeps it (AgentOptions::keepResultBytes);
    // null when `text` holds all of it or it was not kept, and then `resultNote` says why.
    Json result;
    QString resultNote;
    // Tool: the file the call changed and how (Engine::FileChange::toJson()), for the card;
    // null when none. Never sent to the model.
    Json change;
    // User: files and images sent with the text. Tool: the images (and audio) of the result,
    // for models that see them; `text` names them too, for models that do not.
    std::vector<Attachment> attachments;
    // When it was said, where known (the store fills it in from its file); not part of
    // toJson(): the store keeps it on the line around the message.
    QDateTime time;

    Json toJson() const;
    static std::optional<ChatMessage> fromJson(const Json &json);
};

struct ToolSpec
{
    QString name;
    QString description;
    Json inputSchema;
};

struct Usage
{
    qint64 inputTokens = -1;
    qint64 outputTokens = -1;
};

struct CompletionResult
{
    QString text;
    std::vector<ToolCallRequest> toolCalls;
    QString stopReason;
    Usage usage;
};

// A piece of a tool call while the model still writes it. `position` is the call's place among
// the answer's calls (0, 1, …, in the order the calls began; the order CompletionResult gives
// them in), `name` its name once known, `argumentsDelta` the text of its arguments that came
// with this piece (the arguments so far are every delta joined: JSON cut anywhere).
struct ToolCallDelta
{
    int position = 0;
    QString name;
    QString argumentsDelta;
};

struct CompletionError
{
    QString message;    // says what failed and where: "OpenAI-compatible server at …: 401 …"
    int httpStatus = 0; // 0: not an HTTP status error
    bool retryable = false;
};

// One entry of a provider's model list (GET /models).
struct ModelInfo
{
    QString id;
    QString name;             // a display name when the provider gives one, else empty
    qint64 contextTokens = 0; // the context window when the provider says (0: it does not)
};

// `messages` with every tool call's id unique in the conversation, and each tool message
// answering its own call's: a model may give two calls of one turn the same id (local
// OpenAI-compatible servers do), and a server that checks (OpenAI does) refuses a history that
// repeats one. What the providers send; the conversation keeps the model's own ids.
std::vector<ChatMessage> withUniqueToolCallIds(std::vector<ChatMessage> messages);

struct ModelList
{
    std::vector<ModelInfo> models; // sorted by id
    QString error;                 // what failed and where, when the list could not be read
};

struct CompletionRequest
{
    QString system;
    std::vector<ChatMessage> messages;
    std::vector<ToolSpec> tools;
    int maxTokens = 4096;
};

// One streamed model completion at a time per call. Implementations: OpenAiProvider
// (Chat Completions, OpenAI-compatible servers) and AnthropicProvider (Messages API).
class LlmProvider : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    struct Callbacks
    {
        std::function<void(const QString &delta)> onText;           // streamed text
        std::function<void(const ToolCallDelta &delta)> onToolCall; // a call as it streams
        std::function<void(CompletionResult)> onDone;               // exactly one of onDone/onError
        std::function<void(CompletionError)> onError;
    };

    // Starts a streamed completion; returns a handle that cancels it (no callback after
    // cancel). Retries retryable failures (429 with retry-after, 5xx, a broken stream before
    // any output) a bounded number of times before onError.
    virtual std::function<void()> complete(const CompletionRequest &request, Callbacks callbacks)
            = 0;
    virtual QString describe() const = 0; // "OpenAI-compatible gpt-4o at https://…"
    // The model this provider asks for ("gpt-4o").
    virtual QString model() const = 0;
    // Reads the provider's model list; `done` runs exactly once unless the returned handle
    // cancels it first (or the provider is destroyed).
    virtual std::function<void()> listModels(std::function<void(ModelList)> done) = 0;
};

} // namespace Engine
