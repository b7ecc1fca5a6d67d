#pragma once

#include <engine/approval/toolrunner.h>
#include <engine/llm/llm.h>

#include <QObject>

#include <tuple>

#include <map>

namespace Engine {

class ConversationStore;

struct AgentOptions
{
    int maxTurns = 20;    // model calls per user message before the loop gives up
    QString systemPrompt; // empty: a built-in default naming the workspace
    int maxToolOutputChars = ToolOutput::DefaultModelTextChars;
    // The model's context window, in tokens: each request is fitted into it (ContextFit),
    // leaving room for the answer.
    qint64 contextTokens = DefaultContextTokens;
    static constexpr qint64 DefaultContextTokens = 128000;
    // Earlier turns that do not fit are summarised by the model (one extra request, reused
    // until more must go) and the summary sent in their place; off: they are left out.
    bool summarizeLeftOut = true;
    // The tools this agent may call (a sub-agent's); none given: every tool the registry offers.
    std::optional<QSet<QString>> onlyTools;
    // More for the system prompt, asked before every request (the servers' instructions:
    // Session::serverInstructions()).
    std::function<QString()> moreInstructions;
    // Above this many tools (0: never) the model gets the built-ins, the pinned tools, those
    // search_tools found earlier in the conversation (or it called) and search_tools, instead
    // of every definition.
    int toolSearchThreshold = DefaultToolSearchThreshold;
    static constexpr int DefaultToolSearchThreshold = 40;
    QSet<QString> pinnedTools; // registry names always offered
    // Off for a text-only model: tool results' images and audio are not sent (the result's text
    // names each), so the provider never rejects the request for them.
    bool modelSeesMedia = true;
    // How much of each tool's whole result (content blocks, structuredContent) is kept with
    // the conversation, so that a reopened card shows what the live one did: each result up
    // to keepResultBytes, all of a conversation's up to keepConversationResultBytes (as JSON);
    // past either, the message says what was kept (the model's share always is). 0: none.
    qint64 keepResultBytes = DefaultKeepResultBytes;
    qint64 keepConversationResultBytes = DefaultKeepConversationResultBytes;
    static constexpr qint64 DefaultKeepResultBytes = 16 * 1024 * 1024;
    static constexpr qint64 DefaultKeepConversationResultBytes = 64 * 1024 * 1024;
};

// The agent loop: a user message → the model → the tool calls of that turn, run concurrently
// (each through the ToolRunner, so each is gated and timed) → their results, errors and
// denials as observations → the model again, until it answers without tool calls or the turn
// limit is reached. Every message is appended to the conversation file as it completes.
// cancel() stops the stream and every tool in flight. Owned by the application (one per open
// conversation).
class Agent : public QObject
{
    Q_OBJECT
public:
    Agent(LlmProvider *provider, ToolRegistry *registry, ToolRunner *runner,
          AgentOptions options = {}, QObject *parent = nullptr);
    ~Agent() override;

    // Persist to this store (may be null: in memory only).
    void setStore(ConversationStore *store) { m_store = store; }
    // Who starts the conversations of this agent when not the user (ConversationStore::create).
    void setOrigin(const QString &origin) { m_origin = origin; }
    // Starts a new conversation, or continues a loaded one.
    void newConversation(const QString &title, const QString &workspace);
    void openConversation(const QString &id, std::vector<ChatMessage> messages);
    // The workspace the system prompt names (newConversation() sets it too); for an opened
    // conversation, which does not.
    void setWorkspace(const QString &workspace) { m_workspace = workspace; }
    // The model's context window, when the provider's model list says (it wins over the
    // setting the agent was made with); applies from the next request.
    void setContextTokens(qint64 tokens) { m_options.contextTokens = tokens; }
    // From the next request on (Settings).
    void setToolSearch(int threshold, QSet<QString> pinned)
    {
        m_options.toolSearchThreshold = threshold;
        m_options.pinnedTools = std::move(pinned);
    }
    qint64 contextTokens() const { return m_options.contextTokens; }
    QString conversationId() const { return m_conversationId; }
    const std::vector<ChatMessage> &messages() const { return m_messages; }

    // Sends a user message; false (and nothing happens) while a turn is running.
    bool send(const QString &text, std::vector<Attachment> attachments = {});
    // Asks the model again from the last user message: what followed it (an answer, tool
    // calls, a failed turn) is dropped, here and (by a truncate record) in the file. False
    // while a turn runs or when there is no user message.
    bool retry();
    // Replaces the last user message, and everything after it, with `text`, and sends it.
    bool editLastUserMessage(const QString &text, std::vector<Attachment> attachments = {});
    void cancel();
    bool isBusy() const { return m_busy; }
    // The index of the last user message in messages(), or -1.
    int lastUserMessage() const;
    // Whether the last turn ended with an error or was stopped (the window offers a retry).
    bool lastTurnFailed() const { return m_lastTurnFailed; }

signals:
    void textDelta(const QString &delta);
    void messageAdded(const Engine::ChatMessage &message);
    // `callId` in these signals is the agent's own id for a call (unique, "turnN-callM"),
    // not the provider's. A call waits for the approval gate (the UI shows its dialog).
    // The model is writing a call: its name (once known) and the next piece of its arguments
    // (the pieces joined are JSON cut anywhere). Comes before the answer is complete, so before
    // approvalNeeded or toolStarted for the same id; when the answer is never complete (stopped,
    // failed) or has fewer calls after all, toolCallAbandoned says so instead.
    void toolCallStreaming(const QString &callId, const QString &toolName,
                           const QString &argumentsDelta);
    void toolCallAbandoned(const QString &callId, const QString &why);
    void approvalNeeded(const QString &callId, const QString &toolName);
    void toolStarted(const QString &callId, const QString &toolName, const Engine::Json &arguments);
    void toolProgress(const QString &callId, double progress, double total, const QString &message);
    void toolFinished(const QString &callId, const Engine::SharedToolRunResult &result);
    void turnFinished(const Engine::Usage &usage);
    void errorOccurred(const QString &message);
    // The request of this turn was fitted into the context window: earlier tool results
    // shortened, earlier messages left out (the conversation keeps them) and, when
    // `summarised`, replaced by the model's summary of them.
    void contextFitted(int shortenedResults, int droppedMessages, bool summarised);
    void busyChanged(bool busy);

private:
    void requestCompletion();
    void onCompletion(CompletionResult result);
    // One tool call of the current turn: the agent's own id for it, and the model's call.
    struct PendingCall
    {
        QString id;
        ToolCallRequest call;
    };
    void onToolDone(const QString &callId, ToolRunResult result);
    // The observation the model gets for a call; `result` null: stopped before it finished.
    ChatMessage toolMessage(const PendingCall &pending, const ToolRunResult *result);
    void keepWholeResult(ChatMessage &message, const ToolOutput &output);
    void append(ChatMessage message);
    void truncate(size_t count);
    void startTurn();
    void keepInterruptedAnswer(const QString &why);
    void endTurn(const QString &error = QString());
    std::vector<ToolSpec> toolSpecs() const;
    bool mayUse(const Tool &tool) const;
    QSet<QString> foundTools() const;
    void sendRequest();
    void summarize(int count);
    void forgetSummary();
    static constexpr qint64 SummaryTokens = 1024; // a summary's room in a request

    LlmProvider *m_provider;
    ToolRegistry *m_registry;
    ToolRunner *m_runner;
    ConversationStore *m_store = nullptr;
    AgentOptions m_options;
    QString m_conversationId;
    QString m_workspace;
    QString m_origin;
    std::vector<ChatMessage> m_messages;
    bool m_busy = false;
    bool m_lastTurnFailed = false;
    std::tuple<int, int, bool> m_fitReported; // what contextFitted() said in this turn
    // The model's summary of the first m_summaryCovers messages (those left out of requests).
    QString m_summary;
    int m_summaryCovers = 0;
    int m_summaryFailedFor = 0; // a summary of this many messages failed: they are left out
    int m_turns = 0;
    quint64 m_turnSerial = 0; // model turns over the agent's life: part of every call id
    std::function<void()> m_cancelCompletion;
    // What the completion in flight has streamed so far: kept as the answer, marked, when the
    // turn is stopped or fails before the model finished it.
    QString m_streamed;
    // The calls it has begun to stream (toolCallStreaming): their ids by position.
    std::map<int, QString> m_streamedCalls;
    // Calls that streamed but never came: toolCallAbandoned for those from `first` on.
    void abandonStreamedCalls(const QString &why, int first = 0);
    // The bytes of whole results the conversation keeps (AgentOptions::keepResultBytes).
    qint64 m_keptResultBytes = 0;
    // The tool calls of the current model turn, in the model's order, and their results and
    // runs keyed by the agent's own call ids (never the provider's: a model may repeat them).
    std::vector<PendingCall> m_pendingCalls;
    std::map<QString, SharedToolRunResult> m_results;
    std::map<QString, ToolRunner::RunId> m_runs;
    Usage m_usage;
};

} // namespace Engine
