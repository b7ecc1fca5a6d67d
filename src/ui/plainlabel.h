#pragma once

#include <QCoreApplication>
#include <QLabel>

#include <algorithm>
#include <climits>

namespace Gui {

// A label for text a server, a peer or the model wrote: plain text (never markup, so "<b>"
// or "<a href>" cannot dress it up), wrapped, selectable.
inline QLabel *plainLabel(const QString &text, QWidget *parent)
{
    auto label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// At most `limit` characters of a server's text, marked when cut, so that no widget is handed
// 20 MB to lay out.
inline QString cutText(const QString &text, qsizetype limit)
{
    if (text.size() <= limit)
        return text;
    const int more = int(std::min<qsizetype>(text.size() - limit, INT_MAX));
    return text.left(limit) + QLatin1Char('\n')
           + QCoreApplication::translate("Gui::PlainLabel", "[… cut: %n more character(s)]",
                                         nullptr, more);
}

} // namespace Gui
