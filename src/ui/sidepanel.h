#pragma once

#include <QSize>

#include <algorithm>

namespace Gui {

// The width a side panel (a dock beside the chat) asks for at first: narrow, so that the chat
// keeps most of the window (60 % of 1024 px beside the conversation list); whoever wants it
// wider drags its edge, and the window remembers.
inline constexpr int SidePanelWidth = 240;

inline QSize sidePanelHint(QSize hint)
{
    hint.setWidth(std::min(hint.width(), SidePanelWidth));
    return hint;
}

} // namespace Gui
