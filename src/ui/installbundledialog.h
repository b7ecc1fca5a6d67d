#pragma once

#include <engine/install/installedserver.h>

#include <mcp/bundles/bundle.h>

#include <QDialog>
#include <QList>

class QLabel;
class QPushButton;

namespace Engine {
class ServerSecrets;
}

namespace Gui {

// The confirmation of an MCP Bundle (File → Install extension…, or a .mcpb dropped on the
// window) that Mcp::Bundles::openBundle() accepted: what it is (name, version, author,
// description, icon), who signed it (or, plainly, that nobody did), the tools and prompts it
// declares, and its user_config form (text, numbers with their range, switches, folder and
// file pickers, several values one per line, secrets in password fields). Install extracts it
// and adds its server (Engine::BundleInstaller); installed() tells the window, which starts it.
class InstallBundleDialog : public QDialog
{
    Q_OBJECT
public:
    struct Options
    {
        Mcp::Bundles::Bundle bundle;
        QString userFile;      // the person's mcp.json
        QString extensionsDir; // empty: BundleInstaller::defaultExtensionsDir()
        Engine::ServerSecrets *secrets = nullptr;
        // Set for an update (Engine::BundleInstaller::updateProblem() found none): the server
        // of the older version, whose answers fill the form (a secret kept unless typed anew).
        std::optional<Engine::InstalledServer> installed;
    };
    explicit InstallBundleDialog(Options options, QWidget *parent = nullptr);

    // Why Install is not possible now (a required answer missing, a number out of range), or
    // empty. For tests.
    QString problem() const;

signals:
    void installed(const QString &name, const QString &file, const QStringList &notes);
    void updated(const QString &name, const QString &file, const QStringList &notes);

private:
    // What the form holds; `withKept`: with an update's earlier answers where a field is empty.
    QMap<QString, QString> answers(bool withKept = false) const;
    void check();
    void install();

    struct Answer
    {
        Mcp::Bundles::UserConfigOption option;
        QWidget *editor = nullptr;
    };

    Options m_options;
    QList<Answer> m_answers;
    QLabel *m_problem = nullptr;
    QPushButton *m_installButton = nullptr;
    bool m_busy = false;
};

} // namespace Gui
