#include "toolrunner.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcRunner, "switchboard.engine.runner", QtWarningMsg)

namespace Engine {

namespace {
// Progress restarts a tool's timer, but never past this hard maximum (10 min): a server that
// reports progress forever must still end.
constexpr int MaxToolRunMs = 10 * 60 * 1000;

QString secondsText(int ms)
{
    return QString::number(ms / 1000.0, 'g', 3);
}

// Every string in a JSON value (members' values and array items, not member names).
void redactStrings(Json &value, const Mcp::Redactor &redactor)
{
    if (value.is_string()) {
        value = redactor.redactKnownText(QString::fromStdString(value.get<std::string>()))
                        .toStdString();
    } else if (value.is_structured()) {
        for (Json &child : value)
            redactStrings(child, redactor);
    }
}

void redactField(Json &object, const char *key, const Mcp::Redactor &redactor)
{
    if (object.is_object() && object.contains(key) && object[key].is_string())
        redactStrings(object[key], redactor);
}
} // namespace

ToolOutput ToolRunner::redacted(ToolOutput output) const
{
    if (!m_redactor.hasKnownSecrets())
        return output;
    // Text only: base64 image and audio data cannot hold a secret in readable form, and
    // rewriting it would only corrupt the picture.
    for (Json &block : output.content) {
        redactField(block, "text", m_redactor);
        if (block.is_object() && block.contains("resource"))
            redactField(block["resource"], "text", m_redactor);
    }
    redactStrings(output.structuredContent, m_redactor);
    return output;
}

ToolRunEvent ToolRunner::eventFor(RunId id, const Run &run) const
{
    ToolRunEvent event;
    event.runId = id;
    event.conversationId = run.conversationId;
    event.arguments = run.arguments;
    event.origin = run.origin;
    event.toolName = run.requestedName;
    if (run.tool) {
        event.toolName = run.tool->name();
        event.source = run.tool->source();
        event.originalName = run.tool->originalName();
        event.risk = run.tool->risk();
    }
    if (run.started)
        event.durationMs = Mcp::steadyNowMs() - run.startedAtMs;
    return event;
}

ToolRunner::ToolRunner(ToolRegistry *registry, ApprovalGate *gate, QString workspace,
                       QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_gate(gate)
    , m_workspace(std::move(workspace))
{
    const QString canonical = QFileInfo(m_workspace).canonicalFilePath();
    m_storeWorkspace
            = canonical.isEmpty() ? QDir::cleanPath(QDir(m_workspace).absolutePath()) : canonical;
}

bool ToolRunner::Grants::allows(const ToolKey &key, const QString &command) const
{
    const QString name = key.toString();
    // A command-line tool is allowed by command pattern only, never as a whole.
    if (command.isEmpty())
        return tools.contains(name);
    const QStringList patterns = commands.value(name);
    return std::any_of(patterns.begin(), patterns.end(), [&](const QString &pattern) {
        return CommandPattern::matches(pattern, command);
    });
}

void ToolRunner::Grants::add(const ToolKey &key, const QString &commandPattern)
{
    if (commandPattern.isEmpty())
        tools.insert(key.toString());
    else
        commands[key.toString()].append(commandPattern);
}

void ToolRunner::setTimeoutForSource(const QString &source, int timeoutMs)
{
    m_sourceTimeouts.insert(source, timeoutMs);
}

bool ToolRunner::needsApproval(const Run &run) const
{
    if (run.askAlways)
        return true;
    if (run.tool->risk() == Risk::Read || run.tool->autoApproved())
        return false;
    if (m_alwaysAllowed.allows(run.key, run.command))
        return false;
    const auto conversation = m_conversationAllowed.constFind(run.conversationId);
    if (conversation != m_conversationAllowed.cend() && conversation->allows(run.key, run.command))
        return false;
    return !(m_store && m_store->allows(m_storeWorkspace, run.key, run.command));
}

bool ToolRunner::runsWithoutAsking(const QString &toolName, const QString &conversationId) const
{
    Run probe;
    probe.tool = m_registry->find(toolName);
    if (!probe.tool || probe.tool->isBuiltin() || m_onlyRead)
        return false;
    probe.key = ToolKey::of(*probe.tool);
    probe.conversationId = conversationId;
    return !needsApproval(probe);
}

QString ToolRunner::grantPattern(const Run &run, const ApprovalDecision &decision)
{
    if (run.command.isEmpty())
        return {};
    // No pattern (a gate that does not offer one): the exact command, never all of bash; a
    // command that may only be granted exactly gets that, whatever pattern came back.
    const QString pattern = decision.commandPattern.trimmed();
    if (pattern.isEmpty()
        || CommandPattern::assess(run.command).reach != CommandPattern::Reach::Prefix)
        return run.command;
    return pattern;
}

ToolRunner::RunId ToolRunner::run(const ToolCallRequest &call, const QString &conversationId,
                                  QObject *context, Callbacks callbacks, CallOrigin origin)
{
    const RunId id = m_nextId++;
    Run &run = m_runs[id];
    run.origin = origin;
    run.callbacks = std::move(callbacks);
    run.context = context;
    run.hasContext = context != nullptr;
    run.conversationId = conversationId;
    run.requestedName = call.name;
    run.tool = m_registry->find(call.name);

    if (!run.tool) {
        finishLater(id, {ToolOutput::error(tr("There is no tool named '%1'. Available tools: %2")
                                                   .arg(call.name, m_registry->names().join(
                                                                           QStringLiteral(", ")))),
                         false, false, false, false});
        return id;
    }
    if (call.arguments.is_null() && !call.argumentsText.trimmed().isEmpty()) {
        finishLater(id, {ToolOutput::error(tr("The arguments for '%1' are not valid JSON: %2")
                                                   .arg(call.name, call.argumentsText.left(500))),
                         false, false, false, false});
        return id;
    }
    run.arguments = call.arguments.is_null() ? Json::object() : call.arguments;
    if (!run.arguments.is_object()) {
        finishLater(id,
                    {ToolOutput::error(
                             tr("The arguments for '%1' must be a JSON object.").arg(call.name)),
                     false, false, false, false});
        return id;
    }

    run.key = ToolKey::of(*run.tool);
    run.command = run.tool->approvalCommand(run.arguments);
    ToolContext askContext;
    askContext.workspace = m_workspace;
    askContext.conversationId = conversationId;
    std::optional<QString> reason = run.tool->approvalReason(run.arguments, askContext);
    if (!reason && !run.command.isEmpty()) {
        // A command whose words bash knows only when it runs ($, globs, ...) is asked every
        // time: no grant covers it, and none is made from it.
        const CommandPattern::Assessment assessment = CommandPattern::assess(run.command);
        if (assessment.reach == CommandPattern::Reach::Never)
            reason = assessment.why;
    }
    run.askAlways = reason.has_value();
    if (run.tool->risk() != Risk::Read) {
        if (std::optional<FileChange> change
            = run.tool->proposedChange(run.arguments, askContext)) {
            // Shown and kept with the conversation: no secret the app knows may be in it.
            change->diff = m_redactor.redactKnownText(change->diff);
            run.change = std::make_shared<const FileChange>(std::move(*change));
        }
    }

    if (m_onlyRead && (run.tool->risk() != Risk::Read || run.askAlways)) {
        // Nobody is here to answer: no gate, grant or autoApprove lets this call through.
        emit decisionMade(eventFor(id, run), {ApprovalChoice::Deny, {}}, true,
                          QStringLiteral("read-only"));
        finishLater(id, {ToolOutput::error(tr("Denied: '%1' can change something (or reads a "
                                              "sensitive file), and nobody is here to approve "
                                              "it. Only read-only tools may run for this task.")
                                                   .arg(call.name)),
                         true, false, false, false});
        return id;
    }
    if (origin == CallOrigin::User && !m_onlyRead) {
        // The person pressed Run on what they typed: that is the decision, recorded as theirs.
        emit decisionMade(eventFor(id, run), {ApprovalChoice::AllowOnce, {}}, false,
                          QStringLiteral("manual"));
        QMetaObject::invokeMethod(
                this, [this, id] { start(id); }, Qt::QueuedConnection);
        return id;
    }
    if (!needsApproval(run)) {
        const QString why = run.tool->risk() == Risk::Read ? QStringLiteral("read")
                            : run.tool->autoApproved()     ? QStringLiteral("autoApprove")
                                                           : QStringLiteral("granted");
        emit decisionMade(eventFor(id, run), {ApprovalChoice::AllowOnce, {}}, true, why);
        QMetaObject::invokeMethod(
                this, [this, id] { start(id); }, Qt::QueuedConnection);
        return id;
    }
    if (!m_gate) {
        emit decisionMade(eventFor(id, run), {ApprovalChoice::Deny, {}}, true,
                          QStringLiteral("no-gate"));
        finishLater(id,
                    {ToolOutput::error(tr("Denied: nobody can approve '%1' here.").arg(call.name)),
                     true, false, false, false});
        return id;
    }
    ApprovalRequest request;
    request.toolName = run.tool->name();
    request.source = run.tool->source();
    request.builtin = run.key.builtin;
    request.originalName = run.tool->originalName();
    request.risk = run.tool->risk();
    request.arguments = run.arguments;
    request.hints = run.tool->hints();
    request.conversationId = conversationId;
    request.origin = run.origin;
    request.reason = reason.value_or(QString());
    request.command = run.command;
    if (!run.command.isEmpty())
        request.suggestedPattern = CommandPattern::suggest(run.command);
    request.requestId = quint64(id);
    request.change = run.change;
    run.asking = true;
    if (run.callbacks.onApprovalNeeded)
        run.callbacks.onApprovalNeeded();
    QPointer<ToolRunner> self(this);
    auto answered = std::make_shared<bool>(false);
    m_gate->requestApproval(request, [self, id, answered](ApprovalDecision decision) {
        if (*answered || !self)
            return;
        *answered = true;
        // Never continue inside the gate's own call stack (a dialog's signal handler).
        QMetaObject::invokeMethod(
                self,
                [self, id, decision] {
                    if (self)
                        self->decided(id, decision);
                },
                Qt::QueuedConnection);
    });
    return id;
}

void ToolRunner::decided(RunId id, ApprovalDecision decision)
{
    auto it = m_runs.find(id);
    if (it == m_runs.end() || it->second.cancelled)
        return;
    Run &run = it->second;
    run.asking = false;
    // A call asked about for a reason of its own (a sensitive file) is allowed this once,
    // whatever scope was chosen: a grant would cover other such calls unasked.
    if (run.askAlways && decision.choice != ApprovalChoice::Deny)
        decision.choice = ApprovalChoice::AllowOnce;
    emit decisionMade(eventFor(id, run), decision, false, QString());
    switch (decision.choice) {
    case ApprovalChoice::Deny: {
        const QString text = decision.reason.trimmed().isEmpty()
                                     ? tr("The user denied this call to %1.").arg(run.tool->name())
                                     : tr("The user denied this call to %1: %2")
                                               .arg(run.tool->name(), decision.reason.trimmed());
        finish(id, {ToolOutput::error(text), true, false, false, false});
        return;
    }
    case ApprovalChoice::AllowForConversation:
        m_conversationAllowed[run.conversationId].add(run.key, grantPattern(run, decision));
        break;
    case ApprovalChoice::AlwaysAllow: {
        const QString pattern = grantPattern(run, decision);
        m_alwaysAllowed.add(run.key, pattern);
        QString error;
        if (m_store && !m_store->add(m_storeWorkspace, run.key, pattern, &error))
            emit warning(
                    tr("Could not save \"always allow\" for %1: %2").arg(run.tool->name(), error));
        break;
    }
    case ApprovalChoice::AllowOnce:
        break;
    }
    start(id);
}

void ToolRunner::start(RunId id)
{
    auto it = m_runs.find(id);
    if (it == m_runs.end() || it->second.cancelled)
        return;
    Run &run = it->second;
    if (run.hasContext && !run.context) {
        // Whoever asked is gone: nothing runs, and only the observers hear of it.
        finish(id, {ToolOutput::error(tr("The call was cancelled.")), false, false, true, false});
        return;
    }
    run.started = true;
    run.startedAtMs = Mcp::steadyNowMs();
    emit runStarted(eventFor(id, run));
    run.timeoutMs = m_sourceTimeouts.value(run.tool->source(), m_defaultTimeoutMs);
    run.hardDeadline = Mcp::steadyNowMs() + std::max(run.timeoutMs, MaxToolRunMs);
    run.timer = new QTimer(this);
    run.timer->setSingleShot(true);
    connect(run.timer, &QTimer::timeout, this, [this, id] {
        auto it = m_runs.find(id);
        if (it == m_runs.end())
            return;
        it->second.timedOut = true;
        const QString name = it->second.tool->name();
        const int ms = it->second.timeoutMs;
        const CancelHandle cancel = it->second.cancel;
        // Report first: the tool's own "cancelled" answer that cancel() may trigger must not
        // take the place of the timeout.
        finish(id, {ToolOutput::error(tr("%1 timed out after %2 s and was cancelled.")
                                              .arg(name, secondsText(ms))),
                    false, true, false, true});
        if (cancel)
            cancel(); // sends notifications/cancelled for MCP tools
    });
    run.timer->start(run.timeoutMs);
    if (run.callbacks.onStarted)
        run.callbacks.onStarted();

    ToolContext context;
    context.workspace = m_workspace;
    context.conversationId = run.conversationId;
    context.timeoutMs = run.timeoutMs;
    context.runner = this;
    QPointer<ToolRunner> self(this);
    context.onProgress = [self, id](const Mcp::Progress &progress) {
        if (!self)
            return;
        auto it = self->m_runs.find(id);
        if (it == self->m_runs.end())
            return;
        Run &r = it->second;
        const qint64 now = Mcp::steadyNowMs();
        if (r.timer)
            r.timer->start(
                    int(std::max<qint64>(0, std::min<qint64>(r.timeoutMs, r.hardDeadline - now))));
        if (r.callbacks.onProgress)
            r.callbacks.onProgress(progress);
    };
    qCDebug(lcRunner) << "running" << run.tool->name();
    std::shared_ptr<Tool> tool = run.tool; // keep it alive while it runs
    CancelHandle cancel = tool->execute(run.arguments, context, [self, id](ToolOutput output) {
        if (self)
            self->finish(id, {std::move(output), false, false, false, true});
    });
    it = m_runs.find(id); // execute() may have finished synchronously
    if (it != m_runs.end())
        it->second.cancel = std::move(cancel);
}

void ToolRunner::finish(RunId id, ToolRunResult result)
{
    auto it = m_runs.find(id);
    if (it == m_runs.end())
        return;
    Run run = std::move(it->second);
    m_runs.erase(it);
    delete run.timer;
    result.output = redacted(std::move(result.output));
    result.change = run.change;
    emit runFinished(eventFor(id, run), result);
    if (run.hasContext && !run.context)
        return;
    if (run.callbacks.onDone)
        run.callbacks.onDone(std::move(result));
}

void ToolRunner::finishLater(RunId id, ToolRunResult result)
{
    QMetaObject::invokeMethod(
            this,
            [this, id, result = std::move(result)]() mutable { finish(id, std::move(result)); },
            Qt::QueuedConnection);
}

void ToolRunner::cancel(RunId id)
{
    auto it = m_runs.find(id);
    if (it == m_runs.end() || it->second.cancelled)
        return;
    Run &run = it->second;
    run.cancelled = true;
    const CancelHandle cancelTool = run.cancel;
    const bool started = run.started;
    const bool asking = run.asking;
    finish(id, {ToolOutput::error(tr("The call was cancelled.")), false, false, true, started});
    if (cancelTool)
        cancelTool();
    // Its question is moot: the gate closes it (its late answer finds no run and is dropped).
    if (asking && m_gate)
        m_gate->withdraw(quint64(id));
}

void ToolRunner::cancelAll()
{
    std::vector<RunId> ids;
    for (const auto &[id, run] : m_runs)
        ids.push_back(id);
    for (RunId id : ids)
        cancel(id);
}

void ToolRunner::endConversation(const QString &conversationId)
{
    m_conversationAllowed.remove(conversationId);
}

} // namespace Engine
