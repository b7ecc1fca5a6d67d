#pragma once

#include "approval.h"
#include "llm.h"
#include "tool.h"
#include "toolregistry.h"

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

    RunId run(const ToolCallRequest &call, const QString &conversationId, QObject *context,
              Callbacks callbacks);
    void cancel(RunId id);
    void cancelAll();
    // Forgets "allow for this conversation" grants.
    void endConversation(const QString &conversationId);

    int runningCount() const { return int(m_runs.size()); }

signals:
    void warning(const QString &text); // e.g. an always-allow that could not be saved

private:
    struct Run
    {
        std::shared_ptr<Tool> tool;
        Json arguments;
        QString conversationId;
        Callbacks callbacks;
        QPointer<QObject> context;
        bool hasContext = false;
        CancelHandle cancel;
        QTimer *timer = nullptr;
        qint64 hardDeadline = 0;
        int timeoutMs = 0;
        bool started = false;
        bool cancelled = false;
        bool timedOut = false;
    };

    void decided(RunId id, ApprovalDecision decision);
    void start(RunId id);
    void finish(RunId id, ToolRunResult result);
    void finishLater(RunId id, ToolRunResult result);
    bool needsApproval(const Tool &tool, const QString &conversationId) const;

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
};

} // namespace Engine
