#pragma once

#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace Mcp {

/// The environment of the programs Switchboard starts (MCP stdio servers, the built-in bash):
/// an allow-list of the application's own environment (what a program needs to find files,
/// speak the user's language and reach the network through a proxy, as the official MCP SDKs
/// pass), then the program's own variables. The application's model-provider keys are never
/// inherited: a server or a command line has no business with them. Stateless functions, used
/// by StdioTransport and Engine's bash tool.
namespace ChildEnvironment {

/// Variables a child always inherits when the application has them: exact names, plus every
/// LC_* locale variable.
const QStringList &allowedNames();

/// Whether `name` is inherited without `inheritEnv` (in allowedNames() or LC_*).
bool isAllowed(const QString &name);

/// Variables that hold the application's model-provider credentials (the ones
/// Engine::ProviderConfig::fromEnvironment reads): never inherited, even with `inheritEnv`.
bool isProviderSecret(const QString &name);

/// The child's environment: from `parent` the allowed variables (with `inheritAll`, every
/// variable but the provider secrets), then `own` set over them. `own` is passed as given,
/// even a provider variable: a server's config that names one asked for it explicitly.
QProcessEnvironment build(const QProcessEnvironment &parent, const QMap<QString, QString> &own,
                          bool inheritAll);

} // namespace ChildEnvironment

} // namespace Mcp
