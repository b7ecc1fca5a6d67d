#pragma once

#include <QLabel>

namespace Ui {

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

} // namespace Ui
