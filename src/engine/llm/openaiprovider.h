#pragma once

#include "streamingllmprovider.h"

namespace Engine {

// Streams Chat Completions from an OpenAI-compatible server (OpenAI, DeepSeek, Ollama, vLLM,
// llama.cpp server): POST <baseUrl>/chat/completions with stream: true. Text arrives as
// delta.content; tool calls as delta.tool_calls fragments assembled by index. Lenient with
// servers that omit call ids, send arguments whole, or add reasoning_content. Owned by the
// agent (or whoever called createProvider()).
class OpenAiProvider : public StreamingLlmProvider
{
    Q_OBJECT
public:
    explicit OpenAiProvider(ProviderConfig config, QObject *parent = nullptr);

    QString describe() const override;
    Json requestBody(const CompletionRequest &request) const override;

protected:
    std::unique_ptr<StreamDecoder> createDecoder() const override;
    QUrl endpoint() const override;
    QUrl modelsEndpoint() const override;
    void addHeaders(QNetworkRequest &request) const override;
    QString providerName() const override;
    QString apiKeyVariable() const override { return QStringLiteral("OPENAI_API_KEY"); }
    const QLoggingCategory &logCategory() const override;
};

} // namespace Engine
