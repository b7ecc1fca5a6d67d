#pragma once

#include <engine/agent.h>
#include <engine/conversationstore.h>
#include <engine/mcptooladapter.h>
#include <engine/toolrunner.h>
#include <mcp/manager.h>

#include <QMainWindow>

#include <memory>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace Ui {

class ChatView;
class ProtocolLogDock;
class ServerDock;
class ToolBrowser;
class UiApprovalGate;

struct MainWindowOptions
{
    QString workspace;          // absolute
    QString configFile;         // empty: <workspace>/.mcp.json
    QString conversationFolder; // empty: the default location
};

// The desktop: conversation list, chat view, composer with Send/Stop, the server dock and
// the tool browser, wired to the engine it owns (Manager, registry, runner with a modal
// approval gate, provider, agent, conversation store). Draws and drives; no protocol logic.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options, QWidget *parent = nullptr);
    ~MainWindow() override;

    Mcp::Manager *manager() const { return m_manager.get(); }
    Engine::ToolRegistry *registry() const { return m_registry.get(); }
    Engine::ToolRunner *runner() const { return m_runner.get(); }
    Engine::Agent *agent() const { return m_agent.get(); }
    ChatView *chatView() const { return m_chat; }
    ProtocolLogDock *protocolLogDock() const { return m_logDock; }
    void openToolBrowser();
    // Sends the composer's text (or opens the tool browser for "/mcp").
    void submit();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void setUpEngine();
    void setUpWidgets();
    void refreshConversations();
    void openConversation(const QString &id);
    void newConversation();
    void updateStatus();
    void setBusy(bool busy);

    MainWindowOptions m_options;
    Mcp::McpConfig m_config;
    std::unique_ptr<Mcp::Manager> m_manager;
    std::unique_ptr<Engine::ToolRegistry> m_registry;
    std::unique_ptr<Engine::McpToolAdapter> m_adapter;
    UiApprovalGate *m_gate = nullptr;
    std::unique_ptr<Engine::ToolRunner> m_runner;
    std::unique_ptr<Engine::LlmProvider> m_provider;
    std::unique_ptr<Engine::ConversationStore> m_store;
    std::unique_ptr<Engine::Agent> m_agent;
    QString m_noModelReason;

    ChatView *m_chat = nullptr;
    QPlainTextEdit *m_composer = nullptr;
    QPushButton *m_sendButton = nullptr;
    QListWidget *m_conversations = nullptr;
    ServerDock *m_dock = nullptr;
    ProtocolLogDock *m_logDock = nullptr;
    ToolBrowser *m_browser = nullptr;
    QLabel *m_modelLabel = nullptr;
    QLabel *m_usageLabel = nullptr;
};

} // namespace Ui
