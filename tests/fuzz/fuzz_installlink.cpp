// libFuzzer target for install links (Engine::InstallLink): what a browser or a file manager
// hands to `switchboard --install`. Any bytes, read as a link. Invariants: no crash; a refusal
// says why; an accepted registry link names an entry as the registry writes names; an accepted
// download is an mcpb over https (or http to this machine) with a 64-digit SHA-256; an accepted
// file is a bundle that exists.
#include "fuzzcheck.h"

#include <engine/install/bundledownload.h>
#include <engine/install/installlink.h>

#include <QFileInfo>
#include <QRegularExpression>

#include <cstdint>

using Engine::InstallLink;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString given = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    QString problem;
    const std::optional<InstallLink> link = InstallLink::parse(given, &problem);
    check(link.has_value() == problem.isEmpty());
    if (!link)
        return 0;
    switch (link->kind) {
    case InstallLink::Kind::Registry: {
        static const QRegularExpression name(QStringLiteral("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"));
        check(name.match(link->name).hasMatch());
        break;
    }
    case InstallLink::Kind::Download: {
        static const QRegularExpression digest(QStringLiteral("^[0-9a-f]{64}$"));
        check(link->download.registryType == QLatin1String("mcpb"));
        check(digest.match(link->download.fileSha256).hasMatch());
        check(Engine::BundleDownload::problem(link->download).isEmpty());
        break;
    }
    case InstallLink::Kind::File:
        check(QFileInfo(link->file).isFile());
        break;
    }
    return 0;
}
