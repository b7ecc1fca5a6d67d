#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

class QObject;

namespace Mcp {

/// How a program is contained: `"sandbox": true` or `{"network": false, "write": [...]}` on a
/// stdio server, and the built-in bash when the `bash/sandbox` setting is on. A value type,
/// part of ServerConfig (a changed policy restarts the server).
struct SandboxPolicy
{
    bool enabled = false;
    bool network = true; ///< false: the program gets a network namespace of its own (no network)
    /// Folders it may write besides the workspace, as written in the config: absolute, or
    /// relative to the workspace.
    QStringList write;

    bool operator==(const SandboxPolicy &) const = default;

    /// `true` when only enabled, else the object form; null when disabled.
    nlohmann::json toJson() const;
};

/// Runs a program under bubblewrap (`bwrap`): the whole filesystem read-only, the workspace
/// and the policy's `write` folders read-write, a private /tmp, its own PID namespace (so
/// everything it starts ends with it), a new session (no TIOCSTI into our terminal), killed
/// when we die, and no network when the policy says so. What it does not stop: reading any
/// file the user can read, and (with network) sending it anywhere. Stateless functions plus a
/// cached probe; used by StdioTransport and Engine's bash tool.
namespace Sandbox {

/// The program looked up on PATH when nothing else is configured.
inline constexpr const char *DefaultProgram = "bwrap";

/// How the built-in bash is contained (setting `bash/sandbox`, CLI `--sandbox`).
enum class Mode { Off, On, Auto };
/// "off" | "on" | "auto".
QString modeName(Mode mode);
/// Inverse of modeName(); std::nullopt for anything else.
std::optional<Mode> modeFromName(const QString &name);

struct Command
{
    QString program;
    QStringList arguments;
};

/// bwrap's arguments for running `program` (an absolute path) with `arguments` in
/// `workspace` (absolute) under `policy`. `writable` are absolute folders that must exist.
/// `keptInTmp`: entries of the outside /tmp bound back read-only over the private /tmp
/// (see tmpEntriesNamed()). Pure: the unit tests check the command line it gives.
QStringList bwrapArguments(const SandboxPolicy &policy, const QString &workspace,
                           const QStringList &writable, const QString &program,
                           const QStringList &arguments, const QStringList &keptInTmp = {});

/// The entries of /tmp (such as `/tmp/build`) that `texts` name: a text that is an absolute
/// path, as written or with links resolved, or a path starting with /tmp/ inside a text (a
/// command line such as `cat /tmp/build/log`). Sorted, once each. Only these are bound back
/// into the sandbox: binding every entry of /tmp would make bwrap fail when another
/// program's temporary file vanishes between bwrap's look and its mount.
QStringList tmpEntriesNamed(const QStringList &texts);

/// The whole command: bwrap found (`bwrapProgram`: a path, or a name looked up on the
/// application's PATH), the policy's `write` folders resolved against `workspace` and checked,
/// and `env` adjusted (TMPDIR is the private /tmp). Of the outside /tmp, the entries that hold
/// the workspace, a `write` folder, the program, or that its arguments or environment name
/// stay visible, read-only (see tmpEntriesNamed()). std::nullopt and *error saying what is
/// wrong and what to do (naming bubblewrap when it is missing).
std::optional<Command> wrap(const SandboxPolicy &policy, const QString &bwrapProgram,
                            const QString &workspace, const QString &program,
                            const QStringList &arguments, QProcessEnvironment *env, QString *error);

/// Runs `bwrap` once (asynchronously; the result is cached per program for the life of the
/// application) to see whether it can make a sandbox here: it may be missing, or user
/// namespaces may be disabled. `done(true, {})` or `done(false, reason)` runs exactly once,
/// from the event loop, unless `context` (may be null) is destroyed first.
void probe(const QString &bwrapProgram, QObject *context,
           std::function<void(bool works, const QString &reason)> done);

/// The reason a sandboxed program could not run when bwrap itself failed: its last stderr
/// line ("bwrap: ..."), or empty if `stderrLine` is not one of bwrap's.
QString failureReason(const QString &stderrLine);

} // namespace Sandbox

} // namespace Mcp
