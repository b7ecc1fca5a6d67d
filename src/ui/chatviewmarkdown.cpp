// ChatView: a message's text as the chat shows it: Markdown with its tables, quotes and code.
#include "chatview.h"

#include "chatviewentry.h"
#include "codehighlighter.h"

#include <QFontDatabase>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QTextFrame>
#include <QTextTable>

#include <utility>
#include <vector>

namespace Gui {

void ChatView::renderMarkdown(QTextCursor &cursor, Entry &entry)
{
    if (entry.kind == Kind::User) {
        cursor.insertText(entry.text, QTextCharFormat()); // what the user typed, as typed
        QTextCharFormat dim;
        dim.setForeground(dimColor(palette()));
        for (const QString &file : std::as_const(entry.files)) {
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
            cursor.insertText(tr("Attached: %1").arg(file), dim);
        }
        for (const QString &image : std::as_const(entry.images)) {
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
            QTextImageFormat format;
            format.setName(image);
            cursor.insertImage(format);
        }
        return;
    }
    const int start = cursor.position();
    // As QTextCursor::insertMarkdown does, but the first block keeps its own format: inserted
    // into the empty block under the header, it would take that block's (a message that
    // starts with a code block or a heading would lose it).
    QTextDocument parsed;
    parsed.setMarkdown(entry.text, QTextDocument::MarkdownDialectGitHub);
    const QTextBlockFormat firstFormat = parsed.begin().blockFormat();
    cursor.insertFragment(QTextDocumentFragment(&parsed));
    const int end = cursor.position();
    if (QTextBlock first = document()->findBlock(start); first.isValid())
        QTextCursor(first).setBlockFormat(firstFormat);

    // Tables: a grid with some room; code blocks: a band of their own, with a Copy link.
    const QColor band = palette().color(QPalette::AlternateBase);
    for (QTextFrame *child : entry.frame->childFrames()) {
        if (auto *table = qobject_cast<QTextTable *>(child)) {
            QTextTableFormat format = table->format();
            format.setBorder(1);
            format.setBorderBrush(palette().color(QPalette::Mid));
            format.setBorderCollapse(true);
            format.setCellPadding(4);
            format.setCellSpacing(0);
            table->setFormat(format);
        }
    }
    struct Run
    {
        int lastBlockEnd;
        QString code;
    };
    std::vector<Run> runs;
    bool inRun = false;
    for (QTextBlock block = document()->findBlock(start);
         block.isValid() && block.position() <= end; block = block.next()) {
        if (block.blockFormat().intProperty(QTextFormat::BlockQuoteLevel) > 0) {
            QTextCursor quote(block);
            QTextBlockFormat format;
            format.setBackground(band);
            quote.mergeBlockFormat(format);
            quote.select(QTextCursor::BlockUnderCursor);
            QTextCharFormat dim;
            dim.setForeground(dimColor(palette()));
            quote.mergeCharFormat(dim);
        }
        if (!CodeHighlighter::isCodeBlock(block)) {
            markInlineCode(block, band);
            inRun = false;
            continue;
        }
        QTextCursor blockCursor(block);
        QTextBlockFormat format;
        format.setBackground(band);
        format.setLeftMargin(4);
        format.setNonBreakableLines(false); // a long line wraps; the chat never scrolls sideways
        blockCursor.mergeBlockFormat(format);
        if (!inRun)
            runs.push_back({0, QString()});
        else
            runs.back().code += QLatin1Char('\n');
        runs.back().code += block.text();
        runs.back().lastBlockEnd = block.position() + block.length() - 1;
        inRun = true;
    }
    // From the last run back, so the positions of the earlier ones stay valid.
    for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
        QTextCursor link(document());
        link.setPosition(run->lastBlockEnd);
        QTextBlockFormat right;
        right.setAlignment(Qt::AlignRight);
        link.insertBlock(right, QTextCharFormat());
        const int snippet = int(runs.rend() - run) - 1;
        link.insertText(tr("Copy code"),
                        linkFormat(palette(),
                                   QStringLiteral("sb:code:%1:%2").arg(entry.index).arg(snippet)));
    }
    entry.codeBlocks.clear();
    for (const Run &run : runs) {
        QString code = run.code;
        while (code.endsWith(u'\n') || code.endsWith(QChar::LineSeparator))
            code.chop(1);
        entry.codeBlocks << code;
    }
    cursor.setPosition(entry.frame->lastPosition());
}

// Inline `code`: Qt's Markdown reader only marks it fixed-pitch, which the chat's font does
// not honour; it gets the system's monospace font and the code band's colour.
void ChatView::markInlineCode(const QTextBlock &block, const QColor &band)
{
    std::vector<std::pair<int, int>> spans;
    for (auto it = block.begin(); !it.atEnd(); ++it) {
        const QTextFragment fragment = it.fragment();
        if (fragment.isValid() && fragment.charFormat().fontFixedPitch())
            spans.emplace_back(fragment.position(), fragment.length());
    }
    if (spans.empty())
        return;
    QTextCharFormat mono;
    mono.setFontFamilies({QFontDatabase::systemFont(QFontDatabase::FixedFont).family()});
    mono.setBackground(band);
    for (const auto &[position, length] : spans) {
        QTextCursor span(document());
        span.setPosition(position);
        span.setPosition(position + length, QTextCursor::KeepAnchor);
        span.mergeCharFormat(mono);
    }
}

} // namespace Gui
