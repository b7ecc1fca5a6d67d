#pragma once

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
// 50 ms, and only the new text is laid out, so a fast model cannot flood the event loop. Owned by
// the main window.
class ChatView : public QScrollArea
{
    Q_OBJECT
public:
    explicit ChatView(QWidget *parent = nullptr);

    void clear();
    void addUserMessage(const QString &text);
    void appendAssistantDelta(const QString &delta);
    void finishAssistantMessage(const QString &fullText);
    void addNotice(const QString &html, bool error = false);

    void toolApprovalNeeded(const QString &callId, const QString &toolName);
    void toolStarted(const QString &callId, const QString &toolName, const Engine::Json &arguments);
    void toolProgress(const QString &callId, double progress, double total, const QString &message);
    void toolFinished(const QString &callId, const Engine::ToolRunResult &result);

    int toolCardCount() const { return int(m_cards.size()); }
    QString lastAssistantText() const { return m_streamText; }

private:
    ToolCard *card(const QString &callId, const QString &toolName);
    QLabel *addLabel(const QString &text, Qt::TextFormat format, const QString &style);
    void renderStream();
    void scrollToEndLater();

    QWidget *m_content;
    QVBoxLayout *m_layout;
    // While the answer streams, its text grows in a plain text view (appending lays out only
    // the new text); when it is complete it is rendered once as Markdown in a label.
    QTextEdit *m_streamView = nullptr;
    QString m_streamText;
    QString m_unflushed;
    QTimer m_renderTimer;
    QHash<QString, ToolCard *> m_cards;
};

} // namespace Ui
