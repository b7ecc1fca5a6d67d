#pragma once

#include <engine/agent/agent.h>
#include <engine/llm/providerconfig.h>
#include <engine/tools/tool.h>
#include <engine/tools/workspace.h>
#include <mcp/manager.h>
#include <mcp/process/sandbox.h>

#include <QMap>
#include <QProcessEnvironment>
#include <QSet>
#include <QString>

#include <optional>

namespace Gui {

// The desktop's persistent settings: a value type read from and written to an INI file with
// QSettings (the Settings dialog edits a copy; the main window applies it). The API key is
// never part of it: it lives in the OS keychain (Engine::SecretStore), or for this session only.
struct AppSettings
{
    // Stored values of "provider".
    static constexpr const char *EnvironmentProvider = "environment"; // OPENAI_* / ANTHROPIC_*
    static constexpr const char *OpenAiProvider = "openai";
    static constexpr const char *AnthropicProvider = "anthropic";
    // Stored values of "language".
    static constexpr const char *SystemLanguage = "system";
    static constexpr const char *EnglishLanguage = "en";
    static constexpr const char *ChineseLanguage = "zh_CN";

    // Engine::ProviderConfig's requestTimeoutMs and Engine::ToolRunner's default, in seconds.
    static constexpr int DefaultRequestTimeoutS = 120;
    static constexpr int DefaultToolTimeoutS = 60;
    // A model silent for less than 5 s is not unusual (a cold local model); over an hour is
    // a hang.
    static constexpr int MinRequestTimeoutS = 5;
    static constexpr int MaxRequestTimeoutS = 3600;
    // Mcp::ConfigLoader::kMaxTimeoutSeconds: the longest per-server timeout .mcp.json accepts.
    static constexpr int MinToolTimeoutS = 1;
    static constexpr int MaxToolTimeoutS = 24 * 60 * 60;
    // How much of a tool result the model is shown (Engine::AgentOptions::maxToolOutputChars).
    static constexpr int MinObservationChars = 1000;
    static constexpr int MaxObservationChars = 1000000;
    // The model's context window in tokens (Engine::AgentOptions::contextTokens).
    static constexpr int MinContextTokens = 4096;
    static constexpr int MaxContextTokens = 10000000;
    // Whole tool results kept with a conversation, in MiB (Engine::AgentOptions::keepResultBytes,
    // keepConversationResultBytes): 0 keeps none; the most a blob may be read back.
    static constexpr int MaxKeepResultMiB = 64;
    static constexpr int MaxKeepConversationMiB = 4096;
    // Servers starting at once (Mcp::ManagerOptions::maxConcurrentStarts).
    static constexpr int MaxConcurrentStarts = 64;
    // Inbound A2A tasks running at once when this workspace is served (the rest get 429).
    static constexpr int DefaultInboundTasks = 4;
    static constexpr int MaxInboundTasks = 64;

    // A named way to reach a model ("Work": Anthropic; "Local": Ollama on this machine), each
    // with its own API key in the keychain. The composer's picker switches between them.
    struct ModelProfile
    {
        // Stable and never shown: the keychain entry api-key/<id>. The profile made from an
        // older version's settings keeps its provider's name, and so its stored key.
        QString id;
        QString name; // empty: named after its provider (shownName())
        QString provider = QString::fromLatin1(EnvironmentProvider);
        QString baseUrl; // empty: the provider's default
        QString model;   // empty: the provider's default (environment: *_MODEL)

        bool usesEnvironment() const;
        // The provider kind, for "openai" and "anthropic" only.
        Engine::ProviderConfig::Kind kind() const;
        // The name, or "Environment variables", "OpenAI-compatible", "Anthropic" (translated).
        QString shownName() const;
        // The provider as the picker and Settings say it.
        static QString providerName(const QString &provider);
        bool operator==(const ModelProfile &) const = default;
    };
    static constexpr int MaxProfiles = 50;
    static constexpr int MaxProfileNameLength = 80;
    // "profiles/…": never empty (a file without any gives one that reads the environment).
    QList<ModelProfile> profiles{environmentProfile()};
    // "model/profile": the id of the profile the chat uses.
    QString activeProfile = QString::fromLatin1(EnvironmentProvider);
    // The profile the chat uses: the one named by activeProfile, else the first.
    const ModelProfile &active() const;
    ModelProfile &active();
    // The profile of a new settings file: the environment variables, with the id "environment".
    static ModelProfile environmentProfile();
    // An id no profile in `profiles` has.
    static QString newProfileId(const QList<ModelProfile> &profiles);
    int requestTimeoutS = DefaultRequestTimeoutS;
    int toolTimeoutS = DefaultToolTimeoutS;
    // "servers/maxConcurrentStarts": at most this many servers start at once; the rest wait.
    int maxConcurrentStarts = Mcp::DefaultMaxConcurrentStarts;
    // "a2a/maxInboundTasks": at most this many inbound A2A tasks at once; others are refused.
    int maxInboundTasks = DefaultInboundTasks;
    // "tools/observationChars": at most this many characters of a tool result go to the model
    // (the rest is cut with a note; the window keeps the whole).
    int observationChars = Engine::ToolOutput::DefaultModelTextChars;
    // "conversations/keepResultMiB", "conversations/keepConversationMiB": how much of each
    // tool's whole result, and of all of a conversation's, is kept with it (a reopened card
    // shows it as the live one did).
    int keepResultMiB = int(Engine::AgentOptions::DefaultKeepResultBytes / (1024 * 1024));
    int keepConversationMiB
            = int(Engine::AgentOptions::DefaultKeepConversationResultBytes / (1024 * 1024));
    // "model/contextTokens": each request is fitted into this many tokens.
    int contextTokens = int(Engine::AgentOptions::DefaultContextTokens);
    // "tools/searchThreshold": above this many tools the model finds them with search_tools
    // (0: every definition in every request); "tools/pinned": registry names always offered.
    int toolSearchThreshold = Engine::AgentOptions::DefaultToolSearchThreshold;
    QStringList pinnedTools;
    // "model/seesImages": tool results' images go to the model (off for a text-only model).
    bool modelSeesImages = true;
    static constexpr int MaxToolSearchThreshold = 100000;
    QString language = QString::fromLatin1(SystemLanguage);
    // "bash/sandbox": the built-in bash under bubblewrap: on, off, or auto (where bwrap works).
    Mcp::Sandbox::Mode bashSandbox = Mcp::Sandbox::Mode::Auto;
    // Wildcards for files the read tools ask about before touching them (a secret's usual
    // homes); see Engine::Workspace::setSensitivePatterns.
    QStringList sensitiveFiles = Engine::Workspace::defaultSensitivePatterns();
    // "registryUrl": the MCP Registry "Add server…" searches (a company's own); empty: the
    // official one (Mcp::Registry::RegistryClient::DefaultBaseUrl). The CLI reads it too.
    QString registryUrl;
    // "model/prices": what a model's tokens cost, in US dollars per million, as the user typed
    // them (prices change; none are built in). A model without a row shows tokens only.
    struct Price
    {
        double inputPerMillion = 0;
        double outputPerMillion = 0;
        bool operator==(const Price &) const = default;
    };
    QMap<QString, Price> prices;
    // The cost of `inputTokens` and `outputTokens` of `model`, when its price is known.
    std::optional<double> cost(const QString &model, qint64 inputTokens, qint64 outputTokens) const;
    // "$0.0042", "$1.25".
    static QString formatCost(double dollars);

    bool operator==(const AppSettings &) const = default;

    // <config dir>/switchboard/settings.ini (QStandardPaths::AppConfigLocation).
    static QString defaultFile();
    // Reads `file`; a missing file gives the defaults, unknown or out-of-range values (a
    // hand-edited file) fall back to their defaults or the nearest limit.
    static AppSettings load(const QString &file);
    // Writes every value to `file`; false and *error (naming the file) if it failed.
    bool save(const QString &file, QString *error = nullptr) const;

    bool usesEnvironment() const { return active().usesEnvironment(); }
    // The keychain entry holding the API key of the profile `id`: "api-key/openai".
    static QString keychainKey(const QString &profileId);
    // OPENAI_API_KEY / ANTHROPIC_API_KEY.
    static QString environmentKeyName(const QString &provider);
    // Empty if `url` is empty (the default) or an http(s) URL with a host; else what is wrong.
    static QString checkBaseUrl(const QString &url);

    // The model server the active profile describes. "environment": ProviderConfig::
    // fromEnvironment(), as before there were settings. Otherwise the profile's base URL and
    // model (or the kind's defaults) and `storedKey` (from the keychain), or, if that is empty,
    // the kind's key variable in `environment`; no key at all is fine for a server at a base
    // URL of its own (Ollama, llama.cpp), but not for the kind's default service. The
    // configuration names the profile and where its key came from (for a refusal). Returns
    // nullopt and *whyNot when no usable configuration results.
    std::optional<Engine::ProviderConfig> providerConfig(const QString &storedKey,
                                                         const QProcessEnvironment &environment,
                                                         QString *whyNot = nullptr) const;
    // The same for `profile`.
    std::optional<Engine::ProviderConfig> providerConfig(const ModelProfile &profile,
                                                         const QString &storedKey,
                                                         const QProcessEnvironment &environment,
                                                         QString *whyNot = nullptr) const;
    // How the window's agent works with the model, per these settings: how much of a tool
    // result it shows, the context window, tool search, images, what results it keeps.
    Engine::AgentOptions agentOptions() const;

    // What the window keeps in the same file besides the Settings dialog's values, each
    // written the moment it changes: which servers and tools the model is not offered, whose
    // instructions are off, and the window's geometry and dock layout (Qt's own blobs).
    // Saving returns false when the file could not be written.
    struct Offering
    {
        QSet<QString> notOfferedServers;
        QSet<QString> notOfferedTools;
    };
    static Offering loadOffering(const QString &file);
    static bool saveOffering(const QString &file, const Offering &offering);
    static QSet<QString> loadInstructionsOff(const QString &file);
    static bool saveInstructionsOff(const QString &file, const QSet<QString> &servers);
    struct WindowState
    {
        QByteArray geometry;
        QByteArray state;
        bool listShown = true; // the conversation pane
        int listWidth = 0;     // its width; 0: not known
    };
    static WindowState loadWindowState(const QString &file);
    static void saveWindowState(const QString &file, const WindowState &window);
};

} // namespace Gui
