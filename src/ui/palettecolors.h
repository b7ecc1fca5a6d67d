#pragma once

#include <QColor>
#include <QPalette>

// Colours that say something (an error, a change), taken from the palette so that they read on
// a light and on a dark one alike.
namespace Gui {

bool isDark(const QPalette &palette);
// Errors, denials and a dangerous risk.
QColor errorColor(const QPalette &palette);
// What is there but secondary: times, states, notes.
QColor dimColor(const QPalette &palette);
// The background of a line a diff adds or removes.
QColor addedBackground(const QPalette &palette);
QColor removedBackground(const QPalette &palette);

} // namespace Gui
