#include "subagenttool.h"

#include "agent.h"

#include <engine/tools/toolregistry.h>

#include <QCoreApplication>
#include <QPointer>

namespace Engine {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::SubagentTool", text);
}

} // namespace

SubagentTool::SubagentTool(ToolRegistry *registry, ModelSource model)
    : m_registry(registry)
    , m_model(std::move(model))
{
}

QString SubagentTool::description() const
{
    return QStringLiteral(
            "Hands a self-contained part of the work to a sub-agent: a fresh conversation with "
            "the same model and tools that returns only its final answer. Use it for a side task "
            "whose details would crowd this conversation (searching a large tree, summarising "
            "many files). `tools` limits what it may call (default: every tool but this one); "
            "its calls are approved like yours.");
}

Json SubagentTool::inputSchema() const
{
    return {{"type", "object"},
            {"properties",
             {{"task",
               {{"type", "string"},
                {"description", "What the sub-agent should do and report, self-contained."}}},
              {"tools",
               {{"type", "array"},
                {"items", {{"type", "string"}}},
                {"description", "Names of the tools it may use (default: all but this one)."}}}}},
            {"required", Json::array({"task"})}};
}

std::optional<QStringList> SubagentTool::allowedTools(const Json &arguments, QString *error) const
{
    QStringList names;
    const auto tools = arguments.find("tools");
    if (tools == arguments.end() || tools->is_null()) {
        for (const auto &tool : m_registry->offeredTools()) {
            if (tool->name() != name())
                names << tool->name();
        }
        return names;
    }
    if (!tools->is_array()) {
        *error = tr("'tools' must be a list of tool names.");
        return std::nullopt;
    }
    QStringList unknown;
    for (const Json &item : *tools) {
        const QString tool
                = item.is_string() ? QString::fromStdString(item.get<std::string>()) : QString();
        const auto found = m_registry->find(tool);
        if (!found || !m_registry->isOffered(*found) || tool == name())
            unknown << (tool.isEmpty() ? QStringLiteral("?") : tool.left(80));
        else if (!names.contains(tool))
            names << tool;
    }
    if (!unknown.isEmpty()) {
        QStringList offered;
        for (const auto &tool : m_registry->offeredTools()) {
            if (tool->name() != name())
                offered << tool->name();
        }
        *error = tr("No such tool for a sub-agent: %1. Available: %2.")
                         .arg(unknown.join(QStringLiteral(", ")),
                              offered.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    return names;
}

std::optional<QString> SubagentTool::approvalReason(const Json &arguments,
                                                    const ToolContext &) const
{
    QString error;
    const std::optional<QStringList> names = allowedTools(arguments, &error);
    if (!names)
        return std::nullopt; // execute() reports the error; nothing runs
    QStringList changing;
    for (const QString &tool : *names) {
        const auto found = m_registry->find(tool);
        if (found && found->risk() != Risk::Read)
            changing << tool;
    }
    if (changing.isEmpty())
        return std::nullopt;
    return tr("The sub-agent may use tools that can change something: %1 (each of their calls "
              "is asked about again).")
            .arg(changing.join(QStringLiteral(", ")));
}

CancelHandle SubagentTool::execute(const Json &arguments, const ToolContext &context,
                                   std::function<void(ToolOutput)> done)
{
    const QString task = arguments.contains("task") && arguments["task"].is_string()
                                 ? QString::fromStdString(arguments["task"].get<std::string>())
                                 : QString();
    if (task.trimmed().isEmpty()) {
        done(ToolOutput::error(tr("'task' is required: what the sub-agent should do.")));
        return [] {
        };
    }
    QString error;
    const std::optional<QStringList> names = allowedTools(arguments, &error);
    if (!names) {
        done(ToolOutput::error(error));
        return [] {
        };
    }
    const std::optional<ProviderConfig> model = m_model ? m_model() : std::nullopt;
    if (!model || !context.runner) {
        done(ToolOutput::error(tr("No model is configured for a sub-agent here.")));
        return [] {
        };
    }

    AgentOptions options;
    options.maxTurns = MaxTurns;
    options.onlyTools = QSet<QString>(names->cbegin(), names->cend());
    auto provider = createProvider(*model);
    auto *agent = new Agent(provider.get(), m_registry, context.runner, options);
    provider.release()->setParent(agent);
    agent->newConversation(tr("Sub-agent: %1").arg(task.simplified().left(50)), context.workspace);

    auto finished = std::make_shared<bool>(false);
    auto failure = std::make_shared<QString>();
    auto steps = std::make_shared<int>(0);
    const auto end = [agent, finished, done](ToolOutput output) {
        if (*finished)
            return;
        *finished = true;
        agent->disconnect();
        agent->deleteLater();
        done(std::move(output));
    };
    const auto progress = context.onProgress;
    QObject::connect(
            agent, &Agent::toolStarted, agent,
            [progress, steps](const QString &, const QString &tool, const Json &) {
                if (progress)
                    progress({double(++*steps), std::nullopt, tr("sub-agent: using %1").arg(tool)});
            });
    QObject::connect(
            agent, &Agent::messageAdded, agent, [progress, steps](const ChatMessage &message) {
                if (progress && message.role == ChatMessage::Role::Tool)
                    progress({double(*steps), std::nullopt,
                              message.denied ? tr("sub-agent: %1 denied").arg(message.toolName)
                                             : tr("sub-agent: %1 done").arg(message.toolName)});
            });
    QObject::connect(agent, &Agent::errorOccurred, agent,
                     [failure](const QString &message) { *failure = message; });
    QObject::connect(agent, &Agent::turnFinished, agent, [agent, failure, end](const Usage &) {
        if (!failure->isEmpty())
            return end(ToolOutput::error(tr("The sub-agent failed: %1").arg(*failure)));
        const auto &messages = agent->messages();
        for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
            if (it->role == ChatMessage::Role::Assistant)
                return end(ToolOutput::text(it->text));
        }
        end(ToolOutput::error(tr("The sub-agent gave no answer.")));
    });
    if (!agent->send(task)) {
        end(ToolOutput::error(tr("The sub-agent could not start.")));
        return [] {
        };
    }
    QPointer<Agent> guard(agent);
    return [guard, end] {
        if (guard)
            guard->cancel(); // its turnFinished ends the call ("Stopped.")
        end(ToolOutput::error(tr("The sub-agent was stopped.")));
    };
}

} // namespace Engine
