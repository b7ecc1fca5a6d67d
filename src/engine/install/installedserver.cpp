#include "installedserver.h"

#include "bundleinstaller.h"

#include <engine/secrets/serversecrets.h>

#include <mcp/config/configpatcher.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QTimer>

#include <memory>

namespace Engine {

using OrderedJson = nlohmann::ordered_json;

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Engine::InstalledServer)
};

QString stringOf(const OrderedJson &object, const char *key)
{
    if (!object.is_object() || !object.contains(key) || !object[key].is_string())
        return {};
    return QString::fromStdString(object[key].get<std::string>());
}

// `definition`, the entry `name` in `file`, with what its install recorded, its folder and
// the secrets only it reads.
InstalledServer described(const QString &name, const QString &file, const OrderedJson &definition,
                          const Mcp::McpConfig &config, const QString &extensionsDir)
{
    InstalledServer server;
    server.name = name;
    server.file = file;
    server.definition = definition;
    if (server.definition.contains("installedFrom")
        && server.definition["installedFrom"].is_object()) {
        const OrderedJson &from = server.definition["installedFrom"];
        server.bundle = stringOf(from, "bundle");
        server.registryName = stringOf(from, "name");
        server.registry = stringOf(from, "registry");
        server.package = stringOf(from, "package");
        server.version = stringOf(from, "version");
        if (from.contains("userConfig") && from["userConfig"].is_object()) {
            for (const auto &[option, value] : from["userConfig"].items()) {
                if (value.is_string())
                    server.userConfig.insert(QString::fromStdString(option),
                                             QString::fromStdString(value.get<std::string>()));
            }
        }
    }
    const QString folder = BundleInstaller::folderOf(server.bundle, extensionsDir);
    if (!folder.isEmpty() && QFileInfo(folder).isDir())
        server.extensionFolder = folder;
    // The secrets an install made for it, unless another server reads them too.
    for (const Mcp::ServerConfig &defined : config.servers) {
        if (defined.name != name)
            continue;
        for (const Mcp::SecretReference &reference : defined.secretReferences) {
            if (reference.name.startsWith(name + QLatin1Char('.'))
                && !server.secrets.contains(reference.name))
                server.secrets << reference.name;
        }
    }
    for (const Mcp::ServerConfig &other : config.servers) {
        if (other.name == name)
            continue;
        for (const Mcp::SecretReference &reference : other.secretReferences)
            server.secrets.removeAll(reference.name);
    }
    return server;
}

} // namespace

std::optional<InstalledServer> InstalledServer::findWhere(const QStringList &files,
                                                          const Which &which,
                                                          const Mcp::McpConfig &config,
                                                          const QString &extensionsDir)
{
    for (const QString &file : files) {
        if (file.isEmpty())
            continue;
        const Mcp::ConfigLoader::FileContents contents = Mcp::ConfigLoader::readFile(file);
        const OrderedJson root = OrderedJson::parse(contents.bytes.toStdString(), nullptr, false);
        if (!root.is_object() || !root.contains("mcpServers") || !root["mcpServers"].is_object())
            continue;
        for (const auto &[key, definition] : root["mcpServers"].items()) {
            const QString name = QString::fromStdString(key);
            if (definition.is_object() && which(name, definition))
                return described(name, file, definition, config, extensionsDir);
        }
    }
    return std::nullopt;
}

std::optional<InstalledServer> InstalledServer::find(const QString &name, const QStringList &files,
                                                     const Mcp::McpConfig &config,
                                                     const QString &extensionsDir, QString *error)
{
    std::optional<InstalledServer> found = findWhere(
            files, [&name](const QString &key, const OrderedJson &) { return key == name; }, config,
            extensionsDir);
    if (!found && error) {
        QStringList shown;
        for (const QString &file : files)
            if (!file.isEmpty())
                shown << QDir::toNativeSeparators(file);
        *error = Tr::tr("no server named '%1' in %2").arg(name, shown.join(Tr::tr(" or ")));
    }
    return found;
}

void uninstall(const InstalledServer &server, bool deleteSecrets, ServerSecrets *secrets,
               QObject *context, std::function<void(const UninstallOutcome &)> done)
{
    auto outcome = std::make_shared<UninstallOutcome>();
    auto finish = [outcome, context = QPointer<QObject>(context), done] {
        if (context)
            done(*outcome);
    };
    QString error;
    if (!Mcp::ConfigPatcher::removeServer(server.file, server.name, &error)) {
        outcome->error = error;
        QTimer::singleShot(0, context, finish);
        return;
    }
    outcome->ok = true;
    outcome->done
            << Tr::tr("removed %1 from %2").arg(server.name, QDir::toNativeSeparators(server.file));
    if (!server.extensionFolder.isEmpty()) {
        if (QDir(server.extensionFolder).removeRecursively())
            outcome->done
                    << Tr::tr("removed %1").arg(QDir::toNativeSeparators(server.extensionFolder));
        else
            outcome->problems << Tr::tr("%1 could not be removed")
                                         .arg(QDir::toNativeSeparators(server.extensionFolder));
    }
    if (!deleteSecrets || server.secrets.isEmpty() || !secrets) {
        QTimer::singleShot(0, context, finish);
        return;
    }
    auto left = std::make_shared<qsizetype>(server.secrets.size());
    for (const QString &secret : server.secrets) {
        secrets->remove(
                secret, context,
                [outcome, left, secret, finish](const ServerSecrets::Outcome &removed) {
                    if (removed.ok)
                        outcome->done << Tr::tr("secret %1 deleted from the keychain").arg(secret);
                    else
                        outcome->problems << Tr::tr("the secret %1 could not be deleted: %2")
                                                     .arg(secret, removed.error);
                    if (--*left == 0)
                        finish();
                });
    }
}

} // namespace Engine
