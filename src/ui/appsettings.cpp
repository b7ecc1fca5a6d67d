#include "appsettings.h"

#include <engine/storage/privatefiles.h>

#include <mcp/registry/registryclient.h>

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>

#include <algorithm>

namespace Gui {

namespace {
const QString ProviderKey = QStringLiteral("model/provider");
const QString BaseUrlKey = QStringLiteral("model/baseUrl");
const QString ModelKey = QStringLiteral("model/model");
const QString ActiveProfileKey = QStringLiteral("model/profile");
const QString ProfilesKey = QStringLiteral("profiles");
const QString RequestTimeoutKey = QStringLiteral("model/requestTimeout");
const QString ToolTimeoutKey = QStringLiteral("tools/timeout");
const QString LanguageKey = QStringLiteral("interface/language");
const QString BashSandboxKey = QStringLiteral("bash/sandbox");
const QString SensitiveFilesKey = QStringLiteral("tools/sensitiveFiles");
const QString MaxConcurrentStartsKey = QStringLiteral("servers/maxConcurrentStarts");
const QString MaxInboundTasksKey = QStringLiteral("a2a/maxInboundTasks");
const QString ObservationCharsKey = QStringLiteral("tools/observationChars");
const QString KeepResultKey = QStringLiteral("conversations/keepResultMiB");
const QString KeepConversationKey = QStringLiteral("conversations/keepConversationMiB");
const QString ContextTokensKey = QStringLiteral("model/contextTokens");
const QString ToolSearchKey = QStringLiteral("tools/searchThreshold");
const QString PinnedToolsKey = QStringLiteral("tools/pinned");
const QString SeesImagesKey = QStringLiteral("model/seesImages");
// A JSON object {"model": [input, output], ...}: model ids hold '/' (OpenRouter), which
// QSettings would read as groups.
const QString PricesKey = QStringLiteral("model/prices");
constexpr double MaxPricePerMillion = 1e6;

int readBounded(const QSettings &settings, const QString &key, int fallback, int min, int max)
{
    bool ok = false;
    const int value = settings.value(key).toInt(&ok);
    return ok ? std::clamp(value, min, max) : fallback;
}

} // namespace

QString AppSettings::defaultFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)
           + QStringLiteral("/settings.ini");
}

std::optional<double> AppSettings::cost(const QString &model, qint64 inputTokens,
                                        qint64 outputTokens) const
{
    const auto it = prices.constFind(model);
    if (it == prices.cend())
        return std::nullopt;
    return (double(std::max<qint64>(0, inputTokens)) * it->inputPerMillion
            + double(std::max<qint64>(0, outputTokens)) * it->outputPerMillion)
           / 1e6;
}

QString AppSettings::formatCost(double dollars)
{
    return QStringLiteral("$") + QLocale().toString(dollars, 'f', dollars < 0.1 ? 4 : 2);
}

AppSettings AppSettings::load(const QString &file)
{
    // A file written by an older version may be readable by others: not any more.
    Engine::PrivateFiles::restrict(file);
    QSettings settings(file, QSettings::IniFormat);
    AppSettings result;
    const auto knownProvider = [](const QString &provider) {
        return provider == QLatin1String(OpenAiProvider)
                               || provider == QLatin1String(AnthropicProvider)
                       ? provider
                       : QString::fromLatin1(EnvironmentProvider);
    };
    // Each profile as written; one with an id seen before, or none, is left out.
    QList<ModelProfile> profiles;
    const int count = std::min(settings.beginReadArray(ProfilesKey), MaxProfiles);
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        ModelProfile profile;
        profile.id = settings.value(QStringLiteral("id")).toString().trimmed();
        profile.name = settings.value(QStringLiteral("name"))
                               .toString()
                               .simplified()
                               .left(MaxProfileNameLength);
        profile.provider = knownProvider(settings.value(QStringLiteral("provider")).toString());
        profile.baseUrl = settings.value(QStringLiteral("baseUrl")).toString().trimmed();
        profile.model = settings.value(QStringLiteral("model")).toString().trimmed();
        const bool taken = std::any_of(profiles.cbegin(), profiles.cend(),
                                       [&](const ModelProfile &p) { return p.id == profile.id; });
        if (!profile.id.isEmpty() && !taken)
            profiles << profile;
    }
    settings.endArray();
    if (profiles.isEmpty()) {
        // A file from before profiles: its one provider, under the provider's name, whose
        // keychain entry ("api-key/openai") it keeps.
        ModelProfile profile;
        profile.provider = knownProvider(settings.value(ProviderKey).toString());
        profile.id = profile.provider;
        profile.baseUrl = settings.value(BaseUrlKey).toString().trimmed();
        profile.model = settings.value(ModelKey).toString().trimmed();
        profiles << profile;
    }
    result.profiles = profiles;
    result.activeProfile = settings.value(ActiveProfileKey, profiles.first().id).toString();
    result.activeProfile = result.active().id; // one that is there
    result.requestTimeoutS = readBounded(settings, RequestTimeoutKey, DefaultRequestTimeoutS,
                                         MinRequestTimeoutS, MaxRequestTimeoutS);
    result.toolTimeoutS = readBounded(settings, ToolTimeoutKey, DefaultToolTimeoutS,
                                      MinToolTimeoutS, MaxToolTimeoutS);
    result.maxConcurrentStarts
            = readBounded(settings, MaxConcurrentStartsKey, Mcp::DefaultMaxConcurrentStarts, 1,
                          MaxConcurrentStarts);
    result.maxInboundTasks
            = readBounded(settings, MaxInboundTasksKey, DefaultInboundTasks, 1, MaxInboundTasks);
    result.observationChars
            = readBounded(settings, ObservationCharsKey, Engine::ToolOutput::DefaultModelTextChars,
                          MinObservationChars, MaxObservationChars);
    result.keepResultMiB = readBounded(settings, KeepResultKey, AppSettings().keepResultMiB, 0,
                                       MaxKeepResultMiB);
    result.keepConversationMiB
            = readBounded(settings, KeepConversationKey, AppSettings().keepConversationMiB, 0,
                          MaxKeepConversationMiB);
    result.contextTokens = readBounded(settings, ContextTokensKey,
                                       int(Engine::AgentOptions::DefaultContextTokens),
                                       MinContextTokens, MaxContextTokens);
    result.toolSearchThreshold
            = readBounded(settings, ToolSearchKey, Engine::AgentOptions::DefaultToolSearchThreshold,
                          0, MaxToolSearchThreshold);
    result.modelSeesImages = settings.value(SeesImagesKey, true).toBool();
    for (const QString &name :
         settings.value(PinnedToolsKey).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!result.pinnedTools.contains(name))
            result.pinnedTools << name;
    }
    const QString language = settings.value(LanguageKey).toString();
    if (language == QLatin1String(EnglishLanguage) || language == QLatin1String(ChineseLanguage))
        result.language = language;
    result.bashSandbox = Mcp::Sandbox::modeFromName(settings.value(BashSandboxKey).toString())
                                 .value_or(Mcp::Sandbox::Mode::Auto);
    const QJsonObject prices
            = QJsonDocument::fromJson(settings.value(PricesKey).toString().toUtf8()).object();
    for (auto it = prices.begin(); it != prices.end(); ++it) {
        const QJsonArray pair = it.value().toArray();
        const double input = pair.at(0).toDouble(-1);
        const double output = pair.at(1).toDouble(-1);
        if (!it.key().trimmed().isEmpty() && pair.size() == 2 && input >= 0 && output >= 0
            && input <= MaxPricePerMillion && output <= MaxPricePerMillion)
            result.prices.insert(it.key().trimmed(), {input, output});
    }
    result.registryUrl = settings.value(QLatin1String(Mcp::Registry::RegistryClient::SettingsKey))
                                 .toString()
                                 .trimmed();
    // Absent: the defaults. Present, even empty: what the user chose.
    if (settings.contains(SensitiveFilesKey)) {
        QStringList patterns;
        for (const QString &pattern : settings.value(SensitiveFilesKey).toStringList()) {
            if (!pattern.trimmed().isEmpty())
                patterns << pattern.trimmed();
        }
        // The list an earlier version saved as its defaults takes today's longer defaults.
        static const QStringList earlierDefaults
                = {QStringLiteral(".env*"), QStringLiteral(".ssh/"),  QStringLiteral(".gnupg/"),
                   QStringLiteral(".aws/"), QStringLiteral(".netrc"), QStringLiteral("*.pem"),
                   QStringLiteral("*.key"), QStringLiteral("id_*")};
        if (patterns != earlierDefaults)
            result.sensitiveFiles = patterns;
    }
    return result;
}

bool AppSettings::save(const QString &file, QString *error) const
{
    // The folder first: QSettings creates a new file with the umask's mode, and a 0700 folder
    // keeps others out until restrict() below.
    if (!Engine::PrivateFiles::ensureDir(QFileInfo(file).absolutePath(), error))
        return false;
    QSettings settings(file, QSettings::IniFormat);
    // The active profile also where an older version reads its one provider.
    const ModelProfile &current = active();
    settings.setValue(ProviderKey, current.provider);
    settings.setValue(BaseUrlKey, current.baseUrl.trimmed());
    settings.setValue(ModelKey, current.model.trimmed());
    settings.setValue(ActiveProfileKey, current.id);
    settings.remove(ProfilesKey);
    settings.beginWriteArray(ProfilesKey, int(profiles.size()));
    for (int i = 0; i < profiles.size(); ++i) {
        const ModelProfile &profile = profiles.at(i);
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("id"), profile.id);
        settings.setValue(QStringLiteral("name"), profile.name.simplified());
        settings.setValue(QStringLiteral("provider"), profile.provider);
        settings.setValue(QStringLiteral("baseUrl"), profile.baseUrl.trimmed());
        settings.setValue(QStringLiteral("model"), profile.model.trimmed());
    }
    settings.endArray();
    settings.setValue(RequestTimeoutKey, requestTimeoutS);
    settings.setValue(ToolTimeoutKey, toolTimeoutS);
    settings.setValue(MaxConcurrentStartsKey, maxConcurrentStarts);
    settings.setValue(MaxInboundTasksKey, maxInboundTasks);
    settings.setValue(ObservationCharsKey, observationChars);
    settings.setValue(KeepResultKey, keepResultMiB);
    settings.setValue(KeepConversationKey, keepConversationMiB);
    settings.setValue(ContextTokensKey, contextTokens);
    settings.setValue(ToolSearchKey, toolSearchThreshold);
    settings.setValue(PinnedToolsKey, pinnedTools.join(QLatin1Char(' ')));
    settings.setValue(SeesImagesKey, modelSeesImages);
    settings.setValue(LanguageKey, language);
    settings.setValue(BashSandboxKey, Mcp::Sandbox::modeName(bashSandbox));
    // The defaults are not written down, so that later defaults reach this user too.
    if (sensitiveFiles == Engine::Workspace::defaultSensitivePatterns())
        settings.remove(SensitiveFilesKey);
    else
        settings.setValue(SensitiveFilesKey, sensitiveFiles);
    if (registryUrl.trimmed().isEmpty())
        settings.remove(QLatin1String(Mcp::Registry::RegistryClient::SettingsKey));
    else
        settings.setValue(QLatin1String(Mcp::Registry::RegistryClient::SettingsKey),
                          registryUrl.trimmed());
    QJsonObject priceTable;
    for (auto it = prices.cbegin(); it != prices.cend(); ++it)
        priceTable.insert(it.key(), QJsonArray{it->inputPerMillion, it->outputPerMillion});
    settings.setValue(PricesKey,
                      QString::fromUtf8(QJsonDocument(priceTable).toJson(QJsonDocument::Compact)));
    settings.sync();
    if (settings.status() == QSettings::NoError)
        return Engine::PrivateFiles::restrict(file, error);
    if (error)
        *error = QCoreApplication::translate("Gui::AppSettings",
                                             "could not write the settings file %1")
                         .arg(file);
    return false;
}

bool AppSettings::ModelProfile::usesEnvironment() const
{
    return provider != QLatin1String(OpenAiProvider)
           && provider != QLatin1String(AnthropicProvider);
}

Engine::ProviderConfig::Kind AppSettings::ModelProfile::kind() const
{
    return provider == QLatin1String(AnthropicProvider) ? Engine::ProviderConfig::Anthropic
                                                        : Engine::ProviderConfig::OpenAi;
}

QString AppSettings::ModelProfile::providerName(const QString &provider)
{
    if (provider == QLatin1String(OpenAiProvider))
        return QCoreApplication::translate("Gui::AppSettings", "OpenAI-compatible");
    if (provider == QLatin1String(AnthropicProvider))
        return QCoreApplication::translate("Gui::AppSettings", "Anthropic");
    return QCoreApplication::translate("Gui::AppSettings", "Environment variables");
}

QString AppSettings::ModelProfile::shownName() const
{
    return name.trimmed().isEmpty() ? providerName(provider) : name.trimmed();
}

const AppSettings::ModelProfile &AppSettings::active() const
{
    for (const ModelProfile &profile : profiles) {
        if (profile.id == activeProfile)
            return profile;
    }
    static const ModelProfile environment = environmentProfile();
    return profiles.isEmpty() ? environment : profiles.first();
}

AppSettings::ModelProfile &AppSettings::active()
{
    if (profiles.isEmpty())
        profiles << environmentProfile();
    for (ModelProfile &profile : profiles) {
        if (profile.id == activeProfile)
            return profile;
    }
    return profiles.first();
}

AppSettings::ModelProfile AppSettings::environmentProfile()
{
    ModelProfile profile;
    profile.id = QString::fromLatin1(EnvironmentProvider);
    return profile;
}

QString AppSettings::newProfileId(const QList<ModelProfile> &profiles)
{
    for (int n = int(profiles.size()) + 1;; ++n) {
        const QString id = QStringLiteral("profile-%1").arg(n);
        if (std::none_of(profiles.cbegin(), profiles.cend(),
                         [&id](const ModelProfile &p) { return p.id == id; }))
            return id;
    }
}

QString AppSettings::keychainKey(const QString &profileId)
{
    return QStringLiteral("api-key/") + profileId;
}

QString AppSettings::environmentKeyName(const QString &provider)
{
    return provider == QLatin1String(AnthropicProvider) ? QStringLiteral("ANTHROPIC_API_KEY")
                                                        : QStringLiteral("OPENAI_API_KEY");
}

QString AppSettings::checkBaseUrl(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return {};
    const QUrl url(trimmed, QUrl::StrictMode);
    if (!url.isValid())
        return QCoreApplication::translate("Gui::AppSettings", "not a valid URL: %1")
                .arg(url.errorString());
    const QString scheme = url.scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return QCoreApplication::translate("Gui::AppSettings",
                                           "the URL must start with http:// or https://");
    if (url.host().isEmpty())
        return QCoreApplication::translate("Gui::AppSettings", "the URL has no host name");
    return {};
}

Engine::AgentOptions AppSettings::agentOptions() const
{
    Engine::AgentOptions options;
    options.maxToolOutputChars = observationChars;
    options.contextTokens = contextTokens;
    options.toolSearchThreshold = toolSearchThreshold;
    options.modelSeesMedia = modelSeesImages;
    options.keepResultBytes = qint64(keepResultMiB) * 1024 * 1024;
    options.keepConversationResultBytes = qint64(keepConversationMiB) * 1024 * 1024;
    options.pinnedTools = QSet<QString>(pinnedTools.begin(), pinnedTools.end());
    return options;
}

std::optional<Engine::ProviderConfig>
AppSettings::providerConfig(const QString &storedKey, const QProcessEnvironment &environment,
                            QString *whyNot) const
{
    return providerConfig(active(), storedKey, environment, whyNot);
}

std::optional<Engine::ProviderConfig>
AppSettings::providerConfig(const ModelProfile &profile, const QString &storedKey,
                            const QProcessEnvironment &environment, QString *whyNot) const
{
    const QString &provider = profile.provider;
    const QString &baseUrl = profile.baseUrl;
    const QString &model = profile.model;
    // Named when there is a choice, or the person named it.
    const QString name = profiles.size() > 1 || !profile.name.trimmed().isEmpty()
                                 ? profile.shownName()
                                 : QString();
    if (profile.usesEnvironment()) {
        auto config = Engine::ProviderConfig::fromEnvironment(environment, whyNot);
        if (config) {
            config->requestTimeoutMs = requestTimeoutS * 1000;
            config->profile = name;
            if (!model.trimmed().isEmpty()) // picked in the composer: wins over *_MODEL
                config->model = model.trimmed();
        }
        return config;
    }
    const QString urlProblem = checkBaseUrl(baseUrl);
    if (!urlProblem.isEmpty()) {
        if (whyNot)
            *whyNot = QCoreApplication::translate("Gui::AppSettings",
                                                  "the base URL in Settings (%1) is not usable: %2")
                              .arg(baseUrl.trimmed(), urlProblem);
        return std::nullopt;
    }
    Engine::ProviderConfig config;
    config.kind = profile.kind();
    config.baseUrl = baseUrl;
    config.model = model;
    config.baseUrl = config.effectiveBaseUrl();
    config.model = config.effectiveModel();
    config.profile = name;
    config.apiKey = storedKey.trimmed();
    config.keyFrom = Engine::ProviderConfig::KeyFrom::Settings;
    if (config.apiKey.isEmpty()) {
        config.apiKey = environment.value(environmentKeyName(provider)).trimmed();
        config.keyFrom = Engine::ProviderConfig::KeyFrom::Environment;
    }
    config.requestTimeoutMs = requestTimeoutS * 1000;
    if (config.apiKey.isEmpty() && baseUrl.trimmed().isEmpty()) {
        if (whyNot) {
            *whyNot = QCoreApplication::translate(
                              "Gui::AppSettings",
                              "no API key for %1: enter one in Settings or set %2 (a server of "
                              "your "
                              "own, such as Ollama or llama.cpp, needs only a base URL)")
                              .arg(config.effectiveBaseUrl(), environmentKeyName(provider));
            if (!name.isEmpty())
                *whyNot = QCoreApplication::translate("Gui::AppSettings", "profile \"%1\": %2")
                                  .arg(name, *whyNot);
        }
        return std::nullopt;
    }
    return config;
}

namespace {

const QString NotOfferedServersKey = QStringLiteral("offering/notOfferedServers");
const QString NotOfferedToolsKey = QStringLiteral("offering/notOfferedTools");
const QString InstructionsOffKey = QStringLiteral("instructions/off");
const QString GeometryKey = QStringLiteral("window/geometry");
const QString WindowStateKey = QStringLiteral("window/state");
const QString ListShownKey = QStringLiteral("window/conversationsShown");
const QString ListWidthKey = QStringLiteral("window/conversationsWidth");

QSet<QString> readSet(const QSettings &settings, const QString &key)
{
    const QStringList list = settings.value(key).toStringList();
    return QSet<QString>(list.cbegin(), list.cend());
}

QStringList sorted(const QSet<QString> &set)
{
    QStringList list(set.cbegin(), set.cend());
    list.sort();
    return list;
}

} // namespace

AppSettings::Offering AppSettings::loadOffering(const QString &file)
{
    const QSettings settings(file, QSettings::IniFormat);
    return {readSet(settings, NotOfferedServersKey), readSet(settings, NotOfferedToolsKey)};
}

bool AppSettings::saveOffering(const QString &file, const Offering &offering)
{
    QSettings settings(file, QSettings::IniFormat);
    settings.setValue(NotOfferedServersKey, sorted(offering.notOfferedServers));
    settings.setValue(NotOfferedToolsKey, sorted(offering.notOfferedTools));
    settings.sync();
    return settings.status() == QSettings::NoError;
}

QSet<QString> AppSettings::loadInstructionsOff(const QString &file)
{
    return readSet(QSettings(file, QSettings::IniFormat), InstructionsOffKey);
}

bool AppSettings::saveInstructionsOff(const QString &file, const QSet<QString> &servers)
{
    QSettings settings(file, QSettings::IniFormat);
    settings.setValue(InstructionsOffKey, sorted(servers));
    settings.sync();
    return settings.status() == QSettings::NoError;
}

AppSettings::WindowState AppSettings::loadWindowState(const QString &file)
{
    const QSettings settings(file, QSettings::IniFormat);
    WindowState window{settings.value(GeometryKey).toByteArray(),
                       settings.value(WindowStateKey).toByteArray()};
    window.listShown = settings.value(ListShownKey, true).toBool();
    window.listWidth = std::clamp(settings.value(ListWidthKey, 0).toInt(), 0, 4000);
    return window;
}

void AppSettings::saveWindowState(const QString &file, const WindowState &window)
{
    Engine::PrivateFiles::ensureDir(QFileInfo(file).absolutePath());
    {
        QSettings settings(file, QSettings::IniFormat);
        settings.setValue(GeometryKey, window.geometry);
        settings.setValue(WindowStateKey, window.state);
        settings.setValue(ListShownKey, window.listShown);
        settings.setValue(ListWidthKey, window.listWidth);
    }
    Engine::PrivateFiles::restrict(file); // it may have just been created
}

} // namespace Gui
