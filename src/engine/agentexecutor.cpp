#include "agentexecutor.h"

#include "session.h"

#include <engine/agent/agent.h>
#include <engine/storage/conversationstore.h>

#include <QCoreApplication>
#include <QFileInfo>

namespace Engine::A2A {

AgentExecutor::AgentExecutor(Session *session, ProviderConfig provider, ConversationStore *store,
                             QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_provider(std::move(provider))
    , m_store(store)
{
}

AgentExecutor::~AgentExecutor()
{
    for (const Context &context : std::as_const(m_contexts))
        context.agent->cancel();
}

void AgentExecutor::describe(ServerOptions &options) const
{
    const QString folder = QFileInfo(m_session->options().workspace).fileName();
    options.name = tr("Switchboard: %1").arg(folder);
    options.description
            = tr("A Switchboard agent working in %1 (read-only tools for remote requests).")
                      .arg(folder);
}

QList<AgentSkill> AgentExecutor::skills() const
{
    QList<AgentSkill> skills;
    skills << AgentSkill{QStringLiteral("workspace"), tr("Workspace questions"),
                         tr("Answers questions about the workspace %1 with its read-only tools.")
                                 .arg(m_session->options().workspace)};
    for (const auto &tool : m_session->registry()->offeredTools()) {
        if (tool->risk() != Risk::Read || skills.size() > MaxSkills)
            continue;
        skills << AgentSkill{tool->name(), tool->name(), tool->description().left(500)};
    }
    return skills;
}

std::function<void()> AgentExecutor::start(const Start &task, Events events, QString *conversation)
{
    Context &context = m_contexts[task.contextId];
    if (context.agent && context.agent->isBusy()) {
        events.done(false, tr("Another task of this context is still running; wait for it or "
                              "start a new context."));
        return [] {
        };
    }
    context.lastUsed = ++m_clock;
    if (!context.agent) {
        auto provider = createProvider(m_provider);
        Agent *agent = m_session->createAgent(provider.get(), AgentOptions(),
                                              Session::AgentUse::Inbound, this);
        provider.release()->setParent(agent);
        agent->setStore(m_store);
        agent->setOrigin(QStringLiteral("a2a-inbound"));
        agent->newConversation(tr("A2A: %1").arg(task.text.simplified().left(50)),
                               m_session->options().workspace);
        context.agent = agent;
    }
    Agent *agent = context.agent;
    *conversation = agent->conversationId();

    // Exactly one done() per task, whatever the agent reports after it.
    auto state = std::make_shared<Events>(std::move(events));
    auto error = std::make_shared<QString>();
    auto *scope = new QObject(this); // the task's connections
    const auto end = [state, scope](bool ok, const QString &text) {
        if (!state->done)
            return;
        auto done = std::move(state->done);
        state->done = nullptr;
        scope->deleteLater();
        QObject::disconnect(scope, nullptr, nullptr, nullptr);
        done(ok, text);
    };
    connect(agent, &Agent::toolStarted, scope,
            [state](const QString &, const QString &name, const Json &) {
                if (state->working)
                    state->working(tr("using %1").arg(name));
            });
    connect(agent, &Agent::messageAdded, scope, [state](const ChatMessage &message) {
        if (message.role == ChatMessage::Role::Tool && message.denied && state->refused)
            state->refused(message.toolName);
    });
    connect(agent, &Agent::errorOccurred, scope,
            [error](const QString &message) { *error = message; });
    connect(agent, &Agent::turnFinished, scope, [agent, error, end](const Usage &) {
        if (!error->isEmpty())
            return end(false, *error);
        const auto &messages = agent->messages();
        for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
            if (it->role == ChatMessage::Role::Assistant)
                return end(true, it->text);
        }
        end(false, tr("The model gave no answer."));
    });
    if (!agent->send(task.text)) {
        end(false, tr("The agent could not take the task."));
        return [] {
        };
    }
    forgetIdleContexts();
    QPointer<Agent> guard(agent);
    return [guard, end] {
        if (guard)
            guard->cancel();
        end(false, tr("Stopped."));
    };
}

void AgentExecutor::forgetIdleContexts()
{
    while (m_contexts.size() > MaxIdleContexts) {
        auto oldest = m_contexts.end();
        for (auto it = m_contexts.begin(); it != m_contexts.end(); ++it) {
            if (!it->agent->isBusy()
                && (oldest == m_contexts.end() || it->lastUsed < oldest->lastUsed))
                oldest = it;
        }
        if (oldest == m_contexts.end())
            return;
        oldest->agent->deleteLater();
        m_contexts.erase(oldest);
    }
}

} // namespace Engine::A2A
