#pragma once

#include <mcp/config/config.h>

#include <QMap>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

// The engine's approval policy for MCP servers: the keys of a server's `.mcp.json` object that
// the protocol layer keeps as written but never interprets ("risk", "tools", "trust",
// "autoApprove"). Both faces load configuration through loadConfig() and parseConfig() here,
// so these keys are checked with line and column like the protocol's own.
namespace Engine {

/// How much harm a tool call can do; decides whether the approval gate asks the user.
enum class Risk { Read, Mutating, Dangerous };

/// "read" | "mutating" | "dangerous" (as config files and the CLI write them).
QString riskName(Risk risk);
/// Inverse of riskName(); std::nullopt for anything else (case-sensitive, as written in config).
std::optional<Risk> riskFromName(QStringView name);

/// What one server's definition says about approving its tools.
struct ServerPolicy
{
    std::optional<Risk> risk;      ///< "risk": the default for the server's tools
    QMap<QString, Risk> toolRisks; ///< "tools": {"name": {"risk": "read"}}
    /// "trust": the server's own annotations (readOnlyHint, destructiveHint) may lower a
    /// tool's risk.
    bool trust = false;
    QStringList autoApprove; ///< "autoApprove": tools that run without asking
    /// "instructions": the server's own instructions (from its handshake) join the model's
    /// system prompt; false leaves them out.
    bool instructions = true;
    /// "enabledTools": when given, only these of the server's tools are offered to the model.
    std::optional<QStringList> enabledTools;
    /// "disabledTools": these are never offered to the model (a person can still run them
    /// from the tool browser).
    QStringList disabledTools;

    /// Whether the server's tool `tool` (its MCP name) is offered to the model.
    bool offers(const QString &tool) const;

    /// The policy in a server's definition. Values check() refuses are left out (a server with
    /// such values is never started anyway).
    static ServerPolicy of(const Mcp::ServerConfig &server);
    static ServerPolicy fromDefinition(const nlohmann::json &definition);

    /// The risk of the server's tool `tool` with the MCP annotations `annotations` (an object,
    /// or null): its own "tools" entry, then (with "trust") its annotations, then "risk",
    /// then dangerous.
    Risk riskOf(const QString &tool, const nlohmann::json &annotations) const;

    /// Mcp::ConfigLoader::ServerCheck for these keys: every problem in one server's object.
    static QList<Mcp::ConfigLoader::FieldProblem> check(const nlohmann::json &server);
};

/// Mcp::ConfigLoader::load() with ServerPolicy::check(): the user's file and the workspace's
/// (or `overrideFile`).
Mcp::McpConfig loadConfig(const QString &workspaceDir, const QString &overrideFile,
                          const QProcessEnvironment &env);
/// Mcp::ConfigLoader::parse() with ServerPolicy::check() (the config editor's unsaved text).
Mcp::McpConfig parseConfig(const QByteArray &text, const QString &fileName,
                           const QProcessEnvironment &env);
/// Mcp::ConfigLoader::loadFile() with ServerPolicy::check().
Mcp::McpConfig loadConfigFile(const QString &path, const QProcessEnvironment &env,
                              Mcp::ConfigOrigin origin = Mcp::ConfigOrigin::User);
/// Mcp::ConfigLoader::importConfig() with ServerPolicy::check().
Mcp::ConfigLoader::ImportResult importConfig(Mcp::ConfigLoader::ImportKind kind,
                                             const QByteArray &text, const QString &fileName);

} // namespace Engine
