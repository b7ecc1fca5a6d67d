#pragma once

#include <mcp/manager.h>

#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>

class QDockWidget;
class QLabel;
class QMainWindow;
class QTimer;

namespace Engine {
class Session;
}

namespace Gui {

class ConfigEditorPane;
class ServerDock;

// The window's part in what the servers do, beside the Servers dock: the trust banner, the
// dock's Enable/Disable (written into the server's config file), whose instructions the model
// reads and which tools it is offered (both kept in the settings file), the warning when more
// tools are offered than a model takes, and the configuration editor's dock.
class ServerActions : public QObject
{
    Q_OBJECT
public:
    struct Files
    {
        QString workspace;    // for the config editor: its .mcp.json, or
        QString configFile;   // the file --config named
        QString settingsFile; // where the choices of tools and instructions are kept
    };
    ServerActions(Engine::Session *session, ServerDock *dock, Files files, QMainWindow *window);

    // "N tools are offered to the model…", above the composer while it applies; the window
    // places it.
    QLabel *toolWarning() const { return m_toolWarning; }
    // Settings → tool search threshold: above it the model searches, and is not warned about.
    void setToolSearchThreshold(int threshold);
    // The tool browser's check box of one tool.
    void setToolOffered(const QString &tool, bool offered);

    // Shows the configuration editor (a dock, made on first use).
    void editConfiguration();
    ConfigEditorPane *configEditor() const { return m_configEditor; }
    // Restarts the servers whose settings differ in `config` (Engine::Session::apply) and
    // makes it the session's configuration.
    Mcp::ReloadPlan applyConfig(const Mcp::McpConfig &config);
    // Before the window closes: true when no edit would be lost (none unsaved in the config
    // editor, or the person chose to lose them). Otherwise asks, with the editor shown, and
    // calls `closeAgain` if the answer is "Discard and close".
    bool readyToClose(const std::function<void()> &closeAgain);
    void retranslateUi();

signals:
    // Rich text for the chat; `error` shows it as one.
    void notice(const QString &html, bool error);

private:
    void updateTrustBanner();
    void trustServers(const QStringList &names);
    void saveServerEnabled(const QString &name, bool enabled);
    void setInstructionsUsed(const QString &server, bool used);
    void setServerOffered(const QString &server, bool offered);
    void saveOffering(const QSet<QString> &notOfferedServers, const QSet<QString> &notOfferedTools);
    void updateToolWarning();

    Engine::Session *m_session;
    ServerDock *m_dock;
    Files m_files;
    QMainWindow *m_window;
    int m_toolSearchThreshold = 0;
    QLabel *m_toolWarning = nullptr;
    QTimer *m_toolWarningTimer = nullptr;
    QDockWidget *m_configDock = nullptr;
    ConfigEditorPane *m_configEditor = nullptr;
    bool m_discardEdits = false; // the person chose to close without saving them
};

} // namespace Gui
