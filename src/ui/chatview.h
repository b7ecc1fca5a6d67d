#pragma once

#include <engine/approval/toolrunner.h>
#include <engine/llm/llm.h>

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QImage>
#include <QRect>
#include <QTextBrowser>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QTextBlock;
class QTextBlockFormat;
class QTextCharFormat;
class QTextFrame;

namespace Gui {

class CodeHighlighter;

// The conversation as the user reads it, as one document that only ever grows at its end
// (a QTextBrowser): each message is a frame (who, when, Copy; Markdown with tables,
// blockquotes and highlighted code blocks, each with its own Copy), each tool call a compact
// card (server, tool, state, duration on one line; arguments and result when expanded, the
// whole of a big result one click away). A 1,000-message conversation is laid out once, by
// the document, and scrolls like any text. Streamed Markdown is rendered as it arrives (at most
// every 50 ms, less often when rendering is slow), so nothing reflows when it ends. The view
// follows the end while the user is there, and stays where the user scrolled otherwise.
// Owned by the main window.
class ChatView : public QTextBrowser
{
    Q_OBJECT
public:
    enum class Kind { User, Assistant, Tool, Notice };
    // An agent tool's card (spawn_subagent, delegate_agent) keeps this many steps.
    static constexpr int MaxSteps = 30;
    // The text's column is at most this many average characters wide (a line stays readable),
    // centred when the view is wider.
    static constexpr int ReadableColumnChars = 96;

    // What a tool card shows (for tests and for the window's own checks).
    struct CardInfo
    {
        QString toolName;
        QString arguments;
        QString state;
        bool expanded = false;
        bool wholeResultAvailable = false; // the preview is cut; the viewer has the rest
    };

    explicit ChatView(QWidget *parent = nullptr);
    ~ChatView() override;

    void clear();
    // A saved conversation as it was said: messages, and a card per tool call with its name,
    // arguments and outcome (denials as denials); the view opens at its end.
    void showConversation(const std::vector<Engine::ChatMessage> &messages);
    // What the user sent: the text as typed, then each attached file by name and size and
    // each image as a picture.
    void addUserMessage(const QString &text,
                        const std::vector<Engine::Attachment> &attachments = {});
    void appendAssistantDelta(const QString &delta);
    // The assistant's message is complete: `fullText`, or what streamed if that is empty (a
    // message of tool calls only adds nothing).
    void finishAssistantMessage(const QString &fullText);
    void addNotice(const QString &html, bool error = false);
    // A notice in words of ours: `html` gives it again in the language of the moment, so that a
    // switch of language retranslates it with the rest of the chat.
    void addNotice(std::function<QString()> html, bool error = false);
    // After a turn that failed or was stopped: a Retry link under it.
    void offerRetry();
    // An edited last message replaces it and everything after it; a retry keeps it and
    // replaces what followed (as the agent does with its history).
    void dropFromLastUserMessage(bool includingIt);

    // A call the model is still writing: its card shows at once ("writing…"); the pieces of
    // its arguments go on to AppCards (toolCardWriting). Abandoned: the answer never finished
    // it (stopped, failed); the card says why.
    void toolCallWriting(const QString &callId, const QString &toolName,
                         const QString &argumentsDelta);
    void toolCallAbandoned(const QString &callId, const QString &why);
    void toolApprovalNeeded(const QString &callId, const QString &toolName);
    void toolStarted(const QString &callId, const QString &toolName, const Engine::Json &arguments);
    void toolProgress(const QString &callId, double progress, double total, const QString &message);
    void toolFinished(const QString &callId, const Engine::SharedToolRunResult &result);
    // The same for a result made here (a reopened conversation, tests): copied once.
    void toolFinished(const QString &callId, const Engine::ToolRunResult &result);

    // MCP Apps: the card of a tool with a view keeps `height` pixels under its line for it (0:
    // none); the window's AppCards draws the view there, a widget over the viewport.
    void reserveView(const QString &callId, int height);
    // Where the room of reserveView() is now, in viewport coordinates (null when none).
    QRect viewRect(const QString &callId) const;

    // The width the messages are laid out in (the readable column, or less when the view is
    // narrower), and where it starts: the view's inner margin, more when it is centred.
    int columnWidth() const;
    int columnLeft() const;

    // How a card names a registry tool ("everything › get-sum": the server's own name for it);
    // empty from `namer` (or none set): the registry name, read as "server › tool".
    void setToolNamer(std::function<QString(const QString &)> namer);
    QString toolTitle(const QString &registryName) const;

    int toolCardCount() const { return int(m_cards.size()); }
    QString lastAssistantText() const { return m_lastAssistantText; }
    // Whether new content scrolls the view to its end (the user is at the end).
    bool followsEnd() const { return m_followEnd; }

    // The texts of one kind of entry, oldest first (the assistant's as Markdown source).
    QStringList texts(Kind kind) const;
    QList<CardInfo> cards() const;
    // What a click on one of the view's own links does: "sb:copy:N" (message N), "sb:fork:N",
    // "sb:code:N:K" (its code block K), "sb:toggle:N" (a card), "sb:whole:N" (a card's whole
    // result); http(s) links open in the browser; anything else is ignored.
    void activateLink(const QUrl &url);
    // The code blocks' texts, in the order they were shown (what their Copy links copy).
    QStringList codeBlocks() const;

    // Find in the conversation (Ctrl+F): every match of `text` (case as typed or not)
    // highlighted, and the first at or after what is on screen made current and scrolled to.
    // The number of matches (at most MaxFindMatches); an empty text clears the highlights.
    static constexpr int MaxFindMatches = 10000;
    int findAll(const QString &text, bool caseSensitive = false);
    // The next (or previous) match, wrapping around; its 1-based number, 0 when there is none.
    int findNext(bool backward = false);
    int findCount() const { return int(m_findMatches.size()); }
    int findCurrent() const { return m_findCurrent + 1; }
    void clearFind();

signals:
    // "Edit" on the last user message: its text, to be edited and sent again.
    void editRequested(const QString &text);
    // "Retry" on the last answer, or after a failed turn.
    void retryRequested();
    // "Fork" on the user's message number `ordinal` (0: the first they sent): a new
    // conversation with everything up to that exchange's answer.
    void forkRequested(int ordinal);
    // A tool card with its call's arguments (live, or from a saved conversation), and its
    // outcome: what AppCards needs to show the tool's view.
    void toolCardShown(const QString &callId, const QString &toolName,
                       const Engine::Json &arguments);
    void toolCardFinished(const QString &callId, const Engine::SharedToolRunResult &result);
    // The next piece of the arguments of a call being written (before toolCardShown for it).
    void toolCardWriting(const QString &callId, const QString &toolName,
                         const QString &argumentsDelta);
    // These cards are about to go (the conversation is cleared, switched or cut back).
    void toolCardsRemoving(const QStringList &callIds);
    // The views' rooms may have moved (scrolled, resized, laid out again).
    void viewsMoved();

protected:
    void changeEvent(QEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    enum class CardState {
        Writing,
        Waiting,
        Approval,
        Running,
        Done,
        Denied,
        TimedOut,
        Cancelled,
        Error
    };
    static QString stateText(CardState state);
    struct Entry;
    Entry *entry(int index) const;
    Entry &appendEntry(Kind kind);
    void render(Entry &entry);
    void renderHeader(QTextCursor &cursor, const Entry &entry);
    void renderActionLinks();
    void renderMarkdown(QTextCursor &cursor, Entry &entry);
    void renderCard(QTextCursor &cursor, Entry &entry);
    // An image as a document resource, at most MaxImageSide: its name for QTextImageFormat.
    QString addImage(const QImage &image);
    void markInlineCode(const QTextBlock &block, const QColor &band);
    void removeLastEntry();
    Entry &card(const QString &callId, const QString &toolName);
    void addToolCall(const QString &key, const Engine::ToolCallRequest &call);
    void renderChange(QTextCursor &cursor, const Engine::FileChange &change,
                      const QTextBlockFormat &indented, const QTextCharFormat &mono,
                      const QTextCharFormat &dim);
    void renderStream();
    void scrollToEndLater();
    void restyle();
    // The root frame's side margins centre the column in the view's width.
    void updateColumn();
    void showFindMatches();

    std::vector<std::unique_ptr<Entry>> m_entries;
    QHash<QString, Entry *> m_cards;
    CodeHighlighter *m_highlighter = nullptr;
    int m_streaming = -1; // the entry the answer streams into
    // The answer's text that a call's card closed while the answer was still streaming: where
    // the complete answer's text goes (finishAssistantMessage), -1 for none.
    int m_answerBeforeCalls = -1;
    // The entries that carry Edit and Retry links (the last of their kind), -1 for none.
    int m_lastUser = -1;
    int m_lastAssistant = -1;
    void moveActionLink(int &holder, int index);
    QString m_lastAssistantText;
    bool m_followEnd = true;
    bool m_batch = false; // showConversation: one scroll at the end
    // showConversation: when the message being shown was said (invalid: not known).
    std::optional<QDateTime> m_savedTime;
    QTimer m_renderTimer;
    QTimer m_viewsMovedTimer; // the document was laid out again: viewsMoved() once
    int m_imageCount = 0;
    std::function<QString(const QString &)> m_toolNamer;
    QList<QTextCursor> m_findMatches; // findAll's, in document order
    int m_findCurrent = -1;
};

} // namespace Gui
