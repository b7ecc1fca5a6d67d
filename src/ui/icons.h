#pragma once

#include <QIcon>
#include <QString>

#include <optional>

namespace Gui {

// Whether the SVG icons can be drawn: Qt's svg image format (qt6-svg's plugin) is installed.
// Without it every icon() is null, and toolbars show their actions' text instead.
bool svgIconsAvailable();
// Tests pretend the plugin is missing (or present); nullopt asks Qt again.
void setSvgIconsAvailableForTesting(std::optional<bool> available);

// The application's own icons, from resources/icons (embedded under ":/icons"): "tools",
// "servers", "conversations", "settings", "config", "log", "new", "send", "stop", and "switchboard"
// (the app). Their lines drawn in `currentColor` take the application palette's text colour
// when drawn (disabled: its disabled text colour), so they stay visible on a dark palette and
// follow a change of it; their accents (green, red, blue) keep their colour.
QIcon icon(const QString &name);

} // namespace Gui
