#pragma once

#include <engine/llm/providerconfig.h>
#include <engine/tools/tool.h>

#include <functional>
#include <optional>

namespace Engine {

class ToolRegistry;

// `spawn_subagent {task, tools?}`: an in-process agent with a conversation of its own, the
// same registry (the Manager's servers) and the runner its own call came through (so the same
// approval gate, and an inbound task's read-only rule), which may call only `tools` (default:
// every offered tool but itself). Its final answer is the observation; its steps are the
// call's progress; stopping the call stops it. Its own risk is `read`; a sub-agent that may
// use a tool that can change something is asked about when spawned (and each of its calls is
// asked again as usual).
class SubagentTool : public Tool
{
public:
    using ModelSource = std::function<std::optional<ProviderConfig>()>;
    SubagentTool(ToolRegistry *registry, ModelSource model);

    static constexpr const char *Name = "spawn_subagent";
    static constexpr int MaxTurns = 20;

    QString name() const override { return QString::fromLatin1(Name); }
    QString description() const override;
    Json inputSchema() const override;
    Risk risk() const override { return Risk::Read; }
    std::optional<QString> approvalReason(const Json &arguments,
                                          const ToolContext &context) const override;

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &context,
                         std::function<void(ToolOutput)> done) override;

private:
    // The tools a call allows, or why the list is wrong.
    std::optional<QStringList> allowedTools(const Json &arguments, QString *error) const;

    ToolRegistry *m_registry;
    ModelSource m_model;
};

} // namespace Engine
