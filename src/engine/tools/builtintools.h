#pragma once

#include "tool.h"

#include <mcp/process/sandbox.h>

#include <functional>
#include <memory>
#include <vector>

namespace Engine {

class Workspace;

// Limits of the built-in tools. Each bounds what one call may cost the GUI thread (files
// are read synchronously under these caps) or the model's context.
namespace BuiltinLimits {
// read_file, edit_file and search_files refuse (or skip) files larger than this: 10 MiB
// is far beyond any source file, and small enough to read at once without a visible stall.
inline constexpr qint64 MaxFileBytes = 10 * 1024 * 1024;
// A NUL in the first 8 KiB marks a binary file (the heuristic git and grep use).
inline constexpr int BinaryProbeBytes = 8 * 1024;
// read_file's default line count, and its output budget: a little under
// ToolOutput::DefaultModelTextChars, so the model gets a "continue at offset" note from
// read_file rather than a blind cut.
inline constexpr int DefaultReadLines = 2000;
inline constexpr int ReadOutputChars = 30000;
// Longer lines (minified code, data) are cut in read_file and search_files output.
inline constexpr int MaxLineChars = 2000;
inline constexpr int MaxSearchLineChars = 300;
// list_dir shows at most this many entries (a node_modules listing is not useful beyond it).
inline constexpr int MaxListEntries = 1000;
// search_files: default and maximum results, and how many files one search may visit.
inline constexpr int DefaultSearchResults = 100;
inline constexpr int MaxSearchResults = 1000;
inline constexpr int MaxSearchFilesVisited = 100000;
// One event-loop slice of search_files work: short enough that the window stays responsive
// (a frame is ~16 ms).
inline constexpr int SearchSliceMs = 10;
// bash: the longest timeout a call may ask for (10 min, the same hard maximum as a tool whose MCP
// progress keeps resetting its timer).
inline constexpr int MaxBashTimeoutMs = 10 * 60 * 1000;
// bash keeps this much output for the UI (the same cap as one stdio message from a server);
// more is counted and dropped.
inline constexpr qint64 MaxBashKeptBytes = 64 * 1024 * 1024;
// bash output in the model's text: under ToolOutput::DefaultModelTextChars, so the head
// and tail chosen here are what the model sees.
inline constexpr int BashModelOutputChars = 30000;
} // namespace BuiltinLimits

// How the built-in tools run what they start.
struct BuiltinToolsOptions
{
    // Whether bash runs under bubblewrap (Mcp::Sandbox), asked at every call so that a changed
    // setting applies to the next command. Empty: Auto (sandboxed where bwrap works).
    std::function<Mcp::Sandbox::Mode()> bashSandbox;
    QString sandboxProgram = QString::fromLatin1(Mcp::Sandbox::DefaultProgram);
};

// The built-in tools, confined to `workspace`: read_file, list_dir, search_files (read),
// write_file, edit_file (mutating) and bash (dangerous). Registered first, before any MCP
// tool, so that no server can take their names.
std::vector<std::shared_ptr<Tool>> createBuiltinTools(std::shared_ptr<Workspace> workspace,
                                                      BuiltinToolsOptions options = {});

} // namespace Engine
