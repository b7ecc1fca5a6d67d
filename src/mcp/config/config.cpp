// The configuration's values (ServerConfig, McpConfig) and the loader's whole files: parse(),
// reading a file safely, loading and merging the user's and the workspace's configurations.
#include "config.h"
#include "configinternal.h"

#include <mcp/wire/safetext.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace Mcp {

using namespace ConfigLoader::Internal;

namespace {

// The defaults a server gets when its file says nothing: 30 s to start (initialize answered),
// 60 s per tool call; toJson() leaves them out.
constexpr int kDefaultTimeoutMs = 60000;
constexpr int kDefaultStartupTimeoutMs = 30000;

// The members of a server's definition that ServerConfig does not hold (the engine's policy
// keys, extensions), as written: toJson() carries them over and operator== compares them.
json foreignMembers(const json &definition)
{
    static constexpr std::string_view kOwnKeys[]
            = {"type",    "command",  "args",           "env",    "inheritEnv", "sandbox", "url",
               "headers", "disabled", "startupTimeout", "timeout"};
    json result = json::object();
    if (definition.is_object()) {
        for (const auto &[key, value] : definition.items()) {
            if (std::find(std::begin(kOwnKeys), std::end(kOwnKeys), key) == std::end(kOwnKeys))
                result[key] = value;
        }
    }
    return result;
}

json secondsJson(int ms)
{
    if (ms % 1000 == 0)
        return ms / 1000;
    return ms / 1000.0;
}

} // namespace

QString transportTypeName(TransportType type)
{
    switch (type) {
    case TransportType::Stdio:
        return QStringLiteral("stdio");
    case TransportType::Http:
        return QStringLiteral("http");
    case TransportType::Sse:
        break;
    }
    return QStringLiteral("sse");
}

QString ConfigError::toString() const
{
    QString result = file.isEmpty() ? QStringLiteral("<input>") : file;
    if (line > 0) {
        result += u':' + QString::number(line);
        if (column > 0)
            result += u':' + QString::number(column);
    }
    return result + QStringLiteral(": ") + message;
}

bool ServerConfig::operator==(const ServerConfig &other) const
{
    return name == other.name && type == other.type && command == other.command
           && args == other.args && env == other.env && inheritEnv == other.inheritEnv
           && sandbox == other.sandbox && url == other.url && headers == other.headers
           && disabled == other.disabled && timeoutMs == other.timeoutMs
           && startupTimeoutMs == other.startupTimeoutMs && error == other.error
           && untrusted == other.untrusted
           && foreignMembers(definition) == foreignMembers(other.definition);
}

nlohmann::json ServerConfig::toJson() const
{
    const auto stringMap = [](const QMap<QString, QString> &map) {
        json object = json::object();
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            object[it.key().toStdString()] = it.value().toStdString();
        return object;
    };
    const auto stringList = [](const QStringList &list) {
        json array = json::array();
        for (const QString &item : list)
            array.push_back(item.toStdString());
        return array;
    };

    json result = json::object();
    if (type == TransportType::Stdio) {
        result["command"] = command.toStdString();
        if (!args.isEmpty())
            result["args"] = stringList(args);
        if (!env.isEmpty())
            result["env"] = stringMap(env);
        if (inheritEnv)
            result["inheritEnv"] = true;
        if (sandbox.enabled)
            result["sandbox"] = sandbox.toJson();
    } else {
        result["type"] = transportTypeName(type).toStdString();
        result["url"] = url.toStdString();
        if (!headers.isEmpty())
            result["headers"] = stringMap(headers);
    }
    if (disabled)
        result["disabled"] = true;
    if (timeoutSet || timeoutMs != kDefaultTimeoutMs)
        result["timeout"] = secondsJson(timeoutMs);
    if (startupTimeoutMs != kDefaultStartupTimeoutMs)
        result["startupTimeout"] = secondsJson(startupTimeoutMs);
    result.update(foreignMembers(definition));
    return result;
}

const ServerConfig *McpConfig::find(const QString &name) const
{
    for (const ServerConfig &server : servers) {
        if (server.name == name)
            return &server;
    }
    return nullptr;
}

namespace ConfigLoader {

McpConfig parse(const QByteArray &text, const QString &fileName, const QProcessEnvironment &env,
                const ServerCheck &check)
{
    McpConfig config;
    const PositionIndex index(text.size() > kMaxConfigBytes ? QByteArray() : text);
    const Context ctx{index, fileName, config.errors};
    json root;
    if (!parseJson(text, ctx, root))
        return config;

    const QSet<QString> duplicated = reportDuplicates(ctx); // none of them is started

    if (!root.is_object()) {
        ctx.add({}, QString(),
                Text::tr("the top level must be an object: {\"mcpServers\": {...}}, not %1")
                        .arg(jsonTypeName(root)));
        return config;
    }
    if (const auto secrets = root.find("secretVariables"); secrets != root.end()) {
        static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        bool valid = secrets->is_array();
        if (valid) {
            for (const json &item : *secrets) {
                const QString text = item.is_string()
                                             ? QString::fromStdString(item.get<std::string>())
                                             : QString();
                valid = valid && name.match(text).hasMatch();
                if (valid)
                    config.secretVariables << text;
            }
        }
        if (!valid) {
            config.secretVariables.clear();
            ctx.add("/secretVariables", QString(),
                    Text::tr("'secretVariables' must be a list of variable names, such as "
                             "[\"GITHUB_TOKEN\"]"));
        }
    }
    const auto servers = root.find("mcpServers");
    if (servers == root.end())
        return config;
    if (!servers->is_object()) {
        ctx.add("/mcpServers", QString(),
                Text::tr("'mcpServers' must be an object mapping server names to their "
                         "settings, not %1")
                        .arg(jsonTypeName(*servers)));
        return config;
    }
    for (const auto &[name, value] : servers->items()) {
        auto server = checkServer(ctx, name, value, childPointer("/mcpServers", name), env, check);
        if (server && !duplicated.contains(server->name))
            config.servers.append(std::move(*server));
    }
    std::sort(config.servers.begin(), config.servers.end(),
              [](const ServerConfig &a, const ServerConfig &b) { return a.name < b.name; });
    checkNameClashes(config);
    sortErrors(config.errors);
    return config;
}

FileContents readFile(const QString &path)
{
    FileContents result;
    const auto fail = [&result](const QString &message) {
        result.bytes.clear();
        result.error = message;
        return result;
    };
    const QString notRegular = Text::tr("is not a regular file (a FIFO, device or socket, or a "
                                        "link to one); a configuration must be a plain file");
    const QString isDirectory = Text::tr("is a directory, not a configuration file");
#ifdef Q_OS_UNIX
    // stat() first, so that a device is never even opened (opening one can have effects);
    // O_NONBLOCK so that a FIFO swapped in after the stat() cannot block the open(); fstat()
    // of what was opened, so that such a swap is still refused.
    const QByteArray native = QFile::encodeName(path);
    const auto kind = [&](const struct stat &st) -> std::optional<QString> {
        if (S_ISDIR(st.st_mode))
            return isDirectory;
        if (!S_ISREG(st.st_mode))
            return notRegular;
        return std::nullopt;
    };
    struct stat st;
    if (::stat(native.constData(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return result;
        result.exists = true;
        return fail(Text::tr("cannot read the file: %1")
                            .arg(QString::fromLocal8Bit(std::strerror(errno))));
    }
    result.exists = true;
    if (const auto problem = kind(st))
        return fail(*problem);
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(Text::tr("cannot read the file: %1")
                            .arg(QString::fromLocal8Bit(std::strerror(errno))));
    const auto closeFd = qScopeGuard([fd] { ::close(fd); });
    if (::fstat(fd, &st) != 0)
        return fail(Text::tr("cannot read the file: %1")
                            .arg(QString::fromLocal8Bit(std::strerror(errno))));
    if (const auto problem = kind(st))
        return fail(*problem);
    // One byte over the cap is enough for parse() to refuse the file without reading it all.
    result.bytes.resize(kMaxConfigBytes + 1);
    qsizetype total = 0;
    while (total < result.bytes.size()) {
        const ssize_t n
                = ::read(fd, result.bytes.data() + total, size_t(result.bytes.size() - total));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(Text::tr("cannot read the file: %1")
                                .arg(QString::fromLocal8Bit(std::strerror(errno))));
        if (n == 0)
            break;
        total += n;
    }
    result.bytes.truncate(total);
#else
    const QFileInfo info(path);
    if (!info.exists())
        return result;
    result.exists = true;
    if (info.isDir())
        return fail(isDirectory);
    if (!info.isFile())
        return fail(notRegular);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(Text::tr("cannot read the file: %1").arg(file.errorString()));
    result.bytes = file.read(kMaxConfigBytes + 1);
#endif
    return result;
}

McpConfig loadFile(const QString &path, const QProcessEnvironment &env, ConfigOrigin origin,
                   const ServerCheck &check)
{
    const FileContents contents = readFile(path);
    if (!contents.exists)
        return {};
    if (!contents.error.isEmpty()) {
        McpConfig config;
        ConfigError error;
        error.file = path;
        error.message = contents.error;
        config.errors.append(error);
        return config;
    }
    McpConfig config = parse(contents.bytes, path, env, check);
    for (ServerConfig &server : config.servers)
        server.origin = origin;
    return config;
}

void checkNameClashes(McpConfig &config)
{
    QHash<QString, const ServerConfig *> byPrefix;
    QSet<QString> clashing;
    for (const ServerConfig &server : std::as_const(config.servers)) {
        const QString prefix = toolNamePart(server.name);
        const ServerConfig *first = byPrefix.value(prefix);
        if (!first) {
            byPrefix.insert(prefix, &server);
            continue;
        }
        ConfigError error;
        error.file = server.sourceFile;
        error.line = server.line;
        error.server = server.name;
        error.message = Text::tr("server '%2' would give its tools the same names as server "
                                 "'%1' (%3): both become mcp__%4__...; rename one of them")
                                .arg(quoted(first->name), quoted(server.name),
                                     first->sourceFile == server.sourceFile
                                             ? Text::tr("line %1").arg(first->line)
                                             : QStringLiteral("%1:%2")
                                                       .arg(first->sourceFile)
                                                       .arg(first->line),
                                     prefix);
        config.errors.append(error);
        // One of the user's own servers stays; a workspace's must not switch it off.
        const bool firstMine = first->origin == ConfigOrigin::User;
        const bool secondMine = server.origin == ConfigOrigin::User;
        if (!firstMine || secondMine)
            clashing.insert(first->name);
        if (!secondMine || firstMine)
            clashing.insert(server.name);
    }
    config.servers.removeIf(
            [&clashing](const ServerConfig &server) { return clashing.contains(server.name); });
}

QString userConfigPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QStringLiteral("/switchboard/mcp.json");
}

McpConfig merge(const McpConfig &user, const McpConfig &workspace, ConfigOrigin workspaceOrigin)
{
    McpConfig result;
    result.errors = user.errors + workspace.errors;
    result.secretVariables = user.secretVariables;
    if (workspaceOrigin == ConfigOrigin::CommandLine) {
        QSet<QString> workspaceNames;
        for (const ServerConfig &server : workspace.servers)
            workspaceNames.insert(server.name);
        for (const ConfigError &error : workspace.errors) {
            if (!error.server.isEmpty())
                workspaceNames.insert(error.server);
        }
        result.servers = workspace.servers;
        for (const ServerConfig &server : user.servers) {
            if (!workspaceNames.contains(server.name))
                result.servers.append(server);
        }
    } else {
        result.servers = user.servers;
        for (const ServerConfig &server : workspace.servers) {
            const ServerConfig *mine = user.find(server.name);
            if (!mine) {
                result.servers.append(server);
                continue;
            }
            ConfigError clash;
            clash.file = server.sourceFile;
            clash.line = server.line;
            clash.server = server.name;
            clash.message
                    = Text::tr("server '%1': your own configuration (%2) already defines a server "
                               "of this name; this folder's definition is ignored (rename it here "
                               "to use both)")
                              .arg(server.name, QDir::toNativeSeparators(mine->sourceFile));
            result.errors.append(clash);
        }
    }
    std::sort(result.servers.begin(), result.servers.end(),
              [](const ServerConfig &a, const ServerConfig &b) { return a.name < b.name; });
    checkNameClashes(result); // "a-b" here and "a_b" there would share tool names
    return result;
}

McpConfig load(const QString &workspaceDir, const QString &overrideFile,
               const QProcessEnvironment &env, const ServerCheck &check,
               const QStringList &privateVariables)
{
    const QString userFile = userConfigPath();
    const QString workspaceFile = overrideFile.isEmpty()
                                          ? QDir(workspaceDir).filePath(QStringLiteral(".mcp.json"))
                                          : overrideFile;
    const ConfigOrigin origin
            = overrideFile.isEmpty() ? ConfigOrigin::Workspace : ConfigOrigin::CommandLine;
    McpConfig workspace = loadFile(workspaceFile, env, origin, check);
    // A file named on the command line must exist; a workspace without .mcp.json is normal.
    if (!overrideFile.isEmpty() && !QFileInfo::exists(overrideFile)) {
        ConfigError error;
        error.file = overrideFile;
        error.message = Text::tr("file not found");
        workspace.errors.append(error);
    }
    // The workspace may be the config folder itself; one file is not merged over itself.
    const QString canonicalUser = QFileInfo(userFile).canonicalFilePath();
    if (!canonicalUser.isEmpty() && canonicalUser == QFileInfo(workspaceFile).canonicalFilePath()) {
        for (ServerConfig &server : workspace.servers)
            server.origin = ConfigOrigin::User;
        return workspace;
    }
    const McpConfig user = loadFile(userFile, env, ConfigOrigin::User, check);
    refusePrivateVariables(workspace, privateVariables + user.secretVariables);
    return merge(user, workspace, origin);
}

} // namespace ConfigLoader

} // namespace Mcp
