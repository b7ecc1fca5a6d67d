#pragma once

#include <mcp/process/sandbox.h>

#include <QHash>
#include <QList>
#include <QMap>
#include <QProcessEnvironment>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace Mcp {

/// Which file defined a server. The user's own file and a file named on the command line
/// (`--config`) are the user's choice; a workspace's `.mcp.json` may come from a cloned
/// repository and runs nothing until the user trusts it (Engine::TrustStore decides).
enum class ConfigOrigin { User, Workspace, CommandLine };

/// How Switchboard talks to a server: a child process, Streamable HTTP, or legacy HTTP+SSE.
enum class TransportType { Stdio, Http, Sse };

/// "stdio" | "http" | "sse".
QString transportTypeName(TransportType type);

/// One problem in a configuration file, pointing at the offending value (or at the syntax
/// error). Produced by ConfigLoader; shown by `switchboard-cli config check` and as markers in
/// the config editor.
struct ConfigError
{
    QString file;
    int line = 0;    ///< 1-based; 0 = unknown
    int column = 0;  ///< 1-based, counted in Unicode code points; 0 = unknown
    QString server;  ///< empty if the problem is not specific to one server
    QString message; ///< already names the server: "server 'x': ..."

    /// "FILE:LINE:COL: message" (unknown parts are left out).
    QString toString() const;
    bool operator==(const ConfigError &) const = default;
};

/// The settings of one MCP server, as read from `.mcp.json`, with `${VAR}` references
/// expanded. A value type: the UI edits a copy, the Manager compares old and new copies with
/// operator== to restart only the servers whose settings changed.
/// "oauth" of a remote server: how it signs in (MCP authorization). Kept in the server's
/// definition as written (a foreign member for toJson() and operator==); read here.
struct OAuthSettings
{
    bool present = false;
    QString clientId;          ///< registered beforehand with the authorization server
    QString clientSecret;      ///< expanded (`${VAR}`); a secret
    QStringList scopes;        ///< asked for when the server's challenge names none
    QString clientMetadataUrl; ///< this client's metadata document (https): its client_id
    QString grant;             ///< "authorization_code" (default) or "client_credentials"
    QString privateKeyFile;    ///< client_credentials with private_key_jwt: a PEM file, expanded
};

/// A keychain secret a server's definition names: `${secret:NAME}` in args, env or headers.
/// The reference stays in the value as written until the server starts: the Manager reads the
/// secret then (ManagerOptions::readSecrets) and puts it into the process's copy only.
struct SecretReference
{
    QString name;
    QString field; ///< where: "args[1]", "env.GITHUB_TOKEN", "headers.Authorization"
    bool operator==(const SecretReference &) const = default;
};

struct ServerConfig
{
    QString name;
    TransportType type = TransportType::Stdio;
    QString command;
    QStringList args;
    QMap<QString, QString> env; ///< expanded
    /// "inheritEnv": the whole environment but the provider keys, not only the allow-list
    /// (ChildEnvironment).
    bool inheritEnv = false;
    SandboxPolicy sandbox; ///< "sandbox": true or {"network": false, "write": [...]}
    QString url;
    QMap<QString, QString> headers; ///< expanded
    OAuthSettings oauth;            ///< "oauth" (remote servers)
    bool disabled = false;
    int timeoutMs = 60000; ///< "timeout", in seconds in the file
    /// "timeout" was written in the file (even as the default): the server's own limit, which
    /// wins over an application-wide default. Not compared by operator== (it does not change
    /// how the server runs).
    bool timeoutSet = false;
    int startupTimeoutMs = 30000; ///< "startupTimeout", in seconds in the file
    /// Non-empty: the server must not be started, and this says why (e.g. "environment
    /// variable GITHUB_TOKEN is not set (used in headers.Authorization)").
    QString error;
    QString sourceFile; ///< where it was defined
    int line = 0;
    ConfigOrigin origin = ConfigOrigin::User;
    /// The server's object exactly as the file has it (variables not expanded): what the
    /// user is asked to trust, what a trust decision is keyed by, and where the keys the
    /// protocol does not interpret live (the engine's approval policy: "risk", "tools",
    /// "trust", "autoApprove"; see ConfigLoader::ServerCheck).
    nlohmann::json definition;
    /// A workspace server the user has not trusted (in this form): the Manager shows it as
    /// "untrusted" and never starts it. Set by the engine's trust policy, not by the loader.
    bool untrusted = false;
    /// The values `${VAR}` references put into env and headers (the variable's value, not the
    /// whole string): secrets by origin whatever their names, for Redactor::secretValues().
    /// Not compared by operator== (env and headers already are).
    QStringList expandedSecrets;
    /// The `${secret:NAME}` references of args, env and headers, in the order written. Not
    /// compared by operator== (the values hold the references as written).
    QList<SecretReference> secretReferences;

    /// Compares the settings only: sourceFile and line say where the server was written, not
    /// how it runs, so moving a server within the file must not restart it. The definition's
    /// members this struct does not hold are compared as written: a change to a key only the
    /// engine reads (a tool's risk) still hands the engine a new configuration.
    bool operator==(const ServerConfig &other) const;

    /// Back to the `.mcp.json` form (values stay expanded; defaults are left out). The
    /// definition's keys this struct does not hold (the engine's, unknown extensions) are
    /// carried over as written.
    nlohmann::json toJson() const;
};

/// A whole configuration: the servers that may be started plus every problem found.
struct McpConfig
{
    QList<ServerConfig> servers; ///< sorted by name
    /// The top-level "secretVariables" of the user's own file: variables besides the provider
    /// keys that no workspace file may read (ConfigLoader::load()).
    QStringList secretVariables;
    /// Syntax and semantic errors, by line and column within a file (merge(): the user file's
    /// first).
    QList<ConfigError> errors;

    /// nullptr if there is no server of that name.
    const ServerConfig *find(const QString &name) const;
};

/// Reads `.mcp.json` files (Claude Code's format) and converts other clients' files into it.
/// Stateless functions: nothing here throws, every problem becomes a ConfigError with the
/// file, line, column and server it concerns.
namespace ConfigLoader {

/// Config files are a few KiB; anything larger is not a config and is refused before parsing.
inline constexpr qsizetype kMaxConfigBytes = 1024 * 1024;
/// A valid config nests 6 levels at most (settings.json → mcp → servers → x → tools → t);
/// 64 leaves room for unknown extensions while bounding the work on hostile input.
inline constexpr int kMaxNestingDepth = 64;
/// One day: a longer timeout is a hang, and seconds * 1000 must fit in an int.
inline constexpr double kMaxTimeoutSeconds = 24 * 60 * 60;

/// Model APIs limit a tool name to 64 characters; a server name is at most as long.
inline constexpr qsizetype kMaxServerNameLength = 64;

/// A problem a ServerCheck found: where, as a JSON pointer below the server's object
/// ("/tools/read_file/risk"), and what (the loader adds the server's name).
struct FieldProblem
{
    std::string pointer;
    QString message;
};

/// Checks the keys of a server's object that a layer above the protocol reads (the engine's
/// approval policy, Engine::ServerPolicy::check). It gets the object as written; the loader
/// reports each problem at its line and column and leaves the server out, as for its own keys.
using ServerCheck = std::function<QList<FieldProblem>(const nlohmann::json &server)>;

/// "'FIELD' must be EXPECTED, not a number": the loader's wording for a value of the wrong
/// type, for a ServerCheck to share.
QString wrongTypeMessage(const QString &field, const QString &expected, const nlohmann::json &got);
/// A value as messages quote it: control characters escaped, long values cut.
QString quotedValue(QStringView value);
/// The JSON pointer of member `key` of the value at `parent` (RFC 6901: '~' and '/' escaped).
std::string memberPointer(const std::string &parent, std::string_view key);

/// Parses `.mcp.json` text. `fileName` is only used in errors and ServerConfig::sourceFile;
/// `env` supplies `${VAR}` values. A server with a config error is left out of `servers`; a
/// server whose variable is unset or empty stays in with ServerConfig::error set.
/// References are `${NAME}` and `${NAME:-default}` (NAME: letters, digits, '_'; the default is
/// literal text up to the first '}'); they expand in command, args, env, url and headers.
/// `check` (if set) is run on every server's object too.
McpConfig parse(const QByteArray &text, const QString &fileName, const QProcessEnvironment &env,
                const ServerCheck &check = {});

/// A `${NAME}` reference in a definition as written (a server's, an A2A agent's).
struct VariableReference
{
    QString name;
    QString field; ///< where: "command", "args[1]", "env.DEBUG", "url", "headers.Authorization"
};
/// Every reference in the members that expand (command, args, env, url, headers), in that
/// order; a member of the wrong type has none.
QList<VariableReference> variableReferences(const nlohmann::json &definition);
/// Leaves out of `config` each server of origin Workspace whose definition reads one of
/// `privateVariables` (a cloned repository must not route your keys to its own server), with
/// an error naming the variable and where it is used. The user's own file may read them.
void refusePrivateVariables(McpConfig &config, const QStringList &privateVariables);
/// The error refusePrivateVariables() reports, for other workspace files (`.a2a.json`).
QString privateVariableMessage(const QString &variable, const QString &field);

/// Orders errors by line and column (stable), as parse() reports them.
void sortErrors(QList<ConfigError> &errors);

/// The longest name `${secret:NAME}` may give.
inline constexpr qsizetype kMaxSecretNameLength = 64;
/// A keychain secret's name: a letter or '_' first, then letters, digits, '_', '-' and '.';
/// at most kMaxSecretNameLength characters.
bool isSecretName(QStringView name);
/// "${secret:NAME}".
QString secretReferenceText(const QString &name);

/// ${VAR} and ${VAR:-default} expansion of one string, as parse() does it.
struct Expansion
{
    QString value;
    QStringList substituted; ///< the variables' values put into `value`
    /// The `${secret:NAME}` references (only where expandVariables() allows them), left in
    /// `value` as written.
    QStringList secretNames;
    QString missingVariable;     ///< first unset/empty variable without a default
    bool missingIsEmpty = false; ///< set but empty, as opposed to unset
    QString syntaxError;
    qsizetype syntaxErrorIndex = -1; ///< UTF-16 index of the offending "${"
};
/// `allowSecrets`: `${secret:NAME}` stays as written and is listed in Expansion::secretNames;
/// otherwise it is a syntax error saying where such references may be used.
Expansion expandVariables(const QString &text, const QProcessEnvironment &env,
                          bool allowSecrets = false);

/// `server` with each of its secretReferences replaced by its value in `values` (by name):
/// what the server's process gets, never what a file holds. The values are added to
/// expandedSecrets. Fails, naming the secret and where it is used, when one is missing from
/// `values` or empty.
struct SecretSubstitution
{
    ServerConfig server;
    QString error;
};
SecretSubstitution substituteSecrets(const ServerConfig &server,
                                     const QHash<QString, QString> &values);

/// A JSON configuration file other than `.mcp.json` (the A2A peers), read the way parse()
/// reads one: size limit, NUL bytes, nesting depth and syntax errors at their line and
/// column, and every duplicate key reported.
struct LocatedJson
{
    nlohmann::json root; ///< discarded when the text is not JSON (errors say why)
    QList<ConfigError> errors;
    QSet<QString> duplicated; ///< entries of the collection with a duplicate key inside
    /// An error at the value (else the nearest parent) a JSON pointer names; `entry` is the
    /// collection's entry it concerns (may be empty). Empty when the text is not JSON.
    std::function<ConfigError(const std::string &pointer, const QString &entry,
                              const QString &message)>
            errorAt;
};
/// `collection`: the top-level member whose members are named entries ("agents");
/// `entryFormat` words a problem inside one ("agent '%1': %2", %1 its name).
LocatedJson parseLocated(const QByteArray &text, const QString &fileName,
                         const std::string &collection, const QString &entryFormat);

/// What readFile() found at a path.
struct FileContents
{
    bool exists = false; ///< false: nothing there (a missing workspace file is normal)
    QByteArray bytes;    ///< at most kMaxConfigBytes + 1: one byte over says "too large"
    QString error;       ///< non-empty: the file cannot be used, and why ("is not a regular file")
};

/// Reads a configuration file without ever blocking on it: a FIFO, device or socket (or a
/// link to one, such as /dev/stdin) is refused with an error instead of being opened for a
/// read that may never end. Reads at most kMaxConfigBytes + 1 bytes.
FileContents readFile(const QString &path);

/// Reads and parses a file. A missing file is an empty config without errors. Every server
/// gets `origin`.
McpConfig loadFile(const QString &path, const QProcessEnvironment &env,
                   ConfigOrigin origin = ConfigOrigin::User, const ServerCheck &check = {});

/// Appends an error for every pair of servers whose names give the same tool-name prefix
/// (Mcp::toolNamePart(): "a-b", "a_b" and "a.b" all become "a_b", so one's tools would shadow
/// the other's) and removes both from `config.servers` (but for a clash between one of the
/// user's own servers and another file's, only the other one). parse() calls it for one file; call
/// it again after merging files.
void checkNameClashes(McpConfig &config);

/// QStandardPaths::GenericConfigLocation + "/switchboard/mcp.json".
QString userConfigPath();

/// Both files' servers and errors. A server named in both is taken from `user` and the clash
/// is reported at the workspace's definition: a cloned repository must not replace a server
/// the user set up. A file the user named on the command line (origin CommandLine) is the
/// user's choice and wins instead (even when its definition of that server is broken, so a
/// different command never runs in its place).
McpConfig merge(const McpConfig &user, const McpConfig &workspace,
                ConfigOrigin workspaceOrigin = ConfigOrigin::Workspace);

/// The workspace config (workspaceDir/.mcp.json, origin Workspace, or `overrideFile` if
/// non-empty, origin CommandLine) merged with the user file (see merge()). Unlike a missing
/// .mcp.json, a missing `overrideFile` is an error. A workspace's servers that read one of
/// `privateVariables` or of the user file's "secretVariables" are refused
/// (refusePrivateVariables()).
McpConfig load(const QString &workspaceDir, const QString &overrideFile,
               const QProcessEnvironment &env, const ServerCheck &check = {},
               const QStringList &privateVariables = {});

/// Other clients whose MCP configuration can be imported.
enum class ImportKind { ClaudeDesktop, VsCode, Cursor };

/// "claude-desktop" | "vscode" | "cursor".
std::optional<ImportKind> importKindFromName(QStringView name);
QString importKindName(ImportKind kind);

struct ImportResult
{
    QByteArray text;           ///< a `{"mcpServers": {...}}` document that parse() accepts
    QList<ConfigError> errors; ///< positions refer to the imported file; bad servers are left out
    QStringList notes;         ///< things the user must do, e.g. set a variable that was an input
};

/// Converts another client's file to `.mcp.json` text (pretty, 2-space indent). Comments and
/// trailing commas (JSONC, as VS Code writes) are accepted. `${env:VAR}` becomes `${VAR}`,
/// `${workspaceFolder}` becomes `.`, `${userHome}` becomes `${HOME}`, and VS Code's
/// `${input:id}` becomes `${ID}` (upper case, other characters as `_`; `${ID:-default}` when
/// the input has a default), with a note naming the variable.
/// `check` (if set) is run on every converted server too.
ImportResult importConfig(ImportKind kind, const QByteArray &text, const QString &fileName,
                          const ServerCheck &check = {});

} // namespace ConfigLoader

} // namespace Mcp
