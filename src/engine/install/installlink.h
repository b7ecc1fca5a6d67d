#pragma once

#include <mcp/registry/serverjson.h>

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace Engine {

// What `switchboard --install LINK` and a link a browser hands over may ask for; nothing is
// installed by reading one, only a dialog opened:
//   - a local .mcpb (or .dxt) file, as a path or file:// URL: the bundle's confirmation;
//   - switchboard://install?name=NAME: "Add server…" on the registry entry NAME (always from
//     the registry in Settings: a link cannot name another);
//   - switchboard://install?bundle=URL&sha256=HEX: a bundle downloaded (asked first) and
//     checked against HEX, then its confirmation.
struct InstallLink
{
    Q_DECLARE_TR_FUNCTIONS(Engine::InstallLink)

public:
    enum class Kind { File, Registry, Download };
    Kind kind = Kind::File;
    QString file;                    // File
    QString name;                    // Registry
    Mcp::Registry::Package download; // Download: registryType "mcpb", identifier, fileSha256

    static constexpr const char *Scheme = "switchboard";
    static constexpr qsizetype MaxLength = 4096;

    // Nullopt with `problem` saying what is wrong with `given`.
    static std::optional<InstallLink> parse(const QString &given, QString *problem);
    // Whether `given` looks like something parse() is for (an argument the .desktop file
    // hands over), so that it is not taken for anything else.
    static bool looksLikeOne(const QString &given);
};

} // namespace Engine
