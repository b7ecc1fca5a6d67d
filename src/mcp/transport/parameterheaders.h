#pragma once

#include "transport.h"

#include <mcp/wire/jsonrpc.h>

#include <QString>

#include <optional>
#include <vector>

namespace Mcp {

// The x-mcp-header declarations of one tool's inputSchema (2026-07-28, streamable-http
// "Custom headers"), or nullopt with `problem` set when they are invalid: an empty name, a
// name that is not an HTTP token, two names equal but for case, a declaration on a type
// other than string, integer or boolean, or one not reached through "properties" alone
// (inside items, anyOf, $ref, $defs, ...). A tool with invalid declarations must not be
// called over HTTP.
std::optional<std::vector<ParameterHeader>> parameterHeaders(const Json &inputSchema,
                                                             QString *problem);

} // namespace Mcp
