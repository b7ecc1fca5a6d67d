// switchboard-cli install, uninstall: a server from the MCP Registry into a configuration file,
// and out again.
#include "cli.h"
#include "cliinternal.h"
#include "terminalgate.h"

#include <engine/install/bundledownload.h>
#include <engine/install/bundleinstaller.h>
#include <engine/install/installedserver.h>
#include <engine/install/serverinstaller.h>
#include <engine/secrets/serversecrets.h>

#include <mcp/bundles/bundle.h>
#include <mcp/config/configpatcher.h>
#include <mcp/registry/registryclient.h>

#include <QDir>
#include <QFileInfo>
#include <QTimer>
#include <QUrl>

namespace Cli {

using namespace Internal;
using namespace Mcp::Registry;
using Mcp::Json;

namespace {

// The first package Switchboard can run (stdio from npm, PyPI, an OCI image or an MCP Bundle),
// else -1.
int runnablePackage(const ServerJson &server)
{
    for (int i = 0; i < server.packages.size(); ++i) {
        const Package &package = server.packages.at(i);
        const bool known = package.registryType == QLatin1String("npm")
                           || package.registryType == QLatin1String("pypi")
                           || package.registryType == QLatin1String("oci")
                           || package.registryType == QLatin1String("mcpb");
        if (known && package.transport.type == QLatin1String("stdio"))
            return i;
    }
    return -1;
}

QString fieldsList(const QList<Field> &fields)
{
    QStringList lines;
    for (const Field &field : fields) {
        QString line = QStringLiteral("  --set %1=…").arg(field.label);
        QStringList notes;
        if (field.input.isRequired)
            notes << Application::tr("required");
        if (field.input.isSecret)
            notes << Application::tr("secret");
        if (!notes.isEmpty())
            line += QStringLiteral(" (%1)").arg(notes.join(QLatin1String(", ")));
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

// install NAME [--scope user|workspace] [--name N] [--package I|--remote I] [--set KEY=VALUE]...
// [--no-start]
int Application::cmdInstall()
{
    const QUrl base = registryUrl();
    if (base.isEmpty())
        return Usage;
    QString scope = QStringLiteral("user");
    QString serverName;
    int package = -1;
    int remote = -1;
    QStringList sets;
    QStringList positional;
    bool start = true;
    for (int i = 0; i < m_args.size(); ++i) {
        QString value;
        if (takeValue(m_args, i, QStringLiteral("--scope"), &value)) {
            scope = value;
        } else if (takeValue(m_args, i, QStringLiteral("--name"), &value)) {
            serverName = value;
        } else if (takeValue(m_args, i, QStringLiteral("--set"), &value)) {
            sets << value;
        } else if (takeValue(m_args, i, QStringLiteral("--package"), &value)) {
            package = value.toInt() - 1;
            if (package < 0)
                return usageError(QStringLiteral("--package takes a number from 1"));
        } else if (takeValue(m_args, i, QStringLiteral("--remote"), &value)) {
            remote = value.toInt() - 1;
            if (remote < 0)
                return usageError(QStringLiteral("--remote takes a number from 1"));
        } else if (m_args.at(i) == QLatin1String("--no-start")) {
            start = false;
        } else if (m_args.at(i).startsWith(QLatin1Char('-'))) {
            return usageError(QStringLiteral("install: unknown option '%1'").arg(m_args.at(i)));
        } else {
            positional << m_args.at(i);
        }
    }
    if (positional.size() != 1)
        return usageError(QStringLiteral("install takes one NAME (a registry entry)"));
    if (scope != QLatin1String("user") && scope != QLatin1String("workspace"))
        return usageError(QStringLiteral("--scope takes user or workspace"));
    if (package >= 0 && remote >= 0)
        return usageError(QStringLiteral("install: --package or --remote, not both"));
    const QString entry = positional.constFirst();
    if (entry.endsWith(QLatin1String(".mcpb"), Qt::CaseInsensitive)) {
        if (scope != QLatin1String("user"))
            return usageError(QStringLiteral("install: an extension (.mcpb) goes into your own "
                                             "configuration, not a workspace's"));
        return installBundle(entry, sets, start);
    }

    // Loaded first: the secrets go through the session's keychain, and the name must be free.
    loadConfig();
    const QString file = scope == QLatin1String("user")
                                 ? Mcp::ConfigLoader::userConfigPath()
                                 : QDir(m_workspace).filePath(QStringLiteral(".mcp.json"));
    RegistryClient *client = newRegistryClient(base);
    client->latest(entry, [=, this](RegistryClient::EntryResult result) {
        const Listing *answer = answered(result);
        if (!answer)
            return;
        const Listing &listing = *answer;
        if (listing.status == QLatin1String("deleted")) {
            err(tr("%1 was deleted from the registry: %2").arg(entry, listing.statusMessage));
            finish(ServerFailed);
            return;
        }
        Engine::InstallRequest request;
        request.server = listing.server;
        request.registry = base.toString();
        request.file = file;
        request.name = serverName.isEmpty()
                               ? Engine::ServerInstaller::suggestedName(listing.server.name)
                               : serverName;
        request.package = package;
        request.remote = remote;
        if (package < 0 && remote < 0) {
            request.package = runnablePackage(listing.server);
            if (request.package < 0 && !listing.server.remotes.isEmpty())
                request.remote = 0;
        }
        if (request.package >= listing.server.packages.size()
            || request.remote >= listing.server.remotes.size()
            || (request.package < 0 && request.remote < 0)) {
            err(tr("%1 has no such package or remote to install (packages: %2, remotes: %3)")
                        .arg(entry)
                        .arg(listing.server.packages.size())
                        .arg(listing.server.remotes.size()));
            finish(Usage);
            return;
        }
        if (listing.status == QLatin1String("deprecated"))
            err(tr("note: %1 is deprecated: %2").arg(entry, listing.statusMessage));
        if (request.package >= 0
            && listing.server.packages.at(request.package).registryType == QLatin1String("mcpb")) {
            if (scope != QLatin1String("user") || !serverName.isEmpty()) {
                err(tr("install: %1 is an MCP Bundle: it goes into your own configuration, "
                       "under its own name")
                            .arg(entry));
                finish(Usage);
                return;
            }
            downloadBundle(listing.server.packages.at(request.package), sets, start);
            return;
        }
        const QList<Field> fields = Engine::ServerInstaller::fields(request);
        for (const QString &set : sets) {
            const qsizetype equals = set.indexOf(QLatin1Char('='));
            const QString key = set.left(equals);
            const auto field = std::find_if(fields.cbegin(), fields.cend(), [&](const Field &f) {
                return f.key == key || f.label == key;
            });
            if (equals <= 0 || field == fields.cend()) {
                err(tr("install: '%1' is not one of what %2 asks for:\n%3")
                            .arg(key, entry, fieldsList(fields)));
                finish(Usage);
                return;
            }
            request.answers[field->key] = set.mid(equals + 1);
        }
        // A secret that is asked for and not given is asked for at the terminal, unseen.
        for (const Field &field : fields) {
            if (field.input.isSecret && field.input.isRequired
                && request.answers.value(field.key).isEmpty()
                && TerminalApprovalGate::hasTerminal()) {
                if (const auto typed
                    = readHidden(tr("%1 for %2 (not shown): ").arg(field.label, request.name)))
                    request.answers[field.key] = *typed;
            }
        }
        QString problem;
        if (!Engine::ServerInstaller::preview(request, &problem)) {
            err(tr("install: %1").arg(problem));
            if (!fields.isEmpty())
                err(tr("%1 asks for:\n%2").arg(entry, fieldsList(fields)));
            finish(Usage);
            return;
        }
        auto *installer = new Engine::ServerInstaller(m_session->serverSecrets(), this);
        installer->install(
                request, this, [this, request, start](const Engine::InstallOutcome &outcome) {
                    if (!outcome.ok) {
                        err(tr("install: %1").arg(outcome.error));
                        finish(Usage);
                        return;
                    }
                    out(tr("installed %1 into %2")
                                .arg(request.name, QDir::toNativeSeparators(request.file))
                        + QLatin1Char('\n'));
                    out(tr("  runs: %1").arg(outcome.display) + QLatin1Char('\n'));
                    for (const QString &secret : outcome.storedSecrets)
                        out(tr("  secret %1 stored in the keychain").arg(secret)
                            + QLatin1Char('\n'));
                    for (const QString &note : outcome.notes)
                        err(tr("note: %1").arg(note));
                    if (!start) {
                        finish(Ok);
                        return;
                    }
                    // Not from inside the keychain's answer: the session that made it is replaced.
                    QTimer::singleShot(0, this,
                                       [this, name = request.name] { startInstalled(name); });
                });
    });
    return -1;
}

// A registry package of type mcpb: downloaded (its SHA-256 checked), then installed as
// `install FILE.mcpb` would.
void Application::downloadBundle(const Package &package, const QStringList &sets, bool start)
{
    out(tr("downloading %1").arg(package.identifier) + QLatin1Char('\n'));
    auto *download = new Engine::BundleDownload(this);
    download->fetch(package, Engine::BundleDownload::defaultDir(), this,
                    [this, sets, start](const Engine::BundleDownload::Result &result) {
                        if (!result.error.isEmpty()) {
                            err(tr("install: %1").arg(result.error));
                            finish(ServerFailed);
                            return;
                        }
                        out(tr("  its SHA-256 is the one the registry names") + QLatin1Char('\n'));
                        if (const int code = installBundle(result.file, sets, start); code >= 0)
                            finish(code);
                    });
}

// install FILE.mcpb: what it is and who signed it, its answers (--set KEY=VALUE; a sensitive
// one asked without echo at a terminal), then installed and started.
int Application::installBundle(const QString &path, const QStringList &sets, bool start)
{
    const Mcp::Bundles::OpenResult opened = Mcp::Bundles::openBundle(path);
    if (!opened.bundle) {
        err(opened.problem);
        return Usage;
    }
    const Mcp::Bundles::Bundle &bundle = *opened.bundle;
    const Mcp::Bundles::Manifest &m = bundle.manifest;
    out(tr("%1 %2 by %3").arg(m.title(), m.version, m.authorName) + QLatin1Char('\n'));
    out(QStringLiteral("  %1\n").arg(m.description.simplified()));
    using Status = Mcp::Bundles::Signature::Status;
    switch (bundle.signature.status) {
    case Status::Signed:
        out(tr("  signed by %1 (%2)").arg(bundle.signature.signer, bundle.signature.issuer)
            + QLatin1Char('\n'));
        break;
    case Status::SelfSigned:
        out(tr("  signed by %1 with a certificate of its own (self-signed): nobody vouches for it")
                    .arg(bundle.signature.signer)
            + QLatin1Char('\n'));
        break;
    case Status::Untrusted:
        out(tr("  signed by %1, whose certificate this system does not trust")
                    .arg(bundle.signature.signer)
            + QLatin1Char('\n'));
        break;
    default:
        out(tr("  not signed: nothing says who made it") + QLatin1Char('\n'));
        break;
    }
    QStringList tools;
    for (const auto &[name, description] : m.tools)
        tools << name;
    if (!tools.isEmpty())
        out(tr("  tools: %1").arg(tools.join(QLatin1String(", "))) + QLatin1Char('\n'));
    Engine::BundleInstaller::Request request;
    request.bundle = bundle;
    request.file = Mcp::ConfigLoader::userConfigPath();
    for (const QString &set : sets) {
        const qsizetype equals = set.indexOf(QLatin1Char('='));
        const QString key = set.left(equals);
        const bool known = std::any_of(m.userConfig.cbegin(), m.userConfig.cend(),
                                       [&key](const auto &o) { return o.key == key; });
        if (equals <= 0 || !known) {
            QStringList keys;
            for (const Mcp::Bundles::UserConfigOption &option : m.userConfig)
                keys << option.key + (option.required ? QStringLiteral(" (required)") : QString());
            err(tr("install: '%1' is not one of what %2 asks for: %3")
                        .arg(key, m.title(),
                             keys.isEmpty() ? tr("nothing") : keys.join(QLatin1String(", "))));
            return Usage;
        }
        request.answers[key] = set.mid(equals + 1);
    }
    loadConfig();
    // A bundle installed already: a newer version updates it, keeping its answers.
    const std::optional<Engine::InstalledServer> installed
            = Engine::BundleInstaller::findInstalled(m.name, {request.file}, m_session->config());
    if (installed) {
        if (const QString problem = Engine::BundleInstaller::updateProblem(m, *installed);
            !problem.isEmpty()) {
            err(tr("install: %1").arg(problem));
            return Usage;
        }
        out(tr("updating %1 from %2 to %3; its settings are kept")
                    .arg(installed->name, installed->version, m.version)
            + QLatin1Char('\n'));
    }
    for (const Mcp::Bundles::UserConfigOption &option : m.userConfig) {
        const bool answered = !request.answers.value(option.key).isEmpty()
                              || (installed && installed->userConfig.contains(option.key));
        if (option.sensitive && option.required && !answered
            && TerminalApprovalGate::hasTerminal()) {
            if (const auto typed
                = readHidden(tr("%1 for %2 (not shown): ")
                                     .arg(option.title.isEmpty() ? option.key : option.title,
                                          m.title())))
                request.answers[option.key] = typed->trimmed();
        }
    }
    auto *installer = new Engine::BundleInstaller(m_session->serverSecrets(), this);
    const QString name
            = installed ? installed->name : Engine::ServerInstaller::suggestedName(m.name);
    const QString file = installed ? installed->file : request.file;
    const bool update = installed.has_value();
    auto done = [this, file, name, start, update,
                 version = m.version](const Engine::InstallOutcome &outcome) {
        if (!outcome.ok) {
            err((update ? tr("update: %1") : tr("install: %1")).arg(outcome.error));
            finish(Usage);
            return;
        }
        if (update)
            out(tr("updated %1 to %2 in %3").arg(name, version, QDir::toNativeSeparators(file))
                + QLatin1Char('\n'));
        else
            out(tr("installed %1 into %2").arg(name, QDir::toNativeSeparators(file))
                + QLatin1Char('\n'));
        out(tr("  runs: %1").arg(outcome.display) + QLatin1Char('\n'));
        for (const QString &secret : outcome.storedSecrets)
            out(tr("  secret %1 stored in the keychain").arg(secret) + QLatin1Char('\n'));
        for (const QString &note : outcome.notes)
            err(tr("note: %1").arg(note));
        if (!start) {
            finish(Ok);
            return;
        }
        QTimer::singleShot(0, this, [this, name] { startInstalled(name); });
    };
    if (installed)
        installer->update(request, *installed, this, done);
    else
        installer->install(request, this, done);
    return -1;
}

// Starts the server just installed (trusting it, if it went into the workspace's file: the
// person asked for it) and says whether it connected.
void Application::startInstalled(const QString &name)
{
    m_session.reset();
    loadConfig();
    if (!m_session->config().find(name)) {
        err(tr("%1 is written, but the configuration does not load it").arg(name));
        finish(InvalidConfig);
        return;
    }
    if (m_session->config().find(name)->untrusted)
        m_session->trust({name});
    startServers({name});
    whenSettled([this, name] {
        const Mcp::ServerStatus status = m_session->manager()->status(name);
        if (status.state != Mcp::ServerState::Connected) {
            err(tr("%1 does not start yet: %2").arg(name, status.reason));
            finish(ServerFailed);
            return;
        }
        out(tr("%1 connected: %n tool(s)", nullptr, status.toolCount).arg(name)
            + QLatin1Char('\n'));
        finish(Ok);
    });
}

// `name` in your mcp.json, else the workspace's; else says so, after "`command`: ".
std::optional<Engine::InstalledServer> Application::findInstalled(const QString &name,
                                                                  const char *command)
{
    loadConfig();
    QString error;
    std::optional<Engine::InstalledServer> server = Engine::InstalledServer::find(
            name,
            {Mcp::ConfigLoader::userConfigPath(),
             QDir(m_workspace).filePath(QStringLiteral(".mcp.json"))},
            m_session->config(), {}, &error);
    if (!server)
        err(QLatin1String(command) + QStringLiteral(": ") + error);
    return server;
}

// update NAME [FILE.mcpb] [--set KEY=VALUE]... [--no-start]: a registry server to the
// registry's latest version, an extension to the newer version in FILE; settings kept.
int Application::cmdUpdate()
{
    const QUrl base = registryUrl();
    if (base.isEmpty())
        return Usage;
    QStringList sets;
    QStringList positional;
    bool start = true;
    for (int i = 0; i < m_args.size(); ++i) {
        QString value;
        if (takeValue(m_args, i, QStringLiteral("--set"), &value))
            sets << value;
        else if (m_args.at(i) == QLatin1String("--no-start"))
            start = false;
        else if (m_args.at(i).startsWith(QLatin1Char('-')))
            return usageError(QStringLiteral("update: unknown option '%1'").arg(m_args.at(i)));
        else
            positional << m_args.at(i);
    }
    if (positional.isEmpty() || positional.size() > 2)
        return usageError(QStringLiteral("update takes a server NAME (and, for an extension, "
                                         "the newer FILE.mcpb)"));
    const QString name = positional.constFirst();
    const std::optional<Engine::InstalledServer> installed = findInstalled(name, "update");
    if (!installed)
        return Usage;
    if (installed->fromBundle()) {
        if (positional.size() != 2)
            return usageError(QStringLiteral("update: %1 is an extension; name the file of its "
                                             "newer version: update %1 FILE.mcpb")
                                      .arg(name));
        const Mcp::Bundles::OpenResult opened = Mcp::Bundles::openBundle(positional.at(1));
        if (!opened.bundle) {
            err(opened.problem);
            return Usage;
        }
        if (const QString problem
            = Engine::BundleInstaller::updateProblem(opened.bundle->manifest, *installed);
            !problem.isEmpty()) {
            err(tr("update: %1").arg(problem));
            return Usage;
        }
        m_session.reset();
        return installBundle(positional.at(1), sets, start);
    }
    if (!installed->fromRegistry()) {
        err(tr("update: %1 was not installed from the MCP Registry or an extension; edit its "
               "definition in %2 instead")
                    .arg(name, QDir::toNativeSeparators(installed->file)));
        return Usage;
    }
    if (positional.size() != 1 || !sets.isEmpty())
        return usageError(QStringLiteral("update: a registry server takes only its NAME (its "
                                         "answers are kept)"));
    RegistryClient *client = newRegistryClient(base);
    client->latest(installed->registryName, [=, this](RegistryClient::EntryResult result) {
        const Listing *answer = answered(result);
        if (!answer)
            return;
        QString problem;
        const std::optional<nlohmann::ordered_json> definition
                = Engine::ServerInstaller::updatedDefinition(*installed, answer->server, &problem);
        if (!definition) {
            err(tr("update: %1").arg(problem));
            finish(Usage);
            return;
        }
        if (!Mcp::ConfigPatcher::replaceServer(installed->file, name, *definition, &problem)) {
            err(tr("update: %1").arg(problem));
            finish(InvalidConfig);
            return;
        }
        out(tr("updated %1 from %2 to %3 in %4")
                    .arg(name, installed->version, answer->server.version,
                         QDir::toNativeSeparators(installed->file))
            + QLatin1Char('\n'));
        out(tr("  runs: %1").arg(Engine::ServerInstaller::commandLine(*definition))
            + QLatin1Char('\n'));
        if (!start) {
            finish(Ok);
            return;
        }
        QTimer::singleShot(0, this, [this, name] { startInstalled(name); });
    });
    return -1;
}

// uninstall NAME: the entry out of your file (else the workspace's), an extension's folder,
// and the keychain secrets the install made for it ("NAME.…") that no other server reads.
int Application::cmdUninstall()
{
    if (m_args.size() != 1 || m_args.constFirst().startsWith(QLatin1Char('-')))
        return usageError(QStringLiteral("uninstall takes one server NAME"));
    const QString name = m_args.takeFirst();
    const std::optional<Engine::InstalledServer> server = findInstalled(name, "uninstall");
    if (!server)
        return Usage;
    Engine::uninstall(*server, true, m_session->serverSecrets(), this,
                      [this](const Engine::UninstallOutcome &outcome) {
                          if (!outcome.ok) {
                              err(tr("uninstall: %1").arg(outcome.error));
                              finish(InvalidConfig);
                              return;
                          }
                          for (const QString &line : outcome.done)
                              out(line + QLatin1Char('\n'));
                          for (const QString &problem : outcome.problems)
                              err(problem);
                          finish(outcome.problems.isEmpty() ? Ok : InvalidConfig);
                      });
    return -1;
}

} // namespace Cli
