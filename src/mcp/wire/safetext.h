#pragma once

#include <QString>
#include <QStringView>

namespace Mcp {

// Text rules shared by the layers that check names (ConfigLoader), build tool names
// (Engine::McpToolAdapter) and print what servers and the model wrote (switchboard-cli), kept
// in one place so that they cannot drift apart.

/// C0 controls (U+0000..U+001F), DEL (U+007F) and C1 controls (U+0080..U+009F): what a
/// terminal may act on instead of showing, and what never belongs in a name or command line.
constexpr bool isControlCharacter(char32_t c)
{
    return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F);
}

/// Index of the first control character in `text` (UTF-16 units), or -1.
qsizetype indexOfControlCharacter(QStringView text);

/// `text` with every control character except those in `keep` written visibly as `\u00XX`
/// (ESC → `\u001b`), so a terminal shows it instead of acting on it. The form is also a valid
/// JSON string escape, so JSON text stays valid and means the same.
QString escapeControlCharacters(QStringView text, QStringView keep = {});

/// `text` with every character outside [A-Za-z0-9_] replaced by '_': the form a server or
/// tool name takes inside a model-facing tool name (model APIs accept only these characters).
QString toolNamePart(QStringView text);

} // namespace Mcp
