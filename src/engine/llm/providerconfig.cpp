#include "providerconfig.h"

#include "anthropicprovider.h"
#include "openaiprovider.h"

#include <mcp/config/redaction.h>

#include <QCoreApplication>

namespace Engine {

namespace {
QString trimmedSlash(QString url)
{
    while (url.endsWith(QLatin1Char('/')))
        url.chop(1);
    return url;
}

} // namespace

// ---- ProviderConfig -------------------------------------------------------------------------

QString ProviderConfig::effectiveBaseUrl() const
{
    if (!baseUrl.trimmed().isEmpty())
        return trimmedSlash(baseUrl.trimmed());
    return QString::fromLatin1(kind == OpenAi ? DefaultOpenAiBaseUrl : DefaultAnthropicBaseUrl);
}

QString ProviderConfig::effectiveModel() const
{
    if (!model.trimmed().isEmpty())
        return model.trimmed();
    return QString::fromLatin1(kind == OpenAi ? DefaultOpenAiModel : DefaultAnthropicModel);
}

QString ProviderConfig::kindName() const
{
    return kind == OpenAi ? QStringLiteral("openai") : QStringLiteral("anthropic");
}

std::optional<ProviderConfig> ProviderConfig::fromEnvironment(const QProcessEnvironment &env,
                                                              QString *whyNot)
{
    const auto value = [&env](const char *name) {
        return env.value(QString::fromLatin1(name)).trimmed();
    };
    const QString openAiKey = value("OPENAI_API_KEY");
    const QString openAiUrl = value("OPENAI_BASE_URL");
    const QString anthropicKey = value("ANTHROPIC_API_KEY");
    const QString anthropicUrl = value("ANTHROPIC_BASE_URL");

    ProviderConfig config;
    if (!openAiKey.isEmpty() || !openAiUrl.isEmpty()) {
        config.kind = OpenAi;
        config.apiKey = openAiKey;
        config.keyFrom = KeyFrom::Environment;
        config.baseUrl = openAiUrl;
        config.model = value("OPENAI_MODEL");
    } else if (!anthropicKey.isEmpty() || !anthropicUrl.isEmpty()) {
        config.kind = Anthropic;
        config.apiKey = anthropicKey;
        config.keyFrom = KeyFrom::Environment;
        config.baseUrl = anthropicUrl;
        config.model = value("ANTHROPIC_MODEL");
    } else {
        if (whyNot) {
            *whyNot = QCoreApplication::translate(
                    "Engine::ProviderConfig",
                    "no model provider is configured: set OPENAI_API_KEY (and optionally "
                    "OPENAI_MODEL, or OPENAI_BASE_URL for an OpenAI-compatible server such as "
                    "Ollama, vLLM or llama.cpp), or ANTHROPIC_API_KEY (and optionally "
                    "ANTHROPIC_MODEL), or choose a provider in Settings");
        }
        return std::nullopt;
    }
    config.baseUrl = config.effectiveBaseUrl();
    config.model = config.effectiveModel();
    return config;
}

std::unique_ptr<LlmProvider> createProvider(const ProviderConfig &config, QObject *parent)
{
    if (config.kind == ProviderConfig::Anthropic)
        return std::make_unique<AnthropicProvider>(config, parent);
    return std::make_unique<OpenAiProvider>(config, parent);
}

QStringList providerKeyVariables()
{
    return {QStringLiteral("OPENAI_API_KEY"), QStringLiteral("ANTHROPIC_API_KEY")};
}

QStringList knownSecrets(const Mcp::McpConfig &servers, const QProcessEnvironment &environment,
                         const QStringList &storedKeys)
{
    QStringList secrets = storedKeys;
    for (const QString &name : providerKeyVariables())
        secrets << environment.value(name);
    for (const Mcp::ServerConfig &server : servers.servers)
        secrets << Mcp::Redactor::secretValues(server);
    secrets.removeAll(QString());
    secrets.removeDuplicates();
    return secrets;
}

} // namespace Engine
