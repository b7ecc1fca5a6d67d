#include "truststore.h"

#include "serverpolicy.h"

#include <engine/storage/privatefiles.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace Engine {

namespace {
using Json = nlohmann::json;

constexpr int kFormatVersion = 1;
// trust.json holds a line per trusted server; a megabyte is thousands of workspaces.
constexpr qint64 kMaxFileBytes = 4 * 1024 * 1024;

// Members that change neither what runs nor what runs without asking: toggling a server off
// in the dock or lengthening its timeout must not ask for trust again.
constexpr const char *kIgnoredMembers[] = {"disabled", "timeout", "startupTimeout"};
// An agent's: where tasks and credentials go is its URL and headers, not how long it may take.
constexpr const char *kIgnoredAgentMembers[] = {"timeout", "description"};

QString fromStd(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// A shell-like quoting, for reading only: the user must see where each argument ends.
QString quoteArgument(const QString &arg)
{
    if (!arg.isEmpty()
        && !arg.contains(QRegularExpression(QStringLiteral("[^A-Za-z0-9_@%+=:,./${}-]"))))
        return arg;
    QString quoted = arg;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString stringOf(const Json &value)
{
    return value.is_string() ? fromStd(value.get<std::string>()) : fromStd(value.dump());
}
} // namespace

TrustStore::TrustStore(QString path)
    : m_path(path.isEmpty() ? defaultPath() : std::move(path))
    , m_data(Json::object())
{
}

QString TrustStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QLatin1String("/trust.json");
}

bool TrustStore::load(QString *error)
{
    m_data = Json::object();
    QFile file(m_path);
    if (!file.exists())
        return true;
    if (!QFileInfo(m_path).isFile() || !file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Cannot read the trust decisions in %1.")
                             .arg(QDir::toNativeSeparators(m_path));
        return false;
    }
    const QByteArray text = file.read(kMaxFileBytes + 1);
    Json data = Json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (text.size() > kMaxFileBytes || !data.is_object() || !data.contains("workspaces")
        || !data["workspaces"].is_object()) {
        if (error)
            *error = tr("%1 is not a trust file Switchboard wrote; no folder's servers are trusted "
                        "until it is fixed or removed.")
                             .arg(QDir::toNativeSeparators(m_path));
        return false;
    }
    m_data = std::move(data);
    return true;
}

bool TrustStore::needsTrust(const Mcp::ServerConfig &server)
{
    return server.origin == Mcp::ConfigOrigin::Workspace;
}

QString TrustStore::definitionHash(const Mcp::ServerConfig &server)
{
    return hashOf(server.definition, kIgnoredMembers);
}

QString TrustStore::agentHash(const Json &definition)
{
    return hashOf(definition, kIgnoredAgentMembers);
}

template<size_t N>
QString TrustStore::hashOf(const Json &written, const char *const (&ignored)[N])
{
    Json definition = written.is_object() ? written : Json::object();
    for (const char *member : ignored)
        definition.erase(member);
    // nlohmann's object is a std::map: dump() writes members sorted, so equal definitions
    // give equal text whatever their order in the file.
    const std::string canonical = definition.dump(-1, ' ', true, Json::error_handler_t::replace);
    return QString::fromLatin1(
            QCryptographicHash::hash(QByteArrayView(canonical.data(), qsizetype(canonical.size())),
                                     QCryptographicHash::Sha256)
                    .toHex());
}

QString TrustStore::workspaceKey(const QString &workspace)
{
    const QString canonical = QFileInfo(workspace).canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(QFileInfo(workspace).absoluteFilePath())
                               : canonical;
}

QString TrustStore::recordedHash(const QString &workspace, const char *section,
                                 const QString &name) const
{
    const auto workspaces = m_data.find("workspaces");
    if (workspaces == m_data.end() || !workspaces->is_object())
        return {};
    const auto entry = workspaces->find(workspaceKey(workspace).toStdString());
    if (entry == workspaces->end() || !entry->is_object())
        return {};
    const auto names = entry->find(section);
    if (names == entry->end() || !names->is_object())
        return {};
    const auto hash = names->find(name.toStdString());
    return hash != names->end() && hash->is_string() ? fromStd(hash->get<std::string>())
                                                     : QString();
}

bool TrustStore::record(const QString &workspace, const char *section, const QString &name,
                        const QString &hash, QString *error)
{
    m_data["version"] = kFormatVersion;
    Json &entry = m_data["workspaces"][workspaceKey(workspace).toStdString()];
    if (!entry.is_object())
        entry = Json::object();
    entry[section][name.toStdString()] = hash.toStdString();
    return save(error);
}

bool TrustStore::forget(const QString &workspace, const char *section, const QString &name,
                        QString *error)
{
    const std::string key = workspaceKey(workspace).toStdString();
    auto workspaces = m_data.find("workspaces");
    if (workspaces == m_data.end() || !workspaces->contains(key))
        return true;
    Json &entry = (*workspaces)[key];
    if (entry.is_object() && entry.contains(section) && entry[section].is_object())
        entry[section].erase(name.toStdString());
    const auto empty = [&entry](const char *names) {
        return !entry.contains(names) || !entry[names].is_object() || entry[names].empty();
    };
    if (!entry.is_object() || (empty("servers") && empty("agents")))
        workspaces->erase(key);
    return save(error);
}

bool TrustStore::isTrusted(const QString &workspace, const Mcp::ServerConfig &server) const
{
    if (!needsTrust(server))
        return true;
    const QString hash = recordedHash(workspace, "servers", server.name);
    return !hash.isEmpty() && hash == definitionHash(server);
}

bool TrustStore::trust(const QString &workspace, const Mcp::ServerConfig &server, QString *error)
{
    return record(workspace, "servers", server.name, definitionHash(server), error);
}

bool TrustStore::revoke(const QString &workspace, const QString &serverName, QString *error)
{
    return forget(workspace, "servers", serverName, error);
}

bool TrustStore::isAgentTrusted(const QString &workspace, const QString &name,
                                const Json &definition) const
{
    const QString hash = recordedHash(workspace, "agents", name);
    return !hash.isEmpty() && hash == agentHash(definition);
}

bool TrustStore::trustAgent(const QString &workspace, const QString &name, const Json &definition,
                            QString *error)
{
    return record(workspace, "agents", name, agentHash(definition), error);
}

bool TrustStore::revokeAgent(const QString &workspace, const QString &name, QString *error)
{
    return forget(workspace, "agents", name, error);
}

bool TrustStore::save(QString *error)
{
    m_data["version"] = kFormatVersion;
    if (!m_data.contains("workspaces"))
        m_data["workspaces"] = Json::object();
    const std::string text = m_data.dump(2, ' ', false, Json::error_handler_t::replace) + '\n';
    return PrivateFiles::write(m_path, QByteArray::fromStdString(text), error);
}

QStringList TrustStore::apply(Mcp::McpConfig &config, const QString &workspace) const
{
    QStringList untrusted;
    for (Mcp::ServerConfig &server : config.servers) {
        server.untrusted = !isTrusted(workspace, server);
        if (server.untrusted)
            untrusted << server.name;
    }
    return untrusted;
}

QString TrustStore::commandLine(const Mcp::ServerConfig &server)
{
    const Json &definition = server.definition;
    if (!definition.is_object())
        return server.type == Mcp::TransportType::Stdio ? server.command : server.url;
    if (definition.contains("url") && !definition.contains("command"))
        return stringOf(definition["url"]);
    QStringList parts;
    if (definition.contains("command"))
        parts << quoteArgument(stringOf(definition["command"]));
    if (definition.contains("args") && definition["args"].is_array()) {
        for (const Json &arg : definition["args"])
            parts << quoteArgument(stringOf(arg));
    }
    return parts.join(QLatin1Char(' '));
}

QStringList TrustStore::requests(const Mcp::ServerConfig &server)
{
    QStringList result;
    const Json &definition = server.definition;
    if (!definition.is_object())
        return result;
    const auto has = [&definition](const char *member) {
        return definition.contains(member);
    };
    if (has("env")) {
        QStringList names;
        const Json &env = definition["env"];
        if (env.is_object()) {
            for (const auto &[name, value] : env.items())
                names << fromStd(name);
        } else if (env.is_array()) {
            for (const Json &item : env)
                names << stringOf(item).section(QLatin1Char('='), 0, 0);
        }
        if (!names.isEmpty())
            result << tr("sets the environment variables %1").arg(names.join(QLatin1String(", ")));
    }
    if (has("headers") && definition["headers"].is_object() && !definition["headers"].empty()) {
        QStringList names;
        for (const auto &[name, value] : definition["headers"].items())
            names << fromStd(name);
        result << tr("sends the headers %1").arg(names.join(QLatin1String(", ")));
    }
    QStringList secrets;
    for (const Mcp::SecretReference &reference : server.secretReferences) {
        const QString item = tr("%1 (in %2)")
                                     .arg(Mcp::ConfigLoader::secretReferenceText(reference.name),
                                          reference.field);
        if (!secrets.contains(item))
            secrets << item;
    }
    if (!secrets.isEmpty())
        result << tr("reads secrets from your keychain: %1").arg(secrets.join(QLatin1String(", ")));
    if (has("autoApprove") && definition["autoApprove"].is_array()
        && !definition["autoApprove"].empty()) {
        QStringList tools;
        for (const Json &tool : definition["autoApprove"])
            tools << stringOf(tool);
        result << tr("also asks to run %1 without asking").arg(tools.join(QLatin1String(", ")));
    }
    const ServerPolicy policy = ServerPolicy::of(server);
    if (policy.risk && *policy.risk != Risk::Dangerous)
        result << tr("also asks that its tools count as '%1' (%2)")
                          .arg(riskName(*policy.risk), *policy.risk == Risk::Read
                                                               ? tr("they would run without asking")
                                                               : tr("a lower risk"));
    for (auto it = policy.toolRisks.cbegin(); it != policy.toolRisks.cend(); ++it) {
        if (it.value() == Risk::Read)
            result << tr("also asks to run %1 without asking (risk 'read')").arg(it.key());
    }
    if (policy.trust)
        result << tr("also asks that its own read-only hints be believed (\"trust\": true)");
    if (has("inheritEnv") && definition["inheritEnv"] == true)
        result << tr("also asks for your whole environment (\"inheritEnv\": true)");
    if (server.sandbox.enabled) {
        // What the sandbox still allows, so that "a sandbox" never hides a write to / or the
        // network.
        QStringList allows;
        allows << (server.sandbox.write.isEmpty()
                           ? tr("writes only in the workspace")
                           : tr("writes in the workspace and in %1")
                                     .arg(server.sandbox.write.join(QLatin1String(", "))));
        allows << (server.sandbox.network ? tr("with network access") : tr("without network"));
        result << tr("runs in a sandbox that %1").arg(allows.join(QLatin1String(", ")));
    }
    // Each of your variables the definition expands, and where: a value of yours goes to the
    // server (the provider keys and your "secretVariables" are refused before this).
    QStringList references;
    for (const Mcp::ConfigLoader::VariableReference &reference :
         Mcp::ConfigLoader::variableReferences(definition))
        references << tr("${%1} (in %2)").arg(reference.name, reference.field);
    if (!references.isEmpty())
        result << tr("reads your environment variables %1")
                          .arg(references.join(QLatin1String(", ")));
    return result;
}

} // namespace Engine
