#include "oauthdiscovery.h"

#include <mcp/transport/httpsupport.h>

#include <mcp/transport/httptransport.h>
#include <mcp/wire/jsonparser.h>

#include <QHostAddress>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

Q_LOGGING_CATEGORY(lcOAuth, "switchboard.mcp.oauth", QtWarningMsg)

namespace Mcp::OAuth {

namespace {

constexpr int FetchTimeoutMs = 10000;
constexpr qint64 MaxDocumentBytes = 1024 * 1024;

bool isTokenChar(QChar c)
{
    if (c.unicode() > 0x7E || c.unicode() <= 0x20)
        return false;
    return !QStringLiteral("\"(),/:;<=>?@[\\]{}").contains(c);
}

bool isToken68Char(QChar c)
{
    return c.isLetterOrNumber() || QStringLiteral("-._~+/").contains(c);
}

// A cursor over a header value.
struct Reader
{
    const QString &text;
    qsizetype pos = 0;

    bool atEnd() const { return pos >= text.size(); }
    QChar peek(qsizetype ahead = 0) const
    {
        return pos + ahead < text.size() ? text[pos + ahead] : QChar();
    }
    void skipSpace()
    {
        while (!atEnd() && (peek() == u' ' || peek() == u'\t'))
            ++pos;
    }
    void skipSpaceAndCommas()
    {
        while (!atEnd() && (peek() == u' ' || peek() == u'\t' || peek() == u','))
            ++pos;
    }
    QString token()
    {
        const qsizetype start = pos;
        while (!atEnd() && isTokenChar(peek()))
            ++pos;
        return text.mid(start, pos - start);
    }
    QString quoted() // at the opening quote
    {
        QString value;
        ++pos;
        while (!atEnd() && peek() != u'"') {
            if (peek() == u'\\' && pos + 1 < text.size())
                ++pos;
            value += peek();
            ++pos;
        }
        if (!atEnd())
            ++pos; // the closing quote
        return value;
    }
    // Whether an auth-param (token BWS "=" BWS value) starts here: a token, then '=' that is
    // not only the padding of a token68.
    bool paramAhead() const
    {
        qsizetype i = pos;
        while (i < text.size() && isTokenChar(text[i]))
            ++i;
        if (i == pos)
            return false;
        while (i < text.size() && (text[i] == u' ' || text[i] == u'\t'))
            ++i;
        if (i >= text.size() || text[i] != u'=')
            return false;
        ++i;
        while (i < text.size() && (text[i] == u' ' || text[i] == u'\t'))
            ++i;
        return i < text.size() && (text[i] == u'"' || isTokenChar(text[i])) && text[i] != u'=';
    }
};

QStringList stringList(const Json &document, const char *key)
{
    QStringList out;
    const auto it = document.find(key);
    if (it == document.end() || !it->is_array())
        return out;
    for (const Json &item : *it) {
        if (item.is_string())
            out << QString::fromStdString(item.get<std::string>());
    }
    return out;
}

QString stringMember(const Json &document, const char *key)
{
    const auto it = document.find(key);
    return it != document.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                   : QString();
}

using Http::origin;
using Http::trimmedPath;
using Http::withPath;

} // namespace

QList<Challenge> parseChallenges(const QByteArray &header)
{
    const QString text = QString::fromUtf8(header);
    Reader r{text};
    QList<Challenge> challenges;
    r.skipSpaceAndCommas();
    while (!r.atEnd()) {
        const QString scheme = r.token();
        if (scheme.isEmpty()) { // not a token: skip to the next comma
            while (!r.atEnd() && r.peek() != u',')
                ++r.pos;
            r.skipSpaceAndCommas();
            continue;
        }
        Challenge challenge;
        challenge.scheme = scheme;
        r.skipSpace();
        if (!r.atEnd() && r.peek() != u',' && !r.paramAhead()) {
            // token68: kept as a parameter without a name
            const qsizetype start = r.pos;
            while (!r.atEnd() && isToken68Char(r.peek()))
                ++r.pos;
            while (!r.atEnd() && r.peek() == u'=')
                ++r.pos;
            challenge.params.insert(QString(), text.mid(start, r.pos - start));
        }
        // auth-params, comma-separated, until the next challenge's scheme
        while (true) {
            r.skipSpaceAndCommas();
            if (r.atEnd() || !r.paramAhead())
                break;
            const QString name = r.token().toLower();
            r.skipSpace();
            ++r.pos; // '='
            r.skipSpace();
            const QString value = r.peek() == u'"' ? r.quoted() : r.token();
            if (!challenge.params.contains(name)) // the first of a repeated name counts
                challenge.params.insert(name, value);
        }
        challenges << challenge;
    }
    return challenges;
}

BearerChallenge bearerChallenge(const QByteArray &header)
{
    BearerChallenge bearer;
    const QList<Challenge> challenges = parseChallenges(header);
    // A Bearer challenge first; a DPoP one (RFC 9449 7.1) carries the same parameters.
    for (const char *scheme : {"Bearer", "DPoP"}) {
        for (const Challenge &challenge : challenges) {
            if (challenge.scheme.compare(QLatin1String(scheme), Qt::CaseInsensitive) != 0)
                continue;
            bearer.present = true;
            bearer.scheme = QLatin1String(scheme);
            const QUrl metadata(challenge.params.value(QStringLiteral("resource_metadata")),
                                QUrl::StrictMode);
            if (metadata.isValid() && !metadata.isRelative())
                bearer.resourceMetadata = metadata;
            bearer.scope = challenge.params.value(QStringLiteral("scope"));
            bearer.error = challenge.params.value(QStringLiteral("error"));
            bearer.errorDescription = challenge.params.value(QStringLiteral("error_description"));
            return bearer;
        }
    }
    return bearer;
}

bool isSecureUrl(const QUrl &url)
{
    if (!url.isValid() || url.host().isEmpty() || !url.userInfo().isEmpty())
        return false;
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("https"))
        return true;
    if (scheme != QLatin1String("http"))
        return false;
    const QString host = url.host().toLower();
    if (host == QLatin1String("localhost"))
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QList<QUrl> protectedResourceMetadataUrls(const QUrl &serverUrl)
{
    const QString path = trimmedPath(serverUrl);
    QList<QUrl> urls;
    if (!path.isEmpty())
        urls << withPath(serverUrl, QStringLiteral("/.well-known/oauth-protected-resource") + path);
    urls << withPath(serverUrl, QStringLiteral("/.well-known/oauth-protected-resource"));
    return urls;
}

QList<QUrl> authorizationServerMetadataUrls(const QUrl &issuer)
{
    const QString path = trimmedPath(issuer);
    if (path.isEmpty())
        return {withPath(issuer, QStringLiteral("/.well-known/oauth-authorization-server")),
                withPath(issuer, QStringLiteral("/.well-known/openid-configuration"))};
    return {withPath(issuer, QStringLiteral("/.well-known/oauth-authorization-server") + path),
            withPath(issuer, QStringLiteral("/.well-known/openid-configuration") + path),
            withPath(issuer, path + QStringLiteral("/.well-known/openid-configuration"))};
}

bool resourceCovers(const QString &resource, const QUrl &serverUrl)
{
    const QUrl url(resource, QUrl::StrictMode);
    if (!url.isValid() || url.isRelative() || url.hasFragment())
        return false;
    if (url.scheme().compare(serverUrl.scheme(), Qt::CaseInsensitive) != 0
        || url.host().compare(serverUrl.host(), Qt::CaseInsensitive) != 0
        || url.port(-1) != serverUrl.port(-1))
        return false;
    const QString covered = trimmedPath(url);
    const QString path = trimmedPath(serverUrl);
    return covered.isEmpty() || path == covered || path.startsWith(covered + u'/');
}

namespace {
// A document not used: nothing, and why (naming where it was read).
template<typename T>
std::optional<T> refusal(QString *problem, const QUrl &from, const QString &why)
{
    if (problem)
        *problem = Discovery::tr("%1: %2").arg(from.toDisplayString(), why);
    return std::nullopt;
}
} // namespace

std::optional<ProtectedResource> readProtectedResource(const Json &document, const QUrl &from,
                                                       const QUrl &serverUrl, QString *problem)
{
    const auto refuse = [problem, &from](const QString &why) {
        return refusal<ProtectedResource>(problem, from, why);
    };
    if (!document.is_object())
        return refuse(Discovery::tr("the protected resource metadata is not a JSON object"));
    ProtectedResource resource;
    resource.url = from;
    resource.resource = stringMember(document, "resource");
    if (resource.resource.isEmpty())
        return refuse(Discovery::tr("the protected resource metadata names no resource"));
    if (!resourceCovers(resource.resource, serverUrl))
        return refuse(Discovery::tr("the protected resource metadata is for %1, not for %2")
                              .arg(resource.resource, serverUrl.toDisplayString()));
    for (const QString &server : stringList(document, "authorization_servers")) {
        const QUrl url(server, QUrl::StrictMode);
        if (isSecureUrl(url) && !url.hasQuery() && !url.hasFragment())
            resource.authorizationServers << server;
    }
    if (resource.authorizationServers.isEmpty())
        return refuse(Discovery::tr("the protected resource metadata names no usable "
                                    "authorization server (https, or http on this machine)"));
    resource.scopesSupported = stringList(document, "scopes_supported");
    return resource;
}

std::optional<AuthorizationServer> readAuthorizationServer(const Json &document,
                                                           const QString &issuer, const QUrl &from,
                                                           QString *problem)
{
    const auto refuse = [problem, &from](const QString &why) {
        return refusal<AuthorizationServer>(problem, from, why);
    };
    if (!document.is_object())
        return refuse(Discovery::tr("the authorization server metadata is not a JSON object"));
    AuthorizationServer server;
    server.url = from;
    server.raw = document;
    server.issuer = stringMember(document, "issuer");
    // RFC 8414 3.3: the very string the well-known URL was made from, nothing else.
    if (server.issuer != issuer)
        return refuse(
                Discovery::tr("its issuer is '%1', not '%2'; not used").arg(server.issuer, issuer));
    auto endpoint = [&](const char *key, QUrl *out, bool required) {
        const QString text = stringMember(document, key);
        if (text.isEmpty())
            return !required;
        const QUrl url(text, QUrl::StrictMode);
        if (!isSecureUrl(url) || url.hasFragment())
            return false;
        *out = url;
        return true;
    };
    if (!endpoint("authorization_endpoint", &server.authorizationEndpoint, false)
        || !endpoint("token_endpoint", &server.tokenEndpoint, true)
        || !endpoint("registration_endpoint", &server.registrationEndpoint, false))
        return refuse(Discovery::tr("an endpoint is missing, or not https (nor http on this "
                                    "machine)"));
    server.scopesSupported = stringList(document, "scopes_supported");
    server.grantTypesSupported = stringList(document, "grant_types_supported");
    server.codeChallengeMethodsSupported = stringList(document, "code_challenge_methods_supported");
    server.tokenEndpointAuthMethodsSupported
            = stringList(document, "token_endpoint_auth_methods_supported");
    const auto flag = [&document](const char *key) {
        const auto it = document.find(key);
        return it != document.end() && it->is_boolean() && it->get<bool>();
    };
    server.clientIdMetadataDocumentSupported = flag("client_id_metadata_document_supported");
    server.issParameterSupported = flag("authorization_response_iss_parameter_supported");
    return server;
}

QNetworkRequest oauthRequest(const QUrl &url, QNetworkRequest::RedirectPolicy redirects,
                             int timeoutMs)
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, redirects);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setTransferTimeout(timeoutMs);
    return request;
}

AuthorizationServer defaultEndpoints(const QUrl &serverUrl)
{
    AuthorizationServer server;
    server.issuer = origin(serverUrl).toString();
    server.authorizationEndpoint = withPath(serverUrl, QStringLiteral("/authorize"));
    server.tokenEndpoint = withPath(serverUrl, QStringLiteral("/token"));
    server.registrationEndpoint = withPath(serverUrl, QStringLiteral("/register"));
    server.fromDefaults = true;
    return server;
}

Discovery::Discovery(QUrl serverUrl, QByteArray challenge, QByteArray protocolVersion,
                     QObject *parent)
    : QObject(parent)
    , m_serverUrl(std::move(serverUrl))
    , m_protocolVersion(std::move(protocolVersion))
{
    m_result.challenge = bearerChallenge(challenge);
}

Discovery::~Discovery()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void Discovery::start(Done done)
{
    m_done = std::move(done);
    m_step = Step::ResourceMetadata;
    const QUrl named = m_result.challenge.resourceMetadata;
    if (!named.isEmpty() && isSecureUrl(named))
        m_candidates = {named};
    else
        m_candidates = protectedResourceMetadataUrls(m_serverUrl);
    if (!named.isEmpty() && !isSecureUrl(named))
        m_problems << Discovery::tr("the challenge's resource_metadata %1 is not https; ignored")
                              .arg(named.toDisplayString());
    next();
}

void Discovery::next()
{
    if (!m_candidates.isEmpty()) {
        fetch(m_candidates.takeFirst(), m_step == Step::ResourceMetadata);
        return;
    }
    switch (m_step) {
    case Step::ResourceMetadata:
        // A 2025-03-26 server: its own origin is the authorization server.
        qCDebug(lcOAuth) << "no protected resource metadata for" << m_serverUrl;
        beginServerMetadata(origin(m_serverUrl).toString(QUrl::FullyEncoded),
                            Step::LegacyServerMetadata);
        return;
    case Step::ServerMetadata:
        fail(Discovery::tr("no usable authorization server metadata for %1 (%2)")
                     .arg(m_issuer, m_problems.join(QStringLiteral("; "))));
        return;
    case Step::LegacyServerMetadata: {
        DiscoveryResult result = m_result;
        result.server = defaultEndpoints(m_serverUrl);
        finish(std::move(result));
        return;
    }
    }
}

// `issuer`: the identifier exactly as the protected resource metadata wrote it, which the
// document must repeat.
void Discovery::beginServerMetadata(const QString &issuer, Step step)
{
    m_step = step;
    m_issuer = issuer;
    m_candidates = step == Step::LegacyServerMetadata
                           ? QList<QUrl>{withPath(QUrl(issuer),
                                                  QStringLiteral("/.well-known/"
                                                                 "oauth-authorization-server"))}
                           : authorizationServerMetadataUrls(QUrl(issuer));
    next();
}

void Discovery::fetch(const QUrl &url, bool toResourceServer)
{
    m_current = url;
    m_requested << url;
    QNetworkRequest request
            = oauthRequest(url, QNetworkRequest::SameOriginRedirectPolicy, FetchTimeoutMs);
    if (toResourceServer && !m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion);
    m_reply = threadNetworkAccess()->get(request);
    QNetworkReply *reply = m_reply;
    connect(reply, &QNetworkReply::downloadProgress, this, [reply](qint64 received, qint64) {
        if (received > MaxDocumentBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body
                = reply->bytesAvailable() <= MaxDocumentBytes ? reply->readAll() : QByteArray();
        const QString error = status == 0 ? reply->errorString() : QString();
        onFetched(status, body, error);
    });
}

void Discovery::onFetched(int status, const QByteArray &body, const QString &networkError)
{
    const QUrl url = m_current;
    qCDebug(lcOAuth) << "GET" << url << status;
    if (status != 200) {
        m_problems
                << (status == 0
                            ? Discovery::tr("%1: %2").arg(url.toDisplayString(), networkError)
                            : Discovery::tr("%1: HTTP %2").arg(url.toDisplayString()).arg(status));
        next();
        return;
    }
    const Json document = parseJson(std::string_view(body.constData(), size_t(body.size())));
    QString problem;
    if (m_step == Step::ResourceMetadata) {
        auto resource = readProtectedResource(document, url, m_serverUrl, &problem);
        if (!resource) {
            // Metadata for another resource is a refusal, not a missing document: going on
            // to other locations (or the defaults) would talk to a server it did not name.
            if (document.is_object() && !stringMember(document, "resource").isEmpty()
                && !resourceCovers(stringMember(document, "resource"), m_serverUrl)) {
                fail(problem);
                return;
            }
            m_problems << problem;
            next();
            return;
        }
        m_result.resource = std::move(*resource);
        m_problems.clear();
        beginServerMetadata(m_result.resource->authorizationServers.first(), Step::ServerMetadata);
        return;
    }
    auto server = readAuthorizationServer(document, m_issuer, url, &problem);
    if (!server) {
        m_problems << problem;
        next();
        return;
    }
    DiscoveryResult result = m_result;
    result.server = std::move(*server);
    finish(std::move(result));
}

void Discovery::fail(const QString &error)
{
    DiscoveryResult result;
    result.challenge = m_result.challenge;
    result.error = error;
    finish(std::move(result));
}

void Discovery::finish(DiscoveryResult result)
{
    m_candidates.clear();
    if (Done done = std::exchange(m_done, {}))
        done(result);
}

} // namespace Mcp::OAuth
