#include "cli.h"
#include "cliinternal.h"

#include "terminalgate.h"

#include <engine/approval/toolrunner.h>
#include <engine/llm/providerconfig.h>
#include <engine/secrets/processenvironment.h>
#include <engine/storage/conversationstore.h>

#include <cstdio>

using namespace Mcp;

namespace Cli {

using namespace Internal;

int Application::cmdRun()
{
    QStringList positional;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        bool ok = true;
        if (arg == QLatin1String("--json")) {
            m_json = true;
        } else if (takeValue(m_args, i, QStringLiteral("--approve"), &value)) {
            if (!setApprove(value))
                return Usage;
        } else if (takeValue(m_args, i, QStringLiteral("--max-turns"), &value)) {
            m_maxTurns = value.toInt(&ok);
            if (!ok || m_maxTurns < 1)
                return usageError(QStringLiteral("--max-turns needs a positive whole number"));
        } else if (takeValue(m_args, i, QStringLiteral("--tool-search"), &value)) {
            m_toolSearch = value.toInt(&ok);
            if (!ok || m_toolSearch < 0)
                return usageError(QStringLiteral(
                        "--tool-search needs a whole number of tools (0: always every tool)"));
        } else if (arg.startsWith(QLatin1String("--"))) {
            return usageError(QStringLiteral("run: unknown or incomplete option '%1'").arg(arg));
        } else {
            positional << arg;
        }
    }
    if (positional.size() != 1 || positional.first().trimmed().isEmpty())
        return usageError(QStringLiteral("run needs one PROMPT (quote it)"));
    m_prompt = positional.first();
    QString whyNot;
    if (!Engine::ProviderConfig::fromEnvironment(Engine::ProcessEnvironment::original(), &whyNot)) {
        err(QStringLiteral("switchboard-cli run: no model configured: %1").arg(whyNot));
        return Usage;
    }
    if (!loadConfig())
        return InvalidConfig;
    startServers();
    whenSettled([this] { startRun(); });
    return -1;
}

void Application::startRun()
{
    m_engineParent = new QObject(this);
    for (const QString &name : m_session->manager()->serverNames()) {
        const ServerStatus s = m_session->manager()->status(name);
        if (s.state == ServerState::Failed)
            err(QStringLiteral("server '%1' failed (its tools are unavailable): %2")
                        .arg(name, s.reason));
        else if (s.state == ServerState::Untrusted)
            err(QStringLiteral("server '%1' is not trusted yet (its tools are unavailable): %2")
                        .arg(name, trustHint(name)));
    }
    registry(); // reports the tools it rejected
    const auto providerConfig = *Engine::ProviderConfig::fromEnvironment(
            Engine::ProcessEnvironment::original(), nullptr);
    m_session->setModel(providerConfig);
    Engine::LlmProvider *provider
            = Engine::createProvider(providerConfig, m_engineParent).release();
    provider->setParent(m_engineParent);

    m_session->setGate(terminalGate());
    Engine::ToolRunner *runner = m_session->runner();
    connect(runner, &Engine::ToolRunner::warning, this, [](const QString &text) { err(text); });

    auto *store = new Engine::ConversationStore(m_engineParent);
    Engine::AgentOptions options;
    options.maxTurns = m_maxTurns;
    options.toolSearchThreshold = m_toolSearch;
    auto *agent = m_session->createAgent(provider, options, Engine::Session::AgentUse::Interactive,
                                         m_engineParent);
    agent->setStore(store);
    agent->newConversation(m_prompt.left(60), m_workspace);

    auto failed = std::make_shared<QString>();
    auto denied = std::make_shared<int>(0);
    connect(agent, &Engine::Agent::textDelta, this, [this](const QString &delta) {
        if (!m_json) {
            out(delta);
            std::fflush(stdout);
        }
    });
    connect(agent, &Engine::Agent::toolStarted, this,
            [](const QString &, const QString &name, const Json &args) {
                err(QStringLiteral("[tool] %1 %2")
                            .arg(name, QString::fromStdString(args.dump(
                                               -1, ' ', false, Json::error_handler_t::replace))));
            });
    connect(agent, &Engine::Agent::toolFinished, this,
            [denied](const QString &, const Engine::SharedToolRunResult &shared) {
                const Engine::ToolRunResult &r = *shared;
                if (r.denied)
                    ++*denied;
                const QString state = r.denied           ? QStringLiteral("denied")
                                      : r.timedOut       ? QStringLiteral("timed out")
                                      : r.cancelled      ? QStringLiteral("cancelled")
                                      : r.output.isError ? QStringLiteral("error")
                                                         : QStringLiteral("ok");
                err(QStringLiteral("[tool] → %1: %2")
                            .arg(state, r.output.modelText(200).section(QLatin1Char('\n'), 0, 0)));
            });
    connect(agent, &Engine::Agent::errorOccurred, this, [failed](const QString &message) {
        *failed = message;
        err(QStringLiteral("error: %1").arg(message));
    });
    connect(agent, &Engine::Agent::turnFinished, this,
            [this, agent, failed, denied](const Engine::Usage &usage) {
                if (m_json) {
                    Json messages = Json::array();
                    for (const auto &m : agent->messages())
                        messages.push_back(m.toJson());
                    out(jsonText(Json{
                                {"conversation", agent->conversationId().toStdString()},
                                {"messages", messages},
                                {"usage",
                                 {{"input", usage.inputTokens}, {"output", usage.outputTokens}}}})
                        + QLatin1Char('\n'));
                } else {
                    out(QStringLiteral("\n"));
                }
                err(QStringLiteral("conversation %1").arg(agent->conversationId()));
                finish(!failed->isEmpty() ? ServerFailed : *denied > 0 ? Denied : Ok);
            });
    agent->send(m_prompt);
}

} // namespace Cli
