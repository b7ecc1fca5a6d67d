#pragma once

#include "appmeta.h"

#include <QString>
#include <QStringList>
#include <QUrl>

namespace Mcp::Apps {

// What a view may load and reach, built once from its ViewMeta: the Content-Security-Policy
// the spec prescribes (its restrictive default when the server declares nothing) and the same
// rules as a check of single requests, which the host applies to every request the view's page
// makes, so that a view reaches nothing it did not declare even if the CSP had a hole.
//
// Declared origins are cleaned first: an entry must be an origin (http, https, ws or wss;
// a host, optionally "*." and at least two labels, optionally a port; a path is kept in the
// CSP only); anything else — "*", "https:", keywords, quotes, ';', spaces — is dropped and
// listed in rejected(), so that a server cannot widen the policy by writing it oddly.
class ContentPolicy
{
public:
    // What a request is for; which declared list lets it through.
    enum class Use {
        Connect,  // fetch, XHR, WebSocket, EventSource, beacons
        Resource, // scripts, styles, images, fonts, media
        Frame,    // nested frames
        Navigate, // the view's own page: never anywhere else
    };

    explicit ContentPolicy(const ViewMeta &meta = {});

    // The header value (or <meta http-equiv> content) for the view's page.
    QString csp() const { return m_csp; }
    // Whether a request of the view's page to `url` is allowed. `viewOrigin` is the view's own
    // origin (scheme://host), always allowed except for navigation elsewhere.
    bool allows(const QUrl &url, Use use, const QUrl &viewOrigin) const;

    // The declared entries that were dropped, each with why (for the protocol log).
    QStringList rejected() const { return m_rejected; }
    // The declared origins kept, per list (what hostCapabilities.sandbox.csp reports).
    const QStringList &connectDomains() const { return m_connect; }
    const QStringList &resourceDomains() const { return m_resource; }
    const QStringList &frameDomains() const { return m_frame; }
    const QStringList &baseUriDomains() const { return m_baseUri; }
    // Whether the view reaches beyond itself at all (shown to the person with the origins).
    bool reachesOut() const;

    // One declared entry cleaned: the source expression to put in the CSP, or empty (and
    // `why` set) when it is dropped. Public for tests and the fuzz target.
    static QString cleanSource(const QString &entry, QString *why = nullptr);

private:
    QStringList clean(const QStringList &entries, const char *list);

    QStringList m_connect, m_resource, m_frame, m_baseUri;
    QStringList m_rejected;
    QString m_csp;
};

} // namespace Mcp::Apps
