#pragma once

#include "tool.h"

#include <QString>

#include <functional>

namespace Engine {

// What a human (or a policy standing in for one) is asked before a tool that can change
// something runs.
struct ApprovalRequest
{
    QString toolName;     // registry name (mcp__server__tool or a built-in)
    QString source;       // "builtin" or the server
    QString originalName; // the tool's name at its source
    Risk risk = Risk::Dangerous;
    Json arguments;
    Json hints; // the server's annotations: untrusted
    QString conversationId;
};

enum class ApprovalChoice {
    AllowOnce,
    AllowForConversation, // this tool, until the conversation ends
    AlwaysAllow,          // saved to the config's autoApprove
    Deny,
};

struct ApprovalDecision
{
    ApprovalChoice choice = ApprovalChoice::Deny;
    QString reason; // for Deny: fed back to the model
};

// Asks for a decision, asynchronously. The UI implements it with a modal dialog, the CLI with
// a terminal prompt or a fixed answer, the A2A server with "deny". `decide` must be called
// exactly once.
class ApprovalGate
{
public:
    virtual ~ApprovalGate() = default;
    virtual void requestApproval(const ApprovalRequest &request,
                                 std::function<void(ApprovalDecision)> decide)
            = 0;
};

// A gate that answers every request the same way (headless runs, inbound A2A).
class FixedApprovalGate : public ApprovalGate
{
public:
    explicit FixedApprovalGate(ApprovalDecision decision)
        : m_decision(std::move(decision))
    {
    }
    void requestApproval(const ApprovalRequest &,
                         std::function<void(ApprovalDecision)> decide) override
    {
        decide(m_decision);
    }

private:
    ApprovalDecision m_decision;
};

} // namespace Engine
