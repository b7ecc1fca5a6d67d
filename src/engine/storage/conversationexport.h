#pragma once

#include "conversationstore.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace Engine::ConversationExport {

enum class Format { Markdown, Html, Json };

// "md" (or "markdown"), "html", "json"; nullopt for anything else.
std::optional<Format> formatNamed(const QString &name);
// The file name's usual suffix: "md", "html", "json".
QString suffix(Format format);

// A conversation as a file to keep or share: everything said, with when and by whom; each
// tool call with its arguments and its result (text, and images where the result had them).
//   Markdown: headings per message, tool calls as <details> sections, images inline as data.
//   HTML: one self-contained page (no script, no request: its Content-Security-Policy allows
//         only inline style and data: images), tool calls as collapsible <details>, code
//         blocks as <pre>, everything said escaped.
//   JSON: {"format": "switchboard-conversation", "version": 1, id, title, workspace, created,
//         updated, messages: [the store's message objects, each with its "time"]}.
QByteArray exported(const Conversation &conversation, Format format);

} // namespace Engine::ConversationExport
