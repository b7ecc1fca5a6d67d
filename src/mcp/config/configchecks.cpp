// The configuration loader's checks: one server's keys, each read into its ServerConfig, with
// every problem reported at its line and column.
#include "configinternal.h"

#include <mcp/wire/safetext.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace Mcp::ConfigLoader::Internal {

namespace {

QString typeNames()
{
    //: The values "type" accepts: keep the quoted words as they are.
    return Text::tr("\"stdio\", \"http\", \"streamable-http\" or \"sse\"");
}

QString codePoint(QChar c)
{
    return QStringLiteral("%1").arg(c.unicode(), 4, 16, QLatin1Char('0')).toUpper();
}

QString controlCharacterMessage(const QString &field, QChar c)
{
    return Text::tr("'%1' contains the control character U+%2; names, commands, arguments and "
                    "variable names must not contain control characters")
            .arg(field, codePoint(c));
}

bool isServerNameCharacter(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_'
           || u == '.' || u == '-';
}

// [A-Za-z0-9_.-]{1,64}, and not "builtin": a name that shows in tool names, prompts and
// terminals exactly as written, and that cannot pass for the built-in tools' source.
void checkServerName(const Context &ctx, const QString &name, const std::string &pointer)
{
    if (name.isEmpty()) {
        ctx.add(pointer, name, Text::tr("a server name must not be empty"));
        return;
    }
    if (const qsizetype control = indexOfControlCharacter(name); control >= 0) {
        ctx.addAt(ctx.inKey(pointer, control), name,
                  Text::tr("the server name contains the control character U+%1")
                          .arg(codePoint(name.at(control))));
        return;
    }
    const auto bad = std::find_if_not(name.cbegin(), name.cend(), isServerNameCharacter);
    if (bad != name.cend()) {
        ctx.addAt(ctx.inKey(pointer, bad - name.cbegin()), name,
                  Text::tr("a server name may only contain letters A-Z and a-z, digits, '_', "
                           "'.' and '-' (not '%1')")
                          .arg(name.mid(bad - name.cbegin(), bad->isHighSurrogate() ? 2 : 1)));
    } else if (name.size() > ConfigLoader::kMaxServerNameLength) {
        ctx.addAt(ctx.inKey(pointer, 0), name,
                  Text::tr("a server name may be at most %1 characters long, not %2")
                          .arg(ConfigLoader::kMaxServerNameLength)
                          .arg(name.size()));
    } else if (name.compare(QLatin1String("builtin"), Qt::CaseInsensitive) == 0) {
        ctx.addAt(ctx.inKey(pointer, 0), name,
                  Text::tr("the name '%1' is reserved for Switchboard's built-in tools; choose "
                           "another name")
                          .arg(name));
    }
}

// "sandbox": true/false, or {"network": bool, "write": ["path", ...]}. Unknown keys are errors:
// a misspelt "network" must not leave the network open unnoticed. `expand` registers a `write`
// entry for ${VAR} expansion.
void checkSandbox(const Context &ctx, const QString &name, const json &node,
                  const std::string &pointer, bool stdio, SandboxPolicy &policy,
                  const std::function<void(QString, std::string, QString, QString *)> &expand)
{
    const auto wrongType = [&](const std::string &where, const QString &field,
                               const QString &expected, const json &got) {
        ctx.add(where, name, wrongTypeMessage(field, expected, got));
    };
    if (!stdio) {
        ctx.add(pointer, name,
                Text::tr("'sandbox' applies only to stdio servers (a program "
                         "Switchboard starts)"));
        return;
    }
    if (node.is_boolean()) {
        policy.enabled = node.get<bool>();
        return;
    }
    if (!node.is_object()) {
        wrongType(pointer, QStringLiteral("sandbox"),
                  Text::tr("true, false or an object such as {\"network\": false, \"write\": "
                           "[\"out\"]}"),
                  node);
        return;
    }
    policy.enabled = true;
    for (const auto &[key, item] : node.items()) {
        const std::string where = childPointer(pointer, key);
        const QString path = QStringLiteral("sandbox.") + fromStd(key);
        if (key == "network") {
            if (item.is_boolean())
                policy.network = item.get<bool>();
            else
                wrongType(where, path, Text::tr("true or false"), item);
        } else if (key == "write") {
            if (!item.is_array()) {
                wrongType(where, path, Text::tr("a list of folders"), item);
                continue;
            }
            policy.write.resize(qsizetype(item.size()));
            for (size_t i = 0; i < item.size(); ++i) {
                const QString entryPath = QStringLiteral("sandbox.write[%1]").arg(i);
                if (!item[i].is_string())
                    wrongType(childPointer(where, i), entryPath, Text::tr("a string"), item[i]);
                else if (item[i].get_ref<const std::string &>().empty())
                    ctx.add(childPointer(where, i), name,
                            Text::tr("'%1' must not be empty").arg(entryPath));
                else
                    expand(entryPath, childPointer(where, i), fromStd(item[i].get<std::string>()),
                           &policy.write[qsizetype(i)]);
            }
        } else {
            ctx.add(where, name,
                    Text::tr("unknown key '%1' in 'sandbox'; expected \"network\" "
                             "or \"write\"")
                            .arg(fromStd(key)));
        }
    }
}

// Reads one server's object into its ServerConfig, a key or a group of keys at a time
// (checkServer() calls them in the order their problems were always reported). Strings that
// take ${VAR} are collected as they are read and expanded last, by expandAll().
class ServerChecker
{
public:
    ServerChecker(const Context &ctx, const QString &name, const json &value,
                  const std::string &pointer);

    void readTransport(); // type, command, url
    void readArgs();
    void readEnv(); // an object, or a list of "KEY=VALUE"
    void readHeaders();
    void readOAuth();    // sign-in settings of a remote server (kept in the definition as written)
    void readFlags();    // disabled, inheritEnv
    void readTimeouts(); // timeout, startupTimeout
    void runCheck(const ServerCheck &check);
    void readSandbox();
    void expandAll(const QProcessEnvironment &env);

    ServerConfig take() { return std::move(m_server); }

private:
    // A string to expand, in the order their missing variables are reported.
    struct Expandable
    {
        QString fieldPath;
        std::string pointer;
        QString raw;
        qsizetype unitOffset = 0; // where `raw` starts inside the JSON string ("KEY=" before it)
        QString *target;
        // Part of the command line (command, args, url): no control characters. A NUL would
        // cut an argument short of what the user was shown; an ESC could rewrite the screen
        // that shows it.
        bool commandLine = false;
    };

    void fail(const std::string &at, const QString &message) const
    {
        m_ctx.add(at, m_name, message);
    }
    std::string at(const char *key) const { return childPointer(m_pointer, key); }
    void wrongType(const std::string &where, const QString &field, const QString &expected,
                   const json &got) const
    {
        fail(where, wrongTypeMessage(field, expected, got));
    }
    void readStrings(const char *key, const json &object, QMap<QString, QString> &target);
    const json *field(const char *key) const
    {
        const auto it = m_value.find(key);
        return it == m_value.end() ? nullptr : &*it;
    }

    const Context &m_ctx;
    const QString m_name;
    const json &m_value;
    const std::string m_pointer;
    ServerConfig m_server;
    std::vector<Expandable> m_expandables;
};

ServerChecker::ServerChecker(const Context &ctx, const QString &name, const json &value,
                             const std::string &pointer)
    : m_ctx(ctx)
    , m_name(name)
    , m_value(value)
    , m_pointer(pointer)
{
    m_server.name = name;
    m_server.sourceFile = ctx.file;
    m_server.line = ctx.lineOf(pointer);
    m_server.definition = value;
}

void ServerChecker::readTransport()
{
    std::optional<TransportType> declaredType;
    QString declaredTypeName;
    if (const json *type = field("type")) {
        if (!type->is_string()) {
            wrongType(at("type"), QStringLiteral("type"), Text::tr("a string: ") + typeNames(),
                      *type);
        } else {
            declaredTypeName = fromStd(type->get<std::string>());
            if (declaredTypeName == QLatin1String("stdio"))
                declaredType = TransportType::Stdio;
            else if (declaredTypeName == QLatin1String("http")
                     || declaredTypeName == QLatin1String("streamable-http"))
                declaredType = TransportType::Http;
            else if (declaredTypeName == QLatin1String("sse"))
                declaredType = TransportType::Sse;
            else
                fail(at("type"), Text::tr("unknown type '%1'; expected %2")
                                         .arg(quoted(declaredTypeName), typeNames()));
        }
    }
    const json *command = field("command");
    const json *url = field("url");
    for (const auto &[key, node] : {std::pair{"command", command}, std::pair{"url", url}}) {
        if (!node)
            continue;
        const QString fieldName = QLatin1String(key);
        if (!node->is_string())
            wrongType(at(key), fieldName, Text::tr("a string"), *node);
        else if (node->get_ref<const std::string &>().empty())
            fail(at(key), Text::tr("'%1' must not be empty").arg(fieldName));
        else
            m_expandables.push_back(
                    {fieldName, at(key), fromStd(node->get<std::string>()), 0,
                     key == std::string_view("command") ? &m_server.command : &m_server.url, true});
    }
    if (command && url) {
        fail(m_pointer, Text::tr("has both 'command' and 'url'; a server is either a program "
                                 "to start (stdio) or an HTTP endpoint, not both"));
    } else if (!command && !url) {
        fail(m_pointer, Text::tr("needs 'command' (a program to start) or 'url' (an HTTP "
                                 "endpoint)"));
    } else if (declaredType) {
        if (*declaredType == TransportType::Stdio && !command)
            fail(at("type"), Text::tr("type 'stdio' needs 'command', not 'url'"));
        else if (*declaredType != TransportType::Stdio && !url)
            fail(at("type"),
                 Text::tr("type '%1' needs 'url', not 'command'").arg(declaredTypeName));
    }
    m_server.type = declaredType.value_or(command ? TransportType::Stdio : TransportType::Http);
}

void ServerChecker::readArgs()
{
    if (const json *args = field("args")) {
        if (!args->is_array()) {
            wrongType(at("args"), QStringLiteral("args"), Text::tr("a list of strings"), *args);
        } else {
            m_server.args.resize(qsizetype(args->size()));
            for (size_t i = 0; i < args->size(); ++i) {
                const json &arg = (*args)[i];
                const QString path = QStringLiteral("args[%1]").arg(i);
                if (!arg.is_string())
                    wrongType(childPointer(at("args"), i), path, Text::tr("a string"), arg);
                else
                    m_expandables.push_back({path, childPointer(at("args"), i),
                                             fromStd(arg.get<std::string>()), 0,
                                             &m_server.args[qsizetype(i)], true});
            }
        }
    }
}

void ServerChecker::readEnv()
{
    if (const json *envNode = field("env")) {
        if (envNode->is_object()) {
            readStrings("env", *envNode, m_server.env);
        } else if (envNode->is_array()) {
            for (size_t i = 0; i < envNode->size(); ++i) {
                const json &item = (*envNode)[i];
                const std::string where = childPointer(at("env"), i);
                const QString path = QStringLiteral("env[%1]").arg(i);
                if (!item.is_string()) {
                    wrongType(where, path, Text::tr("a \"KEY=VALUE\" string"), item);
                    continue;
                }
                const QString entry = fromStd(item.get<std::string>());
                const qsizetype equals = entry.indexOf(u'=');
                if (equals <= 0) {
                    fail(where, Text::tr("'%1' must look like \"KEY=VALUE\", not \"%2\"")
                                        .arg(path, quoted(entry)));
                    continue;
                }
                const QString key = entry.left(equals);
                if (const qsizetype control = indexOfControlCharacter(key); control >= 0) {
                    m_ctx.addAt(m_ctx.inValue(where, control), m_name,
                                controlCharacterMessage(path, key.at(control)));
                    continue;
                }
                m_server.env[key]; // the slot must exist before pointers into the map are taken
                m_expandables.push_back({QStringLiteral("env.") + key, where, entry.mid(equals + 1),
                                         equals + 1, &m_server.env[key]});
            }
        } else {
            wrongType(at("env"), QStringLiteral("env"),
                      Text::tr("an object or a list of \"KEY=VALUE\" strings"), *envNode);
        }
    }
}

void ServerChecker::readHeaders()
{
    if (const json *headers = field("headers")) {
        if (!headers->is_object()) {
            wrongType(at("headers"), QStringLiteral("headers"), Text::tr("an object of strings"),
                      *headers);
        } else {
            readStrings("headers", *headers, m_server.headers);
        }
    }
}

// An object of strings ("env" written as an object, "headers"): each member to expand into
// `target` under its name, which must hold no control character.
void ServerChecker::readStrings(const char *key, const json &object, QMap<QString, QString> &target)
{
    const QString prefix = QLatin1String(key) + u'.';
    for (const auto &[member, item] : object.items()) {
        const QString qkey = fromStd(member);
        const std::string where = childPointer(at(key), member);
        if (const qsizetype control = indexOfControlCharacter(qkey); control >= 0)
            m_ctx.addAt(m_ctx.inKey(where, control), m_name,
                        controlCharacterMessage(prefix + quoted(qkey), qkey.at(control)));
        if (!item.is_string())
            wrongType(where, prefix + qkey, Text::tr("a string"), item);
        else
            m_expandables.push_back(
                    {prefix + qkey, where, fromStd(item.get<std::string>()), 0, &target[qkey]});
    }
}

void ServerChecker::readOAuth()
{
    if (const json *oauth = field("oauth")) {
        const std::string where = at("oauth");
        if (m_server.type == TransportType::Stdio) {
            fail(where, Text::tr("'oauth' applies only to remote servers (\"url\")"));
        } else if (!oauth->is_object()) {
            wrongType(where, QStringLiteral("oauth"), Text::tr("an object"), *oauth);
        } else {
            OAuthSettings &settings = m_server.oauth;
            settings.present = true;
            for (const auto &member : oauth->items()) {
                // Named, not bound: the lambda below takes them (clang refuses a binding).
                const std::string &key = member.key();
                const json &item = member.value();
                const std::string itemAt = childPointer(where, key);
                const QString path = QStringLiteral("oauth.") + fromStd(key);
                const auto text = [&](QString *target, bool expanded) {
                    if (!item.is_string() || item.get_ref<const std::string &>().empty()) {
                        wrongType(itemAt, path, Text::tr("a string that is not empty"), item);
                        return;
                    }
                    if (expanded)
                        m_expandables.push_back(
                                {path, itemAt, fromStd(item.get<std::string>()), 0, target});
                    else
                        *target = fromStd(item.get<std::string>());
                };
                if (key == "clientId") {
                    text(&settings.clientId, false);
                } else if (key == "clientSecret") {
                    text(&settings.clientSecret, true);
                } else if (key == "privateKeyFile") {
                    text(&settings.privateKeyFile, true);
                } else if (key == "clientMetadataUrl") {
                    text(&settings.clientMetadataUrl, false);
                    if (!settings.clientMetadataUrl.isEmpty()
                        && !settings.clientMetadataUrl.startsWith(QLatin1String("https://")))
                        fail(itemAt, Text::tr("'oauth.clientMetadataUrl' must be an https URL"));
                } else if (key == "grant") {
                    text(&settings.grant, false);
                    if (!settings.grant.isEmpty()
                        && settings.grant != QLatin1String("authorization_code")
                        && settings.grant != QLatin1String("client_credentials"))
                        fail(itemAt, Text::tr("'oauth.grant' must be \"authorization_code\" "
                                              "or \"client_credentials\""));
                } else if (key == "scopes") {
                    bool ok = item.is_array();
                    for (const json &scope : ok ? item : json::array()) {
                        ok = ok && scope.is_string()
                             && !scope.get_ref<const std::string &>().empty();
                        if (ok)
                            settings.scopes << fromStd(scope.get<std::string>());
                    }
                    if (!ok)
                        fail(itemAt, Text::tr("'oauth.scopes' must be a list of scope names "
                                              "(strings that are not empty)"));
                } else {
                    fail(itemAt, Text::tr("unknown key '%1' in 'oauth'; expected \"clientId\", "
                                          "\"clientSecret\", \"scopes\", "
                                          "\"clientMetadataUrl\", \"grant\" or "
                                          "\"privateKeyFile\"")
                                         .arg(fromStd(key)));
                }
            }
            if (settings.grant == QLatin1String("client_credentials")
                && (settings.clientId.isEmpty()
                    || (settings.clientSecret.isEmpty() && settings.privateKeyFile.isEmpty())))
                fail(where, Text::tr("'oauth' with \"grant\": \"client_credentials\" needs "
                                     "\"clientId\" and \"clientSecret\" or "
                                     "\"privateKeyFile\""));
        }
    }
}

void ServerChecker::readFlags()
{
    for (const auto &[key, target] : {std::pair{"disabled", &m_server.disabled},
                                      std::pair{"inheritEnv", &m_server.inheritEnv}}) {
        if (const json *node = field(key)) {
            if (node->is_boolean())
                *target = node->get<bool>();
            else
                wrongType(at(key), QLatin1String(key), Text::tr("true or false"), *node);
        }
    }
}

void ServerChecker::readTimeouts()
{
    for (const auto &[key, target] : {std::pair{"timeout", &m_server.timeoutMs},
                                      std::pair{"startupTimeout", &m_server.startupTimeoutMs}}) {
        const json *node = field(key);
        if (!node)
            continue;
        const QString fieldName = QLatin1String(key);
        if (!node->is_number()) {
            wrongType(at(key), fieldName, Text::tr("a number of seconds"), *node);
            continue;
        }
        const double seconds = node->get<double>();
        if (!(seconds > 0)) {
            fail(at(key), Text::tr("'%1' must be a positive number of seconds").arg(fieldName));
        } else if (seconds > ConfigLoader::kMaxTimeoutSeconds) {
            fail(at(key), Text::tr("'%1' must be at most %2 seconds (one day)")
                                  .arg(fieldName)
                                  .arg(ConfigLoader::kMaxTimeoutSeconds));
        } else {
            *target = std::max(1, int(std::lround(seconds * 1000)));
            if (target == &m_server.timeoutMs)
                m_server.timeoutSet = true;
        }
    }
}

void ServerChecker::runCheck(const ServerCheck &check)
{
    // The keys a layer above the protocol reads (the engine's approval policy).
    if (check) {
        for (const ConfigLoader::FieldProblem &problem : check(m_value))
            fail(m_pointer + problem.pointer, problem.message);
    }
}

void ServerChecker::readSandbox()
{
    if (const json *sandbox = field("sandbox"))
        checkSandbox(m_ctx, m_name, *sandbox, at("sandbox"), m_server.type == TransportType::Stdio,
                     m_server.sandbox,
                     [&](QString path, std::string where, QString raw, QString *to) {
                         m_expandables.push_back({path, where, raw, 0, to});
                     });
}

void ServerChecker::expandAll(const QProcessEnvironment &env)
{
    // Variables last: a syntax error is a config error, a missing value only fails the server.
    for (const Expandable &item : m_expandables) {
        if (item.commandLine) {
            if (const qsizetype control = indexOfControlCharacter(item.raw); control >= 0) {
                m_ctx.addAt(m_ctx.inValue(item.pointer, item.unitOffset + control), m_name,
                            controlCharacterMessage(item.fieldPath, item.raw.at(control)));
                continue;
            }
        }
        const bool secretsAllowed = item.fieldPath.startsWith(QLatin1String("args["))
                                    || item.fieldPath.startsWith(QLatin1String("env."))
                                    || item.fieldPath.startsWith(QLatin1String("headers."));
        const Expansion expansion = expandVariables(item.raw, env, secretsAllowed);
        if (!expansion.syntaxError.isEmpty()) {
            const qsizetype offset
                    = m_ctx.inValue(item.pointer, item.unitOffset + expansion.syntaxErrorIndex);
            m_ctx.addAt(offset, m_name,
                        Text::tr("in '%1': %2").arg(item.fieldPath, expansion.syntaxError));
            continue;
        }
        *item.target = expansion.value;
        for (const QString &secret : expansion.secretNames)
            m_server.secretReferences.append({secret, item.fieldPath});
        const qsizetype expandedControl
                = item.commandLine ? indexOfControlCharacter(expansion.value) : -1;
        if (expandedControl >= 0 && m_server.error.isEmpty()) {
            // The variable's value is the user's environment, not the file: the server fails
            // (like an unset variable) instead of the whole file.
            m_server.error
                    = Text::tr("a variable put the control character U+%1 into %2")
                              .arg(codePoint(expansion.value.at(expandedControl)), item.fieldPath);
        }
        if (item.fieldPath.startsWith(QLatin1String("env."))
            || item.fieldPath.startsWith(QLatin1String("headers."))
            || item.fieldPath == QLatin1String("oauth.clientSecret"))
            m_server.expandedSecrets << expansion.substituted;
        if (!expansion.missingVariable.isEmpty() && m_server.error.isEmpty()) {
            m_server.error = Text::tr("environment variable %1 is %2 (used in %3)")
                                     .arg(expansion.missingVariable,
                                          expansion.missingIsEmpty ? Text::tr("empty")
                                                                   : Text::tr("not set"),
                                          item.fieldPath);
        }
    }
}

} // namespace

QString jsonTypeName(const json &value)
{
    switch (value.type()) {
    case json::value_t::null:
        return QStringLiteral("null");
    case json::value_t::object:
        //: A JSON value's type, completing "'%1' must be %2, not %3".
        return Text::tr("an object");
    case json::value_t::array:
        return Text::tr("a list");
    case json::value_t::string:
        return Text::tr("a string");
    case json::value_t::boolean:
        return Text::tr("a boolean");
    default:
        return Text::tr("a number");
    }
}

std::optional<ServerConfig> checkServer(const Context &ctx, const std::string &nameUtf8,
                                        const json &value, const std::string &pointer,
                                        const QProcessEnvironment &env, const ServerCheck &check)
{
    const QString name = fromStd(nameUtf8);
    const qsizetype errorsBefore = ctx.errors.size();
    checkServerName(ctx, name, pointer);
    if (!value.is_object()) {
        ctx.add(pointer, name,
                wrongTypeMessage(name, Text::tr("an object with \"command\" or \"url\""), value));
        return std::nullopt;
    }
    ServerChecker checker(ctx, name, value, pointer);
    checker.readTransport();
    checker.readArgs();
    checker.readEnv();
    checker.readHeaders();
    checker.readOAuth();
    checker.readFlags();
    checker.readTimeouts();
    checker.runCheck(check);
    checker.readSandbox();
    checker.expandAll(env);
    if (ctx.errors.size() > errorsBefore)
        return std::nullopt;
    return checker.take();
}

} // namespace Mcp::ConfigLoader::Internal

namespace Mcp::ConfigLoader {

using namespace Internal;

QString wrongTypeMessage(const QString &field, const QString &expected, const nlohmann::json &got)
{
    return Text::tr("'%1' must be %2, not %3").arg(field, expected, jsonTypeName(got));
}

} // namespace Mcp::ConfigLoader
