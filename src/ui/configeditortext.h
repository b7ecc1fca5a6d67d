#pragma once

// Internal to src/ui: what ConfigEditorPane's files (configeditorpane.cpp,
// configeditorpanefile.cpp) share: how they name servers and problems in what they say.

#include <mcp/config/config.h>

#include <QString>
#include <QStringList>

namespace Gui {

// Quoted: "Apply will restart everything." must not read as every server when one is
// called "everything".
QString joinNames(const QStringList &names);
// "Line 3, column 7: <the message>", or the message alone when it has no line.
QString describe(const Mcp::ConfigError &problem);

} // namespace Gui
