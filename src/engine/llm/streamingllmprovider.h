#pragma once

#include "providerconfig.h"

#include <QNetworkAccessManager>
#include <QUrl>

#include <map>
#include <memory>

class QLoggingCategory;
class QNetworkRequest;
class QNetworkReply;

namespace Mcp {
struct SseEvent;
}

namespace Engine {

// The HTTP half shared by the streaming providers: POSTs the body, feeds the SSE reply to a
// per-attempt decoder, enforces the silence timeout, retries what is worth retrying
// (429/5xx, honouring retry-after; a stream broken before any text reached the caller) and
// guarantees exactly one of onDone/onError unless cancelled. Subclasses only know their wire
// format. Each provider owns one QNetworkAccessManager; calls are independent.
class StreamingLlmProvider : public LlmProvider
{
    Q_OBJECT // its own translation context
            public
        : explicit StreamingLlmProvider(ProviderConfig config, QObject *parent = nullptr);
    ~StreamingLlmProvider() override; // drops pending calls without callbacks, as cancel does

    const ProviderConfig &config() const { return m_config; }
    // Cancelling (or destroying the provider) means no callback for that call.
    std::function<void()> complete(const CompletionRequest &request, Callbacks callbacks) override;
    // The JSON body POSTed for a request (public for tests and the protocol log).
    virtual Json requestBody(const CompletionRequest &request) const = 0;
    // Calls in flight.
    int pendingCalls() const { return int(m_calls.size()); }
    QString model() const override { return m_config.effectiveModel(); }
    std::function<void()> listModels(std::function<void(ModelList)> done) override;
    // A model list response, read leniently: {"data": [...]} (OpenAI, Anthropic, most
    // compatible servers) or a bare array; the context window from whichever field names it.
    static ModelList parseModelList(const Json &body);

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
        // A server that ignored "stream": true and answered one JSON document: the events a
        // stream would have carried for it (end marker included), so the same decoding
        // applies. Empty when the document is not a response this decoder knows.
        virtual std::vector<Mcp::SseEvent> eventsForWholeResponse(const Json &response) const = 0;

        QStringList textDeltas;                    // drained by the base after each handle()
        std::vector<ToolCallDelta> toolCallDeltas; // the same; a name alone counts
        CompletionResult result;
        bool complete = false;                // an explicit end marker arrived
        std::optional<CompletionError> error; // the stream carried an error
    };

protected:
    virtual std::unique_ptr<StreamDecoder> createDecoder() const = 0;
    virtual QUrl endpoint() const = 0;
    virtual QUrl modelsEndpoint() const = 0;
    virtual void addHeaders(QNetworkRequest &request) const = 0;
    // For messages: "OpenAI-compatible server", "Anthropic API" (translated).
    virtual QString providerName() const = 0;
    // The environment variable a user sets the key in, for the 401 hint.
    virtual QString apiKeyVariable() const = 0;
    // What to say when the server refuses the key with HTTP `status` and `message`: which
    // profile's key, and where it came from.
    QString refusedKey(int status, const QString &message) const;
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
    void finishWholeResponse(quint64 id);
    void retryOrFail(quint64 id, CompletionError error, int delayMs = -1);
    void succeed(quint64 id);
    void fail(quint64 id, CompletionError error);
    void cancel(quint64 id);
    QString serverMessage(const QByteArray &body) const;
    int retryAfterMs(const QNetworkReply *reply) const;

    ProviderConfig m_config;
    QNetworkAccessManager m_network;
    std::map<quint64, std::unique_ptr<Call>> m_calls;
    QList<QNetworkReply *> m_modelReplies; // model lists being read
    quint64 m_nextId = 1;
};

} // namespace Engine
