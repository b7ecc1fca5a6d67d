#pragma once

#include <engine/llm/llm.h>
#include <engine/policy/serverpolicy.h>
#include <engine/tools/filechange.h>

#include <mcp/apps/appmeta.h>
#include <mcp/client/client.h>

#include <QString>

#include <functional>
#include <optional>

// What the agent can call: built-in tools and MCP tools behind one interface. A tool is run
// only through ToolRunner (src/engine/approval/toolrunner.h), which asks for approval first; that
// is why execute() is not public.
namespace Engine {

using Json = nlohmann::json;

// The outcome of one tool execution, in MCP's shape so that built-in and MCP tools look the
// same to the model and the UI.
struct ToolOutput
{
    Json content
            = Json::array(); // MCP content blocks (text, image, audio, resource_link, resource)
    Json structuredContent;  // null when absent
    bool isError = false;

    static ToolOutput text(const QString &text, bool isError = false);
    static ToolOutput error(const QString &message) { return text(message, true); }
    // The text blocks joined (other blocks summarized as "[image image/png]" and so on),
    // capped at maxChars with a note of how much was cut: what the model sees.
    QString modelText(int maxChars = DefaultModelTextChars) const;
    // The images (png, jpeg, gif, webp) and audio blocks a model can be shown, decoded: at most
    // Attachment::MaxPerToolResult, each within Attachment::MaxImageBytes; anything else stays
    // a line of modelText(). Named "<tool> image 1", "<tool> audio 1", ...
    std::vector<Attachment> modelAttachments(const QString &toolName) const;
    // 32,000 characters (~8k tokens): enough for a long file, small enough for a context.
    static constexpr int DefaultModelTextChars = 32000;
};

class ToolRunner;

// Per-execution context.
struct ToolContext
{
    QString workspace;      // canonical path of the workspace folder
    QString conversationId; // empty for a manual run
    int timeoutMs = 60000;
    std::function<void(const Mcp::Progress &)> onProgress; // may be empty
    // The runner this call came through: a tool that makes calls of its own (a sub-agent)
    // makes them through it, under the same gate and restrictions.
    ToolRunner *runner = nullptr;
};

// Cancels a running execution; its completion callback still runs once (with an error).
using CancelHandle = std::function<void()>;

class Tool
{
public:
    virtual ~Tool() = default;

    // The name the model sees and calls: [A-Za-z0-9_-], at most 64 characters.
    virtual QString name() const = 0;
    virtual QString description() const = 0;
    virtual Json inputSchema() const = 0; // a JSON Schema object
    // The risk Switchboard trusts (built-ins: their own; MCP tools: from the config).
    virtual Risk risk() const = 0;
    // "builtin", or the MCP server's name.
    virtual QString source() const { return QStringLiteral("builtin"); }
    virtual bool isBuiltin() const { return true; }
    // The tool's name at its source (the MCP tool name), for display.
    virtual QString originalName() const { return name(); }
    // Whether the configuration lets the model be offered this tool (a server's
    // "enabledTools" / "disabledTools"); the user's own choices are the registry's.
    virtual bool offeredByConfig() const { return true; }
    // MCP Apps: the view that shows this tool's results and who may call it (`_meta.ui`). A
    // tool whose visibility lacks "model" is never offered to the model; one that lacks "app"
    // is refused to views. Built-in tools: no view, both.
    virtual const Mcp::Apps::ToolUi &appUi() const;
    // The server's annotations (readOnlyHint, ...): shown as untrusted hints, never trusted.
    virtual Json hints() const { return nullptr; }
    // Names the server or config allows without asking (autoApprove).
    virtual bool autoApproved() const { return false; }
    // For a tool that runs command lines (bash): the command of this call, which approvals
    // are keyed by instead of the tool alone. Empty for every other tool.
    virtual QString approvalCommand(const Json &arguments) const
    {
        Q_UNUSED(arguments)
        return {};
    }
    // Why this particular call must be asked about although the tool's risk would not ask
    // (a read tool touching a sensitive file); std::nullopt when the risk decides alone.
    // Called by ToolRunner before approval with the arguments already checked to be an object.
    virtual std::optional<QString> approvalReason(const Json &arguments,
                                                  const ToolContext &context) const
    {
        Q_UNUSED(arguments)
        Q_UNUSED(context)
        return std::nullopt;
    }

    // The file this call would change and how, computed before it runs (the approval dialog
    // and the card show it): write_file, edit_file, and a server's tool whose arguments name a
    // file of the workspace and its new content. std::nullopt when it changes no file we can
    // tell. Called by ToolRunner with the arguments already checked to be an object.
    virtual std::optional<FileChange> proposedChange(const Json &arguments,
                                                     const ToolContext &context) const
    {
        Q_UNUSED(arguments)
        Q_UNUSED(context)
        return std::nullopt;
    }

protected:
    friend class ToolRunner;
    friend struct ToolTestAccess; // defined by unit tests only
    // Runs with validated-as-object arguments; calls done exactly once (unless the context
    // object given to the runner died). Must not block.
    virtual CancelHandle execute(const Json &arguments, const ToolContext &context,
                                 std::function<void(ToolOutput)> done)
            = 0;
};

} // namespace Engine
