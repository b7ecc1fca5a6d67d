#pragma once

#include "streamingllmprovider.h"

namespace Engine {

// Streams Anthropic Messages API completions: POST <baseUrl>/v1/messages with stream: true.
// Text arrives as text_delta, tool calls as tool_use blocks whose input streams as
// input_json_delta fragments; tool results go back as user tool_result blocks. Owned by the
// agent (or whoever called createProvider()).
class AnthropicProvider : public StreamingLlmProvider
{
    Q_OBJECT
public:
    // The API version this wire format follows (sent as anthropic-version).
    static constexpr const char *ApiVersion = "2023-06-01";

    explicit AnthropicProvider(ProviderConfig config, QObject *parent = nullptr);

    QString describe() const override;
    Json requestBody(const CompletionRequest &request) const override;

protected:
    std::unique_ptr<StreamDecoder> createDecoder() const override;
    QUrl endpoint() const override;
    QUrl modelsEndpoint() const override;
    void addHeaders(QNetworkRequest &request) const override;
    QString providerName() const override;
    QString apiKeyVariable() const override { return QStringLiteral("ANTHROPIC_API_KEY"); }
    const QLoggingCategory &logCategory() const override;
};

} // namespace Engine
