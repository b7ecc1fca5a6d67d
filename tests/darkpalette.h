#pragma once

#include <QColor>
#include <QPalette>

// A dark palette as a desktop's dark theme gives one: light text on dark grounds, for tests
// that a colour of ours stays readable there.
inline QPalette darkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x25));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Base, QColor(0x18, 0x19, 0x1b));
    dark.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2c, 0x30));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Button, QColor(0x2a, 0x2c, 0x30));
    dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    dark.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    dark.setColor(QPalette::LinkVisited, QColor(0xb0, 0x9c, 0xff));
    return dark;
}
