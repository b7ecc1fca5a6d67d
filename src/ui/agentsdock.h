#pragma once

#include <engine/a2a/server.h>
#include <engine/llm/providerconfig.h>

#include "sidepanel.h"

#include <QDockWidget>
#include <QHash>
#include <QPointer>

#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace Engine {
class ConversationStore;
class Session;
namespace A2A {
class AgentExecutor;
}
} // namespace Engine

namespace Gui {

// The Agents dock: the agents this workspace knows (a2a.json, .a2a.json) with what their cards
// say and whether they answer (a workspace's agent is not contacted until trusted: Trust
// does that), the "Serve this workspace as an agent" switch with the address it serves on,
// and the inbound tasks as they run (state, request, answer, the tools they were refused).
// The server runs on 127.0.0.1 only, with the window's model and the session's read-only
// inbound runner; the Session and the store are owned by the window.
class AgentsDock : public QDockWidget
{
    Q_OBJECT
public:
    enum PeerColumn { PeerNameColumn, PeerCardColumn, PeerStateColumn, PeerSkillsColumn };
    enum TaskColumn { TaskStateColumn, TaskRequestColumn, TaskReplyColumn, TaskRefusedColumn };

    AgentsDock(Engine::Session *session, Engine::ConversationStore *store,
               QWidget *parent = nullptr);
    // Narrow at first (sidepanel.h): the chat is the centre of the window.
    QSize sizeHint() const override { return sidePanelHint(QDockWidget::sizeHint()); }
    ~AgentsDock() override;

    // The model inbound tasks use; none: serving is off and cannot be switched on.
    void setModel(std::optional<Engine::ProviderConfig> model);
    // Reads the session's agents again and asks each trusted one for its card.
    void refreshPeers();

    // At most this many inbound tasks at once (from now on, when serving).
    void setMaxTasks(int tasks);
    bool setServing(bool serving, QString *error = nullptr);
    bool isServing() const { return m_server != nullptr; }
    Engine::A2A::Server *server() const { return m_server.get(); }
    QString address() const;

    QTreeWidget *peerView() const { return m_peers; }
    QTreeWidget *taskView() const { return m_tasks; }
    QCheckBox *serveSwitch() const { return m_serve; }

signals:
    // The user trusted workspace agents (the window records it and refreshes).
    void trustRequested(const QStringList &names);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateTasks();
    void updateServeState();
    void trustSelected();

    Engine::Session *m_session;
    Engine::ConversationStore *m_store;
    std::optional<Engine::ProviderConfig> m_model;
    std::unique_ptr<Engine::A2A::AgentExecutor> m_executor;
    std::unique_ptr<Engine::A2A::Server> m_server;
    QString m_serveError;
    int m_maxTasks = 4;
    // What each peer's card said (or why not), by name; cleared by refreshPeers().
    struct CardState
    {
        bool checking = false;
        std::optional<Engine::A2A::AgentCard> card;
        QString error;
    };
    QHash<QString, CardState> m_cards;
    quint64 m_generation = 0; // answers to an older refresh are dropped

    QLabel *m_peersLabel;
    QTreeWidget *m_peers;
    QPushButton *m_refresh;
    QPushButton *m_trust;
    QCheckBox *m_serve;
    QLabel *m_address;
    QLabel *m_tasksLabel;
    QTreeWidget *m_tasks;
};

} // namespace Gui
