// libFuzzer target for the content policy of an MCP Apps view (Mcp::Apps::ContentPolicy): the
// input is a view's `_meta` as JSON, or, when it is not JSON, one declared origin per line for
// every list. Invariants: no crash; the CSP is one line of the fixed directives in the fixed
// order; every source in it is a keyword of ours or a cleaned origin that cleans to itself
// (so nothing a server writes can add a directive, a keyword or a wildcard); and no request to
// a file: url or to another view's scheme is ever allowed.
#include "fuzzcheck.h"

#include <mcp/apps/contentpolicy.h>
#include <mcp/wire/jsonparser.h>

#include <QUrl>

#include <cstdint>

using namespace Mcp;
using namespace Mcp::Apps;

namespace {

const QStringList directives = {
        QStringLiteral("default-src"), QStringLiteral("script-src"), QStringLiteral("style-src"),
        QStringLiteral("img-src"),     QStringLiteral("media-src"),  QStringLiteral("connect-src"),
        QStringLiteral("font-src"),    QStringLiteral("frame-src"),  QStringLiteral("object-src"),
        QStringLiteral("base-uri"),    QStringLiteral("form-action")};
const QStringList keywords = {QStringLiteral("'self'"), QStringLiteral("'none'"),
                              QStringLiteral("'unsafe-inline'"), QStringLiteral("data:")};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    Json meta = parseJson(text);
    ViewMeta view;
    if (!meta.is_discarded()) {
        view = ViewMeta::fromMeta(meta);
    } else {
        const QStringList lines
                = QString::fromUtf8(text.data(), qsizetype(text.size())).split(QLatin1Char('\n'));
        view.declared = view.cspDeclared = true;
        view.connectDomains = view.resourceDomains = view.frameDomains = view.baseUriDomains
                = lines.mid(0, MaxDomains);
    }
    const ContentPolicy policy(view);
    const QString csp = policy.csp();
    check(!csp.contains(QLatin1Char('\n')) && !csp.contains(QLatin1Char('\r'))
          && !csp.contains(QLatin1Char(',')));
    int last = -1;
    for (const QString &directive : csp.split(QLatin1String("; "))) {
        const QStringList parts = directive.split(QLatin1Char(' '));
        const int index = int(directives.indexOf(parts.front()));
        check(index > last); // known, once, in order
        last = index;
        check(parts.size() > 1);
        for (const QString &source : parts.mid(1)) {
            if (keywords.contains(source))
                continue;
            check(ContentPolicy::cleanSource(source) == source);
        }
    }
    for (const QStringList *list :
         {&policy.connectDomains(), &policy.resourceDomains(), &policy.frameDomains()}) {
        for (const QString &source : *list)
            check(ContentPolicy::cleanSource(source) == source);
    }
    const QUrl self(QStringLiteral("sbview-1://view"));
    for (auto use : {ContentPolicy::Use::Connect, ContentPolicy::Use::Resource,
                     ContentPolicy::Use::Frame, ContentPolicy::Use::Navigate}) {
        check(!policy.allows(QUrl(QStringLiteral("file:///etc/passwd")), use, self));
        check(!policy.allows(QUrl(QStringLiteral("sbview-2://view/x")), use, self));
    }
    return 0;
}
