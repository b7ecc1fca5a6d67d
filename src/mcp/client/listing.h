#pragma once

#include "client.h"

#include <QString>

#include <functional>
#include <string>
#include <vector>

// Everything beyond tools that a server lists and hands out on request: resources, resource
// templates and prompts. Each list is paginated (nextCursor) and read whole, with a bound.
namespace Mcp {

// Every item of one paginated list: `method` (resources/list, resources/templates/list,
// prompts/list) whose result holds the items in `member`. Follows nextCursor up to MaxPages
// (a server that repeats a cursor is stopped); `done` exactly once, with the items or why
// not, unless `context` goes first.
using ListDone = std::function<void(std::vector<Json> items, const QString &error)>;
void listAll(Client *client, const std::string &method, const std::string &member, QObject *context,
             ListDone done);
inline constexpr int MaxListPages = 1000;

// One content block of a resource or a prompt message, for a person: its text, or
// "[image image/png, 1234 bytes]", "[blob application/pdf, 99 bytes] URI", ...
QString describeContent(const Json &content);

} // namespace Mcp
