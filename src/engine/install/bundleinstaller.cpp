#include "bundleinstaller.h"

#include <engine/secrets/serversecrets.h>

#include <mcp/config/config.h>
#include <mcp/config/configpatcher.h>

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QStandardPaths>
#include <QTimer>
#include <QVersionNumber>

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

// An update's files: the new version is unpacked beside the old one (".update-NAME"), the old
// folder moved aside (".old-NAME"), the new one put in its place and the entry replaced; only
// then is the old version removed. Any failure puts the old one back.
bool swapIn(const InstalledServer &installed, const Mcp::Bundles::Bundle &bundle,
            const QString &dir, const OrderedJson &definition, QString *problem)
{
    const QFileInfo target(dir);
    const QString staging = target.dir().filePath(QStringLiteral(".update-") + target.fileName());
    const QString aside = target.dir().filePath(QStringLiteral(".old-") + target.fileName());
    QDir(staging).removeRecursively(); // what an update that was cut short left
    QDir(aside).removeRecursively();
    if (!QDir().mkpath(target.path())) {
        *problem = BundleInstaller::tr("%1 cannot be created")
                           .arg(QDir::toNativeSeparators(target.path()));
        return false;
    }
    if (!Mcp::Bundles::extract(bundle, staging, problem))
        return false;
    const bool hadFolder = QFileInfo(dir).isDir();
    if (hadFolder && !QDir().rename(dir, aside)) {
        *problem = BundleInstaller::tr("%1 could not be moved aside")
                           .arg(QDir::toNativeSeparators(dir));
        QDir(staging).removeRecursively();
        return false;
    }
    const auto putBack = [&] {
        QDir(dir).removeRecursively();
        if (hadFolder)
            QDir().rename(aside, dir);
        QDir(staging).removeRecursively();
    };
    if (!QDir().rename(staging, dir)) {
        *problem = BundleInstaller::tr("the new version could not be put in %1")
                           .arg(QDir::toNativeSeparators(dir));
        putBack();
        return false;
    }
    if (!Mcp::ConfigPatcher::replaceServer(installed.file, installed.name, definition, problem)) {
        putBack();
        return false;
    }
    QDir(aside).removeRecursively();
    return true;
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

QString BundleInstaller::folderOf(const QString &bundle, const QString &extensionsDir)
{
    // Only a name a bundle may have: never a path that leads elsewhere.
    if (bundle.isEmpty() || bundle.contains(u'/') || bundle.contains(u'\\')
        || bundle.startsWith(u'.') || bundle.size() > Mcp::Bundles::MaxNameLength)
        return {};
    const QString root = extensionsDir.isEmpty() ? defaultExtensionsDir() : extensionsDir;
    return QDir(root).filePath(bundle);
}

struct BundleInstaller::Job
{
    Request request;
    std::optional<InstalledServer> installed; // set for an update
    QString root;                             // the extensions folder
    QString dir;                              // the bundle's folder in it
    QString name;                             // the server's name
    QMap<QString, QString> answers;           // all of them (an update: the old ones, then new)
    QPointer<QObject> context;
    std::function<void(const InstallOutcome &)> done;
};

std::optional<InstalledServer> BundleInstaller::findInstalled(const QString &bundle,
                                                              const QStringList &files,
                                                              const Mcp::McpConfig &config,
                                                              const QString &extensionsDir)
{
    const std::string wanted = bundle.toStdString();
    return InstalledServer::findWhere(
            files,
            [&wanted](const QString &, const OrderedJson &definition) {
                return definition.contains("installedFrom")
                       && definition["installedFrom"].is_object()
                       && definition["installedFrom"].value("bundle", std::string()) == wanted;
            },
            config, extensionsDir);
}

QString BundleInstaller::updateProblem(const Mcp::Bundles::Manifest &manifest,
                                       const InstalledServer &installed)
{
    if (installed.bundle != manifest.name)
        return tr("%1 was not installed from the extension %2").arg(installed.name, manifest.name);
    const QVersionNumber was = QVersionNumber::fromString(installed.version);
    const QVersionNumber now = QVersionNumber::fromString(manifest.version);
    if (manifest.version == installed.version || (!was.isNull() && !now.isNull() && now <= was))
        return tr("%1 %2 is installed; this file holds version %3, which is not newer")
                .arg(manifest.title(), installed.version, manifest.version);
    return {};
}

namespace {

std::shared_ptr<BundleInstaller::Job> newJob(BundleInstaller::Request request, QObject *context,
                                             std::function<void(const InstallOutcome &)> done)
{
    auto job = std::make_shared<BundleInstaller::Job>();
    job->request = std::move(request);
    job->context = context;
    job->done = std::move(done);
    job->root = job->request.extensionsDir.isEmpty() ? BundleInstaller::defaultExtensionsDir()
                                                     : job->request.extensionsDir;
    job->dir = QDir(job->root).filePath(job->request.bundle.manifest.name);
    return job;
}

// `done` with `why`, from the event loop.
void failLater(QObject *owner, const std::shared_ptr<BundleInstaller::Job> &job, const QString &why)
{
    QTimer::singleShot(0, owner, [job, why] {
        InstallOutcome outcome;
        outcome.error = why;
        if (job->context)
            job->done(outcome);
    });
}

} // namespace

void BundleInstaller::install(Request request, QObject *context,
                              std::function<void(const InstallOutcome &)> done)
{
    const std::shared_ptr<Job> job = newJob(std::move(request), context, std::move(done));
    const Mcp::Bundles::Manifest &manifest = job->request.bundle.manifest;
    job->name = ServerInstaller::suggestedName(manifest.name);
    job->answers = job->request.answers;
    // Everything that can be checked before anything is written.
    QString problem;
    if (!Mcp::Bundles::resolveCommand(manifest, job->dir, job->answers, {}, &problem))
        return failLater(this, job, problem);
    if (QFileInfo::exists(job->dir))
        return failLater(this, job,
                         tr("%1 is installed already (%2): uninstall it first")
                                 .arg(manifest.title(), QDir::toNativeSeparators(job->dir)));
    const Mcp::McpConfig existing
            = Mcp::ConfigLoader::loadFile(job->request.file, QProcessEnvironment());
    QStringList names;
    for (const Mcp::ServerConfig &server : existing.servers)
        names << server.name;
    if (const QString taken = ServerInstaller::nameProblem(job->name, names); !taken.isEmpty())
        return failLater(this, job, taken);
    store(job);
}

void BundleInstaller::update(Request request, const InstalledServer &installed, QObject *context,
                             std::function<void(const InstallOutcome &)> done)
{
    const std::shared_ptr<Job> job = newJob(std::move(request), context, std::move(done));
    job->installed = installed;
    job->name = installed.name;
    job->answers = installed.userConfig;
    for (auto it = job->request.answers.cbegin(); it != job->request.answers.cend(); ++it) {
        if (!it.value().trimmed().isEmpty())
            job->answers.insert(it.key(), it.value());
    }
    QString problem = updateProblem(job->request.bundle.manifest, installed);
    if (problem.isEmpty())
        Mcp::Bundles::resolveCommand(job->request.bundle.manifest, job->dir, job->answers, {},
                                     &problem);
    if (!problem.isEmpty())
        return failLater(this, job, problem);
    store(job);
}

// The sensitive answers given now go to the keychain (or become a ${VAR} to export).
void BundleInstaller::store(const std::shared_ptr<Job> &job)
{
    const Mcp::Bundles::Manifest &manifest = job->request.bundle.manifest;
    QList<SecretAnswer> secrets;
    for (const Mcp::Bundles::UserConfigOption &option : manifest.userConfig) {
        const QString value = job->request.answers.value(option.key).trimmed();
        if (!option.sensitive || value.isEmpty())
            continue;
        Mcp::Registry::Field field;
        field.key = QStringLiteral("user_config:") + option.key;
        field.label = option.key;
        secrets << SecretAnswer{option.key, option.title.isEmpty() ? option.key : option.title,
                                value, ServerInstaller::secretName(job->name, option.key),
                                ServerInstaller::variableName(job->name, field)};
    }
    storeSecretAnswers(m_secrets, this, secrets,
                       [this, job](const StoredAnswers &stored) { finish(job, stored); });
}

void BundleInstaller::finish(const std::shared_ptr<Job> &job, const StoredAnswers &stored)
{
    InstallOutcome outcome;
    outcome.storedSecrets = stored.stored;
    outcome.notes = stored.notes;
    const Mcp::Bundles::Manifest &manifest = job->request.bundle.manifest;
    if (const QString missing = missingRuntime(manifest); !missing.isEmpty())
        outcome.notes << missing;
    // A sensitive answer is written as its reference: the one made now, else (an update) the
    // one it was installed with.
    QSet<QString> sensitive;
    for (const Mcp::Bundles::UserConfigOption &option : manifest.userConfig) {
        if (option.sensitive)
            sensitive.insert(option.key);
    }
    const auto referenceFor = [&](const QString &key) {
        if (stored.references.contains(key))
            return stored.references.value(key);
        return job->installed ? job->installed->userConfig.value(key) : QString();
    };
    QString problem;
    const std::optional<Mcp::Bundles::Command> command = Mcp::Bundles::resolveCommand(
            manifest, job->dir, job->answers, referenceFor, &problem);
    bool extracted = false;
    if (command) {
        OrderedJson definition
                = job->installed ? job->installed->definition : OrderedJson::object();
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
        } else {
            definition.erase("env");
        }
        OrderedJson from = OrderedJson::object();
        from["bundle"] = manifest.name.toStdString();
        from["version"] = manifest.version.toStdString();
        from["sha256"] = job->request.bundle.sha256.toStdString();
        from["signature"] = signatureName(job->request.bundle.signature.status).toStdString();
        // The answers, so that an update can keep them (secrets as their references).
        OrderedJson userConfig = OrderedJson::object();
        for (auto it = job->answers.cbegin(); it != job->answers.cend(); ++it) {
            if (!it.value().trimmed().isEmpty())
                userConfig[it.key().toStdString()]
                        = (sensitive.contains(it.key()) ? referenceFor(it.key()) : it.value())
                                  .toStdString();
        }
        if (!userConfig.empty())
            from["userConfig"] = std::move(userConfig);
        definition["installedFrom"] = std::move(from);
        outcome.definition = definition;
        QStringList words{command->command};
        words << command->args;
        outcome.display = words.join(QLatin1Char(' '));
        if (!job->installed) {
            extracted = QDir().mkpath(job->root)
                        && Mcp::Bundles::extract(job->request.bundle, job->dir, &problem);
            outcome.ok = extracted
                         && Mcp::ConfigPatcher::addServer(job->request.file, job->name, definition,
                                                          &problem);
            if (!outcome.ok && extracted)
                QDir(job->dir).removeRecursively(); // nothing of a failed install stays
        } else {
            outcome.ok
                    = swapIn(*job->installed, job->request.bundle, job->dir, definition, &problem);
        }
    }
    if (!outcome.ok) {
        outcome.error = problem;
        // A new install's secrets go again. An update's kept their names: the old version
        // reads them.
        if (!job->installed)
            forgetSecrets(m_secrets, outcome.storedSecrets);
        outcome.storedSecrets.clear();
    }
    if (job->context)
        job->done(outcome);
}

} // namespace Engine
