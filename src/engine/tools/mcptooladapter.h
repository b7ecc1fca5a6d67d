#pragma once

#include "toolregistry.h"

#include <mcp/manager.h>

#include <QObject>

namespace Engine {

class Workspace;

// The model-facing name of an MCP tool: "mcp__{server}__{tool}" with every character outside
// [A-Za-z0-9_] replaced by '_' (model APIs accept only such names); names longer than 64
// characters keep a prefix and end in '_' plus 8 hex digits of a hash of the full name, so
// they stay unique and stable.
QString mcpToolName(const QString &server, const QString &tool);
// The longest name model APIs accept (OpenAI: 64; Anthropic: 64).
inline constexpr int MaxToolNameLength = 64;

// Keeps the registry's MCP tools in step with the Manager: a server's tools are registered
// when it connects or re-lists, and removed when it fails, restarts, is disabled or removed.
// Each registered tool calls its server through the Manager's current client. Owned by the
// application; lives as long as the registry.
class McpToolAdapter : public QObject
{
    Q_OBJECT
public:
    McpToolAdapter(Mcp::Manager *manager, ToolRegistry *registry, QObject *parent = nullptr);

    // The workspace a server's call that writes one of its files is shown against (its
    // sensitive files kept out of the diff); without one, each such call makes its own from
    // the call's workspace folder. Applies to tools registered after it.
    void setWorkspace(std::shared_ptr<const Workspace> workspace)
    {
        m_workspace = std::move(workspace);
    }
    // Registers the tools of every connected server (call once after construction).
    void syncAll();
    // The MCP (server, tool) behind a registry name, if it is one of ours.
    std::optional<std::pair<QString, QString>> resolve(const QString &registryName) const;

private:
    void sync(const QString &server);

    Mcp::Manager *m_manager;
    ToolRegistry *m_registry;
    QHash<QString, std::pair<QString, QString>> m_names; // registry name → (server, tool)
    std::shared_ptr<const Workspace> m_workspace;
};

} // namespace Engine
