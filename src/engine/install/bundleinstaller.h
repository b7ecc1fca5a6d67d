#pragma once

#include <engine/install/installedserver.h>
#include <engine/install/serverinstaller.h>

#include <mcp/bundles/bundle.h>

#include <QObject>
#include <QPointer>

namespace Engine {

class ServerSecrets;

// Installs an MCP Bundle that Mcp::Bundles::openBundle() accepted: the answers to its
// user_config checked, sensitive ones into the keychain as "<name>.<key>" (or, with no keychain,
// a ${VAR} to export), the bundle extracted into extensions/<name>/ under the data folder
// (never over another extension), and a server added to the person's mcp.json with
// "installedFrom": {"bundle": name, "version", "sha256", "signature"}. A failure leaves
// nothing behind. Uninstalling removes the entry, the folder and those secrets.
class BundleInstaller : public QObject
{
    Q_OBJECT
public:
    explicit BundleInstaller(ServerSecrets *secrets, QObject *parent = nullptr);

    // QStandardPaths::AppDataLocation + "/extensions".
    static QString defaultExtensionsDir();
    // The program a bundle's server type needs when it is not on PATH, with how to install it.
    static QString missingRuntime(const Mcp::Bundles::Manifest &manifest);

    struct Request
    {
        Mcp::Bundles::Bundle bundle;
        QMap<QString, QString> answers; // by user_config key
        QString file;                   // the mcp.json the server is added to
        QString extensionsDir;          // empty: defaultExtensionsDir()
    };
    // `done` once, from the event loop, unless `context` is gone.
    void install(Request request, QObject *context,
                 std::function<void(const InstallOutcome &)> done);

    // Replaces `installed`, a server of an older version of the same bundle: the answers it
    // was installed with are kept (those in `request.answers` replace them; a sensitive one
    // given anew replaces its keychain entry), and so are the entry's other settings (disabled,
    // timeouts, approvals); the new version is unpacked beside the old one and swapped in only
    // when whole. A failure leaves the old version as it was. `request.file` is not used.
    void update(Request request, const InstalledServer &installed, QObject *context,
                std::function<void(const InstallOutcome &)> done);
    // Why `manifest` cannot update `installed` (another extension, a version not newer), or
    // empty.
    static QString updateProblem(const Mcp::Bundles::Manifest &manifest,
                                 const InstalledServer &installed);
    // The server of `files` installed from the bundle named `bundle`, if any.
    static std::optional<InstalledServer> findInstalled(const QString &bundle,
                                                        const QStringList &files,
                                                        const Mcp::McpConfig &config,
                                                        const QString &extensionsDir = {});

    // The folder of the installed bundle `bundle` (an "installedFrom" bundle name) inside
    // `extensionsDir`, or empty when that is no bundle's name.
    static QString folderOf(const QString &bundle, const QString &extensionsDir = {});

    struct Job; // one install or update under way

private:
    void store(const std::shared_ptr<Job> &job);
    void finish(const std::shared_ptr<Job> &job, const StoredAnswers &stored);

    QPointer<ServerSecrets> m_secrets;
};

} // namespace Engine
