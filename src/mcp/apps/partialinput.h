#pragma once

#include <mcp/wire/jsonrpc.h>

#include <string_view>

namespace Mcp::Apps {

// The arguments of a tool call the model is still writing, as far as they go: `text` is the
// start of a JSON object, cut anywhere. What is complete is kept, a string value being written
// is kept up to where it stops, and the open brackets are closed; a half-written key, number
// or literal (`tru`) is left out, and so is the cut end of an escape. Null when the text does
// not start an object; what nests deeper than MaxDepth, and anything after text that is not
// JSON, is not recovered.
// For ui/notifications/tool-input-partial, which the MCP Apps spec defines as exactly this
// best-effort recovery; never for anything that runs.
Json partialArguments(std::string_view text);

// Deeper nesting is not arguments a view can show anything for; the bound keeps the walk small.
inline constexpr int MaxPartialDepth = 64;

} // namespace Mcp::Apps
