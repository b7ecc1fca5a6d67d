// libFuzzer target for what an MCP Registry answers (Mcp::Registry): any bytes, read as a
// server.json document and as a list page. Invariants: no crash; a refusal says why; what is
// accepted keeps every bound (a registry name, lengths, list sizes) and every package it
// accepts passes the identity check an install relies on.
#include "fuzzcheck.h"

#include <mcp/registry/serverjson.h>
#include <mcp/wire/jsonparser.h>

#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

#include <cstdint>

using namespace Mcp;
using namespace Mcp::Registry;

namespace {

void checkServer(const ServerJson &server)
{
    static const QRegularExpression name(QStringLiteral("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"));
    check(name.match(server.name).hasMatch() && server.name.size() <= MaxNameLength);
    check(!server.description.isEmpty() && server.description.size() <= MaxDescriptionLength);
    check(!server.version.isEmpty() && server.version.size() <= MaxVersionLength);
    check(server.packages.size() <= MaxListLength && server.remotes.size() <= MaxListLength);
    for (const Package &package : server.packages) {
        check(checkPackageIdentity(package.registryType, package.identifier, package.version)
                      .isEmpty());
        check(package.runtimeArguments.size() <= MaxListLength
              && package.packageArguments.size() <= MaxListLength);
        for (const Argument &argument : package.packageArguments)
            check(argument.type == Argument::Type::Named || !argument.valueHint.isEmpty()
                  || !argument.value.isEmpty());
    }
    for (const Remote &remote : server.remotes)
        check(remote.transport.url.startsWith(QLatin1String("http"), Qt::CaseInsensitive));
    // Fetched only over https, or http to this machine.
    for (const Icon &icon : server.icons) {
        const QUrl url(icon.src);
        check(url.scheme() == QLatin1String("https")
              || (url.scheme() == QLatin1String("http")
                  && (url.host() == QLatin1String("localhost")
                      || QHostAddress(url.host()).isLoopback())));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Json document = parseJson(std::string_view(reinterpret_cast<const char *>(data), size));
    const ReadResult read = readServer(document);
    check(read.server.has_value() != !read.problem.isEmpty());
    if (read.server)
        checkServer(*read.server);
    QString problem;
    const std::optional<ListPage> page = readListPage(document, &problem);
    check(page.has_value() == problem.isEmpty());
    if (page) {
        check(page->servers.size() + page->skipped.size() <= MaxServersPerPage);
        check(page->nextCursor.size() <= MaxCursorLength);
        for (const Listing &listing : page->servers)
            checkServer(listing.server);
    }
    return 0;
}
