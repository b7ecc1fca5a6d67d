#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

// The MCP Registry's description of a server (`server.json`, schema 2025-12-11) and its read
// API's list answer (`GET /v0.1/servers`), read defensively: everything here comes from a
// registry over the network, and what is installed from it becomes a command line. A document
// is taken whole or refused with the first thing wrong in it, named by where it is
// ("packages[0].identifier: …"); no string is longer, and no list longer, than the bounds
// below, and a package's identifier and version must match the patterns its registry allows,
// so nothing like "; rm -rf ~" ever reaches an installed server's command.
namespace Mcp::Registry {

// One value the person may be asked for (an argument, an environment variable, a header, or
// a {variable} inside one of those).
struct Input
{
    enum class Format { String, Number, Boolean, FilePath };
    QString description;
    bool isRequired = false;
    Format format = Format::String;
    QString value; // fixed by the server's author; may hold {variables}
    bool isSecret = false;
    QString defaultValue;
    QString placeholder;
    QStringList choices;
    QMap<QString, Input> variables; // the {name}s `value` uses (never nested further)
};

// A command-line argument of a package: positional ("valueHint" names it), or named ("--port").
struct Argument : Input
{
    enum class Type { Positional, Named };
    Type type = Type::Positional;
    QString name;      // Named: the flag, dashes included
    QString valueHint; // Positional: what the value is, when no fixed value is given
    bool isRepeated = false;
};

// An environment variable (packages) or a header (HTTP transports).
struct KeyValueInput : Input
{
    QString name;
};

struct Transport
{
    QString type; // "stdio", "streamable-http" or "sse"
    QString url;  // HTTP only: http(s), may hold {variables}
    QList<KeyValueInput> headers;
};

struct Package
{
    QString registryType; // "npm", "pypi", "oci", "nuget", "mcpb" (others are read, not installed)
    QString registryBaseUrl;
    QString identifier; // a package name; an image reference (oci); a download URL (mcpb)
    QString version;    // empty for oci (the tag is in the identifier) and optional for mcpb
    QString fileSha256; // mcpb: the download's SHA-256, lower-case hex
    QString runtimeHint;
    Transport transport;
    QList<Argument> runtimeArguments;
    QList<Argument> packageArguments;
    QList<KeyValueInput> environmentVariables;
};

struct Remote
{
    Transport transport; // "streamable-http" or "sse", with its url
    QMap<QString, Input> variables;
};

struct Icon
{
    QString src; // https
    QString mimeType;
    QStringList sizes;
    QString theme; // "light", "dark" or empty
};

struct ServerJson
{
    QString name; // reverse-DNS namespace, '/', name: "io.github.owner/server"
    QString title;
    QString description;
    QString version;
    QString websiteUrl;
    QString repositoryUrl;
    QString repositorySource;
    QString repositorySubfolder;
    QList<Icon> icons;
    QList<Package> packages;
    QList<Remote> remotes;
};

// What the official registry says of an entry (`_meta["io.modelcontextprotocol.registry/
// official"]`).
struct Listing
{
    ServerJson server;
    QString status = QStringLiteral("active"); // "active", "deprecated", "deleted"
    QString statusMessage;
    QString publishedAt;
    QString updatedAt;
    bool isLatest = true;
    // Set by RegistryClient when the registry could not be asked and this is the answer it
    // gave before (saved for offline browsing): when it was saved.
    QDateTime fromCache;
};

// One page of `GET /v0.1/servers`.
struct ListPage
{
    QList<Listing> servers;
    QStringList skipped; // entries left out, each with why ("servers[3]: packages[0]…: …")
    QString nextCursor;  // empty: the last page
    QDateTime fromCache; // as Listing::fromCache
};

// Bounds on what is read. The schema's own where it has them (name 200, description and
// title 100, version 255); ours where it has none, each far above any real server's.
inline constexpr int MaxNameLength = 200;
inline constexpr int MaxDescriptionLength = 100;
inline constexpr int MaxVersionLength = 255;
inline constexpr int MaxStringLength = 2048;  // a URL, a default, a value
inline constexpr int MaxListLength = 64;      // packages, remotes, arguments, variables, …
inline constexpr int MaxServersPerPage = 100; // the API's own largest page
inline constexpr int MaxCursorLength = 1024;

struct ReadResult
{
    std::optional<ServerJson> server;
    QString problem; // why not, and where
};

// A server.json document (or the "server" member of a list entry).
ReadResult readServer(const Json &document);
// One entry of a list answer, or the answer of `GET /v0.1/servers/NAME/versions/V`:
// {"server": server.json, "_meta": {…official…}}; nullopt with `problem` saying why.
std::optional<Listing> readEntry(const Json &entry, QString *problem);
// A list answer's page: entries that cannot be read are skipped and said so; a page that is not
// a list answer at all is nullopt, with `problem` saying why.
std::optional<ListPage> readListPage(const Json &document, QString *problem);

// Whether a package's identifier and version are what its registry allows (npm and PyPI
// names, OCI image references, NuGet ids, https download URLs for mcpb); empty when they are,
// else why not. Also applied by readServer().
QString checkPackageIdentity(const QString &registryType, const QString &identifier,
                             const QString &version);

} // namespace Mcp::Registry
