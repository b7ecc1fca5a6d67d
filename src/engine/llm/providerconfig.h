#pragma once

#include "llm.h"

#include <mcp/config/config.h>

#include <QProcessEnvironment>
#include <QString>

#include <memory>
#include <optional>

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
    // Where apiKey came from, said when the server refuses it.
    enum class KeyFrom { Unknown, Settings, Environment };
    KeyFrom keyFrom = KeyFrom::Unknown;
    // The name of the Settings profile this is ("Work", "Local"), said when the server refuses
    // the key; empty: none.
    QString profile;
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

/// The environment variables the provider settings read keys from (OPENAI_API_KEY,
/// ANTHROPIC_API_KEY): never readable from a workspace's files (Mcp::ConfigLoader::load()).
QStringList providerKeyVariables();

// Every value the app knows to be secret, for ToolRunner::setSecrets() and
// AuditLog::setSecrets(): the provider keys in `environment` (OPENAI_API_KEY,
// ANTHROPIC_API_KEY), `storedKeys` (the key the Settings dialog keeps in the keychain) and the
// configured secrets of every server (Mcp::Redactor::secretValues()).
QStringList knownSecrets(const Mcp::McpConfig &servers, const QProcessEnvironment &environment,
                         const QStringList &storedKeys = {});

// Builds the provider for config.kind.
std::unique_ptr<LlmProvider> createProvider(const ProviderConfig &config,
                                            QObject *parent = nullptr);

} // namespace Engine
