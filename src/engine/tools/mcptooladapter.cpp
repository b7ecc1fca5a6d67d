#include "mcptooladapter.h"

#include <engine/policy/serverpolicy.h>
#include <engine/tools/workspace.h>

#include <mcp/wire/safetext.h>

#include <QCoreApplication>
#include <QCryptographicHash>

namespace Engine {

QString mcpToolName(const QString &server, const QString &tool)
{
    // The same rule as ConfigLoader::checkNameClashes(), which refuses servers whose names
    // would give the same prefix here.
    const QString name = Mcp::toolNamePart(QStringLiteral("mcp__%1__%2").arg(server, tool));
    if (name.size() <= MaxToolNameLength)
        return name;
    // Hash the original (unsanitized) pair: two names that sanitize alike still differ.
    const QByteArray hash = QCryptographicHash::hash((server + QChar(0) + tool).toUtf8(),
                                                     QCryptographicHash::Sha256)
                                    .toHex()
                                    .left(8);
    return name.left(MaxToolNameLength - 9) + QLatin1Char('_') + QString::fromLatin1(hash);
}

namespace {

// One MCP tool as a registry Tool. Its risk comes from the config (per tool, then server,
// default dangerous); the server's annotations lower it only for a server marked trusted.
class McpTool : public Tool
{
public:
    // `definition` lives in `list`, the client's shared tool list, which the tool keeps.
    McpTool(Mcp::Manager *manager, QString server, std::shared_ptr<const std::vector<Json>> list,
            const Json &definition, const ServerPolicy &policy,
            std::shared_ptr<const Workspace> workspace)
        : m_manager(manager)
        , m_server(std::move(server))
        , m_list(std::move(list))
        , m_definition(definition)
        , m_original(QString::fromStdString(m_definition["name"].get<std::string>()))
        , m_name(mcpToolName(m_server, m_original))
        , m_risk(policy.riskOf(m_original, hints()))
        , m_autoApproved(policy.autoApprove.contains(m_original))
        , m_offered(policy.offers(m_original))
        , m_ui(Mcp::Apps::ToolUi::fromTool(m_definition))
        , m_workspace(std::move(workspace))
    {
    }

    QString name() const override { return m_name; }
    QString description() const override
    {
        auto it = m_definition.find("description");
        return it != m_definition.end() && it->is_string()
                       ? QString::fromStdString(it->get_ref<const std::string &>())
                       : QString();
    }
    Json inputSchema() const override
    {
        auto it = m_definition.find("inputSchema");
        if (it != m_definition.end() && it->is_object())
            return *it;
        return Json{{"type", "object"}};
    }
    Risk risk() const override { return m_risk; }
    QString source() const override { return m_server; }
    bool isBuiltin() const override { return false; }
    QString originalName() const override { return m_original; }
    Json hints() const override
    {
        auto it = m_definition.find("annotations");
        return it != m_definition.end() ? *it : Json();
    }
    bool autoApproved() const override { return m_autoApproved; }
    bool offeredByConfig() const override { return m_offered; }
    const Mcp::Apps::ToolUi &appUi() const override { return m_ui; }
    std::optional<FileChange> proposedChange(const Json &arguments,
                                             const ToolContext &context) const override
    {
        if (m_risk == Risk::Read || fileArgumentOf(arguments).isEmpty())
            return std::nullopt;
        if (m_workspace) // the session's, with the sensitive files set in Settings
            return guessedFileChange(arguments, *m_workspace);
        if (context.workspace.isEmpty())
            return std::nullopt;
        return guessedFileChange(arguments, Workspace(context.workspace));
    }

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &context,
                         std::function<void(ToolOutput)> done) override
    {
        Mcp::Client *client = m_manager->client(m_server);
        if (!client) {
            done(ToolOutput::error(
                    QCoreApplication::translate("Engine::McpTool",
                                                "MCP server '%1' is not connected (%2).")
                            .arg(m_server,
                                 Mcp::serverStateName(m_manager->status(m_server).state))));
            return {};
        }
        Mcp::RequestOptions options;
        // The runner owns the timeout (and extends it on progress); the client's own is a
        // backstop past the runner's hard maximum.
        options.timeoutMs = 11 * 60 * 1000;
        options.onProgress = context.onProgress;
        if (!options.onProgress)
            options.onProgress = [](const Mcp::Progress &) {
            };
        const Mcp::RequestId id = client->callTool(
                m_original.toStdString(), arguments, m_manager,
                [done](Mcp::ToolResult result) {
                    ToolOutput output;
                    if (result.error) {
                        output = ToolOutput::error(QString::fromStdString(result.error->message));
                    } else {
                        // Moved, not copied: a result may be 20 MB.
                        output.content = Json::array();
                        if (auto it = result.raw.find("content");
                            it != result.raw.end() && it->is_array())
                            output.content = std::move(*it);
                        if (auto it = result.raw.find("structuredContent"); it != result.raw.end())
                            output.structuredContent = std::move(*it);
                        output.isError = result.isError;
                    }
                    done(std::move(output));
                },
                options);
        QPointer<Mcp::Client> guard(client);
        return [guard, id] {
            if (guard)
                guard->cancel(id, QStringLiteral("cancelled by Switchboard"));
        };
    }

private:
    Mcp::Manager *m_manager;
    QString m_server;
    std::shared_ptr<const std::vector<Json>> m_list;
    const Json &m_definition;
    QString m_original;
    QString m_name;
    Risk m_risk;
    bool m_autoApproved;
    bool m_offered;
    Mcp::Apps::ToolUi m_ui;
    std::shared_ptr<const Workspace> m_workspace; // may be null: one is made for the call
};

} // namespace

McpToolAdapter::McpToolAdapter(Mcp::Manager *manager, ToolRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_manager(manager)
    , m_registry(registry)
{
    connect(manager, &Mcp::Manager::toolsChanged, this, &McpToolAdapter::sync);
    connect(manager, &Mcp::Manager::serverStatusChanged, this, &McpToolAdapter::sync);
}

void McpToolAdapter::syncAll()
{
    for (const QString &server : m_manager->serverNames())
        sync(server);
}

void McpToolAdapter::sync(const QString &server)
{
    m_names.removeIf([&](const auto &it) { return it.value().first == server; });
    Mcp::Client *client = m_manager->client(server);
    const Mcp::ServerConfig *config = m_manager->serverConfig(server);
    std::vector<std::shared_ptr<Tool>> tools;
    if (client && config) {
        const ServerPolicy policy = ServerPolicy::of(*config);
        const auto list = client->sharedTools();
        tools.reserve(list->size());
        for (const Json &definition : *list)
            tools.push_back(std::make_shared<McpTool>(m_manager, server, list, definition, policy,
                                                      m_workspace));
    }
    // One step: the registry (and everything that shows it) changes once per server.
    for (const auto &tool : m_registry->replaceSource(server, std::move(tools)))
        m_names.insert(tool->name(), {server, tool->originalName()});
}

std::optional<std::pair<QString, QString>>
McpToolAdapter::resolve(const QString &registryName) const
{
    auto it = m_names.find(registryName);
    if (it == m_names.end())
        return std::nullopt;
    return *it;
}

} // namespace Engine
