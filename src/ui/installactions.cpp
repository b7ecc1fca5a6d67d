#include "installactions.h"

#include "installbundledialog.h"

#include <engine/install/bundleinstaller.h>
#include <engine/install/serverinstaller.h>
#include <engine/session.h>

#include <mcp/bundles/bundle.h>
#include <mcp/config/configpatcher.h>
#include <mcp/registry/registryclient.h>

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

namespace Gui {

using Engine::InstalledServer;

InstallActions::InstallActions(Engine::Session *session, Options options, QWidget *window)
    : QObject(window)
    , m_session(session)
    , m_options(std::move(options))
    , m_window(window)
{
}

QMessageBox *InstallActions::messageBox() const
{
    return m_box;
}

InstallBundleDialog *InstallActions::bundleDialog() const
{
    return m_bundleDialog;
}

std::optional<InstalledServer> InstallActions::find(const QString &name)
{
    const Mcp::ServerConfig *config = m_session->config().find(name);
    QString error;
    std::optional<InstalledServer> server;
    if (config && !config->sourceFile.isEmpty())
        server = InstalledServer::find(name, {config->sourceFile}, m_session->config(),
                                       m_options.extensionsDir, &error);
    else
        error = tr("%1 is not defined in a configuration file").arg(name);
    if (!server)
        tell(tr("Servers"), error, true);
    return server;
}

bool InstallActions::trustedInWorkspace(const QString &name) const
{
    const Mcp::ServerConfig *config = m_session->config().find(name);
    return config && !config->untrusted
           && QFileInfo(config->sourceFile) != QFileInfo(Mcp::ConfigLoader::userConfigPath());
}

void InstallActions::tell(const QString &title, const QString &text, bool warning)
{
    if (m_box)
        m_box->close();
    auto *box = new QMessageBox(warning ? QMessageBox::Warning : QMessageBox::Information, title,
                                text, QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("installMessageBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_box = box;
    box->open();
}

void InstallActions::uninstall(const QString &name)
{
    const std::optional<InstalledServer> server = find(name);
    if (!server)
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Uninstall %1").arg(name),
                                tr("Uninstall %1?").arg(name), QMessageBox::Cancel, m_window);
    box->setObjectName(QStringLiteral("uninstallBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QStringList details{
            tr("Its entry is removed from %1.").arg(QDir::toNativeSeparators(server->file))};
    if (!server->extensionFolder.isEmpty())
        details << tr("Its files in %1 are deleted.")
                           .arg(QDir::toNativeSeparators(server->extensionFolder));
    box->setInformativeText(details.join(QLatin1Char('\n')));
    if (!server->secrets.isEmpty()) {
        auto *forget = new QCheckBox(tr("Also delete its secrets from the keychain: %1")
                                             .arg(server->secrets.join(QLatin1String(", "))),
                                     box);
        forget->setObjectName(QStringLiteral("deleteSecretsBox"));
        forget->setChecked(true);
        box->setCheckBox(forget);
    }
    QPushButton *go = box->addButton(tr("&Uninstall"), QMessageBox::DestructiveRole);
    go->setObjectName(QStringLiteral("uninstallButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    m_box = box;
    connect(go, &QPushButton::clicked, this, [this, box, server = *server] {
        const bool deleteSecrets = box->checkBox() && box->checkBox()->isChecked();
        Engine::uninstall(server, deleteSecrets, m_session->serverSecrets(), this,
                          [this, name = server.name](const Engine::UninstallOutcome &outcome) {
                              if (!outcome.ok) {
                                  tell(tr("Uninstall %1").arg(name), outcome.error, true);
                                  return;
                              }
                              emit uninstalled(name, outcome.done, outcome.problems);
                          });
    });
    box->open();
}

void InstallActions::update(const QString &name, const QString &bundleFile)
{
    const std::optional<InstalledServer> server = find(name);
    if (!server)
        return;
    if (server->fromBundle()) {
        if (!bundleFile.isEmpty()) {
            updateBundle(*server, bundleFile);
            return;
        }
        auto *dialog = new QFileDialog(m_window, tr("The newer version of %1").arg(name), QString(),
                                       tr("MCP Bundles (*.mcpb *.dxt)"));
        dialog->setObjectName(QStringLiteral("updateFileDialog"));
        dialog->setFileMode(QFileDialog::ExistingFile);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this,
                [this, server = *server](const QString &file) { updateBundle(server, file); });
        dialog->open();
        return;
    }
    if (server->fromRegistry()) {
        updateFromRegistry(*server);
        return;
    }
    tell(tr("Update %1").arg(name),
         tr("%1 was not installed from the MCP Registry or an extension; edit its definition in "
            "%2 instead.")
                 .arg(name, QDir::toNativeSeparators(server->file)),
         false);
}

void InstallActions::updateBundle(const InstalledServer &server, const QString &file)
{
    const Mcp::Bundles::OpenResult opened = Mcp::Bundles::openBundle(file);
    QString problem = opened.problem;
    if (opened.bundle)
        problem = Engine::BundleInstaller::updateProblem(opened.bundle->manifest, server);
    if (!problem.isEmpty()) {
        tell(tr("Update %1").arg(server.name), problem, true);
        return;
    }
    InstallBundleDialog::Options options;
    options.bundle = *opened.bundle;
    options.userFile = server.file;
    options.extensionsDir = m_options.extensionsDir;
    options.secrets = m_session->serverSecrets();
    options.installed = server;
    auto *dialog = new InstallBundleDialog(options, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_bundleDialog = dialog;
    const bool trustAgain = trustedInWorkspace(server.name);
    connect(dialog, &InstallBundleDialog::updated, this,
            [this, trustAgain](const QString &name, const QString &, const QStringList &notes) {
                emit updated(name, notes, trustAgain);
            });
    dialog->open();
}

void InstallActions::updateFromRegistry(const InstalledServer &server)
{
    auto *client = new Mcp::Registry::RegistryClient(m_options.registry(), this);
    client->setCacheDir(m_options.cacheDir);
    client->latest(server.registryName, [this, client, server](
                                                Mcp::Registry::RegistryClient::EntryResult result) {
        client->deleteLater();
        const QString title = tr("Update %1").arg(server.name);
        if (const QString *error = std::get_if<QString>(&result)) {
            tell(title, *error, true);
            return;
        }
        const Mcp::Registry::Listing &listing = std::get<Mcp::Registry::Listing>(result);
        QString problem;
        const std::optional<nlohmann::ordered_json> definition
                = Engine::ServerInstaller::updatedDefinition(server, listing.server, &problem);
        if (!definition) {
            tell(title, problem, false);
            return;
        }
        auto *box
                = new QMessageBox(QMessageBox::Question, title,
                                  tr("Update %1 from %2 to %3?")
                                          .arg(server.name, server.version, listing.server.version),
                                  QMessageBox::Cancel, m_window);
        box->setObjectName(QStringLiteral("updateBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setInformativeText(tr("It will run: %1\nIts answers and settings are kept.")
                                        .arg(Engine::ServerInstaller::commandLine(*definition)));
        QPushButton *go = box->addButton(tr("&Update"), QMessageBox::AcceptRole);
        go->setObjectName(QStringLiteral("updateButton"));
        m_box = box;
        const bool trustAgain = trustedInWorkspace(server.name);
        connect(go, &QPushButton::clicked, this, [this, server, definition, trustAgain, title] {
            QString error;
            if (!Mcp::ConfigPatcher::replaceServer(server.file, server.name, *definition, &error)) {
                tell(title, error, true);
                return;
            }
            emit updated(server.name, {}, trustAgain);
        });
        box->open();
    });
}

} // namespace Gui
