#pragma once

#include <engine/install/installedserver.h>

#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>

class QMessageBox;
class QWidget;

namespace Engine {
class Session;
}

namespace Gui {

class InstallBundleDialog;

// The Servers dock's Update… and Uninstall… for the window. Each asks first: Uninstall names
// the file the entry leaves, the folder that goes and, with a check box, the keychain secrets
// only it reads; Update shows the version it goes from and to and what will run, and for an
// extension asks for the newer .mcpb and opens its confirmation with the answers kept. The
// work is the engine's (Engine::uninstall, BundleInstaller::update,
// ServerInstaller::updatedDefinition); the window reads the configuration again on the signals.
class InstallActions : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        std::function<QUrl()> registry; // where a registry server's newer version is asked for
        QString cacheDir;               // the registry's saved answers
        QString extensionsDir;          // empty: BundleInstaller::defaultExtensionsDir()
    };
    InstallActions(Engine::Session *session, Options options, QWidget *window);

    void uninstall(const QString &name);
    // `bundleFile`: an extension's newer version; empty: asked for in a file dialog.
    void update(const QString &name, const QString &bundleFile = QString());

    // The question or message open now, and the update's confirmation; for tests.
    QMessageBox *messageBox() const;
    InstallBundleDialog *bundleDialog() const;

signals:
    void uninstalled(const QString &name, const QStringList &done, const QStringList &problems);
    // `trustAgain`: it was a trusted server of the workspace, whose changed definition the
    // person just chose.
    void updated(const QString &name, const QStringList &notes, bool trustAgain);

private:
    std::optional<Engine::InstalledServer> find(const QString &name);
    void updateBundle(const Engine::InstalledServer &server, const QString &file);
    void updateFromRegistry(const Engine::InstalledServer &server);
    void tell(const QString &title, const QString &text, bool warning);
    bool trustedInWorkspace(const QString &name) const;

    Engine::Session *m_session;
    Options m_options;
    QWidget *m_window;
    QPointer<QMessageBox> m_box;
    QPointer<InstallBundleDialog> m_bundleDialog;
};

} // namespace Gui
