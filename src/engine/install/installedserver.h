#pragma once

#include <mcp/config/config.h>

#include <QObject>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

namespace Engine {

class ServerSecrets;

// A server as a configuration file holds it, with what an install recorded ("installedFrom")
// and what uninstalling it removes: the entry, a bundle's folder, and the keychain secrets
// named after it ("<name>.…") that no other server reads.
struct InstalledServer
{
    QString name;
    QString file;                      // the configuration file that defines it
    nlohmann::ordered_json definition; // as written there
    QString bundle;                    // installedFrom.bundle: the extension's name, or empty
    QString registryName;              // installedFrom.name: the registry entry, or empty
    QString registry;                  // installedFrom.registry: its base URL, or empty
    QString package;                   // installedFrom.package: "npm @scope/name", or empty
    QString version;                   // installedFrom.version, or empty
    QString extensionFolder;           // the bundle's folder when it exists, else empty
    QStringList secrets;               // keychain secrets only this server reads
    // A bundle's answers to its user_config as written (sensitive ones as their reference).
    QMap<QString, QString> userConfig;

    bool fromBundle() const { return !bundle.isEmpty(); }
    bool fromRegistry() const { return !registryName.isEmpty(); }

    // The first of `files` (the person's mcp.json, the workspace's) that defines `name`, read
    // as written, with `config` (the loaded configuration) telling which secrets others read.
    // Nullopt with `error` naming the files when none defines it.
    static std::optional<InstalledServer> find(const QString &name, const QStringList &files,
                                               const Mcp::McpConfig &config,
                                               const QString &extensionsDir = {},
                                               QString *error = nullptr);

    // The first entry of `files` that `which` (its name, its definition) picks.
    using Which = std::function<bool(const QString &, const nlohmann::ordered_json &)>;
    static std::optional<InstalledServer> findWhere(const QStringList &files, const Which &which,
                                                    const Mcp::McpConfig &config,
                                                    const QString &extensionsDir = {});
};

struct UninstallOutcome
{
    bool ok = false;      // the entry is gone from its file
    QString error;        // !ok: why nothing was removed
    QStringList done;     // what was removed, a sentence each
    QStringList problems; // what could not be (a folder, a secret): the entry is gone anyway
};

// Removes `server`'s entry from its file, then its extension folder, then (when
// `deleteSecrets`) its secrets from the keychain. `done` once, from the event loop, unless
// `context` is gone.
void uninstall(const InstalledServer &server, bool deleteSecrets, ServerSecrets *secrets,
               QObject *context, std::function<void(const UninstallOutcome &)> done);

} // namespace Engine
