#include "bundleinstaller.h"

#include <engine/secrets/serversecrets.h>

#include <mcp/config/config.h>
#include <mcp/config/configpatcher.h>

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTimer>

namespace Engine {

using Mcp::Bundles::Signature;
using OrderedJson = nlohmann::ordered_json;

namespace {

QString signatureName(Signature::Status status)
{
    switch (status) {
    case Signature::Status::Signed:
        return QStringLiteral("signed");
    case Signature::Status::SelfSigned:
        return QStringLiteral("self-signed");
    case Signature::Status::Untrusted:
        return QStringLiteral("untrusted");
    case Signature::Status::Invalid:
        return QStringLiteral("invalid");
    case Signature::Status::Unsigned:
        break;
    }
    return QStringLiteral("unsigned");
}

} // namespace

BundleInstaller::BundleInstaller(ServerSecrets *secrets, QObject *parent)
    : QObject(parent)
    , m_secrets(secrets)
{
}

QString BundleInstaller::defaultExtensionsDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QStringLiteral("/extensions");
}

QString BundleInstaller::missingRuntime(const Mcp::Bundles::Manifest &manifest)
{
    if (manifest.serverType == QLatin1String("node"))
        return ServerInstaller::missingRuntime(QStringLiteral("node")).isEmpty()
                       ? QString()
                       : tr("node is not installed: this extension needs Node.js (on Debian: "
                            "sudo apt install nodejs)");
    if (manifest.serverType == QLatin1String("python")
        && QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
        return tr("python3 is not installed: this extension needs Python (on Debian: sudo apt "
                  "install python3)");
    if (manifest.serverType == QLatin1String("uv")
        && QStandardPaths::findExecutable(QStringLiteral("uv")).isEmpty())
        return tr("uv is not installed: this extension needs it (pipx install uv)");
    return {};
}

QString BundleInstaller::folderOf(const nlohmann::json &definition, const QString &extensionsDir)
{
    if (!definition.is_object() || !definition.contains("installedFrom")
        || !definition["installedFrom"].is_object()
        || !definition["installedFrom"].contains("bundle")
        || !definition["installedFrom"]["bundle"].is_string())
        return {};
    const QString name
            = QString::fromStdString(definition["installedFrom"]["bundle"].get<std::string>());
    // Only a name a bundle may have: never a path that leads elsewhere.
    if (name.isEmpty() || name.contains(u'/') || name.contains(u'\\') || name.startsWith(u'.')
        || name.size() > Mcp::Bundles::MaxNameLength)
        return {};
    const QString root = extensionsDir.isEmpty() ? defaultExtensionsDir() : extensionsDir;
    return QDir(root).filePath(name);
}

void BundleInstaller::install(Request request, QObject *context,
                              std::function<void(const InstallOutcome &)> done)
{
    auto shared = std::make_shared<Request>(std::move(request));
    const Mcp::Bundles::Manifest &manifest = shared->bundle.manifest;
    const QString root
            = shared->extensionsDir.isEmpty() ? defaultExtensionsDir() : shared->extensionsDir;
    const QString dir = QDir(root).filePath(manifest.name);
    const QString name = ServerInstaller::suggestedName(manifest.name);
    const auto fail = [this, context, done](const QString &why) {
        QTimer::singleShot(0, this, [context = QPointer<QObject>(context), done, why] {
            InstallOutcome outcome;
            outcome.error = why;
            if (context)
                done(outcome);
        });
    };
    // Everything that can be checked before anything is written.
    QString problem;
    if (!Mcp::Bundles::resolveCommand(manifest, dir, shared->answers, {}, &problem))
        return fail(problem);
    if (QFileInfo::exists(dir))
        return fail(tr("%1 is installed already (%2): uninstall it first")
                            .arg(manifest.title(), QDir::toNativeSeparators(dir)));
    const Mcp::McpConfig existing
            = Mcp::ConfigLoader::loadFile(shared->file, QProcessEnvironment());
    QStringList names;
    for (const Mcp::ServerConfig &server : existing.servers)
        names << server.name;
    if (const QString taken = ServerInstaller::nameProblem(name, names); !taken.isEmpty())
        return fail(taken);

    QList<SecretAnswer> secrets;
    for (const Mcp::Bundles::UserConfigOption &option : manifest.userConfig) {
        const QString value = shared->answers.value(option.key).trimmed();
        if (!option.sensitive || value.isEmpty())
            continue;
        Mcp::Registry::Field field;
        field.key = QStringLiteral("user_config:") + option.key;
        field.label = option.key;
        secrets << SecretAnswer{option.key, option.title.isEmpty() ? option.key : option.title,
                                value, ServerInstaller::secretName(name, option.key),
                                ServerInstaller::variableName(name, field)};
    }
    storeSecretAnswers(
            m_secrets, this, secrets,
            [this, shared, context = QPointer<QObject>(context), done, dir, name,
             root](const StoredAnswers &stored) {
                InstallOutcome outcome;
                outcome.storedSecrets = stored.stored;
                outcome.notes = stored.notes;
                const Mcp::Bundles::Manifest &manifest = shared->bundle.manifest;
                if (const QString missing = missingRuntime(manifest); !missing.isEmpty())
                    outcome.notes << missing;
                QString problem;
                const std::optional<Mcp::Bundles::Command> command = Mcp::Bundles::resolveCommand(
                        manifest, dir, shared->answers,
                        [&stored](const QString &key) { return stored.references.value(key); },
                        &problem);
                bool extracted = false;
                if (command) {
                    OrderedJson definition = OrderedJson::object();
                    definition["command"] = command->command.toStdString();
                    OrderedJson args = OrderedJson::array();
                    for (const QString &arg : command->args)
                        args.push_back(arg.toStdString());
                    definition["args"] = std::move(args);
                    if (!command->env.isEmpty()) {
                        OrderedJson env = OrderedJson::object();
                        for (const auto &[variable, value] : command->env)
                            env[variable.toStdString()] = value.toStdString();
                        definition["env"] = std::move(env);
                    }
                    OrderedJson from = OrderedJson::object();
                    from["bundle"] = manifest.name.toStdString();
                    from["version"] = manifest.version.toStdString();
                    from["sha256"] = shared->bundle.sha256.toStdString();
                    from["signature"]
                            = signatureName(shared->bundle.signature.status).toStdString();
                    definition["installedFrom"] = std::move(from);
                    outcome.definition = definition;
                    QStringList words{command->command};
                    words << command->args;
                    outcome.display = words.join(QLatin1Char(' '));
                    extracted = QDir().mkpath(root)
                                && Mcp::Bundles::extract(shared->bundle, dir, &problem);
                    outcome.ok = extracted
                                 && Mcp::ConfigPatcher::addServer(shared->file, name, definition,
                                                                  &problem);
                }
                if (!outcome.ok) {
                    outcome.error = problem;
                    // Nothing of a failed install stays behind.
                    if (extracted)
                        QDir(dir).removeRecursively();
                    forgetSecrets(m_secrets, outcome.storedSecrets);
                    outcome.storedSecrets.clear();
                }
                if (context)
                    done(outcome);
            });
}

} // namespace Engine
