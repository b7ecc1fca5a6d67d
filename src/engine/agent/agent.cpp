#include "agent.h"

#include <engine/llm/contextfit.h>
#include <engine/storage/conversationstore.h>
#include <engine/tools/toolsearch.h>
#include <mcp/wire/jsonrpc.h>

#include <QDir>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcAgent, "switchboard.engine.agent", QtWarningMsg)

namespace Engine {

namespace {

// Adds a completion's token counts to a turn's (-1: the provider did not say).
void addUsage(Usage &total, const Usage &more)
{
    if (more.inputTokens >= 0)
        total.inputTokens = std::max<qint64>(0, total.inputTokens) + more.inputTokens;
    if (more.outputTokens >= 0)
        total.outputTokens = std::max<qint64>(0, total.outputTokens) + more.outputTokens;
}

} // namespace

Agent::Agent(LlmProvider *provider, ToolRegistry *registry, ToolRunner *runner,
             AgentOptions options, QObject *parent)
    : QObject(parent)
    , m_provider(provider)
    , m_registry(registry)
    , m_runner(runner)
    , m_options(std::move(options))
{
}

Agent::~Agent()
{
    if (m_cancelCompletion)
        m_cancelCompletion();
}

void Agent::newConversation(const QString &title, const QString &workspace)
{
    m_workspace = workspace;
    m_messages.clear();
    m_keptResultBytes = 0;
    forgetSummary();
    m_conversationId = m_store ? m_store->create(title, workspace, nullptr, m_origin)
                               : QStringLiteral("memory-%1").arg(quintptr(this), 0, 16);
}

void Agent::openConversation(const QString &id, std::vector<ChatMessage> messages)
{
    m_conversationId = id;
    m_messages = std::move(messages);
    m_keptResultBytes = 0;
    for (const ChatMessage &message : m_messages) {
        if (!message.result.is_null())
            m_keptResultBytes += qint64(
                    message.result.dump(-1, ' ', false, Json::error_handler_t::replace).size());
    }
    forgetSummary();
    // A conversation whose last answer was stopped or failed offers Retry again.
    m_lastTurnFailed = !m_messages.empty() && m_messages.back().role == ChatMessage::Role::Assistant
                       && !m_messages.back().interruption.isEmpty();
}

void Agent::forgetSummary()
{
    m_summary.clear();
    m_summaryCovers = 0;
    m_summaryFailedFor = 0;
}

void Agent::append(ChatMessage message)
{
    if (!message.time.isValid())
        message.time = QDateTime::currentDateTimeUtc();
    if (m_store && !m_conversationId.isEmpty()) {
        QString error;
        if (!m_store->append(m_conversationId, message, &error))
            emit errorOccurred(tr("Could not save the conversation: %1").arg(error));
    }
    m_messages.push_back(std::move(message));
    emit messageAdded(m_messages.back());
}

bool Agent::send(const QString &text, std::vector<Attachment> attachments)
{
    if (m_busy || (text.trimmed().isEmpty() && attachments.empty()))
        return false;
    if (m_conversationId.isEmpty())
        newConversation(text.left(60), m_workspace);
    ChatMessage user;
    user.role = ChatMessage::Role::User;
    user.text = text;
    user.attachments = std::move(attachments);
    append(std::move(user));
    startTurn();
    return true;
}

void Agent::startTurn()
{
    m_fitReported = {};
    m_busy = true;
    m_turns = 0;
    m_usage = {};
    emit busyChanged(true);
    requestCompletion();
}

int Agent::lastUserMessage() const
{
    for (int i = int(m_messages.size()) - 1; i >= 0; --i) {
        if (m_messages[size_t(i)].role == ChatMessage::Role::User)
            return i;
    }
    return -1;
}

void Agent::truncate(size_t count)
{
    if (count >= m_messages.size())
        return;
    m_messages.resize(count);
    if (int(count) < m_summaryCovers)
        forgetSummary(); // it told of messages that are gone
    if (m_store && !m_conversationId.isEmpty()) {
        QString error;
        if (!m_store->truncate(m_conversationId, int(count), &error))
            emit errorOccurred(tr("Could not save the conversation: %1").arg(error));
    }
}

bool Agent::retry()
{
    const int user = lastUserMessage();
    if (m_busy || user < 0)
        return false;
    truncate(size_t(user) + 1);
    startTurn();
    return true;
}

bool Agent::editLastUserMessage(const QString &text, std::vector<Attachment> attachments)
{
    if (m_busy || (text.trimmed().isEmpty() && attachments.empty()))
        return false;
    const int user = lastUserMessage();
    if (user >= 0)
        truncate(size_t(user));
    return send(text, std::move(attachments));
}

std::vector<ToolSpec> Agent::toolSpecs() const
{
    std::vector<std::shared_ptr<Tool>> usable;
    for (const auto &tool : m_registry->offeredTools()) {
        if (mayUse(*tool))
            usable.push_back(tool);
    }
    const bool searching = m_options.toolSearchThreshold > 0
                           && int(usable.size()) - 1 > m_options.toolSearchThreshold;
    const QSet<QString> found = searching ? foundTools() : QSet<QString>();
    std::vector<ToolSpec> specs;
    for (const auto &tool : usable) {
        const QString name = tool->name();
        const bool offered = name == QLatin1String(SearchToolsTool::Name)
                                     ? searching
                                     : !searching || tool->isBuiltin()
                                               || m_options.pinnedTools.contains(name)
                                               || found.contains(name);
        if (offered)
            specs.push_back({name, tool->description(), tool->inputSchema()});
    }
    return specs;
}

// What search_tools found in this conversation, and what the model called: read from the
// messages, so an opened conversation (or one cut back by an edit) knows the same.
QSet<QString> Agent::foundTools() const
{
    QSet<QString> known;
    const QStringList names = m_registry->names();
    for (const QString &name : names)
        known.insert(name);
    QSet<QString> found;
    for (const ChatMessage &message : m_messages) {
        for (const ToolCallRequest &call : message.toolCalls) {
            if (known.contains(call.name))
                found.insert(call.name);
        }
        if (message.role == ChatMessage::Role::Tool
            && message.toolName == QLatin1String(SearchToolsTool::Name) && !message.isError) {
            for (const QString &name : SearchToolsTool::namesIn(message.text, known))
                found.insert(name);
        }
    }
    return found;
}

bool Agent::mayUse(const Tool &tool) const
{
    return m_registry->isOffered(tool)
           && (!m_options.onlyTools || m_options.onlyTools->contains(tool.name()));
}

void Agent::requestCompletion()
{
    if (++m_turns > m_options.maxTurns) {
        endTurn(tr("Stopped after %1 model turns without a final answer (the turn limit).")
                        .arg(m_options.maxTurns));
        return;
    }
    sendRequest();
}

// The request of a model turn: the conversation fitted into the context window, with the
// model's summary of what had to be left out when there is one for exactly that part.
void Agent::sendRequest()
{
    CompletionRequest request;
    request.system = m_options.systemPrompt.isEmpty()
                             ? tr("You are Switchboard, an assistant with tools. The workspace is "
                                  "%1. Use the tools when they help; tool results may contain "
                                  "errors or denials by the user: take them into account.")
                                       .arg(QDir::toNativeSeparators(m_workspace))
                             : m_options.systemPrompt;
    if (m_options.moreInstructions) {
        if (const QString more = m_options.moreInstructions(); !more.isEmpty())
            request.system += QStringLiteral("\n\n") + more;
    }
    request.tools = toolSpecs();
    // What the answer, the instructions and the tool definitions need comes off the budget.
    qint64 fixed = ContextFit::estimateTokens(request.system);
    for (const ToolSpec &tool : request.tools)
        fixed += ContextFit::estimateTokens(tool.name)
                 + ContextFit::estimateTokens(tool.description)
                 + ContextFit::estimateTokens(QString::fromStdString(
                         tool.inputSchema.dump(-1, ' ', false, Json::error_handler_t::replace)));
    const qint64 reserve = std::max<qint64>(4096, m_options.contextTokens / 8);
    const qint64 budget = m_options.contextTokens - reserve - fixed;
    ContextFit::Result fitted = ContextFit::fit(m_messages, std::max<qint64>(0, budget));
    // When messages must go, room for their summary too: a fixed amount, so what goes does not
    // depend on how long the summary came out (and a new summary is asked for only when more
    // messages must go).
    if (fitted.droppedMessages > 0 && m_options.summarizeLeftOut)
        fitted = ContextFit::fit(m_messages, std::max<qint64>(0, budget - SummaryTokens));
    const int dropped = fitted.droppedMessages;
    if (dropped > 0 && m_options.summarizeLeftOut && dropped != m_summaryCovers
        && dropped != m_summaryFailedFor) {
        summarize(dropped);
        return;
    }
    const bool summarised = dropped > 0 && dropped == m_summaryCovers && !m_summary.isEmpty();
    if (summarised)
        request.system += QStringLiteral("\n\n")
                          + tr("The earlier part of this conversation (%n messages) was left out "
                               "to fit the context window. A summary of it:",
                               nullptr, dropped)
                          + QStringLiteral("\n") + m_summary;
    const std::tuple<int, int, bool> fit{fitted.shortenedResults, dropped, summarised};
    if (fitted.changed() && fit != m_fitReported) {
        m_fitReported = fit;
        emit contextFitted(fitted.shortenedResults, dropped, summarised);
    }
    request.messages = std::move(fitted.messages);
    LlmProvider::Callbacks callbacks;
    QPointer<Agent> self(this);
    m_streamed.clear();
    callbacks.onText = [self](const QString &delta) {
        if (self) {
            self->m_streamed += delta;
            emit self->textDelta(delta);
        }
    };
    // The calls of this completion get the ids onCompletion() gives them: the next serial.
    callbacks.onToolCall = [self](const ToolCallDelta &delta) {
        if (!self)
            return;
        QString &callId = self->m_streamedCalls[delta.position];
        if (callId.isEmpty())
            callId = QStringLiteral("turn%1-call%2")
                             .arg(self->m_turnSerial + 1)
                             .arg(delta.position);
        emit self->toolCallStreaming(callId, delta.name, delta.argumentsDelta);
    };
    callbacks.onDone = [self](CompletionResult result) {
        if (self) {
            self->m_cancelCompletion = nullptr;
            self->m_streamed.clear();
            self->onCompletion(std::move(result));
        }
    };
    callbacks.onError = [self](CompletionError error) {
        if (self) {
            self->m_cancelCompletion = nullptr;
            self->abandonStreamedCalls(error.message);
            ++self->m_turnSerial; // the ids streamed are never used again
            self->keepInterruptedAnswer(error.message);
            self->endTurn(error.message);
        }
    };
    m_cancelCompletion = m_provider->complete(request, std::move(callbacks));
}

// Asks the model for a summary of the first `count` messages (the part that no longer fits),
// building on the summary of an earlier, shorter part when there is one; then sends the
// turn's request. A failed summary only means that part is left out, as without one.
void Agent::summarize(int count)
{
    constexpr int MaxCharsPerMessage = 2000;
    // The transcript must fit the window itself: about two characters a token, with room left.
    const qint64 maxChars = std::max<qint64>(8000, (m_options.contextTokens - 4096) * 2);
    QStringList lines;
    if (m_summaryCovers > 0 && m_summaryCovers < count && !m_summary.isEmpty())
        lines << tr("Summary so far:") << m_summary << QString();
    const int from = m_summaryCovers < count && !m_summary.isEmpty() ? m_summaryCovers : 0;
    for (int i = from; i < count && i < int(m_messages.size()); ++i) {
        const ChatMessage &message = m_messages[size_t(i)];
        QString text = message.text.left(MaxCharsPerMessage);
        for (const ToolCallRequest &call : message.toolCalls)
            text += QStringLiteral("\n[calls %1 %2]")
                            .arg(call.name,
                                 QString::fromStdString(
                                         call.arguments.dump(-1, ' ', false,
                                                             Json::error_handler_t::replace))
                                         .left(300));
        const QString who = message.role == ChatMessage::Role::User        ? tr("User")
                            : message.role == ChatMessage::Role::Assistant ? tr("Assistant")
                            : message.role == ChatMessage::Role::Tool
                                    ? tr("Tool result (%1)").arg(message.toolName)
                                    : tr("System");
        lines << who + QStringLiteral(": ") + text;
    }
    QString transcript = lines.join(QLatin1Char('\n'));
    if (transcript.size() > maxChars) // the most recent part matters most
        transcript = transcript.right(maxChars);

    CompletionRequest request;
    request.system = tr("You summarise the earlier part of a conversation between a user and an "
                        "assistant with tools, so the assistant can continue without it. Keep "
                        "facts, decisions, file names, open questions and what the user asked "
                        "for; leave out pleasantries. At most 300 words.");
    ChatMessage ask;
    ask.role = ChatMessage::Role::User;
    ask.text = tr("Summarise this conversation:") + QStringLiteral("\n\n") + transcript;
    request.messages.push_back(std::move(ask));
    request.maxTokens = int(SummaryTokens);

    LlmProvider::Callbacks callbacks;
    QPointer<Agent> self(this);
    callbacks.onDone = [self, count](CompletionResult result) {
        if (!self)
            return;
        self->m_cancelCompletion = nullptr;
        addUsage(self->m_usage, result.usage); // the summary is part of the turn's cost
        if (result.text.trimmed().isEmpty()) {
            self->m_summaryFailedFor = count;
        } else {
            // Held to its room, should the model have run on.
            self->m_summary = result.text.trimmed().left(int(SummaryTokens) * 3);
            self->m_summaryCovers = count;
        }
        self->sendRequest();
    };
    callbacks.onError = [self, count](CompletionError) {
        if (!self)
            return;
        self->m_cancelCompletion = nullptr;
        self->m_summaryFailedFor = count; // left out instead, as without a summary
        self->sendRequest();
    };
    m_cancelCompletion = m_provider->complete(request, std::move(callbacks));
}

void Agent::onCompletion(CompletionResult result)
{
    addUsage(m_usage, result.usage);

    ChatMessage assistant;
    assistant.role = ChatMessage::Role::Assistant;
    assistant.text = result.text;
    assistant.toolCalls = result.toolCalls;
    // Every call needs an id the tool result can answer (some local servers omit them).
    for (std::size_t i = 0; i < assistant.toolCalls.size(); ++i) {
        if (assistant.toolCalls[i].id.isEmpty())
            assistant.toolCalls[i].id = QStringLiteral("call_%1_%2").arg(m_turns).arg(i);
    }
    // Streamed calls the complete answer does not have (a server that changed its mind).
    ++m_turnSerial;
    abandonStreamedCalls(tr("The model's answer did not include this call."),
                         int(assistant.toolCalls.size()));
    m_streamedCalls.clear();
    append(assistant);
    if (assistant.toolCalls.empty()) {
        endTurn();
        return;
    }

    // All calls of this turn run at once; results go back in the model's order. Each call
    // gets an id of its own (this turn, its index): the provider's id goes back on the wire
    // only, so a model that repeats an id within a turn cannot make one result stand for two.
    m_pendingCalls.clear();
    m_results.clear();
    m_runs.clear();
    for (std::size_t i = 0; i < assistant.toolCalls.size(); ++i)
        m_pendingCalls.push_back(
                {QStringLiteral("turn%1-call%2").arg(m_turnSerial).arg(i), assistant.toolCalls[i]});
    for (const PendingCall &pending : m_pendingCalls) {
        const QString callId = pending.id;
        const ToolCallRequest &call = pending.call;
        ToolRunner::Callbacks callbacks;
        callbacks.onApprovalNeeded = [this, callId, name = call.name] {
            emit approvalNeeded(callId, name);
        };
        callbacks.onStarted = [this, callId, call] {
            emit toolStarted(callId, call.name, call.arguments);
        };
        callbacks.onProgress = [this, callId](const Mcp::Progress &p) {
            emit toolProgress(callId, p.progress, p.total.value_or(0), p.message);
        };
        callbacks.onDone = [this, callId](ToolRunResult r) {
            onToolDone(callId, std::move(r));
        };
        // A tool the user turned off was not offered: a model that calls it anyway (from an
        // earlier turn, or a guess) is told so, and nothing runs.
        const std::shared_ptr<Tool> tool = m_registry->find(call.name);
        if (tool && !mayUse(*tool)) {
            ToolRunResult refused;
            refused.output = ToolOutput::text(
                    tr("The tool %1 is turned off for this conversation; use another tool or "
                       "answer without it.")
                            .arg(call.name),
                    true);
            QMetaObject::invokeMethod(
                    this,
                    [this, callId, refused, serial = m_turnSerial] {
                        if (serial == m_turnSerial)
                            onToolDone(callId, refused);
                    },
                    Qt::QueuedConnection);
            continue;
        }
        // The runner may answer synchronously only through a queued call, so the id is
        // recorded before any result can arrive.
        m_runs[callId] = m_runner->run(call, m_conversationId, this, std::move(callbacks));
    }
}

ChatMessage Agent::toolMessage(const PendingCall &pending, const ToolRunResult *result)
{
    ChatMessage message;
    message.role = ChatMessage::Role::Tool;
    message.toolCallId = pending.call.id; // the provider's id: what the model answers to
    message.toolName = pending.call.name;
    message.isError = !result || result->output.isError;
    message.denied = result && result->denied;
    message.text = result ? result->output.modelText(m_options.maxToolOutputChars)
                          : tr("The user stopped the turn before this call finished.");
    if (result && !result->denied && m_options.modelSeesMedia)
        message.attachments = result->output.modelAttachments(pending.call.name);
    if (result && !result->denied)
        keepWholeResult(message, result->output);
    if (result && result->change)
        message.change = result->change->toJson();
    return message;
}

// The whole result beside the model's share, within the bounds; past them the message says
// exactly what was kept.
void Agent::keepWholeResult(ChatMessage &message, const ToolOutput &output)
{
    // Measured before anything is copied: a result over the bounds (20 MB) is only counted.
    // The envelope's own bytes come from a skeleton whose values are null ("null": 4 bytes).
    Json skeleton = {{"content", nullptr}, {"isError", output.isError}};
    qint64 bytes = qint64(Mcp::dumpedSize(output.content));
    if (!output.structuredContent.is_null()) {
        skeleton["structuredContent"] = nullptr;
        bytes += qint64(Mcp::dumpedSize(output.structuredContent)) - 4;
    }
    bytes += qint64(skeleton.dump().size()) - 4;
    const auto megabytes = [](qint64 count) {
        return QString::number(double(count) / (1024 * 1024), 'f', 1);
    };
    if (bytes <= m_options.keepResultBytes
        && m_keptResultBytes + bytes <= m_options.keepConversationResultBytes) {
        // A result the model's share already holds whole needs no copy.
        const Json &content = output.content;
        if (content.is_array() && content.size() == 1 && output.structuredContent.is_null()
            && Mcp::stringMember(content[0], "type") == QLatin1String("text")
            && Mcp::stringMember(content[0], "text") == message.text)
            return;
        m_keptResultBytes += bytes;
        Json whole = {{"content", output.content}, {"isError", output.isError}};
        if (!output.structuredContent.is_null())
            whole["structuredContent"] = output.structuredContent;
        message.result = std::move(whole);
        return;
    }
    message.resultNote
            = bytes > m_options.keepResultBytes
                      ? tr("Only the model's share of this result was kept with the conversation: "
                           "the whole result (%1 MB) is larger than the %2 MB kept for one "
                           "result (Settings).")
                                .arg(megabytes(bytes), megabytes(m_options.keepResultBytes))
                      : tr("Only the model's share of this result was kept with the conversation: "
                           "its whole results reached the %1 MB kept for one conversation "
                           "(Settings).")
                                .arg(megabytes(m_options.keepConversationResultBytes));
}

void Agent::onToolDone(const QString &callId, ToolRunResult result)
{
    if (!m_busy)
        return;
    auto shared = std::make_shared<const ToolRunResult>(std::move(result));
    emit toolFinished(callId, shared);
    m_results[callId] = std::move(shared);
    m_runs.erase(callId);
    if (m_results.size() < m_pendingCalls.size())
        return;
    for (const PendingCall &pending : m_pendingCalls)
        append(toolMessage(pending, m_results[pending.id].get()));
    m_pendingCalls.clear();
    m_results.clear();
    requestCompletion();
}

// What streamed before the answer was cut off stays in the conversation as it was shown,
// marked with why; nothing when nothing streamed.
void Agent::keepInterruptedAnswer(const QString &why)
{
    const QString text = std::exchange(m_streamed, QString());
    if (text.isEmpty())
        return;
    ChatMessage answer;
    answer.role = ChatMessage::Role::Assistant;
    answer.text = text;
    answer.interruption = why;
    append(std::move(answer));
}

void Agent::abandonStreamedCalls(const QString &why, int first)
{
    const std::map<int, QString> calls = std::exchange(m_streamedCalls, {});
    for (auto it = calls.lower_bound(first); it != calls.end(); ++it)
        emit toolCallAbandoned(it->second, why);
}

void Agent::cancel()
{
    if (!m_busy)
        return;
    if (m_cancelCompletion) {
        auto cancel = std::move(m_cancelCompletion);
        m_cancelCompletion = nullptr;
        cancel();
        abandonStreamedCalls(tr("Stopped before the model finished writing this call."));
        ++m_turnSerial; // the ids streamed are never used again
        keepInterruptedAnswer(tr("Stopped."));
    }
    // Cancelled calls still get results (so the conversation stays well-formed for the next
    // turn), but the loop does not call the model again.
    const auto runs = m_runs;
    m_busy = false; // onToolDone ignores what arrives now
    for (const auto &[callId, id] : runs)
        m_runner->cancel(id);
    for (const PendingCall &pending : m_pendingCalls) {
        auto it = m_results.find(pending.id);
        append(toolMessage(pending, it == m_results.end() ? nullptr : it->second.get()));
    }
    m_pendingCalls.clear();
    m_results.clear();
    m_runs.clear();
    m_busy = true;
    endTurn(tr("Stopped."));
}

void Agent::endTurn(const QString &error)
{
    if (!m_busy)
        return;
    m_busy = false;
    m_lastTurnFailed = !error.isEmpty();
    if (!error.isEmpty())
        emit errorOccurred(error);
    emit turnFinished(m_usage);
    emit busyChanged(false);
}

} // namespace Engine
