#pragma once

#include <QLabel>
#include <QString>

namespace Gui {

// A label for text that may come from elsewhere (a server, a registry, a bundle): plain text,
// never rich text; wrapped; selectable so it can be copied.
inline QLabel *textLabel(QWidget *parent, const QString &text = QString(),
                         const QString &objectName = QString())
{
    auto label = new QLabel(text, parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace Gui
