#include "diffview.h"

#include "palettecolors.h"

#include <QEvent>
#include <QFontDatabase>

namespace Gui {

DiffHighlighter::DiffHighlighter(QPlainTextEdit *view)
    : QSyntaxHighlighter(view->document())
    , m_view(view)
{
}

void DiffHighlighter::highlightBlock(const QString &text)
{
    const QPalette palette = m_view->palette();
    QTextCharFormat format;
    if (text.startsWith(QLatin1String("+++ ")) || text.startsWith(QLatin1String("--- "))) {
        format.setFontWeight(QFont::Bold);
    } else if (text.startsWith(QLatin1Char('+'))) {
        format.setBackground(addedBackground(palette));
    } else if (text.startsWith(QLatin1Char('-'))) {
        format.setBackground(removedBackground(palette));
    } else if (text.startsWith(QLatin1String("@@")) || text.startsWith(QLatin1Char('\\'))) {
        format.setForeground(dimColor(palette));
    } else {
        return;
    }
    setFormat(0, int(text.size()), format);
}

DiffView::DiffView(const Engine::FileChange &change, QWidget *parent)
    : QPlainTextEdit(parent)
    , m_highlighter(new DiffHighlighter(this))
{
    setObjectName(QStringLiteral("diffView"));
    setReadOnly(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setTabChangesFocus(true);
    setLineWrapMode(QPlainTextEdit::NoWrap); // a diff's columns stay where they are
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    using Kind = Engine::FileChange::Kind;
    switch (change.kind) {
    case Kind::Edited:
    case Kind::Created:
        setPlainText(change.diff);
        return;
    case Kind::Unchanged:
        setPlainText(tr("The new content is the same as the file's: nothing changes."));
        break;
    case Kind::Binary:
    case Kind::TooLarge:
    case Kind::Unknown:
        setPlainText(change.note);
        break;
    }
    setLineWrapMode(QPlainTextEdit::WidgetWidth); // a sentence wraps
    setFont(QFont());
}

QString DiffView::heading(const Engine::FileChange &change)
{
    return tr("Changes to %1: %2").arg(change.path, change.summary());
}

void DiffView::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        m_highlighter->rehighlight();
}

} // namespace Gui
