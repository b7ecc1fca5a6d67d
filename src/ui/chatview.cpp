#include "chatview.h"

#include "chatviewentry.h"
#include "codehighlighter.h"
#include "resultviewer.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QLocale>
#include <QScrollBar>
#include <QTextFrame>

#include <algorithm>
#include <utility>

namespace Gui {

namespace {
// Streamed text is rendered at most this often (ms); when a render takes long (a long
// answer), the next waits proportionally longer so streaming never floods the event loop.
constexpr int StreamRenderMs = 50;
constexpr int StreamRenderCostFactor = 4;
// Within this many pixels of the end counts as "at the end" (a wheel step is larger).
constexpr int FollowSlackPx = 24;
// Around the text; the sides grow to centre the readable column.
constexpr int DocumentMarginPx = 10;
// Images in results are shown at most this large.
constexpr int MaxImageSide = 256;
} // namespace

QString displayToolName(const QString &name)
{
    if (name.startsWith(QLatin1String("mcp__"))) {
        const qsizetype split = name.indexOf(QLatin1String("__"), 5);
        if (split > 5)
            return name.mid(5, split - 5) + QStringLiteral(" › ") + name.mid(split + 2);
    }
    return name;
}

QTextCharFormat linkFormat(const QPalette &palette, const QString &href)
{
    QTextCharFormat format;
    format.setAnchor(true);
    format.setAnchorHref(href);
    format.setForeground(palette.color(QPalette::Link));
    return format;
}

ChatView::ChatView(QWidget *parent)
    : QTextBrowser(parent)
{
    setObjectName(QStringLiteral("chatView"));
    setOpenLinks(false);
    setUndoRedoEnabled(false);
    setFrameShape(QFrame::NoFrame);
    // A long code line wraps instead of widening the chat.
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    document()->setDocumentMargin(DocumentMarginPx);
    m_highlighter = new CodeHighlighter(document());
    m_highlighter->setDark(isDark(palette()));
    connect(this, &QTextBrowser::anchorClicked, this, &ChatView::activateLink);

    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(StreamRenderMs);
    connect(&m_renderTimer, &QTimer::timeout, this, &ChatView::renderStream);
    m_viewsMovedTimer.setSingleShot(true);
    m_viewsMovedTimer.setInterval(0);
    connect(&m_viewsMovedTimer, &QTimer::timeout, this, &ChatView::viewsMoved);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::update, &m_viewsMovedTimer,
            qOverload<>(&QTimer::start));
    // Following the end: content that grows keeps the view there; a user who scrolled up to
    // read stays where they are until they come back down.
    QScrollBar *bar = verticalScrollBar();
    // Only what the user does (wheel, keys, the scroll bar) decides: the document's own
    // layout moves the value too, and must not be taken for the user scrolling away.
    connect(bar, &QScrollBar::actionTriggered, this, [this, bar](int) {
        m_followEnd = bar->sliderPosition() >= bar->maximum() - FollowSlackPx;
    });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (m_followEnd)
            bar->setValue(maximum);
    });
}

ChatView::~ChatView() = default;

void ChatView::clear()
{
    if (!m_cards.isEmpty())
        emit toolCardsRemoving(m_cards.keys());
    m_renderTimer.stop();
    m_entries.clear();
    m_cards.clear();
    m_lastUser = -1;
    m_lastAssistant = -1;
    m_streaming = -1;
    m_answerBeforeCalls = -1;
    m_lastAssistantText.clear();
    m_imageCount = 0;
    m_findMatches.clear();
    m_findCurrent = -1;
    setExtraSelections({});
    document()->clear();
    updateColumn();
    m_followEnd = true;
}

void ChatView::setToolNamer(std::function<QString(const QString &)> namer)
{
    m_toolNamer = std::move(namer);
}

QString ChatView::toolTitle(const QString &registryName) const
{
    const QString named = m_toolNamer ? m_toolNamer(registryName) : QString();
    return named.isEmpty() ? displayToolName(registryName) : named;
}

int ChatView::columnLeft() const
{
    return int(document()->rootFrame()->frameFormat().leftMargin());
}

int ChatView::columnWidth() const
{
    return viewport()->width() - columnLeft()
           - int(document()->rootFrame()->frameFormat().rightMargin());
}

int ChatView::findAll(const QString &text, bool caseSensitive)
{
    m_findMatches.clear();
    m_findCurrent = -1;
    if (!text.isEmpty()) {
        const QTextDocument::FindFlags flags
                = caseSensitive ? QTextDocument::FindCaseSensitively : QTextDocument::FindFlags();
        // The first match at or after the top of what is on screen becomes the current one.
        const int firstShown = cursorForPosition(QPoint(0, 0)).position();
        QTextCursor at(document());
        while (m_findMatches.size() < MaxFindMatches) {
            at = document()->find(text, at, flags);
            if (at.isNull())
                break;
            if (m_findCurrent < 0 && at.selectionStart() >= firstShown)
                m_findCurrent = int(m_findMatches.size());
            m_findMatches.append(at);
        }
        if (m_findCurrent < 0 && !m_findMatches.isEmpty())
            m_findCurrent = 0;
    }
    showFindMatches();
    return int(m_findMatches.size());
}

int ChatView::findNext(bool backward)
{
    if (m_findMatches.isEmpty())
        return 0;
    const int count = int(m_findMatches.size());
    m_findCurrent = (m_findCurrent + (backward ? count - 1 : 1)) % count;
    showFindMatches();
    return m_findCurrent + 1;
}

void ChatView::clearFind()
{
    findAll(QString());
}

// Every match in the highlight colour's pale form, the current one as a selection, shown.
void ChatView::showFindMatches()
{
    QList<QTextEdit::ExtraSelection> selections;
    QColor all = palette().color(QPalette::Highlight);
    all.setAlpha(70);
    for (int i = 0; i < m_findMatches.size(); ++i) {
        QTextEdit::ExtraSelection selection;
        selection.cursor = m_findMatches.at(i);
        if (i == m_findCurrent) {
            selection.format.setBackground(palette().color(QPalette::Highlight));
            selection.format.setForeground(palette().color(QPalette::HighlightedText));
        } else {
            selection.format.setBackground(all);
        }
        selections.append(selection);
    }
    setExtraSelections(selections);
    if (m_findCurrent >= 0) {
        m_followEnd = false; // reading a match, not the end
        QTextCursor current = m_findMatches.at(m_findCurrent);
        current.clearSelection();
        setTextCursor(current);
        ensureCursorVisible();
    }
}

void ChatView::updateColumn()
{
    const int readable = fontMetrics().averageCharWidth() * ReadableColumnChars;
    const int side = std::max(DocumentMarginPx, (viewport()->width() - readable) / 2);
    QTextFrameFormat format = document()->rootFrame()->frameFormat();
    if (int(format.leftMargin()) == side && int(format.rightMargin()) == side)
        return;
    format.setLeftMargin(side);
    format.setRightMargin(side);
    document()->rootFrame()->setFrameFormat(format);
}

ChatView::Entry *ChatView::entry(int index) const
{
    return index >= 0 && index < int(m_entries.size()) ? m_entries[size_t(index)].get() : nullptr;
}

ChatView::Entry &ChatView::appendEntry(Kind kind)
{
    auto entry = std::make_unique<Entry>();
    entry->kind = kind;
    entry->index = int(m_entries.size());
    entry->time = m_savedTime ? *m_savedTime : QDateTime::currentDateTime();
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    QTextFrameFormat format;
    format.setPadding(kind == Kind::Tool ? 4 : 8);
    format.setTopMargin(kind == Kind::Tool ? 2 : 6);
    format.setBottomMargin(kind == Kind::Tool ? 2 : 6);
    if (kind == Kind::User)
        format.setBackground(palette().color(QPalette::AlternateBase));
    if (kind == Kind::Tool) {
        format.setBorder(1);
        format.setBorderBrush(palette().color(QPalette::Mid));
        format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        format.setLeftMargin(16);
    }
    entry->frame = cursor.insertFrame(format);
    m_entries.push_back(std::move(entry));
    return *m_entries.back();
}

void ChatView::removeLastEntry()
{
    if (m_entries.empty())
        return;
    Entry &last = *m_entries.back();
    QTextCursor cursor(document());
    cursor.setPosition(last.frame->firstPosition() - 1);
    cursor.setPosition(last.frame->lastPosition() + 1, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    if (m_streaming == last.index)
        m_streaming = -1;
    if (m_answerBeforeCalls == last.index)
        m_answerBeforeCalls = -1;
    m_entries.pop_back();
}

void ChatView::render(Entry &entry)
{
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.setPosition(entry.frame->firstPosition());
    cursor.setPosition(entry.frame->lastPosition(), QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    cursor.setBlockFormat(QTextBlockFormat());
    cursor.setCharFormat(QTextCharFormat());
    switch (entry.kind) {
    case Kind::User:
    case Kind::Assistant:
        renderHeader(cursor, entry);
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        renderMarkdown(cursor, entry);
        break;
    case Kind::Tool:
        renderCard(cursor, entry);
        break;
    case Kind::Notice: {
        if (entry.textOf)
            entry.text = entry.textOf();
        cursor.insertHtml(entry.error ? QStringLiteral("<span style=\"color:%1\">%2</span>")
                                                .arg(errorColor(palette()).name(), entry.text)
                                      : entry.text);
        break;
    }
    }
    cursor.endEditBlock();
    if (!m_batch)
        scrollToEndLater();
}

void ChatView::renderHeader(QTextCursor &cursor, const Entry &entry)
{
    QTextCharFormat who;
    who.setFontWeight(QFont::Bold);
    cursor.insertText(entry.kind == Kind::User ? tr("You") : tr("Assistant"), who);
    QTextCharFormat dim;
    dim.setForeground(dimColor(palette()));
    QString when;
    if (entry.time.isValid()) {
        const QDateTime local = entry.time.toLocalTime();
        when = local.date() == QDate::currentDate()
                       ? QLocale().toString(local.time(), QLocale::ShortFormat)
                       : QLocale().toString(local, QLocale::ShortFormat);
    }
    cursor.insertText(QStringLiteral("  ") + when + QStringLiteral("  "), dim);
    cursor.insertText(tr("Copy"),
                      linkFormat(palette(), QStringLiteral("sb:copy:%1").arg(entry.index)));
    if (entry.kind == Kind::User) {
        cursor.insertText(QStringLiteral("  "), dim);
        cursor.insertText(tr("Fork"),
                          linkFormat(palette(), QStringLiteral("sb:fork:%1").arg(entry.index)));
    }
    // While a saved conversation is filled in, links wait for the last entries (below).
    if (m_batch)
        return;
    if (entry.kind == Kind::User && entry.index == m_lastUser) {
        cursor.insertText(QStringLiteral("  "), dim);
        cursor.insertText(tr("Edit"),
                          linkFormat(palette(), QStringLiteral("sb:edit:%1").arg(entry.index)));
    }
    if (entry.kind == Kind::Assistant && entry.index == m_lastAssistant
        && m_lastAssistant > m_lastUser && m_streaming != entry.index) {
        cursor.insertText(QStringLiteral("  "), dim);
        cursor.insertText(tr("Retry"),
                          linkFormat(palette(), QStringLiteral("sb:retry:%1").arg(entry.index)));
    }
}

// The last question and the last answer again, with their Edit and Retry links (a batch
// leaves them out; a change of which entries are last moves them).
void ChatView::renderActionLinks()
{
    for (int index : {m_lastUser, m_lastAssistant}) {
        if (Entry *e = entry(index))
            render(*e);
    }
}

// `holder` now names entry `index`: the one before it loses its link.
void ChatView::moveActionLink(int &holder, int index)
{
    const int previous = std::exchange(holder, index);
    if (Entry *old = entry(previous); old && previous != index && !m_batch)
        render(*old);
}

void ChatView::offerRetry()
{
    Entry &notice = appendEntry(Kind::Notice);
    notice.text = QStringLiteral("<a href=\"sb:retry:%1\">%2</a>")
                          .arg(notice.index)
                          .arg(tr("Retry").toHtmlEscaped());
    render(notice);
}

void ChatView::dropFromLastUserMessage(bool includingIt)
{
    if (m_lastUser < 0)
        return;
    m_renderTimer.stop();
    const int keep = includingIt ? m_lastUser : m_lastUser + 1;
    QStringList removed;
    for (auto it = m_cards.cbegin(); it != m_cards.cend(); ++it) {
        if (it.value()->index >= keep)
            removed << it.key();
    }
    if (!removed.isEmpty())
        emit toolCardsRemoving(removed);
    for (const QString &key : std::as_const(removed))
        m_cards.remove(key);
    while (int(m_entries.size()) > keep)
        removeLastEntry();
    m_lastUser = -1;
    m_lastAssistant = -1;
    for (const auto &e : m_entries) {
        if (e->kind == Kind::User)
            m_lastUser = e->index;
        if (e->kind == Kind::Assistant)
            m_lastAssistant = e->index;
    }
    renderActionLinks();
}

void ChatView::showConversation(const std::vector<Engine::ChatMessage> &messages)
{
    clear();
    m_batch = true;
    QTextCursor batch(document());
    batch.beginEditBlock();
    // Tool results answer calls by the provider's id, which a model may repeat: each result
    // goes to the oldest card of that id still waiting.
    QHash<QString, QStringList> waiting; // provider id -> card keys, oldest first
    int cards = 0;
    for (const Engine::ChatMessage &message : messages) {
        m_savedTime = message.time;
        switch (message.role) {
        case Engine::ChatMessage::Role::User:
            addUserMessage(message.text, message.attachments);
            break;
        case Engine::ChatMessage::Role::Assistant:
            finishAssistantMessage(message.text);
            // A stopped or failed answer reopens as it was left: what had streamed, then why.
            if (!message.interruption.isEmpty())
                addNotice(message.interruption.toHtmlEscaped(), true);
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
            // The whole result where the conversation kept it: the same card, and the same
            // "Open the whole result…", as live; else the model's share, and why.
            if (message.result.is_object()) {
                result.output.content = message.result.value("content", Engine::Json::array());
                result.output.structuredContent
                        = message.result.value("structuredContent", Engine::Json());
                result.output.isError = message.result.value("isError", message.isError);
            } else {
                result.output = Engine::ToolOutput::text(
                        message.resultNote.isEmpty()
                                ? message.text
                                : message.text + QStringLiteral("\n\n") + message.resultNote,
                        message.isError);
            }
            result.denied = message.denied;
            result.ran = !message.denied;
            if (std::optional<Engine::FileChange> change
                = Engine::FileChange::fromJson(message.change))
                result.change = std::make_shared<const Engine::FileChange>(std::move(*change));
            toolFinished(key, result);
            break;
        }
        case Engine::ChatMessage::Role::System:
            break;
        }
    }
    m_savedTime.reset();
    batch.endEditBlock();
    m_batch = false;
    renderActionLinks();
    if (!messages.empty() && messages.back().role == Engine::ChatMessage::Role::Assistant
        && !messages.back().interruption.isEmpty())
        offerRetry();
    m_followEnd = true; // a conversation opens at its end
    scrollToEndLater();
}

QString ChatView::addImage(const QImage &image)
{
    const QString name = QStringLiteral("sb-image:%1").arg(++m_imageCount);
    document()->addResource(QTextDocument::ImageResource, QUrl(name),
                            image.scaled(QSize(MaxImageSide, MaxImageSide).boundedTo(image.size()),
                                         Qt::KeepAspectRatio, Qt::SmoothTransformation));
    return name;
}

void ChatView::addUserMessage(const QString &text,
                              const std::vector<Engine::Attachment> &attachments)
{
    m_followEnd = true; // a new question: its answer is what the user reads next
    Entry &entry = appendEntry(Kind::User);
    entry.text = text;
    for (const Engine::Attachment &attachment : attachments) {
        QImage image;
        if (attachment.isImage() && image.loadFromData(attachment.data)) {
            entry.images << addImage(image);
            continue;
        }
        entry.files << QStringLiteral("%1 (%2)").arg(
                attachment.name, QLocale().formattedDataSize(attachment.data.size()));
    }
    moveActionLink(m_lastUser, entry.index);
    render(entry);
    if (Entry *answer = this->entry(m_lastAssistant); answer && !m_batch)
        render(*answer); // its Retry link goes: it no longer answers the last question
}

void ChatView::appendAssistantDelta(const QString &delta)
{
    Entry *streaming = entry(m_streaming);
    if (!streaming) {
        streaming = &appendEntry(Kind::Assistant);
        m_streaming = streaming->index;
    }
    streaming->text += delta;
    if (!m_renderTimer.isActive())
        m_renderTimer.start();
}

void ChatView::renderStream()
{
    Entry *streaming = entry(m_streaming);
    if (!streaming)
        return;
    QElapsedTimer cost;
    cost.start();
    render(*streaming);
    // A long answer costs more to render: wait longer before the next render.
    m_renderTimer.setInterval(
            std::max<int>(StreamRenderMs, int(cost.elapsed()) * StreamRenderCostFactor));
}

void ChatView::finishAssistantMessage(const QString &fullText)
{
    m_renderTimer.stop();
    m_renderTimer.setInterval(StreamRenderMs);
    Entry *streaming = entry(m_streaming);
    QString whole = fullText;
    // The answer's text was closed by the card of a call it went on to write: the complete
    // text is that text's, and only what follows it is the entry streaming now (if any).
    if (Entry *before = entry(std::exchange(m_answerBeforeCalls, -1));
        before && !fullText.isEmpty()) {
        if (!streaming) {
            streaming = before;
        } else if (fullText.startsWith(before->text)) {
            whole = fullText.mid(before->text.size());
        }
    }
    // What streamed stands in for an empty text only while it is on screen: after a turn of
    // tool calls only, the previous answer must not be shown again.
    const QString text = !whole.isEmpty() ? whole : streaming ? streaming->text : QString();
    m_streaming = -1;
    if (text.isEmpty()) {
        if (streaming && streaming->index == int(m_entries.size()) - 1)
            removeLastEntry();
        return;
    }
    Entry &message = streaming ? *streaming : appendEntry(Kind::Assistant);
    message.text = text;
    moveActionLink(m_lastAssistant, message.index);
    render(message);
    m_lastAssistantText = text;
}

void ChatView::addNotice(const QString &html, bool error)
{
    Entry &notice = appendEntry(Kind::Notice);
    notice.text = html;
    notice.error = error;
    render(notice);
}

void ChatView::addNotice(std::function<QString()> html, bool error)
{
    Entry &notice = appendEntry(Kind::Notice);
    notice.textOf = std::move(html);
    notice.error = error;
    render(notice);
}

QStringList ChatView::texts(Kind kind) const
{
    QStringList result;
    for (const auto &entry : m_entries) {
        if (entry->kind == kind)
            result << entry->text;
    }
    return result;
}

void ChatView::activateLink(const QUrl &url)
{
    if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")) {
        QDesktopServices::openUrl(url);
        return;
    }
    if (url.scheme() != QLatin1String("sb"))
        return; // file:, javascript: and the like from a model's Markdown do nothing
    const QStringList parts = url.path().split(u':');
    if (parts.size() < 2)
        return;
    bool ok = false;
    const int index = parts.at(1).toInt(&ok);
    Entry *target = ok ? entry(index) : nullptr;
    if (!target)
        return;
    const QString action = parts.at(0);
    if (action == QLatin1String("edit") && target->index == m_lastUser) {
        emit editRequested(target->text);
    } else if (action == QLatin1String("retry")) {
        emit retryRequested();
    } else if (action == QLatin1String("fork") && target->kind == Kind::User) {
        // Which of the user's messages: the same count in the saved conversation.
        int ordinal = 0;
        for (int i = 0; i < target->index; ++i)
            ordinal += m_entries[size_t(i)]->kind == Kind::User ? 1 : 0;
        emit forkRequested(ordinal);
    } else if (action == QLatin1String("code") && parts.size() == 3) {
        const int block = parts.at(2).toInt(&ok);
        if (ok && block >= 0 && block < target->codeBlocks.size())
            QApplication::clipboard()->setText(target->codeBlocks.at(block));
    } else if (action == QLatin1String("copy")) {
        QApplication::clipboard()->setText(target->text);
    } else if (action == QLatin1String("toggle") && target->kind == Kind::Tool) {
        const bool follow = m_followEnd;
        const int scroll = verticalScrollBar()->value();
        target->expanded = !target->expanded;
        m_batch = true; // the user reads this card: the view stays where it is
        render(*target);
        m_batch = false;
        m_followEnd = follow && target->index == int(m_entries.size()) - 1;
        if (!m_followEnd)
            verticalScrollBar()->setValue(scroll);
    } else if (action == QLatin1String("whole") && target->result) {
        auto *viewer = new ResultViewer(toolTitle(target->toolName), resultText(*target->result),
                                        window(), target->result);
        viewer->setAttribute(Qt::WA_DeleteOnClose);
        viewer->show();
    }
}

void ChatView::scrollContentsBy(int dx, int dy)
{
    QTextBrowser::scrollContentsBy(dx, dy);
    emit viewsMoved();
}

void ChatView::resizeEvent(QResizeEvent *event)
{
    updateColumn(); // before the base lays the document out at the new width
    QTextBrowser::resizeEvent(event);
    emit viewsMoved();
}

void ChatView::changeEvent(QEvent *event)
{
    QTextBrowser::changeEvent(event);
    // Colours (the system switched between light and dark) and words (the language) are
    // part of the document: it is drawn again.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::LanguageChange)
        restyle();
}

// A new palette (the system switched between light and dark): colours are part of the
// document, so it is drawn again.
void ChatView::restyle()
{
    if (!m_highlighter)
        return;
    m_highlighter->setDark(isDark(palette()));
    m_batch = true;
    for (const auto &entry : m_entries) {
        QTextFrameFormat format = entry->frame->frameFormat();
        if (entry->kind == Kind::User)
            format.setBackground(palette().color(QPalette::AlternateBase));
        if (entry->kind == Kind::Tool)
            format.setBorderBrush(palette().color(QPalette::Mid));
        entry->frame->setFrameFormat(format);
        render(*entry);
    }
    m_batch = false;
    renderActionLinks();
}

QStringList ChatView::codeBlocks() const
{
    QStringList result;
    for (const auto &entry : m_entries)
        result += entry->codeBlocks;
    return result;
}

void ChatView::scrollToEndLater()
{
    QTimer::singleShot(0, this, [this] {
        if (m_followEnd)
            verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    });
}

} // namespace Gui
