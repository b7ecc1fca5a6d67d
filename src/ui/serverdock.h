#pragma once

#include <mcp/wire/jsonrpc.h>

#include "sidepanel.h"

#include <QDockWidget>
#include <QHash>
#include <QIcon>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <array>

class QAction;
class QLabel;
class QDialog;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace Mcp {
class Manager;
struct ServerStatus;
enum class ServerState;
} // namespace Mcp

namespace Engine {
class SignIn;
}

namespace Gui {

class TrustBanner;

// The server-status dock ("MCPBar"): shows one row per server of an Mcp::Manager (state dot,
// name, state, tool count, failure reason) and a summary in the title, and offers restart,
// disable/enable, a live stderr view and "open log" for the selected server. It only reads the
// Manager and calls its non-blocking commands; rows follow the Manager's signals, and the
// stderr view is refreshed on a timer so a flooding server cannot starve the GUI. The Manager
// is owned elsewhere (the application); the dock forgets it when it is destroyed.
class ServerDock : public QDockWidget
{
    Q_OBJECT
public:
    enum Column { NameColumn, StateColumn, ToolsColumn, ReasonColumn, ColumnCount };
    // On the name column: the row's Mcp::ServerState as int, for code and tests.
    static constexpr int StateRole = Qt::UserRole + 1;

    explicit ServerDock(Mcp::Manager *manager, QWidget *parent = nullptr);
    // Narrow at first (sidepanel.h): the chat is the centre of the window.
    QSize sizeHint() const override { return sidePanelHint(QDockWidget::sizeHint()); }
    // Whose instructions are off (as the window keeps them), for the check mark.
    void setInstructionsOff(const QSet<QString> &servers);
    ~ServerDock() override;

    void setManager(Mcp::Manager *manager);
    Mcp::Manager *manager() const;

    // The selected server's name, or empty.
    QString selectedServer() const;
    void selectServer(const QString &name);
    // "3 connected, 1 failed" (also the window title's tail).
    QString summary() const;

    // Above the list: this folder's servers that wait for the user's trust (hidden when none).
    TrustBanner *trustBanner() const { return m_trustBanner; }

    // Sign-in to remote servers: a "Sign in" button for a server that needs it (the browser
    // opens), "Sign out" for one signed in, and the row says when the browser is waited for,
    // why a sign-in failed, and when tokens live for this session only. Not owned.
    void setSignIn(Engine::SignIn *signIn);

    // Servers whose tools the model is not offered: their Tools box is unchecked.
    void setNotOffered(const QSet<QString> &servers);

    static QColor stateColor(Mcp::ServerState state);
    static QString stateText(Mcp::ServerState state);

signals:
    void openLogRequested(const QString &server);
    // The user disabled or enabled a server (after the Manager was told), so the owner can
    // keep the choice in the configuration.
    void serverEnabledChanged(const QString &server, bool enabled);
    // The user checked or unchecked a server's Tools box: whether the model is offered them.
    void offerChanged(const QString &server, bool offered);
    // The user turned a server's instructions (in the model's system prompt) on or off.
    void instructionsChanged(const QString &server, bool used);
    // "Add server…" under the list: the window opens its dialog.
    void addServerRequested();
    // "Update…" and "Uninstall…" of the selected server: the window asks and does it.
    void updateRequested(const QString &server);
    void uninstallRequested(const QString &server);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void rebuildRows();
    void onStatusChanged(const QString &name);
    void setLogLevel(const QString &server, const QString &level);
    void onLogMessage(const QString &server, const Mcp::Json &params);
    void applyStatus(QTreeWidgetItem *item, const Mcp::ServerStatus &status);
    QSet<QString> m_notOffered;
    void updateSummary();
    QWidget *makeTitleBar();
    void updateActions();
    Mcp::ServerState selectedState() const;

    void restartSelected();
    void signInSelected();
    void signOutSelected();
    void toggleSelected();
    void showStderr();
    void ensureStderrDialog();
    void onStderr(const QString &name, const QString &line);
    void flushStderr();

    QPointer<Mcp::Manager> m_manager;
    QAction *m_levelAction = nullptr;
    QAction *m_instructionsAction = nullptr;
    QSet<QString> m_instructionsOff;
    QHash<QString, QString> m_lastLog; // by server: its last log line
    QSet<QString> m_watchedLogs;       // servers whose log level the person set
    QTreeWidget *m_list = nullptr;
    QPushButton *m_addButton = nullptr;
    QLabel *m_titleLabel = nullptr;
    TrustBanner *m_trustBanner = nullptr;
    QHash<QString, QTreeWidgetItem *> m_rows;
    std::array<QIcon, 6> m_icons; // one dot per Mcp::ServerState, drawn once

    QPointer<Engine::SignIn> m_signIn;
    QAction *m_signInAction = nullptr;
    QAction *m_signOutAction = nullptr;
    QAction *m_restartAction = nullptr;
    QAction *m_toggleAction = nullptr;
    QAction *m_stderrAction = nullptr;
    QAction *m_logAction = nullptr;
    QAction *m_updateAction = nullptr;
    QAction *m_uninstallAction = nullptr;

    QDialog *m_stderrDialog = nullptr; // created on first use, then hidden and reused
    QPlainTextEdit *m_stderrView = nullptr;
    QPushButton *m_copyButton = nullptr;
    QString m_stderrServer;
    QStringList m_stderrPending; // lines received since the last flush
    QTimer m_stderrFlush;
};

} // namespace Gui
