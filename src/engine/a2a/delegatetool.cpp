#include "delegatetool.h"

#include <mcp/wire/safetext.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>

namespace Engine::A2A {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::A2A::DelegateAgentTool", text);
}

QString knownAgents(const Peers &peers)
{
    const QStringList names = peers.names();
    return names.isEmpty() ? tr("no agents are configured (.a2a.json in the workspace, or "
                                "a2a.json in your config folder)")
                           : tr("known agents: %1").arg(names.join(QLatin1String(", ")));
}

} // namespace

DelegateAgentTool::DelegateAgentTool(Client *client, std::function<Peers()> peers)
    : m_client(client)
    , m_peers(std::move(peers))
{
}

QString DelegateAgentTool::description() const
{
    QString text = QStringLiteral(
            "Hand a whole task to another agent (over the A2A protocol) and get its report "
            "back. Give the task in `message` as a complete, self-contained request (the other "
            "agent sees nothing of this conversation), and either `agent` (a configured agent's "
            "name) or `url` (an agent's address).");
    const Peers peers = m_peers();
    QStringList lines;
    for (const Peer &peer : peers.peers) {
        if (peer.untrusted || !peer.error.isEmpty())
            continue;
        lines << (peer.description.isEmpty()
                          ? QStringLiteral("- %1").arg(peer.name)
                          : QStringLiteral("- %1: %2").arg(peer.name, peer.description.left(200)));
        if (lines.size() == 20)
            break;
    }
    if (!lines.isEmpty())
        text += QStringLiteral(" Configured agents:\n") + lines.join(QLatin1Char('\n'));
    return text;
}

Json DelegateAgentTool::inputSchema() const
{
    return {{"type", "object"},
            {"properties",
             {{"message",
               {{"type", "string"}, {"description", "The task for the other agent, complete."}}},
              {"agent", {{"type", "string"}, {"description", "A configured agent's name."}}},
              {"url",
               {{"type", "string"},
                {"description",
                 "The agent's address (http or https), when it is not configured."}}},
              {"taskId",
               {{"type", "string"},
                {"description", "To answer an agent that asked for input: its task id."}}},
              {"contextId",
               {{"type", "string"},
                {"description", "With taskId: the context id the agent gave."}}}}},
            {"required", Json::array({"message"})},
            {"additionalProperties", false}};
}

std::optional<Endpoint> DelegateAgentTool::resolve(const Peers &peers, const QString &agent,
                                                   const QString &url, QString *error)
{
    const auto refuse = [error](const QString &why) {
        *error = why;
        return std::nullopt;
    };
    if (!agent.isEmpty() && !url.isEmpty())
        return refuse(tr("give either an agent's name or a URL, not both"));
    if (!agent.isEmpty()) {
        const Peer *peer = peers.find(agent);
        if (!peer)
            return refuse(tr("no agent named '%1'; %2")
                                  .arg(Mcp::escapeControlCharacters(agent.left(100)),
                                       knownAgents(peers)));
        if (peer->untrusted)
            return refuse(tr("agent '%1' comes from this workspace's %2 and is not trusted yet; "
                             "nothing was sent (trust it with 'switchboard-cli --workspace %3 "
                             "trust %1')")
                                  .arg(peer->name, peer->sourceFile,
                                       QFileInfo(peer->sourceFile).absolutePath()));
        if (!peer->error.isEmpty())
            return refuse(peer->error);
        return peer->endpoint();
    }
    if (url.isEmpty())
        return refuse(tr("say which agent: 'agent' (%1) or 'url'").arg(knownAgents(peers)));
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty()
        || (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https")))
        return refuse(tr("'%1' is not an http or https URL")
                              .arg(Mcp::escapeControlCharacters(url.left(200))));
    Endpoint endpoint;
    endpoint.url = parsed;
    endpoint.timeoutMs = Peer::DefaultTimeoutMs;
    return endpoint;
}

CancelHandle DelegateAgentTool::execute(const Json &arguments, const ToolContext &context,
                                        std::function<void(ToolOutput)> done)
{
    const QString message = stringMember(arguments, "message").trimmed();
    if (message.isEmpty()) {
        done(ToolOutput::error(tr("'message' is empty: say what the other agent should do")));
        return {};
    }
    QString error;
    const std::optional<Endpoint> endpoint
            = resolve(m_peers(), stringMember(arguments, "agent").trimmed(),
                      stringMember(arguments, "url").trimmed(), &error);
    if (!endpoint) {
        done(ToolOutput::error(error));
        return {};
    }

    // Progress: each state the remote task reaches, and a heartbeat while it works.
    auto heartbeat = std::make_shared<QTimer>();
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    auto lastState = std::make_shared<QString>(tr("sent"));
    auto steps = std::make_shared<int>(0);
    const auto report
            = [onProgress = context.onProgress, endpoint = *endpoint, steps](const QString &text) {
                  if (onProgress)
                      onProgress(Mcp::Progress{double(++*steps), std::nullopt,
                                               tr("%1: %2").arg(endpoint.displayName(), text)});
              };
    heartbeat->setInterval(HeartbeatMs);
    QObject::connect(heartbeat.get(), &QTimer::timeout, heartbeat.get(),
                     [report, lastState, clock] {
                         report(tr("%1 (%2 s)").arg(*lastState).arg(clock->elapsed() / 1000));
                     });
    heartbeat->start();

    SendOptions options;
    options.stream = true;
    options.taskId = stringMember(arguments, "taskId");
    options.contextId = stringMember(arguments, "contextId");
    return m_client->send(
            *endpoint, message, options,
            [report, lastState](const StreamEvent &event) {
                if (event.kind == StreamEvent::Kind::ArtifactUpdate) {
                    report(tr("artifact received"));
                    return;
                }
                if (event.kind == StreamEvent::Kind::Message)
                    return;
                QString text = describe(event.status.state);
                if (event.status.message)
                    text += QStringLiteral(": ")
                            + event.status.message->text()
                                      .section(QLatin1Char('\n'), 0, 0)
                                      .left(200);
                if (text != *lastState) {
                    *lastState = text;
                    report(text);
                }
            },
            [done, heartbeat, endpoint = *endpoint](const Outcome &outcome) {
                heartbeat->stop();
                if (outcome.ok()) {
                    done(ToolOutput::text(
                            outcome.text.isEmpty()
                                    ? tr("(agent %1 completed the task and said nothing)")
                                              .arg(endpoint.displayName())
                                    : outcome.text));
                    return;
                }
                QString text = tr("agent %1: %2").arg(endpoint.displayName(), outcome.summary());
                if (outcome.kind == Outcome::Kind::Interrupted && !outcome.taskId.isEmpty())
                    text += QLatin1Char('\n')
                            + tr("The agent is waiting for an answer: call delegate_agent again "
                                 "with the answer as the message, taskId %1 and contextId %2.")
                                      .arg(outcome.taskId, outcome.contextId);
                done(ToolOutput::error(text));
            });
}

} // namespace Engine::A2A
