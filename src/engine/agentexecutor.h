#pragma once

#include <engine/a2a/server.h>

#include <engine/llm/providerconfig.h>

#include <QHash>
#include <QObject>

namespace Engine {
class Agent;
class ConversationStore;
class Session;
} // namespace Engine

namespace Engine::A2A {

// Runs inbound tasks with the configured model and the session's tools through its inbound
// runner (every tool that is not `read` is denied and audited: nobody is at the keyboard).
// The tasks of one context continue one conversation, saved in `store` as an inbound one; a
// context whose agent is still busy refuses another task.
class AgentExecutor : public QObject, public TaskExecutor
{
    Q_OBJECT
public:
    AgentExecutor(Session *session, ProviderConfig provider, ConversationStore *store,
                  QObject *parent = nullptr);
    ~AgentExecutor() override;

    std::function<void()> start(const Start &task, Events events, QString *conversation) override;
    QList<AgentSkill> skills() const override;
    // The card's name and description for this workspace.
    void describe(ServerOptions &options) const;

    static constexpr int MaxIdleContexts = 16;
    static constexpr int MaxSkills = 100;

private:
    struct Context
    {
        Agent *agent = nullptr;
        qint64 lastUsed = 0;
    };
    void forgetIdleContexts();

    Session *m_session;
    ProviderConfig m_provider;
    ConversationStore *m_store;
    QHash<QString, Context> m_contexts;
    qint64 m_clock = 0;
};

} // namespace Engine::A2A
