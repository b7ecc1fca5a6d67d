// libFuzzer target for a whole MCP Bundle file (Mcp::Bundles::readBundle): any bytes, as a
// signature block, a zip read by QuaZip, its entry checks and its manifest. Invariants: no
// crash, no hang; a refusal says why; an accepted bundle's entries pass every check an
// extraction relies on (paths inside, no link, no name twice, sizes bounded) and its entry point
// is one of them.
#include "fuzzcheck.h"

#include <mcp/bundles/bundle.h>

#include <QByteArray>

#include <cstdint>

using namespace Mcp::Bundles;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray file(reinterpret_cast<const char *>(data), qsizetype(size));
    const OpenResult opened = readBundle(file);
    check(opened.bundle.has_value() != !opened.problem.isEmpty());
    if (!opened.bundle)
        return 0;
    const Bundle &bundle = *opened.bundle;
    check(entriesProblem(bundle.entries).isEmpty());
    bool entryPoint = false;
    for (const EntryInfo &entry : bundle.entries) {
        check(!entry.isSymlink());
        check(entry.size <= MaxEntryBytes);
        entryPoint = entryPoint || entry.name == bundle.manifest.entryPoint;
    }
    check(entryPoint);
    check(bundle.signature.status != Signature::Status::Invalid);
    check(bundle.zip.size() <= file.size());
    return 0;
}
