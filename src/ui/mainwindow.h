#pragma once

#include "appsettings.h"

#include <engine/agent/agent.h>
#include <engine/session.h>
#include <engine/storage/conversationexport.h>
#include <engine/storage/conversationstore.h>

#include <QMainWindow>
#include <QMap>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QHBoxLayout;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QSplitter;
class QToolButton;
class QUrl;
class QPushButton;
class QTimer;
class QToolBar;
class QVBoxLayout;

namespace Gui {

class AttachmentBar;
class AuditLogDialog;
class ChatView;
class ComposerEdit;
class ConfigEditorPane;
class ConversationList;
class FindBar;
class Drafts;
class ModelPicker;
class NoModelNotice;
class ProtocolLogDock;
class ServerActions;
class ServerDock;
class AgentsDock;
class AppCards;
class SettingsDialog;
class SlashCommands;
class ToolBrowser;
class UiApprovalGate;
class UsageLabel;
class WindowHost;
class AddServerDialog;
class InstallActions;
class InstallBundleDialog;

struct MainWindowOptions
{
    QString workspace;          // absolute
    QString configFile;         // empty: <workspace>/.mcp.json
    QString conversationFolder; // empty: the default location
    QString conversationId;     // a saved conversation to open at start (--conversation)
    QString settingsFile;       // empty: AppSettings::defaultFile()
    QString keychainService;    // empty: Engine::SecretStore::DefaultService
    QString trustFile;          // empty: Engine::TrustStore::defaultPath()
    QString approvalsFile;      // empty: Engine::ApprovalStore::defaultFile()
    QString auditLogFile;       // empty: Engine::AuditLog::defaultPath()
    // Where a sign-in's authorization URL is shown; empty: the system browser.
    std::function<void(const QUrl &)> openUrl;
};

// The desktop: conversation list, chat view, composer with Send/Stop, the server dock and
// the tool browser, wired to the engine it owns (the workspace's Engine::Session with a modal
// approval gate, provider, agent, conversation store). Draws and drives; no protocol logic.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options, QWidget *parent = nullptr);
    ~MainWindow() override;

    Engine::Session *session() const { return m_session.get(); }
    Mcp::Manager *manager() const { return m_session->manager(); }
    Engine::ToolRegistry *registry() const { return m_session->registry(); }
    Engine::ToolRunner *runner() const { return m_session->runner(); }
    Engine::Agent *agent() const { return m_agent.get(); }
    ChatView *chatView() const { return m_chat; }
    AppCards *appCards() const { return m_appCards; }
    // What MCP Apps views asked to put before the model (ui/update-model-context), by server:
    // each shown as a removable chip over the composer, sent with every request until removed.
    QMap<QString, QString> viewContexts() const { return m_viewContexts; }
    void setViewContext(const QString &server, const QString &context);
    ProtocolLogDock *protocolLogDock() const { return m_logDock; }
    void openToolBrowser();
    // Shows the configuration editor (a dock, made on first use).
    void editConfiguration();
    ConfigEditorPane *configEditor() const;
    // Restarts the servers whose settings differ in `config` (Engine::Session::apply) and
    // makes it the window's configuration; says which servers restarted, started and stopped.
    Mcp::ReloadPlan applyConfig(const Mcp::McpConfig &config);
    void openSettings();
    // Tools → Audit log…: the non-modal table of approval decisions and tool runs.
    void openAuditLog();
    AuditLogDialog *auditLogDialog() const;
    // Tools → Add server… (and the Servers dock's button): the MCP Registry's dialog; `search`
    // is its first search. What it installs is started.
    void openAddServer(const QString &search = QString());
    // File → Install extension… (a file dialog), or a .mcpb dropped on the window: the bundle
    // is checked (refused with the reason), then confirmed in its dialog and installed.
    void installExtension(const QString &path = QString());
    InstallBundleDialog *installBundleDialog() const;
    // `switchboard --install LINK` and a link handed over by a browser (Engine::InstallLink): a
    // bundle's confirmation, "Add server…" on a registry entry, or (asked first) a bundle
    // downloaded and checked, then confirmed. A link that is not one says why. Nothing is
    // installed without the person's Install.
    void openInstallLink(const QString &link);
    // The Servers dock's Update… and Uninstall….
    InstallActions *installActions() const { return m_installs; }
    AddServerDialog *addServerDialog() const;
    // Sends the composer's text (or opens the tool browser for "/mcp").
    void submit();
    // File → Export conversation: the open one in `format` to `file` (empty: a save dialog
    // asks where, not waiting for the answer); the chat says where it went, or why not.
    void exportConversation(Engine::ConversationExport::Format format,
                            const QString &file = QString());
    // The width the chat pane has, between the side panels (for tests of the layout).
    int chatWidth() const;
    void editLastMessage(const QString &text);
    void cancelEdit();
    void retryTurn();

    // Closing waits this long at most for the keychain to keep the tokens of a sign-in just
    // made (a write usually takes milliseconds; a keychain that hangs must not keep the window).
    static constexpr int KeychainWaitMs = 5000;

signals:
    // The close completed: the turn was stopped and every server process is gone. The
    // application quits on it (the window was hidden first, so Qt's last-window-closed rule
    // would never fire).
    void closed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void serverInstalled(const QString &name, const QString &file, const QStringList &notes);
    QUrl registryUrl() const; // the setting, else the official registry
    void setUpEngine();
    void setUpWidgets();
    QWidget *setUpChatPane();
    QWidget *setUpConversationPane();
    void setUpDocks();
    void setUpMenus();
    // Every text the window sets once, again: at start and when the language changes.
    void retranslateUi();
    void refreshConversations();
    void openConversation(const QString &id);
    QString openConversationId() const;
    void renameConversation(const QString &id, const QString &title);
    void forkConversation(int ordinal);
    void deleteConversation(const QString &id);
    void newConversation();
    void switchDraft(const QString &id);
    void saveDrafts();
    void updateStatus();
    void pickProfile(const QString &id);
    void pickModel(const QString &model);
    void setBusy(bool busy);
    void connectAgent();
    void saveWindowState();
    void restoreWindowState();
    // First launch: the side panels narrow (a share of the width, within bounds), the chat
    // the rest.
    void defaultLayout();
    // Applies m_settings: the tool timeout, then the provider and agent (after reading the
    // key from the keychain if the settings name a provider; later if a turn is running).
    void applySettings(bool announce);
    void setProvider(const QString &storedKey, const QString &keychainError, bool announce);

    MainWindowOptions m_options;
    QStringList m_startupNotices; // problems found before the chat exists
    std::unique_ptr<Engine::Session> m_session;
    UiApprovalGate *m_gate = nullptr;
    WindowHost *m_host = nullptr;        // a child: outlives m_session
    SlashCommands *m_commands = nullptr; // "/mcp", "/server:prompt"
    bool m_keychainNoted = false;        // the chat said that no keychain keeps the key
    QString m_storedKey;                 // the keychain's API key in use, hidden from tool results
    QPointer<AuditLogDialog> m_auditDialog;
    std::unique_ptr<Engine::LlmProvider> m_provider;
    std::unique_ptr<Engine::ConversationStore> m_store;
    std::unique_ptr<Engine::Agent> m_agent;
    QString m_noModelReason;
    QPointer<NoModelNotice> m_noModelNotice; // "Chat needs a model", while it does
    // A conversation opened while there was no model: the next agent goes on from it.
    QString m_openId;
    std::vector<Engine::ChatMessage> m_openMessages;
    QString m_settingsFile;
    AppSettings m_settings;
    QPointer<SettingsDialog> m_settingsDialog;
    QPointer<AddServerDialog> m_addServerDialog;
    InstallActions *m_installs = nullptr;
    QPointer<InstallBundleDialog> m_installBundleDialog;
    int m_providerGeneration = 0; // a key read for older settings is ignored
    bool m_readingKey = false;
    bool m_applyPending = false; // settings saved during a turn: applied when it ends

    ChatView *m_chat = nullptr;
    QVBoxLayout *m_chatLayout = nullptr; // the chat, and above it the no-model notice
    AppCards *m_appCards = nullptr;
    QMap<QString, QString> m_viewContexts;
    QWidget *m_viewContextBar = nullptr;
    QLabel *m_editHint = nullptr;     // "Editing your last message", while it is
    bool m_editingLast = false;       // the composer holds the last message, to resend
    std::unique_ptr<Drafts> m_drafts; // unsent composer text, kept in drafts.json
    QTimer *m_draftsTimer = nullptr;
    ComposerEdit *m_composer = nullptr;
    AttachmentBar *m_attachmentBar = nullptr; // what the next message carries
    QPushButton *m_sendButton = nullptr;
    ModelPicker *m_modelPicker = nullptr;
    ConversationList *m_conversations = nullptr;
    QSplitter *m_splitter = nullptr;       // the conversation pane | the chat
    QWidget *m_conversationPane = nullptr; // the list and New conversation
    FindBar *m_findBar = nullptr;          // Ctrl+F, under the chat
    QAction *m_findAction = nullptr;
    QAction *m_conversationsAction = nullptr; // View → Conversations: shows or hides the pane
    bool m_defaultLayoutPending = false;      // no saved layout: defaultLayout() at the first show
    int m_listWidth = 0;                      // the pane's width, kept while it is hidden
    ServerDock *m_dock = nullptr;
    AgentsDock *m_agentsDock = nullptr;
    ProtocolLogDock *m_logDock = nullptr;
    ToolBrowser *m_browser = nullptr;
    ServerActions *m_servers = nullptr; // trust, enable, offering, the config editor
    QLabel *m_modelLabel = nullptr;
    UsageLabel *m_usageLabel = nullptr;
    QPushButton *m_newButton = nullptr;
    QToolBar *m_toolbar = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_toolsMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QAction *m_newAction = nullptr;
    QAction *m_settingsAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_browseAction = nullptr;
    QAction *m_editConfigAction = nullptr;
    QAction *m_auditAction = nullptr;
    QAction *m_addServerAction = nullptr;
    QAction *m_installExtensionAction = nullptr;
    QMenu *m_exportMenu = nullptr;
    QAction *m_shortcutsAction = nullptr;
    QAction *m_aboutAction = nullptr;
    bool m_closing = false;        // close requested, servers stopping
    bool m_serversStopped = false; // the close may complete
};

} // namespace Gui
