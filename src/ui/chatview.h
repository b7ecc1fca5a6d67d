#pragma once

#include <engine/llm.h>
#include <engine/toolrunner.h>

#include <QHash>
#include <QScrollArea>
#include <QTimer>

class QLabel;
class QTextEdit;
class QProgressBar;
class QVBoxLayout;

namespace Ui {

class ToolCard;

// The conversation as the user reads it: user and assistant messages (Markdown: code blocks,
// tables, links), the answer streaming in, and one card per tool call (state, progress,
// collapsible result, images, errors in red). Streamed text is appended at most every
// 50 ms, and only the new text is laid out, so a fast model cannot flood the event loop. The
// view keeps to the end while the user is there, and stays where the user scrolled otherwise.
// Owned by the main window.
class ChatView : public QScrollArea
{
    Q_OBJECT
public:
    explicit ChatView(QWidget *parent = nullptr);

    void clear();
    // A saved conversation as it was said: messages, and a card per tool call with its name,
    // arguments and outcome (denials as denials); the view opens at its end.
    void showConversation(const std::vector<Engine::ChatMessage> &messages);
    void addUserMessage(const QString &text);
    void appendAssistantDelta(const QString &delta);
    // The assistant's message is complete: `fullText`, or what streamed if that is empty (a
    // message of tool calls only adds nothing).
    void finishAssistantMessage(const QString &fullText);
    // The notice's label (owned by the view; gone after clear()).
    QLabel *addNotice(const QString &html, bool error = false);

    void toolApprovalNeeded(const QString &callId, const QString &toolName);
    void toolStarted(const QString &callId, const QString &toolName, const Engine::Json &arguments);
    void toolProgress(const QString &callId, double progress, double total, const QString &message);
    void toolFinished(const QString &callId, const Engine::ToolRunResult &result);

    int toolCardCount() const { return int(m_cards.size()); }
    QString lastAssistantText() const { return m_lastAssistantText; }
    // Whether new content scrolls the view to its end (the user is at the end).
    bool followsEnd() const { return m_followEnd; }

private:
    ToolCard *card(const QString &callId, const QString &toolName);
    QLabel *addLabel(const QString &text, Qt::TextFormat format, const QString &style);
    void renderStream();
    void scrollToEndLater();
    void addToolCall(const QString &key, const Engine::ToolCallRequest &call);

    QWidget *m_content;
    QVBoxLayout *m_layout;
    // While the answer streams, its text grows in a plain text view (appending lays out only
    // the new text); when it is complete it is rendered once as Markdown in a label.
    QTextEdit *m_streamView = nullptr;
    QString m_streamText;
    QString m_lastAssistantText;
    QString m_unflushed;
    bool m_followEnd = true;
    QTimer m_renderTimer;
    QHash<QString, ToolCard *> m_cards;
};

} // namespace Ui
