#include "chatview.h"

#include "resultviewer.h"

#include <QAbstractTextDocumentLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollBar>
#include <QTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace Ui {

namespace {
// Streamed text is re-rendered at most this often (ms): 20 frames a second reads smoothly and
// keeps Markdown layout off the hot path of every token.
constexpr int StreamRenderMs = 50;
// Within this many pixels of the end counts as "at the end" (a wheel step is larger).
constexpr int FollowSlackPx = 24;

const char *const BubbleStyle = "QLabel { padding: 6px 8px; border-radius: 6px; }";
} // namespace

// One tool call: name, state, a progress bar fed by MCP progress, and the result (collapsed
// unless it is an error), with images shown.
class ToolCard : public QFrame
{
public:
    explicit ToolCard(const QString &toolName, QWidget *parent)
        : QFrame(parent)
    {
        setObjectName(QStringLiteral("toolCard"));
        setFrameShape(QFrame::StyledPanel);
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(8, 6, 8, 6);
        m_title = new QLabel(this);
        m_title->setObjectName(QStringLiteral("toolTitle"));
        m_title->setTextFormat(Qt::PlainText);
        m_title->setText(toolName);
        QFont bold = m_title->font();
        bold.setBold(true);
        m_title->setFont(bold);
        m_state = new QLabel(this);
        m_state->setObjectName(QStringLiteral("toolState"));
        m_arguments = new QLabel(this);
        m_arguments->setObjectName(QStringLiteral("toolArguments"));
        m_arguments->setTextFormat(Qt::PlainText);
        m_arguments->setWordWrap(true);
        m_arguments->setStyleSheet(QStringLiteral("color: palette(mid); font-family: monospace;"));
        m_progress = new QProgressBar(this);
        m_progress->setVisible(false);
        m_toggle = new QToolButton(this);
        m_toggle->setText(ChatView::tr("Result"));
        m_toggle->setCheckable(true);
        m_toggle->setVisible(false);
        m_result = new QPlainTextEdit(this);
        m_result->setReadOnly(true);
        m_result->setObjectName(QStringLiteral("toolResult"));
        m_result->setMaximumHeight(200);
        m_result->setVisible(false);
        m_images = new QVBoxLayout;
        m_more = new QToolButton(this);
        m_more->setObjectName(QStringLiteral("openWholeResult"));
        m_more->setVisible(false);
        m_more->setAutoRaise(true);
        QObject::connect(m_toggle, &QToolButton::toggled, m_result, &QWidget::setVisible);
        QObject::connect(m_more, &QToolButton::clicked, this, [this] {
            auto *viewer = new ResultViewer(m_title->text(), m_whole, window());
            viewer->setAttribute(Qt::WA_DeleteOnClose);
            viewer->show();
        });
        layout->addWidget(m_title);
        layout->addWidget(m_state);
        layout->addWidget(m_arguments);
        layout->addWidget(m_progress);
        layout->addWidget(m_toggle);
        layout->addWidget(m_result);
        layout->addWidget(m_more);
        layout->addLayout(m_images);
    }

    void setState(const QString &text, const QString &color = QString())
    {
        m_state->setText(text);
        m_state->setStyleSheet(color.isEmpty() ? QString()
                                               : QStringLiteral("color: %1;").arg(color));
    }
    void setArguments(const Engine::Json &arguments)
    {
        m_arguments->setText(
                QString::fromStdString(
                        arguments.dump(-1, ' ', false, Engine::Json::error_handler_t::replace))
                        .left(500));
    }
    void setProgress(double progress, double total, const QString &message)
    {
        m_progress->setVisible(true);
        if (total > 0) {
            m_progress->setRange(0, 1000);
            m_progress->setValue(int(1000 * std::min(1.0, progress / total)));
        } else {
            m_progress->setRange(0, 0); // busy indicator: no total known
        }
        if (!message.isEmpty())
            m_progress->setFormat(message);
    }
    void setResult(const Engine::ToolRunResult &result)
    {
        m_progress->setVisible(false);
        QString state = ChatView::tr("done");
        QString color;
        if (result.denied) {
            state = ChatView::tr("denied");
            color = QStringLiteral("#c62828");
        } else if (result.timedOut) {
            state = ChatView::tr("timed out");
            color = QStringLiteral("#c62828");
        } else if (result.cancelled) {
            state = ChatView::tr("cancelled");
            color = QStringLiteral("#9e9e9e");
        } else if (result.output.isError) {
            state = ChatView::tr("error");
            color = QStringLiteral("#c62828");
        }
        setState(state, color);
        // The full output, not the capped model text.
        // UTF-8 throughout: a 20 MB result is never held as a QString here.
        QByteArrayList parts;
        for (const Engine::Json &block : result.output.content) {
            if (!block.is_object())
                continue;
            const std::string type = block.value("type", "");
            if (type == "text") {
                const auto text = block.find("text");
                if (text != block.end() && text->is_string())
                    parts << QByteArray::fromStdString(text->get_ref<const std::string &>());
            } else if (type == "image") {
                QPixmap pixmap;
                pixmap.loadFromData(
                        QByteArray::fromBase64(QByteArray::fromStdString(block.value("data", ""))));
                if (!pixmap.isNull()) {
                    auto *image = new QLabel(this);
                    image->setPixmap(pixmap.scaled(QSize(256, 256).boundedTo(pixmap.size()),
                                                   Qt::KeepAspectRatio, Qt::SmoothTransformation));
                    m_images->addWidget(image);
                }
            } else {
                parts << "[" + QByteArray::fromStdString(type) + "]";
            }
        }
        QByteArray whole = parts.join('\n');
        parts.clear();
        if (!result.output.structuredContent.is_null()) {
            // Compact here; pretty only for a small one (a big one is read in the viewer).
            const std::string structured = result.output.structuredContent.dump(
                    -1, ' ', false, Engine::Json::error_handler_t::replace);
            whole += whole.isEmpty() ? "" : "\n";
            whole += structured.size() <= size_t(PreviewBytes)
                             ? QByteArray::fromStdString(result.output.structuredContent.dump(
                                     2, ' ', false, Engine::Json::error_handler_t::replace))
                             : QByteArray::fromStdString(structured);
        }
        // Only a preview goes into the widget; the whole text waits for the viewer.
        const ResultPreview preview = makePreview(whole);
        m_result->setPlainText(preview.text);
        m_more->setVisible(preview.cut);
        m_more->setText(preview.note + QLatin1Char(' ') + ChatView::tr("Open the whole result…"));
        m_whole = preview.cut ? std::move(whole) : QByteArray();
        if (!color.isEmpty())
            m_result->setStyleSheet(QStringLiteral("color: %1;").arg(color));
        m_toggle->setVisible(true);
        m_toggle->setChecked(result.output.isError); // errors open, results collapsed
    }

private:
    QLabel *m_title;
    QLabel *m_state;
    QLabel *m_arguments;
    QProgressBar *m_progress;
    QToolButton *m_toggle;
    QPlainTextEdit *m_result;
    QToolButton *m_more; // opens the whole result when the preview is cut
    QByteArray m_whole;  // the whole result (UTF-8) when the preview is cut
    QVBoxLayout *m_images;
};

ChatView::ChatView(QWidget *parent)
    : QScrollArea(parent)
{
    setObjectName(QStringLiteral("chatView"));
    setWidgetResizable(true);
    m_content = new QWidget(this);
    m_content->setObjectName(QStringLiteral("chatContent"));
    m_content->setAutoFillBackground(true);
    m_content->setBackgroundRole(QPalette::Base);
    m_layout = new QVBoxLayout(m_content);
    m_layout->addStretch(1);
    setWidget(m_content);
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(StreamRenderMs);
    connect(&m_renderTimer, &QTimer::timeout, this, &ChatView::renderStream);
    // Following the end: content that grows keeps the view there; a user who scrolled up to
    // read stays where they are until they come back down.
    QScrollBar *bar = verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this,
            [this, bar](int value) { m_followEnd = value >= bar->maximum() - FollowSlackPx; });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (m_followEnd)
            bar->setValue(maximum);
    });
}

void ChatView::clear()
{
    while (m_layout->count() > 1) {
        QLayoutItem *item = m_layout->takeAt(0);
        delete item->widget();
        delete item;
    }
    m_cards.clear();
    m_streamView = nullptr;
    m_streamText.clear();
    m_lastAssistantText.clear();
    m_unflushed.clear();
    m_followEnd = true;
}

void ChatView::showConversation(const std::vector<Engine::ChatMessage> &messages)
{
    clear();
    // Tool results answer calls by the provider's id, which a model may repeat: each result
    // goes to the oldest card of that id still waiting.
    QHash<QString, QStringList> waiting; // provider id -> card keys, oldest first
    int cards = 0;
    for (const Engine::ChatMessage &message : messages) {
        switch (message.role) {
        case Engine::ChatMessage::Role::User:
            addUserMessage(message.text);
            break;
        case Engine::ChatMessage::Role::Assistant:
            finishAssistantMessage(message.text);
            for (const Engine::ToolCallRequest &call : message.toolCalls) {
                const QString key = QStringLiteral("saved-%1").arg(++cards);
                addToolCall(key, call);
                waiting[call.id].append(key);
            }
            break;
        case Engine::ChatMessage::Role::Tool: {
            QStringList &keys = waiting[message.toolCallId];
            QString key = keys.isEmpty() ? QString() : keys.takeFirst();
            if (key.isEmpty()) { // a result without its call (an older file): a card of its own
                key = QStringLiteral("saved-%1").arg(++cards);
                addToolCall(key, Engine::ToolCallRequest{message.toolCallId, message.toolName,
                                                         Engine::Json(), QString()});
            }
            Engine::ToolRunResult result;
            result.output = Engine::ToolOutput::text(message.text, message.isError);
            result.denied = message.denied;
            result.ran = !message.denied;
            toolFinished(key, result);
            break;
        }
        case Engine::ChatMessage::Role::System:
            break;
        }
    }
    m_followEnd = true; // a conversation opens at its end
    scrollToEndLater();
}

void ChatView::addToolCall(const QString &key, const Engine::ToolCallRequest &call)
{
    ToolCard *c = card(key, call.name);
    if (!call.arguments.is_null())
        c->setArguments(call.arguments);
    else if (!call.argumentsText.isEmpty())
        c->setArguments(Engine::Json(call.argumentsText.toStdString()));
}

QLabel *ChatView::addLabel(const QString &text, Qt::TextFormat format, const QString &style)
{
    auto *label = new QLabel(m_content);
    label->setTextFormat(format);
    label->setText(text);
    label->setWordWrap(true);
    label->setOpenExternalLinks(true);
    label->setTextInteractionFlags(Qt::TextBrowserInteraction);
    label->setStyleSheet(QString::fromLatin1(BubbleStyle) + style);
    m_layout->insertWidget(m_layout->count() - 1, label);
    scrollToEndLater();
    return label;
}

void ChatView::addUserMessage(const QString &text)
{
    m_followEnd = true; // a new question: its answer is what the user reads next
    addLabel(text, Qt::PlainText, QStringLiteral("QLabel { background: palette(alternate-base); }"))
            ->setObjectName(QStringLiteral("userMessage"));
}

void ChatView::appendAssistantDelta(const QString &delta)
{
    if (!m_streamView) {
        m_streamView = new QTextEdit(m_content);
        m_streamView->setObjectName(QStringLiteral("streamingMessage"));
        m_streamView->setReadOnly(true);
        m_streamView->setFrameShape(QFrame::NoFrame);
        m_streamView->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_streamView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_streamView->viewport()->setAutoFillBackground(false);
        // The view grows with its text; the chat's scroll area does the scrolling.
        QTextEdit *view = m_streamView;
        connect(view->document()->documentLayout(),
                &QAbstractTextDocumentLayout::documentSizeChanged, view,
                [view](const QSizeF &size) { view->setFixedHeight(int(size.height()) + 6); });
        m_layout->insertWidget(m_layout->count() - 1, m_streamView);
        m_streamText.clear();
        m_unflushed.clear();
    }
    m_streamText += delta;
    m_unflushed += delta;
    if (!m_renderTimer.isActive())
        m_renderTimer.start();
}

void ChatView::renderStream()
{
    if (m_streamView && !m_unflushed.isEmpty()) {
        QTextCursor cursor(m_streamView->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(m_unflushed);
        m_unflushed.clear();
    }
    scrollToEndLater();
}

void ChatView::finishAssistantMessage(const QString &fullText)
{
    m_renderTimer.stop();
    // What streamed stands in for an empty text only while it is on screen: after a turn of
    // tool calls only, the previous answer must not be shown again.
    const QString text = !fullText.isEmpty() ? fullText : m_streamView ? m_streamText : QString();
    if (m_streamView) {
        const int index = m_layout->indexOf(m_streamView);
        delete m_streamView;
        m_streamView = nullptr;
        if (!text.isEmpty()) {
            QLabel *label = addLabel(text, Qt::MarkdownText, QString());
            label->setObjectName(QStringLiteral("assistantMessage"));
            m_layout->removeWidget(label);
            m_layout->insertWidget(index, label);
        }
    } else if (!text.isEmpty()) {
        addLabel(text, Qt::MarkdownText, QString())
                ->setObjectName(QStringLiteral("assistantMessage"));
    }
    if (!text.isEmpty())
        m_lastAssistantText = text;
    m_streamText.clear();
    m_unflushed.clear();
    scrollToEndLater();
}

QLabel *ChatView::addNotice(const QString &html, bool error)
{
    QLabel *label
            = addLabel(html, Qt::RichText,
                       error ? QStringLiteral("QLabel { color: #c62828; }")
                             : QStringLiteral("QLabel { color: palette(window-text); background: "
                                              "palette(alternate-base); }"));
    label->setObjectName(QStringLiteral("notice"));
    return label;
}

ToolCard *ChatView::card(const QString &callId, const QString &toolName)
{
    if (ToolCard *existing = m_cards.value(callId))
        return existing;
    // A tool call ends the assistant text before it.
    if (m_streamView)
        finishAssistantMessage(QString());
    auto *card = new ToolCard(toolName, m_content);
    m_layout->insertWidget(m_layout->count() - 1, card);
    m_cards.insert(callId, card);
    scrollToEndLater();
    return card;
}

void ChatView::toolApprovalNeeded(const QString &callId, const QString &toolName)
{
    card(callId, toolName)->setState(tr("waiting for your approval…"), QStringLiteral("#ef6c00"));
}

void ChatView::toolStarted(const QString &callId, const QString &toolName,
                           const Engine::Json &arguments)
{
    ToolCard *c = card(callId, toolName);
    c->setState(tr("running…"));
    c->setArguments(arguments);
}

void ChatView::toolProgress(const QString &callId, double progress, double total,
                            const QString &message)
{
    if (ToolCard *c = m_cards.value(callId))
        c->setProgress(progress, total, message);
}

void ChatView::toolFinished(const QString &callId, const Engine::ToolRunResult &result)
{
    card(callId, QString())->setResult(result);
}

void ChatView::scrollToEndLater()
{
    QTimer::singleShot(0, this, [this] {
        if (m_followEnd)
            verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    });
}

} // namespace Ui
