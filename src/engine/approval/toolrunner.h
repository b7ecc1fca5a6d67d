#pragma once

#include "approval.h"
#include "approvalstore.h"

#include <engine/llm/llm.h>
#include <engine/tools/tool.h>
#include <engine/tools/toolregistry.h>

#include <mcp/config/redaction.h>

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <memory>

#include <map>

namespace Engine {

struct ToolRunResult
{
    ToolOutput output;   // what the tool returned, or an error output explaining why not
    bool denied = false; // the gate said no: the tool never ran
    bool timedOut = false;
    bool cancelled = false;
    bool ran = false; // execute() was called
    // The file the call changes and how (Tool::proposedChange(), as approved), also for a call
    // that was denied or failed; null when it changes no file we can tell.
    std::shared_ptr<const FileChange> change = {};
};

// A finished call as the agent hands it on: shared, so a 20 MB result is never copied for
// the chat (which keeps it for its viewer) or anyone else who listens.
using SharedToolRunResult = std::shared_ptr<const ToolRunResult>;

// One call as the runner's observers (the audit log) see it. `arguments` are the model's, not
// redacted: observers must not store them as they are (the audit log keeps a hash).
struct ToolRunEvent
{
    qint64 runId = 0;
    QString toolName; // registry name; what the model asked for when no tool has that name
    QString source;   // "builtin", the server, or empty when there is no such tool
    QString originalName;
    Risk risk = Risk::Dangerous;
    QString conversationId;
    Json arguments;
    CallOrigin origin = CallOrigin::Model;
    qint64 durationMs = 0; // runFinished: since execution began (0 if it never did)
};

// The only way a tool is executed: looks the tool up, checks its arguments, asks for
// approval unless the tool is `read` (or allowed by config, earlier for this conversation,
// or always in the ApprovalStore), then runs it with a timeout that progress extends, and
// reports once. Grants are keyed by ToolKey (built-in or server, and the tool's own name) and,
// for bash, by command pattern; a call whose tool gives an approvalReason() (a sensitive file)
// is asked every time. Owned by the application next to the registry.
class ToolRunner : public QObject
{
    Q_OBJECT
public:
    using RunId = qint64;

    struct Callbacks
    {
        std::function<void()> onApprovalNeeded; // the gate is being asked
        std::function<void()> onStarted;        // approval given, execution begins
        std::function<void(const Mcp::Progress &)> onProgress;
        std::function<void(ToolRunResult)> onDone; // exactly once (unless context died)
    };

    ToolRunner(ToolRegistry *registry, ApprovalGate *gate, QString workspace,
               QObject *parent = nullptr);

    // Where "always allow" is kept and looked up (the user's data folder). Without one,
    // "always allow" lasts for this runner's life only. A grant that cannot be saved is
    // reported by warning(); the call still runs (the user said yes).
    void setApprovalStore(std::shared_ptr<ApprovalStore> store) { m_store = std::move(store); }
    ApprovalStore *approvalStore() const { return m_store.get(); }
    void setGate(ApprovalGate *gate) { m_gate = gate; }
    // Nobody can be asked (an inbound A2A task): every tool that is not `read`, and every call
    // that would be asked anyway (a sensitive file), is denied, whatever grants, autoApprove
    // or gate say; the denial is a decision like any other (the audit log records it).
    void setOnlyReadTools(bool onlyRead) { m_onlyRead = onlyRead; }
    // Per-tool timeout (ms) for a source; defaults to 60 s.
    void setTimeoutForSource(const QString &source, int timeoutMs);
    // Every source back to the default timeout.
    void clearSourceTimeouts() { m_sourceTimeouts.clear(); }
    void setDefaultTimeout(int timeoutMs) { m_defaultTimeoutMs = timeoutMs; }
    // Values the app knows to be secret (provider keys, the servers' configured secrets: see
    // Mcp::Redactor::secretValues()). Every result is cleaned of them before anyone sees it:
    // the model, the chat, the conversation file and the audit log. Replaces the earlier set.
    void setSecrets(const QStringList &values) { m_redactor = Mcp::Redactor(values); }
    // A result with every known secret replaced: text blocks, resource text and every string
    // of structuredContent (images and other binary blocks are kept as they are).
    ToolOutput redacted(ToolOutput output) const;

    // `origin` App: a server's view asks (it may only call its own server's tools; the caller
    // checks that); the dialog and the audit log say so.
    RunId run(const ToolCallRequest &call, const QString &conversationId, QObject *context,
              Callbacks callbacks, CallOrigin origin = CallOrigin::Model);
    // Whether a call of this server tool in this conversation would run without asking
    // (autoApprove, a read tool, a grant): what may be shown of it before it is complete. A
    // built-in tool, whose approval depends on its arguments, or an unknown one: false.
    bool runsWithoutAsking(const QString &toolName, const QString &conversationId) const;
    void cancel(RunId id);
    void cancelAll();
    // Forgets "allow for this conversation" grants.
    void endConversation(const QString &conversationId);

    int runningCount() const { return int(m_runs.size()); }

signals:
    void warning(const QString &text); // e.g. an always-allow that could not be saved
    // The gate answered (automatic == false), or no question was needed or possible
    // (automatic == true: a read tool, autoApprove, an earlier grant; or no gate: Deny).
    // TODO(scope): ApprovalDecision gains a scope (another branch); observers record it there.
    void decisionMade(const Engine::ToolRunEvent &call, const Engine::ApprovalDecision &decision,
                      bool automatic, const QString &why);
    void runStarted(const Engine::ToolRunEvent &call);
    // Exactly once per run(), with the redacted result (also for calls that never ran).
    void runFinished(const Engine::ToolRunEvent &call, const Engine::ToolRunResult &result);

private:
    // Grants in memory (one conversation's, or this session's "always").
    struct Grants
    {
        QSet<QString> tools;                  // ToolKey::toString(): every call allowed
        QHash<QString, QStringList> commands; // ToolKey::toString() → CommandPattern list
        bool allows(const ToolKey &key, const QString &command) const;
        void add(const ToolKey &key, const QString &commandPattern);
    };

    struct Run
    {
        std::shared_ptr<Tool> tool;
        ToolKey key;
        QString command;        // Tool::approvalCommand(): what a bash grant must cover
        bool asking = false;    // the gate has the request and has not answered
        bool askAlways = false; // approvalReason() said why: no grant covers this call
        QString requestedName;  // what the model called
        Json arguments;
        std::shared_ptr<const FileChange> change; // Tool::proposedChange(), redacted
        QString conversationId;
        CallOrigin origin = CallOrigin::Model;
        Callbacks callbacks;
        QPointer<QObject> context;
        bool hasContext = false;
        CancelHandle cancel;
        QTimer *timer = nullptr;
        qint64 hardDeadline = 0;
        int timeoutMs = 0;
        qint64 startedAtMs = 0; // steady clock
        bool started = false;
        bool cancelled = false;
        bool timedOut = false;
    };

    void decided(RunId id, ApprovalDecision decision);
    void start(RunId id);
    void finish(RunId id, ToolRunResult result);
    void finishLater(RunId id, ToolRunResult result);
    bool needsApproval(const Run &run) const;
    // The pattern a grant of `decision` records for `run`: empty for a tool without command.
    static QString grantPattern(const Run &run, const ApprovalDecision &decision);
    ToolRunEvent eventFor(RunId id, const Run &run) const;

    ToolRegistry *m_registry;
    ApprovalGate *m_gate;
    bool m_onlyRead = false;
    QString m_workspace;
    QString m_storeWorkspace; // m_workspace canonicalized: the ApprovalStore's key
    std::shared_ptr<ApprovalStore> m_store;
    int m_defaultTimeoutMs = 60000;
    QHash<QString, int> m_sourceTimeouts;
    Grants m_alwaysAllowed;                       // this session (also when saving failed)
    QHash<QString, Grants> m_conversationAllowed; // conversation → its grants
    std::map<RunId, Run> m_runs;
    RunId m_nextId = 1;
    Mcp::Redactor m_redactor;
};

} // namespace Engine
