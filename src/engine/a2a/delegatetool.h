#pragma once

#include "peers.h"

#include <engine/tools/tool.h>

#include <functional>

namespace Engine::A2A {

// delegate_agent {message, agent | url}: hands a whole task to another agent over A2A and
// returns its report (the artifacts' text, else its message) as the observation. `dangerous`:
// the message may carry anything from the conversation to another machine. The peer is
// looked up when the call runs (the configuration may have changed); a workspace's peer that
// the user has not trusted, an unknown name or no target at all is a clear error naming the
// known agents, and nothing is sent. The remote task's status arrives as progress; Stop (and
// the runner's timeout) cancel it at the remote.
class DelegateAgentTool : public Tool
{
public:
    // `peers` gives the configuration as it is now; `client` must outlive the tool.
    DelegateAgentTool(Client *client, std::function<Peers()> peers);

    QString name() const override { return QStringLiteral("delegate_agent"); }
    QString description() const override;
    Json inputSchema() const override;
    Risk risk() const override { return Risk::Dangerous; }

    // A still-waiting task reports progress this often (so the runner's timeout, which
    // progress extends, waits for the agent's own).
    static constexpr int HeartbeatMs = 15000;

    // Where a call goes, or why it cannot go anywhere (the same rules as `a2a send`).
    static std::optional<Endpoint> resolve(const Peers &peers, const QString &agent,
                                           const QString &url, QString *error);

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &context,
                         std::function<void(ToolOutput)> done) override;

private:
    Client *m_client;
    std::function<Peers()> m_peers;
};

} // namespace Engine::A2A
