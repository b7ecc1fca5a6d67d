#pragma once

#include "llm.h"

#include <QNetworkAccessManager>
#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

#include <map>
#include <memory>
#include <optional>

class QLoggingCategory;
class QNetworkRequest;

namespace Mcp {
struct SseEvent;
}

namespace Engine {

// Which model server to talk to and how patiently: a value type, filled from the environment
// or the Settings dialog, handed to createProvider(). Never log apiKey.
struct ProviderConfig
{
    enum Kind { OpenAi, Anthropic };

    static constexpr const char *DefaultOpenAiBaseUrl = "https://api.openai.com/v1";
    static constexpr const char *DefaultAnthropicBaseUrl = "https://api.anthropic.com";
    static constexpr const char *DefaultOpenAiModel = "gpt-4o-mini";
    static constexpr const char *DefaultAnthropicModel = "claude-sonnet-4-5";

    Kind kind = OpenAi;
    QString baseUrl; // empty: the kind's default
    QString model;   // empty: the kind's default
    QString apiKey;  // empty: no authentication header (Ollama, llama.cpp server)
    // Longest silence while waiting for or reading a response (not the whole completion,
    // which may stream for minutes). Not retried: a silent server rarely wakes up.
    int requestTimeoutMs = 120000;
    // Retries after the first attempt, for 408/409/429/5xx and streams broken before any text.
    int maxRetries = 3;
    // Exponential backoff base: attempt n waits base * 2^(n-1) unless the server says when.
    int retryBaseDelayMs = 1000;
    // A server asking to wait longer than this (retry-after) is reported instead of awaited.
    int maxRetryDelayMs = 60000;

    QString effectiveBaseUrl() const; // without a trailing slash
    QString effectiveModel() const;
    QString kindName() const; // "openai" / "anthropic"

    bool operator==(const ProviderConfig &) const = default;

    // OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL, or ANTHROPIC_API_KEY /
    // ANTHROPIC_BASE_URL / ANTHROPIC_MODEL. OpenAI wins when both are configured; a base URL
    // alone is enough for OpenAI-compatible local servers. Returns nullopt and says how to
    // configure in *whyNot when nothing is set.
    static std::optional<ProviderConfig> fromEnvironment(const QProcessEnvironment &environment,
                                                         QString *whyNot = nullptr);
};

// Builds the provider for config.kind.
std::unique_ptr<LlmProvider> createProvider(const ProviderConfig &config,
                                            QObject *parent = nullptr);

// The HTTP half shared by the streaming providers: POSTs the body, feeds the SSE reply to a
// per-attempt decoder, enforces the silence timeout, retries what is worth retrying
// (429/5xx, honouring retry-after; a stream broken before any text reached the caller) and
// guarantees exactly one of onDone/onError unless cancelled. Subclasses only know their wire
// format. Each provider owns one QNetworkAccessManager; calls are independent.
// (Lives here rather than in a file of its own only because of file ownership in this
// change; it is an implementation base, not an API.)
class StreamingLlmProvider : public LlmProvider
{
public:
    explicit StreamingLlmProvider(ProviderConfig config, QObject *parent = nullptr);
    ~StreamingLlmProvider() override; // drops pending calls without callbacks, as cancel does

    const ProviderConfig &config() const { return m_config; }
    // Cancelling (or destroying the provider) means no callback for that call.
    std::function<void()> complete(const CompletionRequest &request, Callbacks callbacks) override;
    // The JSON body POSTed for a request (public for tests and the protocol log).
    virtual Json requestBody(const CompletionRequest &request) const = 0;
    // Calls in flight.
    int pendingCalls() const { return int(m_calls.size()); }

    // Turns one response stream's events into a result; a fresh one per attempt. It only
    // records: the base delivers text and results, so a callback that cancels the call never
    // destroys a decoder that is still running.
    class StreamDecoder
    {
    public:
        virtual ~StreamDecoder() = default;
        virtual void handle(const Mcp::SseEvent &event) = 0;
        // After a complete stream: assembles the tool calls into result.
        virtual void finish() = 0;

        QStringList textDeltas; // drained by the base after each handle()
        CompletionResult result;
        bool complete = false;                // an explicit end marker arrived
        std::optional<CompletionError> error; // the stream carried an error
    };

protected:
    virtual std::unique_ptr<StreamDecoder> createDecoder() const = 0;
    virtual QUrl endpoint() const = 0;
    virtual void addHeaders(QNetworkRequest &request) const = 0;
    // For messages: "OpenAI-compatible server", "Anthropic API" (translated).
    virtual QString providerName() const = 0;
    // The environment variable a user sets the key in, for the 401 hint.
    virtual QString apiKeyVariable() const = 0;
    virtual const QLoggingCategory &logCategory() const = 0;
    // True when a stream that ended without an end marker still counts as complete.
    virtual bool acceptsUnterminatedStream(const StreamDecoder &decoder) const;

    // Removes the API key from text that may echo it (server error messages).
    QString redacted(QString text) const;
    // "<provider> at <base URL>".
    QString where() const;

private:
    struct Call;

    Call *find(quint64 id) const;
    void startAttempt(quint64 id);
    void onReadyRead(quint64 id);
    void onFinished(quint64 id);
    void onTimeout(quint64 id);
    void processEvents(quint64 id);
    void retryOrFail(quint64 id, CompletionError error, int delayMs = -1);
    void succeed(quint64 id);
    void fail(quint64 id, CompletionError error);
    void cancel(quint64 id);
    QString serverMessage(const QByteArray &body) const;
    int retryAfterMs(const QNetworkReply *reply) const;

    ProviderConfig m_config;
    QNetworkAccessManager m_network;
    std::map<quint64, std::unique_ptr<Call>> m_calls;
    quint64 m_nextId = 1;
};

} // namespace Engine
