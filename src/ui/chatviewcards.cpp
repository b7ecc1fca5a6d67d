// ChatView: the tool cards, a compact line per call that opens on its arguments and result.
#include "chatview.h"

#include "chatviewentry.h"
#include "resultviewer.h"

#include <QAbstractTextDocumentLayout>
#include <QLocale>
#include <QScrollBar>
#include <QTextFrame>

#include <algorithm>
#include <deque>
#include <string_view>

namespace Gui {

namespace {

// A card's arguments are shown up to this many characters (the whole call is in the log).
constexpr qsizetype MaxArgumentChars = 4000;
// A card shows this many lines of a diff (the approval dialog showed all of it).
constexpr int MaxCardDiffLines = 400;

QString describeDuration(qint64 ms)
{
    if (ms < 0)
        return QString();
    if (ms < 1000)
        return ChatView::tr("%1 ms").arg(ms);
    return ChatView::tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 1));
}

} // namespace

void ChatView::renderCard(QTextCursor &cursor, Entry &entry)
{
    const QPalette pal = palette();
    // One line: ▸ server › tool   state · duration
    QTextCharFormat title = linkFormat(pal, QStringLiteral("sb:toggle:%1").arg(entry.index));
    title.setFontWeight(QFont::DemiBold);
    title.setForeground(pal.color(QPalette::Text));
    cursor.insertText((entry.expanded ? QStringLiteral("▾ ") : QStringLiteral("▸ "))
                              + toolTitle(entry.toolName),
                      title);
    QTextCharFormat state;
    state.setForeground(entry.stateColor.isValid() ? entry.stateColor : dimColor(pal));
    QString line = QStringLiteral("   ") + stateText(entry.state);
    if (!entry.progress.isEmpty())
        line += QStringLiteral(" · ") + entry.progress;
    if (entry.change)
        line += QStringLiteral(" · ") + entry.change->path + QLatin1Char(' ')
                + entry.change->summary();
    if (entry.durationMs >= 0)
        line += QStringLiteral(" · ") + describeDuration(entry.durationMs);
    cursor.insertText(line, state);
    QTextCharFormat dim;
    dim.setForeground(dimColor(pal));
    QTextBlockFormat nested;
    nested.setLeftMargin(24);
    if (entry.droppedSteps > 0) {
        cursor.insertBlock(nested, dim);
        cursor.insertText(tr("… %n earlier steps", nullptr, entry.droppedSteps), dim);
    }
    for (const QString &step : std::as_const(entry.steps)) {
        cursor.insertBlock(nested, dim);
        cursor.insertText(QStringLiteral("↳ ") + step, dim);
    }
    entry.viewFrame = nullptr;
    if (entry.viewHeight > 0) {
        // An empty frame of the view's height: the view itself is a widget placed over it.
        QTextFrameFormat room;
        room.setHeight(entry.viewHeight);
        room.setWidth(QTextLength(QTextLength::PercentageLength, 100));
        room.setTopMargin(4);
        entry.viewFrame = cursor.insertFrame(room);
        cursor.setPosition(entry.viewFrame->lastPosition() + 1);
    }
    if (!entry.expanded)
        return;

    QTextCharFormat mono;
    mono.setFontFixedPitch(true);
    mono.setFontFamilies({QStringLiteral("monospace")});
    QTextBlockFormat indented;
    indented.setLeftMargin(16);
    if (entry.change)
        renderChange(cursor, *entry.change, indented, mono, dim);
    if (!entry.arguments.isEmpty()) {
        cursor.insertBlock(indented, dim);
        cursor.insertText(tr("Arguments"), dim);
        cursor.insertBlock(indented, mono);
        cursor.insertText(entry.arguments, mono);
    }
    if (entry.finished) {
        cursor.insertBlock(indented, dim);
        cursor.insertText(tr("Result"), dim);
        QTextCharFormat result = mono;
        if (entry.error)
            result.setForeground(errorColor(pal));
        cursor.insertBlock(indented, result);
        cursor.insertText(entry.preview.isEmpty() ? tr("(empty)") : entry.preview, result);
        for (const QString &image : std::as_const(entry.images)) {
            cursor.insertBlock(indented, QTextCharFormat());
            QTextImageFormat format;
            format.setName(image);
            cursor.insertImage(format);
        }
        if (entry.result) {
            cursor.insertBlock(indented, QTextCharFormat());
            cursor.insertText(entry.previewNote + QLatin1Char(' '), dim);
            cursor.insertText(tr("Open the whole result…"),
                              linkFormat(pal, QStringLiteral("sb:whole:%1").arg(entry.index)));
        }
    }
}

// The card's diff: each line on its colour, at most MaxCardDiffLines; or why there is none.
void ChatView::renderChange(QTextCursor &cursor, const Engine::FileChange &change,
                            const QTextBlockFormat &indented, const QTextCharFormat &mono,
                            const QTextCharFormat &dim)
{
    const QPalette pal = palette();
    cursor.insertBlock(indented, dim);
    cursor.insertText(tr("Changes"), dim);
    if (change.diff.isEmpty()) {
        cursor.insertBlock(indented, dim);
        cursor.insertText(change.kind == Engine::FileChange::Kind::Unchanged
                                  ? tr("The new content is the same as the file's.")
                                  : change.note,
                          dim);
        return;
    }
    const QStringList lines = change.diff.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (int i = 0; i < std::min(int(lines.size()), MaxCardDiffLines); ++i) {
        const QString &text = lines[i];
        QTextBlockFormat block = indented;
        if (text.startsWith(QLatin1Char('+')) && !text.startsWith(QLatin1String("+++ ")))
            block.setBackground(addedBackground(pal));
        else if (text.startsWith(QLatin1Char('-')) && !text.startsWith(QLatin1String("--- ")))
            block.setBackground(removedBackground(pal));
        const bool quiet = text.startsWith(QLatin1String("@@")) || text.startsWith(u'\\');
        cursor.insertBlock(block, quiet ? dim : mono);
        cursor.insertText(text, quiet ? dim : mono);
    }
    if (lines.size() > MaxCardDiffLines) {
        cursor.insertBlock(indented, dim);
        cursor.insertText(tr("… %n more lines", nullptr, int(lines.size()) - MaxCardDiffLines),
                          dim);
    }
}

void ChatView::reserveView(const QString &callId, int height)
{
    Entry *c = m_cards.value(callId);
    if (!c || c->viewHeight == std::max(0, height))
        return;
    c->viewHeight = std::max(0, height);
    render(*c);
}

QRect ChatView::viewRect(const QString &callId) const
{
    const Entry *c = m_cards.value(callId);
    if (!c || !c->viewFrame)
        return {};
    QRectF room = document()->documentLayout()->frameBoundingRect(c->viewFrame);
    room.translate(-horizontalScrollBar()->value(), -verticalScrollBar()->value());
    return room.toAlignedRect();
}

void ChatView::addToolCall(const QString &key, const Engine::ToolCallRequest &call)
{
    Entry &c = card(key, call.name);
    const Engine::Json arguments = !call.arguments.is_null() ? call.arguments
                                   : !call.argumentsText.isEmpty()
                                           ? Engine::Json(call.argumentsText.toStdString())
                                           : Engine::Json();
    if (!arguments.is_null())
        c.arguments = QString::fromStdString(
                              arguments.dump(2, ' ', false, Engine::Json::error_handler_t::replace))
                              .left(MaxArgumentChars);
    render(c);
    emit toolCardShown(key, call.name, arguments);
}

ChatView::Entry &ChatView::card(const QString &callId, const QString &toolName)
{
    if (Entry *existing = m_cards.value(callId))
        return *existing;
    // A tool call ends the assistant text before it. A call the answer is still writing
    // closes it for now; the complete answer's text goes there (finishAssistantMessage).
    if (m_streaming >= 0) {
        const int answer = m_streaming;
        finishAssistantMessage(QString());
        m_answerBeforeCalls = answer;
    }
    Entry &card = appendEntry(Kind::Tool);
    card.toolName = toolName;
    card.state = CardState::Waiting;
    m_cards.insert(callId, &card);
    render(card);
    return card;
}

void ChatView::toolCallWriting(const QString &callId, const QString &toolName,
                               const QString &argumentsDelta)
{
    const bool known = m_cards.contains(callId);
    Entry &c = card(callId, toolName);
    if (!known) {
        c.state = CardState::Writing;
        render(c);
    } else if (c.toolName.isEmpty() && !toolName.isEmpty()) {
        c.toolName = toolName;
        render(c);
    }
    emit toolCardWriting(callId, c.toolName, argumentsDelta);
}

void ChatView::toolCallAbandoned(const QString &callId, const QString &why)
{
    if (!m_cards.contains(callId))
        return;
    auto result = std::make_shared<Engine::ToolRunResult>();
    result->cancelled = true;
    result->output = Engine::ToolOutput::text(why, true);
    toolFinished(callId, Engine::SharedToolRunResult(std::move(result)));
}

void ChatView::toolApprovalNeeded(const QString &callId, const QString &toolName)
{
    Entry &c = card(callId, toolName);
    if (!toolName.isEmpty())
        c.toolName = toolName;
    c.state = CardState::Approval;
    c.stateColor = QColor(0xef, 0x6c, 0x00);
    render(c);
}

void ChatView::toolStarted(const QString &callId, const QString &toolName,
                           const Engine::Json &arguments)
{
    Entry &c = card(callId, toolName);
    if (!toolName.isEmpty())
        c.toolName = toolName;
    c.state = CardState::Running;
    c.stateColor = QColor();
    c.started.start();
    c.arguments = QString::fromStdString(
                          arguments.dump(2, ' ', false, Engine::Json::error_handler_t::replace))
                          .left(MaxArgumentChars);
    render(c);
    emit toolCardShown(callId, toolName, arguments);
}

void ChatView::toolProgress(const QString &callId, double progress, double total,
                            const QString &message)
{
    Entry *c = m_cards.value(callId);
    if (!c)
        return;
    QString text = total > 0
                           ? QStringLiteral("%1 %").arg(int(100 * std::min(1.0, progress / total)))
                           : QString();
    if (!message.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + message.left(200);
    c->progress = text;
    // An agent's steps are worth keeping: each is a nested line of its card.
    const bool agent = c->toolName == QLatin1String("spawn_subagent")
                       || c->toolName == QLatin1String("delegate_agent");
    if (agent && !message.isEmpty()
        && (c->steps.isEmpty() || c->steps.constLast() != message.left(200))) {
        c->steps << message.left(200);
        if (c->steps.size() > MaxSteps) {
            c->steps.removeFirst();
            ++c->droppedSteps;
        }
    }
    render(*c);
}

QByteArray resultText(const Engine::ToolRunResult &result)
{
    std::vector<std::string_view> parts;
    std::deque<std::string> labels; // a deque: the views into it stay valid
    for (const Engine::Json &block : result.output.content) {
        if (!block.is_object())
            continue;
        const std::string type = block.value("type", "");
        const auto text = block.find("text");
        if (type == "text" && text != block.end() && text->is_string())
            parts.emplace_back(text->get_ref<const std::string &>());
        else if (type != "text" && type != "image")
            parts.emplace_back(labels.emplace_back("[" + type + "]"));
    }
    std::string structured;
    if (!result.output.structuredContent.is_null()) {
        structured = result.output.structuredContent.dump(-1, ' ', false,
                                                          Engine::Json::error_handler_t::replace);
        if (structured.size() <= std::size_t(PreviewBytes))
            structured = result.output.structuredContent.dump(
                    2, ' ', false, Engine::Json::error_handler_t::replace);
        parts.emplace_back(structured);
    }
    if (parts.size() == 1 && structured.empty())
        return QByteArray::fromRawData(parts.front().data(), qsizetype(parts.front().size()));
    qsizetype size = parts.empty() ? 0 : qsizetype(parts.size()) - 1;
    for (const std::string_view part : parts)
        size += qsizetype(part.size());
    QByteArray whole;
    whole.reserve(size);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            whole += '\n';
        whole.append(parts[i].data(), qsizetype(parts[i].size()));
    }
    return whole;
}

void ChatView::toolFinished(const QString &callId, const Engine::ToolRunResult &result)
{
    toolFinished(callId, std::make_shared<const Engine::ToolRunResult>(result));
}

void ChatView::toolFinished(const QString &callId, const Engine::SharedToolRunResult &shared)
{
    const Engine::ToolRunResult &result = *shared;
    Entry &c = card(callId, QString());
    c.progress.clear();
    c.finished = true;
    // From the start the card saw (approval waits excluded); a reopened card has none.
    c.durationMs = c.started.isValid() ? c.started.elapsed() : -1;
    QColor color;
    CardState state = CardState::Done;
    if (result.denied) {
        state = CardState::Denied;
        color = errorColor(palette());
    } else if (result.timedOut) {
        state = CardState::TimedOut;
        color = errorColor(palette());
    } else if (result.cancelled) {
        state = CardState::Cancelled;
        color = dimColor(palette());
    } else if (result.output.isError) {
        state = CardState::Error;
        color = errorColor(palette());
    }
    c.state = state;
    c.stateColor = color;
    c.change = result.change;
    c.error = color.isValid() && !result.cancelled;

    for (const Engine::Json &block : result.output.content) {
        if (!block.is_object() || block.value("type", "") != "image")
            continue;
        const auto data = block.find("data");
        QImage image;
        if (data != block.end() && data->is_string())
            image.loadFromData(QByteArray::fromBase64(
                    QByteArray::fromStdString(data->get_ref<const std::string &>())));
        if (!image.isNull())
            c.images << addImage(image);
    }
    // Only a preview goes into the document. The result itself is kept (shared with the
    // agent, not copied) for the viewer, which gets its text when it opens.
    const ResultPreview preview = makePreview(resultText(result));
    c.preview = preview.text;
    c.previewNote = preview.note;
    c.result = preview.cut ? shared : nullptr;
    c.expanded = c.error && !result.denied; // errors open, results and denials stay one line
    render(c);
    emit toolCardFinished(callId, shared);
}

QList<ChatView::CardInfo> ChatView::cards() const
{
    QList<CardInfo> result;
    for (const auto &entry : m_entries) {
        if (entry->kind == Kind::Tool)
            result.append({entry->toolName, entry->arguments, stateText(entry->state),
                           entry->expanded, entry->result != nullptr});
    }
    return result;
}

QString ChatView::stateText(CardState state)
{
    switch (state) {
    case CardState::Writing:
        return tr("writing…");
    case CardState::Waiting:
        return tr("waiting…");
    case CardState::Approval:
        return tr("waiting for your approval…");
    case CardState::Running:
        return tr("running…");
    case CardState::Done:
        return tr("done");
    case CardState::Denied:
        return tr("denied");
    case CardState::TimedOut:
        return tr("timed out");
    case CardState::Cancelled:
        return tr("cancelled");
    case CardState::Error:
        return tr("error");
    }
    return {};
}

} // namespace Gui
