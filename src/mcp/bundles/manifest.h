#pragma once

#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>

// MCP Bundles (.mcpb, formerly Desktop Extensions): a zip with a manifest.json that says what
// the server is, how it starts (mcp_config, with ${__dirname}, ${user_config.KEY}, …) and what
// it asks the person (user_config). The manifest comes from whoever made the file: every
// field is checked against the manifest schema (versions 0.2 to 0.4) and bounded before
// anything uses it.
namespace Mcp::Bundles {

using Json = nlohmann::json;

// Bounds: the schema's own where it has them, ours far above any real bundle's.
inline constexpr int MaxNameLength = 64; // the extension's folder under extensions/
inline constexpr int MaxStringLength = 4096;
inline constexpr int MaxListLength = 256; // tools, prompts, args, keywords, …
inline constexpr int MaxUserConfig = 64;
inline constexpr int MaxDepth = 16;

// What a user_config entry asks for.
struct UserConfigOption
{
    enum class Type { String, Number, Boolean, Directory, File };
    QString key;
    Type type = Type::String;
    QString title;
    QString description;
    bool required = false;
    bool multiple = false;  // several values (one per line in a form)
    bool sensitive = false; // a secret: goes to the keychain
    QStringList defaults;   // the default as text (several when multiple)
    std::optional<double> min;
    std::optional<double> max;
};

// How the server starts: mcp_config, or a platform's override of it.
struct Command
{
    QString command;
    QStringList args;
    QList<QPair<QString, QString>> env;
};

struct Manifest
{
    QString manifestVersion; // "0.2", "0.3", "0.4"
    QString name;            // a folder name: letters, digits, '.', '_', '-'
    QString displayName;
    QString version;
    QString description;
    QString authorName;
    QString authorEmail;
    QString authorUrl;
    QString homepage;
    QString repositoryUrl;
    QString license;
    QString icon;       // a path inside the bundle
    QString serverType; // "node", "python", "binary", "uv"
    QString entryPoint; // a path inside the bundle
    Command mcpConfig;
    QMap<QString, Command> platformOverrides; // by platform: only what they set
    QList<QPair<QString, QString>> tools;     // name, description
    QList<QPair<QString, QString>> prompts;
    QStringList platforms; // empty: every platform
    QString nodeVersion;   // compatibility.runtimes: a semver range, as written
    QString pythonVersion;
    QList<UserConfigOption> userConfig;

    QString title() const { return displayName.isEmpty() ? name : displayName; }
};

struct ManifestResult
{
    std::optional<Manifest> manifest;
    QString problem; // why not, and where ("user_config.api_key.type: …")
};
ManifestResult readManifest(const Json &document);

// "linux", "darwin" or "win32": this machine in the manifest's words.
QString currentPlatform();
// Why the bundle cannot run here (a platform it leaves out), else empty.
QString compatibilityProblem(const Manifest &manifest, const QString &platform = currentPlatform());

// A relative path inside a bundle that stays inside it: not empty, no absolute path or drive,
// no backslash, no ".." and no control character. Empty when it is one, else why not.
QString pathProblem(const QString &path);

// `text` with the fixed places put in: ${HOME}, ${DOCUMENTS}, ${DESKTOP}, ${DOWNLOADS}, ${/},
// ${pathSeparator}, and ${__dirname} when `dirname` is given.
QString expandPlaces(QString text, const QString &dirname = {});

// The server's command for `platform` with the placeholders put in: ${__dirname} (the folder
// the bundle was extracted to), ${HOME}, ${DOCUMENTS}, ${DESKTOP}, ${DOWNLOADS}, ${/} and
// ${pathSeparator}, and ${user_config.KEY} from `answers` (a value the person left empty takes
// the option's default; several values of a `multiple` option, one per line, become as many
// arguments where the placeholder is a whole argument). `referenceFor(key)`, when set, gives
// the text to write in place of a sensitive option's value (a ${secret:…} reference) instead.
// Nullopt with `problem` when a required answer is missing or a value is not of its type.
std::optional<Command>
resolveCommand(const Manifest &manifest, const QString &dirname,
               const QMap<QString, QString> &answers,
               const std::function<QString(const QString &key)> &referenceFor, QString *problem,
               const QString &platform = currentPlatform());

} // namespace Mcp::Bundles
