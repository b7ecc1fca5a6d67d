#include "contentpolicy.h"

#include <QCoreApplication>

namespace Mcp::Apps {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Apps::ContentPolicy", text);
}

// A declared entry longer than this is not an origin (253 for the host, a scheme, a port and a
// short path fit easily).
constexpr qsizetype MaxSourceLength = 512;

bool isLabelChar(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
           || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('-');
}

bool isPathChar(QChar c)
{
    return isLabelChar(c) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z'))
           || QStringView(u"/._~%+@").contains(c);
}

int defaultPort(const QString &scheme)
{
    if (scheme == QLatin1String("http") || scheme == QLatin1String("ws"))
        return 80;
    if (scheme == QLatin1String("https") || scheme == QLatin1String("wss"))
        return 443;
    return -1;
}

// CSP's scheme matching: a source for the insecure scheme also matches its secure upgrade,
// and a web socket source matches both socket schemes of its security or better.
bool schemeMatches(const QString &source, const QString &scheme)
{
    if (source == scheme)
        return true;
    if (source == QLatin1String("http"))
        return scheme == QLatin1String("https") || scheme == QLatin1String("ws")
               || scheme == QLatin1String("wss");
    if (source == QLatin1String("https"))
        return scheme == QLatin1String("wss");
    if (source == QLatin1String("ws"))
        return scheme == QLatin1String("wss") || scheme == QLatin1String("http")
               || scheme == QLatin1String("https");
    if (source == QLatin1String("wss"))
        return scheme == QLatin1String("https");
    return false;
}

// Whether `url` falls under the cleaned source expression `source`.
bool sourceMatches(const QString &source, const QUrl &url)
{
    const qsizetype schemeEnd = source.indexOf(QLatin1String("://"));
    const QString scheme = source.left(schemeEnd);
    if (!schemeMatches(scheme, url.scheme().toLower()))
        return false;
    QString rest = source.mid(schemeEnd + 3);
    QString path;
    if (const qsizetype slash = rest.indexOf(QLatin1Char('/')); slash >= 0) {
        path = rest.mid(slash);
        rest.truncate(slash);
    }
    QString host = rest;
    QString port;
    if (const qsizetype colon = rest.lastIndexOf(QLatin1Char(':'));
        colon >= 0 && !rest.endsWith(QLatin1Char(']'))) {
        host = rest.left(colon);
        port = rest.mid(colon + 1);
    }
    const QString urlHost = url.host(QUrl::FullyEncoded).toLower();
    if (host.startsWith(QLatin1String("*."))) {
        if (!urlHost.endsWith(host.mid(1)))
            return false; // "*.example.com" matches "a.example.com", never "example.com"
    } else if (host.startsWith(QLatin1Char('['))) {
        if (QLatin1Char('[') + urlHost + QLatin1Char(']') != host)
            return false;
    } else if (urlHost != host) {
        return false;
    }
    const int urlPort = url.port(defaultPort(url.scheme().toLower()));
    if (port.isEmpty()) {
        // No port: the source scheme's default, or the secure one it upgrades to.
        if (urlPort != defaultPort(scheme) && urlPort != 443)
            return false;
    } else if (port != QLatin1String("*") && port.toInt() != urlPort) {
        return false;
    }
    if (path.isEmpty() || path == QLatin1String("/"))
        return true;
    const QString urlPath = url.path(QUrl::FullyEncoded);
    return path.endsWith(QLatin1Char('/')) ? urlPath.startsWith(path) : urlPath == path;
}

bool anyMatches(const QStringList &sources, const QUrl &url)
{
    return std::any_of(sources.begin(), sources.end(),
                       [&url](const QString &source) { return sourceMatches(source, url); });
}

QString joined(const QStringList &sources)
{
    return sources.isEmpty() ? QString() : QLatin1Char(' ') + sources.join(QLatin1Char(' '));
}

} // namespace

QString ContentPolicy::cleanSource(const QString &entry, QString *why)
{
    auto drop = [why](const QString &reason) {
        if (why)
            *why = reason;
        return QString();
    };
    QString text = entry.trimmed();
    if (text.isEmpty())
        return drop(tr("empty"));
    if (text.size() > MaxSourceLength)
        return drop(tr("longer than %1 characters").arg(MaxSourceLength));
    qsizetype schemeEnd = text.indexOf(QLatin1String("://"));
    if (schemeEnd < 0) {
        text.prepend(QLatin1String("https://")); // a bare host means its secure origin
        schemeEnd = 5;
    }
    const QString scheme = text.left(schemeEnd).toLower();
    if (scheme != QLatin1String("https") && scheme != QLatin1String("http")
        && scheme != QLatin1String("wss") && scheme != QLatin1String("ws"))
        return drop(tr("not an http, https, ws or wss origin"));
    QString rest = text.mid(schemeEnd + 3);
    QString path;
    if (const qsizetype slash = rest.indexOf(QLatin1Char('/')); slash >= 0) {
        path = rest.mid(slash);
        rest.truncate(slash);
        if (!std::all_of(path.begin(), path.end(), isPathChar))
            return drop(tr("the path has characters a source cannot have"));
    }
    QString host = rest.toLower();
    QString port;
    if (host.startsWith(QLatin1Char('['))) {
        // An IPv6 literal: hex digits and colons in brackets, then maybe a port.
        const qsizetype close = host.indexOf(QLatin1Char(']'));
        if (close < 0)
            return drop(tr("an unclosed IPv6 address"));
        const QString inner = host.mid(1, close - 1);
        if (inner.isEmpty() || !std::all_of(inner.begin(), inner.end(), [](QChar c) {
                return c.isDigit() || (c >= QLatin1Char('a') && c <= QLatin1Char('f'))
                       || c == QLatin1Char(':') || c == QLatin1Char('.');
            }))
            return drop(tr("not an IPv6 address"));
        const QString after = host.mid(close + 1);
        host.truncate(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':')))
                return drop(tr("not a host"));
            port = after.mid(1);
            if (port.isEmpty())
                return drop(tr("not a port"));
        }
    } else {
        if (const qsizetype colon = host.indexOf(QLatin1Char(':')); colon >= 0) {
            port = host.mid(colon + 1);
            host.truncate(colon);
            if (port.isEmpty())
                return drop(tr("not a port"));
        }
        const bool wildcard = host.startsWith(QLatin1String("*."));
        const QStringList labels = (wildcard ? host.mid(2) : host).split(QLatin1Char('.'));
        for (const QString &label : labels) {
            if (label.isEmpty() || label.size() > 63
                || !std::all_of(label.begin(), label.end(), isLabelChar))
                return drop(tr("not a host name"));
        }
        if (wildcard && labels.size() < 2)
            return drop(tr("a wildcard over a whole top-level domain"));
    }
    if (!port.isEmpty() && port != QLatin1String("*")) {
        // Digits only: toInt() would also take spaces and signs.
        const bool digits = std::all_of(port.begin(), port.end(), [](QChar c) {
            return c >= QLatin1Char('0') && c <= QLatin1Char('9');
        });
        const int number = digits && port.size() <= 5 ? port.toInt() : 0;
        if (number < 1 || number > 65535)
            return drop(tr("not a port"));
    }
    return scheme + QLatin1String("://") + host
           + (port.isEmpty() ? QString() : QLatin1Char(':') + port) + path;
}

QStringList ContentPolicy::clean(const QStringList &entries, const char *list)
{
    QStringList out;
    for (const QString &entry : entries) {
        QString why;
        const QString source = cleanSource(entry, &why);
        if (source.isEmpty())
            m_rejected
                    << tr("%1: \"%2\" dropped (%3)").arg(QLatin1String(list), entry.left(120), why);
        else if (!out.contains(source))
            out << source;
    }
    return out;
}

ContentPolicy::ContentPolicy(const ViewMeta &meta)
{
    m_connect = clean(meta.connectDomains, "connectDomains");
    m_resource = clean(meta.resourceDomains, "resourceDomains");
    m_frame = clean(meta.frameDomains, "frameDomains");
    m_baseUri = clean(meta.baseUriDomains, "baseUriDomains");
    const QString resources = joined(m_resource);
    QStringList directives{QStringLiteral("default-src 'none'"),
                           QStringLiteral("script-src 'self' 'unsafe-inline'") + resources,
                           QStringLiteral("style-src 'self' 'unsafe-inline'") + resources,
                           QStringLiteral("img-src 'self' data:") + resources,
                           QStringLiteral("media-src 'self' data:") + resources};
    if (meta.cspDeclared) {
        // The spec's policy built from the declared origins (Security, "CSP").
        directives << QStringLiteral("connect-src 'self'") + joined(m_connect)
                   << QStringLiteral("font-src 'self'") + resources;
    } else {
        // Nothing declared: the spec's restrictive default, which reaches nowhere at all.
        directives << QStringLiteral("connect-src 'none'");
    }
    directives << (m_frame.isEmpty() ? QStringLiteral("frame-src 'none'")
                                     : QStringLiteral("frame-src") + joined(m_frame))
               << QStringLiteral("object-src 'none'")
               << (m_baseUri.isEmpty() ? QStringLiteral("base-uri 'self'")
                                       : QStringLiteral("base-uri") + joined(m_baseUri))
               // Stricter than the spec: a form cannot post anywhere (the view calls its
               // server's tools through the bridge instead).
               << QStringLiteral("form-action 'none'");
    m_csp = directives.join(QLatin1String("; "));
}

bool ContentPolicy::allows(const QUrl &url, Use use, const QUrl &viewOrigin) const
{
    const QString scheme = url.scheme().toLower();
    const bool own = scheme == viewOrigin.scheme().toLower()
                     && url.host().toLower() == viewOrigin.host().toLower();
    if (use == Use::Navigate)
        return own || url.toString() == QLatin1String("about:blank")
               || url.toString() == QLatin1String("about:srcdoc");
    if (own)
        return true;
    // In-memory data reaches no one; the CSP decides whether the page may use it.
    if (scheme == QLatin1String("data") || scheme == QLatin1String("blob"))
        return use != Use::Frame || scheme == QLatin1String("blob");
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https")
        && scheme != QLatin1String("ws") && scheme != QLatin1String("wss"))
        return false; // file:, ftp:, a scheme of another view, ...
    switch (use) {
    case Use::Connect:
        return anyMatches(m_connect, url);
    case Use::Resource:
        return anyMatches(m_resource, url);
    case Use::Frame:
        return anyMatches(m_frame, url);
    case Use::Navigate:
        break;
    }
    return false;
}

bool ContentPolicy::reachesOut() const
{
    return !m_connect.isEmpty() || !m_resource.isEmpty() || !m_frame.isEmpty();
}

} // namespace Mcp::Apps
