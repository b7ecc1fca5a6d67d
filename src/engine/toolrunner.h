#pragma once

#include "approval.h"
#include "llm.h"
#include "tool.h"
#include "toolregistry.h"

#include <mcp/redaction.h>

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <map>

namespace Engine {

struct ToolRunResult
{
    ToolOutput output;   // what the tool returned, or an error output explaining why not
    bool denied = false; // the gate said no: the tool never ran
    bool timedOut = false;
    bool cancelled = false;
    bool ran = false; // execute() was called
};

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
    qint64 durationMs = 0; // runFinished: since execution began (0 if it never did)
};

// The only way a tool is executed: looks the tool up, checks its arguments, asks for
// approval unless the tool is `read` (or allowed by config, or earlier for this
// conversation), then runs it with a timeout that progress extends, and reports once.
// Owned by the application next to the registry.
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

    // Saves an "always allow" decision (the config's autoApprove); false + error if it
    // could not be saved (the call still runs: the user said yes).
    using AlwaysAllowSaver
            = std::function<bool(const QString &source, const QString &tool, QString *error)>;
    void setAlwaysAllowSaver(AlwaysAllowSaver saver) { m_saver = std::move(saver); }
    void setGate(ApprovalGate *gate) { m_gate = gate; }
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

    RunId run(const ToolCallRequest &call, const QString &conversationId, QObject *context,
              Callbacks callbacks);
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
    struct Run
    {
        std::shared_ptr<Tool> tool;
        QString requestedName; // what the model called
        Json arguments;
        QString conversationId;
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
    bool needsApproval(const Tool &tool, const QString &conversationId) const;
    ToolRunEvent eventFor(RunId id, const Run &run) const;

    ToolRegistry *m_registry;
    ApprovalGate *m_gate;
    QString m_workspace;
    AlwaysAllowSaver m_saver;
    int m_defaultTimeoutMs = 60000;
    QHash<QString, int> m_sourceTimeouts;
    QSet<QString> m_alwaysAllowed;                       // registry names, this session
    QHash<QString, QSet<QString>> m_conversationAllowed; // conversation → registry names
    std::map<RunId, Run> m_runs;
    RunId m_nextId = 1;
    Mcp::Redactor m_redactor;
};

} // namespace Engine
