#include "peers.h"

#include <engine/llm/providerconfig.h>
#include <mcp/transport/httpsupport.h>
#include <mcp/wire/safetext.h>

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

#include <algorithm>

namespace Engine::A2A {

namespace {

using Json = nlohmann::json;

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::A2A::Peers", text);
}

QString fromStd(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

constexpr const char *KnownKeys[] = {"url", "headers", "timeout", "description"};

bool isNameCharacter(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
           || (c >= QLatin1Char('A') && c <= QLatin1Char('Z'))
           || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('_')
           || c == QLatin1Char('-') || c == QLatin1Char('.');
}

// What reading one agent's settings needs.
struct Reader
{
    const Mcp::ConfigLoader::LocatedJson &file;
    QList<Mcp::ConfigError> &errors;
    const QProcessEnvironment &env;
    QString name;
    std::string pointer;
    bool ok = true;

    void error(const std::string &at, const QString &message)
    {
        errors << file.errorAt(
                at, name, tr("agent '%1': %2").arg(Mcp::ConfigLoader::quotedValue(name), message));
        ok = false;
    }

    // `${VAR}` expanded; a variable that is not set makes the peer unusable (not a file error).
    QString expanded(const std::string &at, const QString &text, Peer &peer)
    {
        const Mcp::ConfigLoader::Expansion expansion
                = Mcp::ConfigLoader::expandVariables(text, env);
        if (!expansion.syntaxError.isEmpty()) {
            error(at, expansion.syntaxError);
            return {};
        }
        if (!expansion.missingVariable.isEmpty() && peer.error.isEmpty())
            peer.error = tr("agent '%1' needs the environment variable %2, which is %3")
                                 .arg(name, expansion.missingVariable,
                                      expansion.missingIsEmpty ? tr("empty") : tr("not set"));
        peer.substitutedValues += expansion.substituted;
        return expansion.value;
    }

    std::optional<Peer> read(const Json &value)
    {
        Peer peer;
        peer.name = name;
        peer.definition = value;
        if (!value.is_object()) {
            error(pointer, tr("its settings must be an object ({\"url\": \"...\"})"));
            return std::nullopt;
        }
        for (auto member = value.begin(); member != value.end(); ++member) {
            const std::string &key = member.key();
            if (std::find_if(std::begin(KnownKeys), std::end(KnownKeys),
                             [&key](const char *known) { return key == known; })
                == std::end(KnownKeys))
                error(Mcp::ConfigLoader::memberPointer(pointer, key),
                      tr("unknown key '%1' (an agent has: url, headers, timeout, description)")
                              .arg(Mcp::ConfigLoader::quotedValue(fromStd(key))));
        }
        readUrl(value, peer);
        readHeaders(value, peer);
        readTimeout(value, peer);
        if (const auto it = value.find("description"); it != value.end()) {
            if (it->is_string())
                peer.description = fromStd(it->get<std::string>());
            else
                error(Mcp::ConfigLoader::memberPointer(pointer, "description"),
                      Mcp::ConfigLoader::wrongTypeMessage(QStringLiteral("description"),
                                                          tr("a string"), *it));
        }
        if (!ok)
            return std::nullopt;
        return peer;
    }

    void readUrl(const Json &value, Peer &peer)
    {
        const std::string at = Mcp::ConfigLoader::memberPointer(pointer, "url");
        const auto it = value.find("url");
        if (it == value.end()) {
            error(pointer, tr("'url' is missing: the agent's address (http or https)"));
            return;
        }
        if (!it->is_string()) {
            error(at,
                  Mcp::ConfigLoader::wrongTypeMessage(QStringLiteral("url"), tr("a string"), *it));
            return;
        }
        const QString text = expanded(at, fromStd(it->get<std::string>()), peer);
        if (!peer.error.isEmpty())
            return; // checked once the variable is set
        const QUrl url(text, QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
            error(at, tr("'url' must be an http or https URL, not %1")
                              .arg(Mcp::ConfigLoader::quotedValue(text)));
            return;
        }
        peer.url = url;
    }

    void readHeaders(const Json &value, Peer &peer)
    {
        const auto it = value.find("headers");
        if (it == value.end())
            return;
        const std::string at = Mcp::ConfigLoader::memberPointer(pointer, "headers");
        if (!it->is_object()) {
            error(at, Mcp::ConfigLoader::wrongTypeMessage(QStringLiteral("headers"),
                                                          tr("an object of strings"), *it));
            return;
        }
        for (const auto &[key, header] : it->items()) {
            const std::string headerAt = Mcp::ConfigLoader::memberPointer(at, key);
            const QString headerName = fromStd(key);
            if (!Mcp::Http::isHeaderName(headerName)) {
                error(headerAt, tr("'%1' is not a header name")
                                        .arg(Mcp::ConfigLoader::quotedValue(headerName)));
                continue;
            }
            if (!header.is_string()) {
                error(headerAt, Mcp::ConfigLoader::wrongTypeMessage(
                                        tr("header '%1'").arg(headerName), tr("a string"), header));
                continue;
            }
            const QString text = expanded(headerAt, fromStd(header.get<std::string>()), peer);
            if (text.contains(QLatin1Char('\r')) || text.contains(QLatin1Char('\n'))
                || text.contains(QChar(0))) {
                // Never quote the value: it is a credential.
                error(headerAt,
                      tr("header '%1' has a line break or NUL in its value").arg(headerName));
                continue;
            }
            peer.headers.insert(headerName, text);
        }
    }

    void readTimeout(const Json &value, Peer &peer)
    {
        const auto it = value.find("timeout");
        if (it == value.end())
            return;
        const double limit = Mcp::ConfigLoader::kMaxTimeoutSeconds;
        if (!it->is_number() || it->get<double>() < 1 || it->get<double>() > limit) {
            error(Mcp::ConfigLoader::memberPointer(pointer, "timeout"),
                  tr("'timeout' must be a number of seconds from 1 to %1").arg(limit));
            return;
        }
        peer.timeoutMs = int(it->get<double>() * 1000);
    }
};

void sortByName(QList<Peer> &peers)
{
    std::sort(peers.begin(), peers.end(),
              [](const Peer &a, const Peer &b) { return a.name < b.name; });
}

} // namespace

Endpoint Peer::endpoint() const
{
    Endpoint endpoint;
    endpoint.name = name;
    endpoint.url = url;
    endpoint.headers = headers;
    endpoint.timeoutMs = timeoutMs;
    return endpoint;
}

const Peer *Peers::find(const QString &name) const
{
    for (const Peer &peer : peers) {
        if (peer.name == name)
            return &peer;
    }
    return nullptr;
}

QStringList Peers::names() const
{
    QStringList names;
    for (const Peer &peer : peers)
        names << peer.name;
    return names;
}

QStringList Peers::secrets() const
{
    QStringList values;
    for (const Peer &peer : peers)
        values += peer.substitutedValues;
    return values;
}

Peers parsePeers(const QByteArray &text, const QString &fileName, const QProcessEnvironment &env,
                 Mcp::ConfigOrigin origin, const QStringList &privateVariables)
{
    Peers result;
    const Mcp::ConfigLoader::LocatedJson file
            = Mcp::ConfigLoader::parseLocated(text, fileName, "agents", tr("agent '%1': %2"));
    result.errors = file.errors;
    if (file.root.is_discarded())
        return result;
    if (!file.root.is_object()) {
        result.errors << file.errorAt({}, {},
                                      tr("the top level must be an object: {\"agents\": {...}}"));
        return result;
    }
    const auto agents = file.root.find("agents");
    if (agents == file.root.end())
        return result;
    if (!agents->is_object()) {
        result.errors << file.errorAt("/agents", {},
                                      tr("'agents' must be an object mapping agent names to "
                                         "their settings"));
        return result;
    }
    for (const auto &[key, value] : agents->items()) {
        Reader reader{file, result.errors, env, fromStd(key),
                      Mcp::ConfigLoader::memberPointer("/agents", key)};
        if (reader.name.isEmpty() || reader.name.size() > Mcp::ConfigLoader::kMaxServerNameLength
            || !std::all_of(reader.name.begin(), reader.name.end(), isNameCharacter)) {
            reader.error(reader.pointer, tr("a name is 1 to %1 letters, digits, '_', '-' or '.'")
                                                 .arg(Mcp::ConfigLoader::kMaxServerNameLength));
            continue;
        }
        if (origin == Mcp::ConfigOrigin::Workspace) {
            const QList<Mcp::ConfigLoader::VariableReference> references
                    = Mcp::ConfigLoader::variableReferences(value);
            const auto refused
                    = std::find_if(references.begin(), references.end(),
                                   [&](const Mcp::ConfigLoader::VariableReference &reference) {
                                       return privateVariables.contains(reference.name);
                                   });
            if (refused != references.end()) {
                reader.error(reader.pointer, Mcp::ConfigLoader::privateVariableMessage(
                                                     refused->name, refused->field));
                continue;
            }
        }
        std::optional<Peer> peer = reader.read(value);
        if (!peer || file.duplicated.contains(reader.name))
            continue;
        peer->origin = origin;
        peer->sourceFile = fileName;
        peer->line = file.errorAt(reader.pointer, {}, {}).line;
        result.peers << *peer;
    }
    sortByName(result.peers);
    Mcp::ConfigLoader::sortErrors(result.errors);
    return result;
}

Peers loadPeersFile(const QString &path, const QProcessEnvironment &env, Mcp::ConfigOrigin origin,
                    const QStringList &privateVariables)
{
    const Mcp::ConfigLoader::FileContents contents = Mcp::ConfigLoader::readFile(path);
    if (!contents.exists)
        return {};
    if (!contents.error.isEmpty()) {
        Peers result;
        Mcp::ConfigError error;
        error.file = path;
        error.message = contents.error;
        result.errors << error;
        return result;
    }
    return parsePeers(contents.bytes, path, env, origin, privateVariables);
}

QString userPeersPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QLatin1String("/switchboard/a2a.json");
}

Peers loadPeers(const QString &workspaceDir, const QProcessEnvironment &env)
{
    Peers merged = loadPeersFile(userPeersPath(), env, Mcp::ConfigOrigin::User);
    if (workspaceDir.isEmpty())
        return merged;
    const QStringList privateVariables
            = providerKeyVariables()
              + Mcp::ConfigLoader::loadFile(Mcp::ConfigLoader::userConfigPath(), env)
                        .secretVariables;
    const Peers workspace = loadPeersFile(QDir(workspaceDir).filePath(QStringLiteral(".a2a.json")),
                                          env, Mcp::ConfigOrigin::Workspace, privateVariables);
    merged.errors += workspace.errors;
    for (const Peer &peer : workspace.peers) {
        if (const Peer *mine = merged.find(peer.name)) {
            Mcp::ConfigError error;
            error.file = peer.sourceFile;
            error.line = peer.line;
            error.server = peer.name;
            error.message = tr("agent '%1' is also defined in %2; that definition is used")
                                    .arg(peer.name, mine->sourceFile);
            merged.errors << error;
            continue;
        }
        merged.peers << peer;
    }
    sortByName(merged.peers);
    return merged;
}

} // namespace Engine::A2A
