#pragma once

#include <engine/install/serverinstaller.h>

#include <mcp/registry/serverjson.h>

#include <QDialog>
#include <QIcon>
#include <QList>
#include <QPointer>
#include <QTimer>
#include <QUrl>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace Engine {
class ServerSecrets;
}

namespace Mcp::Registry {
class RegistryClient;
}

namespace Gui {

class RegistryIcons;

// "Add server…": searches an MCP Registry as the person types (debounced, a page at a time,
// deprecated entries marked and deleted ones left out), shows the chosen entry (title, name,
// version, description, repository, its packages and remotes), builds the install form from
// what the entry asks for (required, default, choices, format, secret), and shows the exact
// command line or URL before anything is written, with the runtime it needs when that is not
// installed. Install writes the entry into the person's mcp.json or the workspace's
// (Engine::ServerInstaller: secrets into the keychain) and emits installed(); the window
// starts it. Answers from the registry are bounded and kept for offline browsing.
class AddServerDialog : public QDialog
{
    Q_OBJECT
public:
    struct Options
    {
        QUrl registry;
        QString cacheDir;      // offline browsing (RegistryClient::setCacheDir)
        QString userFile;      // the person's mcp.json
        QString workspaceFile; // the workspace's .mcp.json; empty: none to offer
        QStringList existingNames;
        Engine::ServerSecrets *secrets = nullptr;
        QString downloadDir; // where a bundle is downloaded; empty: BundleDownload::defaultDir()
        // The first search (links pass a name); empty: everything.
        QString search;
    };
    static constexpr int SearchDelayMs = 300;
    static constexpr int IconSide = 32;
    // On a result: the address of the icon fetched for it.
    static constexpr int IconSourceRole = Qt::UserRole + 1;
    // For tests: the icons that have arrived, by result row (null: none).
    QIcon resultIcon(int row) const;
    int iconsPending() const;

    explicit AddServerDialog(Options options, QWidget *parent = nullptr);

    // For tests: the results listed, and the command line or URL the form would write.
    int resultCount() const;
    QString preview() const;

signals:
    // Written into `file`; `workspace`: the workspace's file (the window trusts it, since the
    // person asked for it). `notes`: what they must know (a variable to export, a runtime).
    void installed(const QString &name, const QString &file, bool workspace,
                   const QStringList &notes);
    // An MCP Bundle from the registry, downloaded and checked: the window opens its own
    // confirmation (Gui::InstallBundleDialog) on `file`.
    void bundleDownloaded(const QString &file);

private:
    void search();
    void showResults(const QList<Mcp::Registry::Listing> &servers, bool append);
    void choose();
    void buildForm();
    void updatePreview();
    Engine::InstallRequest request() const;
    // The chosen package when it is an MCP Bundle (downloaded, then confirmed as a file).
    const Mcp::Registry::Package *chosenBundle(const Engine::InstallRequest &req) const;
    void install();
    void download(const Mcp::Registry::Package &package);

    struct Answer
    {
        Mcp::Registry::Field field;
        QWidget *editor = nullptr;
    };

    Options m_options;
    Mcp::Registry::RegistryClient *m_client = nullptr;
    QTimer m_debounce;
    quint64 m_searchSerial = 0;
    QString m_nextCursor;
    QList<Mcp::Registry::Listing> m_results;
    QList<Answer> m_answers;
    bool m_busy = false;

    QLineEdit *m_searchEdit = nullptr;
    QListWidget *m_list = nullptr;
    RegistryIcons *m_icons = nullptr;
    QIcon m_blankIcon;
    QLabel *m_searchStatus = nullptr;
    QPushButton *m_moreButton = nullptr;
    QStackedWidget *m_details = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_about = nullptr;
    QComboBox *m_wayCombo = nullptr;
    QWidget *m_formHost = nullptr;
    QFormLayout *m_form = nullptr;
    QLineEdit *m_nameEdit = nullptr;
    QComboBox *m_scopeCombo = nullptr;
    QLabel *m_preview = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_installButton = nullptr;
};

} // namespace Gui
