#pragma once

#include <engine/tools/filechange.h>

#include <QPlainTextEdit>
#include <QSyntaxHighlighter>

namespace Gui {

// Colours a unified diff: added lines on green, removed lines on red, hunk headers dim, the
// file header bold; from the palette, so a dark one reads as well.
class DiffHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    // Colours `view`'s document with `view`'s palette.
    explicit DiffHighlighter(QPlainTextEdit *view);

protected:
    void highlightBlock(const QString &text) override;

private:
    QPlainTextEdit *m_view;
};

// A file change as the approval dialog shows it: its diff, read-only, monospace and coloured,
// or (binary, too large, a call that will fail) the plain sentence that says why there is none.
class DiffView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit DiffView(const Engine::FileChange &change, QWidget *parent = nullptr);

    // "Changes to src/a.cpp: +3 −1": a heading for the view.
    static QString heading(const Engine::FileChange &change);

protected:
    void changeEvent(QEvent *event) override;

private:
    DiffHighlighter *m_highlighter;
};

} // namespace Gui
