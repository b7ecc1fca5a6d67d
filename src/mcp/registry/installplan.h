#pragma once

#include <mcp/registry/serverjson.h>

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

// From a registry entry to a server definition: what the person is asked (one field per
// argument, environment variable, header and {variable} without a fixed value), and, with
// their answers, the exact command line (a list, never a shell string) or URL that is written
// into the configuration.
namespace Mcp::Registry {

// One question of the install form.
struct Field
{
    // Stable within a package or remote: "env:NAME", "header:NAME", "runtime:I",
    // "package:I", "url", and for a {variable} of one of those "<owner>/<variable>".
    QString key;
    QString label; // what it is: the variable's or header's name, the argument's hint or flag
    Input input;   // description, required, format, choices, default, secret
    bool repeated = false; // an argument that may be given several times (one per line)
};

// The questions for a package or a remote, in the order they appear.
QList<Field> fieldsOf(const Package &package);
QList<Field> fieldsOf(const Remote &remote);

// What is written into the configuration.
struct Plan
{
    QString command;                    // stdio: the runtime ("npx", "uvx", "docker")
    QStringList args;                   // stdio: its arguments, the package among them
    QList<QPair<QString, QString>> env; // stdio: name → value
    QString url;                        // a remote: where it answers
    QList<QPair<QString, QString>> headers;
    // The keys of fields the person answered with a secret (isSecret), and so the values that
    // must never be written as they are (the installer stores them in the keychain).
    QStringList secretKeys;
    QString runtime; // the program that must be on PATH ("npx", "uvx", "docker"); empty: none

    // The command line as the person is shown it: each argument quoted where it needs to be.
    QString display() const;
};

// The plan for a package (npm → npx, pypi → uvx, oci → docker run), or nullopt with `problem`
// saying why: a required answer missing, an answer not among the choices or not a number, a
// registry or transport this cannot run, a package without a version.
std::optional<Plan> planPackage(const Package &package, const QMap<QString, QString> &answers,
                                QString *problem);
std::optional<Plan> planRemote(const Remote &remote, const QMap<QString, QString> &answers,
                               QString *problem);

} // namespace Mcp::Registry
