#include "cli.h"
#include "cliinternal.h"

#include <engine/a2a/delegatetool.h>
#include <engine/a2a/server.h>
#include <engine/agentexecutor.h>
#include <engine/llm/providerconfig.h>
#include <engine/secrets/processenvironment.h>
#include <engine/secrets/secretstore.h>
#include <engine/storage/conversationstore.h>
#include <mcp/config/redaction.h>

#include <QSocketNotifier>

#include <cstdio>
#ifdef Q_OS_UNIX
#include <csignal>
#include <unistd.h>
#endif

using namespace Mcp;

namespace Cli {

using namespace Internal;

namespace {
#ifdef Q_OS_UNIX
// SIGTERM and SIGINT while serving: the handler only writes a byte, the event loop does the rest.
int g_signalPipe[2] = {-1, -1};
void onStopSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &byte, 1);
}
#endif
} // namespace

// a2a send URL|AGENT MESSAGE [--stream] [--timeout S] [--json]
int Application::cmdA2aSend()
{
    QStringList positional;
    bool stream = false;
    int timeoutMs = -1;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        if (arg == QLatin1String("--stream")) {
            stream = true;
        } else if (arg == QLatin1String("--json")) {
            m_json = true;
        } else if (takeValue(m_args, i, QStringLiteral("--timeout"), &value)) {
            bool ok = false;
            const double seconds = value.toDouble(&ok);
            if (!ok || seconds <= 0 || seconds > ConfigLoader::kMaxTimeoutSeconds)
                return usageError(QStringLiteral("--timeout needs a positive number of seconds"));
            timeoutMs = std::max(1, int(seconds * 1000));
        } else if (arg.startsWith(QLatin1String("--"))) {
            return usageError(QStringLiteral("a2a send: unknown option '%1'").arg(arg));
        } else {
            positional << arg;
        }
    }
    if (positional.size() != 2)
        return usageError(QStringLiteral("a2a send needs URL|AGENT and MESSAGE"));
    const QString target = positional.at(0);
    const QString message = positional.at(1);
    if (message.trimmed().isEmpty())
        return usageError(QStringLiteral("a2a send: the message is empty"));
    loadConfig(); // the agents come with the session; a broken .mcp.json does not matter here
    const Engine::A2A::Peers &peers = m_session->peers();
    for (const ConfigError &error : peers.errors)
        err(error.toString());
    const bool isUrl = target.contains(QLatin1String("://"));
    QString error;
    std::optional<Engine::A2A::Endpoint> endpoint = Engine::A2A::DelegateAgentTool::resolve(
            peers, isUrl ? QString() : target, isUrl ? target : QString(), &error);
    if (!endpoint) {
        err(tr("a2a send: %1").arg(error));
        return peers.errors.isEmpty() ? Usage : InvalidConfig;
    }
    if (timeoutMs > 0)
        endpoint->timeoutMs = timeoutMs;

    // Streamed whenever the agent can (--stream only shows it): the task id then comes first,
    // so a timeout can cancel the remote task.
    Engine::A2A::SendOptions options;
    options.stream = true;
    const Mcp::Redactor redactor(m_session->secrets());
    m_session->a2aClient()->send(
            *endpoint, message, options,
            [this, stream](const Engine::A2A::StreamEvent &event) {
                if (!stream || m_json)
                    return;
                using Kind = Engine::A2A::StreamEvent::Kind;
                if (event.kind == Kind::ArtifactUpdate && event.artifact)
                    err(tr("[artifact] %1").arg(event.artifact->name));
                else if (event.kind == Kind::Task || event.kind == Kind::StatusUpdate)
                    err(event.status.message
                                ? tr("[%1] %2").arg(Engine::A2A::describe(event.status.state),
                                                    event.status.message->text())
                                : tr("[%1]").arg(Engine::A2A::describe(event.status.state)));
            },
            [this, redactor](const Engine::A2A::Outcome &outcome) {
                using Kind = Engine::A2A::Outcome::Kind;
                const int code = outcome.kind == Kind::Completed     ? Ok
                                 : outcome.kind == Kind::Unreachable ? ServerFailed
                                 : outcome.kind == Kind::TimedOut    ? Timeout
                                                                     : ToolError;
                if (m_json) {
                    static const char *const Outcomes[]
                            = {"completed", "interrupted", "failed", "stopped",
                               "timed-out", "unreachable", "error"};
                    Json json = {
                            {"outcome", Outcomes[int(outcome.kind)]},
                            {"state", outcome.state == Engine::A2A::TaskState::Unknown
                                              ? ""
                                              : Engine::A2A::stateName(outcome.state,
                                                                       Engine::A2A::Version::V1_0)},
                            {"text", redactor.redactText(outcome.text).toStdString()},
                            {"taskId", outcome.taskId.toStdString()},
                            {"contextId", outcome.contextId.toStdString()},
                            {"protocol", outcome.envelope ? "envelope"
                                         : outcome.version == Engine::A2A::Version::V0_3 ? "0.3"
                                                                                         : "1.0"}};
                    if (!outcome.error.isEmpty())
                        json["error"] = redactor.redactText(outcome.error).toStdString();
                    out(jsonText(json) + QLatin1Char('\n'));
                } else if (outcome.ok()) {
                    out(redactor.redactText(outcome.text) + QLatin1Char('\n'));
                } else {
                    err(redactor.redactText(outcome.summary()));
                    if (outcome.kind == Kind::Interrupted)
                        err(tr("the agent is waiting: task %1, context %2")
                                    .arg(outcome.taskId, outcome.contextId));
                }
                finish(code);
            });
    return -1;
}

// a2a serve [--host H] [--port P] [--token T] [--max-tasks N]
int Application::cmdA2aServe()
{
    Engine::A2A::ServerOptions options;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        if (takeValue(m_args, i, QStringLiteral("--host"), &value)) {
            options.host = value;
        } else if (takeValue(m_args, i, QStringLiteral("--port"), &value)) {
            bool ok = false;
            const uint port = value.toUInt(&ok);
            if (!ok || port > 65535)
                return usageError(QStringLiteral("--port needs a number from 0 to 65535"));
            options.port = quint16(port);
        } else if (takeValue(m_args, i, QStringLiteral("--token"), &value)) {
            if (value.trimmed().isEmpty())
                return usageError(QStringLiteral("--token needs a value"));
            options.token = value.trimmed();
        } else if (takeValue(m_args, i, QStringLiteral("--max-tasks"), &value)) {
            bool ok = false;
            options.maxConcurrentTasks = value.toInt(&ok);
            if (!ok || options.maxConcurrentTasks < 1 || options.maxConcurrentTasks > 1000)
                return usageError(QStringLiteral("--max-tasks needs a number from 1 to 1000"));
        } else {
            return usageError(QStringLiteral("a2a serve: unknown argument '%1'").arg(arg));
        }
    }
    if (options.token.isEmpty())
        options.token = qEnvironmentVariable("SWITCHBOARD_A2A_TOKEN").trimmed();
    QString whyNot;
    const auto provider = Engine::ProviderConfig::fromEnvironment(
            Engine::ProcessEnvironment::original(), &whyNot);
    if (!provider) {
        err(QStringLiteral("switchboard-cli a2a serve: no model configured: %1").arg(whyNot));
        return Usage;
    }
    if (!loadConfig())
        return InvalidConfig;
    const auto serve = [this, provider = *provider](const Engine::A2A::ServerOptions &options) {
        m_engineParent = new QObject(this);
        m_session->setModel(provider);
        auto *store = new Engine::ConversationStore(m_engineParent);
        auto *executor
                = new Engine::A2A::AgentExecutor(m_session.get(), provider, store, m_engineParent);
        Engine::A2A::ServerOptions described = options;
        executor->describe(described);
        auto *server = new Engine::A2A::Server(described, executor, m_engineParent);
        connect(server, &Engine::A2A::Server::taskChanged, this, [server](const QString &id) {
            const std::optional<Engine::A2A::InboundTaskInfo> task = server->task(id);
            if (!task || !Engine::A2A::isTerminal(task->state))
                return;
            err(tr("task %1 %2%3")
                        .arg(id, Engine::A2A::describe(task->state),
                             task->refusedTools.isEmpty()
                                     ? QString()
                                     : tr(" (refused: %1)")
                                               .arg(task->refusedTools.join(
                                                       QStringLiteral(", ")))));
        });
        QString error;
        if (!server->start(&error)) {
            err(QStringLiteral("switchboard-cli a2a serve: %1").arg(error));
            finish(Usage);
            return;
        }
#ifdef Q_OS_UNIX
        if (::pipe(g_signalPipe) == 0) {
            auto *notifier
                    = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, m_engineParent);
            connect(notifier, &QSocketNotifier::activated, this, [this, server] {
                char byte = 0;
                [[maybe_unused]] const auto got = ::read(g_signalPipe[0], &byte, 1);
                err(tr("stopping"));
                server->stop();
                finish(Ok);
            });
            std::signal(SIGTERM, onStopSignal);
            std::signal(SIGINT, onStopSignal);
        }
#endif
        // The line a script waits for.
        out(tr("serving %1 on %2").arg(m_workspace, server->baseUrl()) + QLatin1Char('\n'));
        std::fflush(stdout);
    };
    startServers();
    if (!options.token.isEmpty() || Engine::A2A::Server::isLoopback(options.host)) {
        whenSettled([serve, options] { serve(options); });
        return -1;
    }
    // Off loopback without a token given: the keychain may hold one.
    m_session->secretStore()->read(
            QStringLiteral("a2a-serve-token"), this,
            [this, serve, options](const Engine::SecretStore::Result &result) mutable {
                if (result.status == Engine::SecretStore::Result::Ok)
                    options.token = result.secret.trimmed();
                whenSettled([serve, options] { serve(options); });
            });
    return -1;
}

} // namespace Cli
