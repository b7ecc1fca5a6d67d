#pragma once

#include <engine/policy/commandpattern.h>
#include <engine/tools/tool.h>

#include <QString>

#include <functional>
#include <memory>

namespace Engine {

// What a human (or a policy standing in for one) is asked before a tool that can change
// something runs.
// Who an approval grant is for: a built-in tool (a kind of its own, never a server, whatever a
// server calls itself) or a server's tool by its name on that server. Never the registry
// name: `mcp__a_b__x` can be the tool x of a server "a-b" or of a server "a_b".
struct ToolKey
{
    bool builtin = false;
    QString server; // empty for built-ins
    QString tool;   // the tool's name at its source

    static ToolKey of(const Tool &tool);
    // A stable text form ("builtin/bash", "server/fix/write_file"), for maps and files.
    QString toString() const;
    bool operator==(const ToolKey &) const = default;
};

// Who asked for a call: the model, a server's interactive view (MCP Apps) — which may call
// its own server's tools through the same gate, and must be told apart from the model in the
// dialog and the audit log — or the person, running a tool by hand with the arguments they
// typed (the tool browser): their click is the approval, and nobody is asked again.
enum class CallOrigin { Model, App, User };

struct ApprovalRequest
{
    QString toolName;     // registry name (mcp__server__tool or a built-in)
    QString source;       // "builtin" or the server
    bool builtin = false; // a built-in tool (a server may be named "builtin"; this may not lie)
    QString originalName; // the tool's name at its source
    Risk risk = Risk::Dangerous;
    Json arguments;
    Json hints; // the server's annotations: untrusted
    QString conversationId;
    // Why this particular call asks although its tool's risk would not (a sensitive file);
    // empty when the tool's risk is the reason.
    QString reason;
    // For a command-line tool (bash): the command grants are keyed by, and the pattern the
    // dialog offers for "allow for this conversation" / "always" (CommandPattern::suggest).
    QString command;
    QString suggestedPattern;
    CallOrigin origin = CallOrigin::Model;
    // The file the call would change and how (Tool::proposedChange()); null when it changes no
    // file we can tell.
    std::shared_ptr<const FileChange> change;
    // Identifies the request for ApprovalGate::withdraw() (the ToolRunner's run id).
    quint64 requestId = 0;
};

// The choice is also the grant's scope: once, this conversation, always.
enum class ApprovalChoice {
    AllowOnce,
    AllowForConversation, // this tool (bash: this command pattern) until the conversation ends
    AlwaysAllow,          // saved in the user's data folder (ApprovalStore), per workspace
    Deny,
};

struct ApprovalDecision
{
    // A constructor rather than an aggregate, so that `{choice, reason}` stays valid (and
    // warning-free) as fields are added.
    ApprovalDecision() = default;
    ApprovalDecision(ApprovalChoice choice, QString reason = {}, QString commandPattern = {})
        : choice(choice)
        , reason(std::move(reason))
        , commandPattern(std::move(commandPattern))
    {
    }

    ApprovalChoice choice = ApprovalChoice::Deny;
    QString reason; // for Deny: fed back to the model
    // For a command-line tool allowed for the conversation or always: the CommandPattern
    // the grant covers (as the user edited it). Empty: the exact command only.
    QString commandPattern;
};

// "once", "conversation", "always" or "deny": the scope as the audit log and messages name it.
QString scopeName(ApprovalChoice choice);

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
    // The request `requestId` is no longer wanted (its turn was stopped): a gate that still
    // has it waiting drops its question (closes its dialog) and calls its `decide` with Deny,
    // unless it was called already. Gates that answer at once have nothing to withdraw.
    virtual void withdraw(quint64 requestId) { Q_UNUSED(requestId) }
};

// A gate that answers every request the same way (headless runs, inbound A2A).
class FixedApprovalGate : public ApprovalGate
{
public:
    explicit FixedApprovalGate(ApprovalDecision decision)
        : m_decision(std::move(decision))
    {
    }
    void requestApproval(const ApprovalRequest &request,
                         std::function<void(ApprovalDecision)> decide) override
    {
        m_last = request;
        decide(m_decision);
    }
    // The last request it was asked (for tests).
    const ApprovalRequest &lastRequest() const { return m_last; }

private:
    ApprovalDecision m_decision;
    ApprovalRequest m_last;
};

} // namespace Engine
