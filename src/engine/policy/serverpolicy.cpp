#include "serverpolicy.h"

#include <engine/llm/providerconfig.h>

#include <QCoreApplication>

namespace Engine {

namespace {

using Json = nlohmann::json;
using Mcp::ConfigLoader::FieldProblem;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Engine::ServerPolicy)
};

constexpr Risk kRisks[] = {Risk::Read, Risk::Mutating, Risk::Dangerous};

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString riskNames()
{
    //: The values "risk" accepts: keep the quoted words as they are.
    return Text::tr("\"read\", \"mutating\" or \"dangerous\"");
}

// A "risk" value: the risk, or a problem.
std::optional<Risk> readRisk(const Json &node, const std::string &pointer, const QString &field,
                             QList<FieldProblem> *problems)
{
    if (!node.is_string()) {
        problems->append({pointer, Mcp::ConfigLoader::wrongTypeMessage(
                                           field, Text::tr("a string: ") + riskNames(), node)});
        return std::nullopt;
    }
    const QString text = fromStd(node.get<std::string>());
    const std::optional<Risk> risk = riskFromName(text);
    if (!risk) {
        problems->append(
                {pointer, Text::tr("unknown %1 '%2'; expected %3")
                                  .arg(field, Mcp::ConfigLoader::quotedValue(text), riskNames())});
    }
    return risk;
}

// Reads the policy keys of `server`; with `problems`, reports every value it cannot use.
ServerPolicy read(const Json &server, QList<FieldProblem> *problems)
{
    ServerPolicy policy;
    QList<FieldProblem> ignored;
    QList<FieldProblem> *report = problems ? problems : &ignored;
    if (!server.is_object())
        return policy;
    const auto wrongType = [report](const std::string &pointer, const QString &field,
                                    const QString &expected, const Json &got) {
        report->append({pointer, Mcp::ConfigLoader::wrongTypeMessage(field, expected, got)});
    };

    if (const auto risk = server.find("risk"); risk != server.end())
        policy.risk = readRisk(*risk, "/risk", QStringLiteral("risk"), report);

    if (const auto tools = server.find("tools"); tools != server.end()) {
        if (!tools->is_object()) {
            wrongType("/tools", QStringLiteral("tools"),
                      Text::tr("an object such as {\"tool\": {\"risk\": \"read\"}}"), *tools);
        } else {
            for (const auto &[key, tool] : tools->items()) {
                const QString field = QStringLiteral("tools.") + fromStd(key);
                const std::string pointer = Mcp::ConfigLoader::memberPointer("/tools", key);
                if (!tool.is_object()) {
                    wrongType(pointer, field, Text::tr("an object such as {\"risk\": \"read\"}"),
                              tool);
                    continue;
                }
                const auto risk = tool.find("risk");
                if (risk == tool.end())
                    continue;
                if (const auto value
                    = readRisk(*risk, pointer + "/risk", field + QStringLiteral(".risk"), report))
                    policy.toolRisks.insert(fromStd(key), *value);
            }
        }
    }

    if (const auto trust = server.find("trust"); trust != server.end()) {
        if (trust->is_boolean())
            policy.trust = trust->get<bool>();
        else
            wrongType("/trust", QStringLiteral("trust"), Text::tr("true or false"), *trust);
    }
    if (const auto instructions = server.find("instructions"); instructions != server.end()) {
        if (instructions->is_boolean())
            policy.instructions = instructions->get<bool>();
        else
            wrongType("/instructions", QStringLiteral("instructions"), Text::tr("true or false"),
                      *instructions);
    }

    // A list of tool names under `key`; nullopt when the key is absent.
    const auto names = [&](const char *key) -> std::optional<QStringList> {
        const auto list = server.find(key);
        if (list == server.end())
            return std::nullopt;
        const QString field = QString::fromLatin1(key);
        QStringList result;
        if (!list->is_array()) {
            wrongType(std::string("/") + key, field, Text::tr("a list of tool names"), *list);
            return result;
        }
        for (size_t i = 0; i < list->size(); ++i) {
            const Json &item = (*list)[i];
            if (item.is_string())
                result.append(fromStd(item.get<std::string>()));
            else
                wrongType(std::string("/") + key + "/" + std::to_string(i),
                          QStringLiteral("%1[%2]").arg(field).arg(i), Text::tr("a string"), item);
        }
        return result;
    };
    policy.autoApprove = names("autoApprove").value_or(QStringList());
    policy.enabledTools = names("enabledTools");
    policy.disabledTools = names("disabledTools").value_or(QStringList());
    return policy;
}

} // namespace

bool ServerPolicy::offers(const QString &tool) const
{
    return (!enabledTools || enabledTools->contains(tool)) && !disabledTools.contains(tool);
}

QString riskName(Risk risk)
{
    switch (risk) {
    case Risk::Read:
        return QStringLiteral("read");
    case Risk::Mutating:
        return QStringLiteral("mutating");
    case Risk::Dangerous:
        break;
    }
    return QStringLiteral("dangerous");
}

std::optional<Risk> riskFromName(QStringView name)
{
    for (const Risk risk : kRisks) {
        if (name == riskName(risk))
            return risk;
    }
    return std::nullopt;
}

ServerPolicy ServerPolicy::of(const Mcp::ServerConfig &server)
{
    return fromDefinition(server.definition);
}

ServerPolicy ServerPolicy::fromDefinition(const nlohmann::json &definition)
{
    return read(definition, nullptr);
}

Risk ServerPolicy::riskOf(const QString &tool, const nlohmann::json &annotations) const
{
    if (auto it = toolRisks.find(tool); it != toolRisks.end())
        return *it;
    if (trust && annotations.is_object()) {
        if (annotations.value("readOnlyHint", false) == true)
            return Risk::Read;
        if (annotations.value("destructiveHint", true) == false)
            return Risk::Mutating;
    }
    return risk.value_or(Risk::Dangerous);
}

QList<FieldProblem> ServerPolicy::check(const nlohmann::json &server)
{
    QList<FieldProblem> problems;
    read(server, &problems);
    return problems;
}

Mcp::McpConfig loadConfig(const QString &workspaceDir, const QString &overrideFile,
                          const QProcessEnvironment &env)
{
    return Mcp::ConfigLoader::load(workspaceDir, overrideFile, env, &ServerPolicy::check,
                                   providerKeyVariables());
}

Mcp::McpConfig parseConfig(const QByteArray &text, const QString &fileName,
                           const QProcessEnvironment &env)
{
    return Mcp::ConfigLoader::parse(text, fileName, env, &ServerPolicy::check);
}

Mcp::McpConfig loadConfigFile(const QString &path, const QProcessEnvironment &env,
                              Mcp::ConfigOrigin origin)
{
    return Mcp::ConfigLoader::loadFile(path, env, origin, &ServerPolicy::check);
}

Mcp::ConfigLoader::ImportResult importConfig(Mcp::ConfigLoader::ImportKind kind,
                                             const QByteArray &text, const QString &fileName)
{
    return Mcp::ConfigLoader::importConfig(kind, text, fileName, &ServerPolicy::check);
}

} // namespace Engine
