#pragma once

#include <engine/llm/llm.h>
#include <engine/llm/providerconfig.h>

#include <mcp/client/client.h>

#include <QHash>
#include <QObject>

#include <deque>
#include <functional>
#include <optional>

// A server asking the user's model for a completion (sampling/createMessage): read and bounded,
// shown to the user (the face decides: a dialog, a terminal, --approve), and only then sent to
// the configured model; its answer goes back as the MCP result. Denied, unconfigured or over
// the per-server rate: the server gets an error and the model is never asked.
namespace Engine::Sampling {

struct Request
{
    QString system;
    std::vector<ChatMessage> messages; // text; other blocks as a placeholder naming them
    int maxTokens = 0;
    // 2025-11-25: tools the model may ask for (it only asks: the server runs them and sends
    // the results in its next request); none when the toolChoice mode is "none".
    std::vector<ToolSpec> tools;
    Json shown; // what the person approving reads: system prompt, messages, max tokens
    // Set by whoever approved it to see the model's answer before it goes back (exactly one
    // answer): the text to return (as it was, or edited), or nullopt to refuse it after all.
    using Review = std::function<void(const QString &answer,
                                      std::function<void(std::optional<QString>)> decide)>;
    Review review;
    std::function<void(const QString &why)> failed; // the model did not answer
};

inline constexpr int MaxTokens = 16384;
inline constexpr int MaxMessages = 200;
inline constexpr int MaxTools = 128;
// All the request's text together (system prompt, messages, tool results), in characters:
// more is refused, so neither the model nor the approval dialog is handed megabytes.
inline constexpr int MaxTextChars = 200000;

// nullopt and why in *error when `params` is not a request this client can answer.
std::optional<Request> read(const Json &params, QString *error);

// The MCP CreateMessageResult for a completion.
Json result(const CompletionResult &completion, const QString &model);

class Sampler : public QObject
{
    Q_OBJECT
public:
    // `approve` asks whoever decides (exactly one answer): the request to send (as it was, or
    // as the person edited it), or nullopt for no; `model` is the configured model now.
    using Approve = std::function<void(const QString &server, const Request &request,
                                       std::function<void(std::optional<Request>)> decide)>;
    Sampler(std::function<std::optional<ProviderConfig>()> model, Approve approve,
            QObject *parent = nullptr);

    // Answers one sampling/createMessage of `server` (exactly one reply).
    void answer(const QString &server, const Json &params, Mcp::Client::Reply reply);

    static constexpr int PerMinute = 10; // requests a server may make in any 60 s

private:
    bool withinRate(const QString &server);

    std::function<std::optional<ProviderConfig>()> m_model;
    Approve m_approve;
    QHash<QString, std::deque<qint64>> m_recent; // per server: when it asked (steady ms)
};

} // namespace Engine::Sampling
