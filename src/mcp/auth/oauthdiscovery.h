#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QNetworkRequest>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkReply;

// The discovery half of MCP authorization (2025-11-25 and 2026-07-28, basic/authorization):
// from a server's 401 to the authorization server that can issue it tokens. Reading the
// WWW-Authenticate challenge, the protected resource metadata (RFC 9728), the authorization
// server metadata (RFC 8414, OpenID Connect Discovery), and the 2025-03-26 fallbacks.
namespace Mcp::OAuth {

// One challenge of a WWW-Authenticate header (RFC 9110, 11.6.1): its scheme and parameters
// (names lower-cased, quoted values unquoted). A token68 challenge has no parameters.
struct Challenge
{
    QString scheme;
    QMap<QString, QString> params;
};
QList<Challenge> parseChallenges(const QByteArray &header);

// What the Bearer challenge of a 401 or 403 says (RFC 6750 3, RFC 9728 5.1), or else its
// DPoP challenge (RFC 9449 7.1), which has the same parameters.
struct BearerChallenge
{
    bool present = false;
    QString scheme; // "Bearer" or "DPoP"

    QUrl resourceMetadata; // empty when absent or not a URL
    QString scope;         // space-separated, as sent
    QString error;         // "invalid_token", "insufficient_scope", ...
    QString errorDescription;
};
BearerChallenge bearerChallenge(const QByteArray &header);

// https, or http to a loopback host (OAuth 2.1 allows nothing else for its endpoints).
bool isSecureUrl(const QUrl &url);

// Where a server's protected resource metadata may be (RFC 9728 3.1), in the order the MCP
// spec asks: at the endpoint's path, then at the root (only the root for a server there).
QList<QUrl> protectedResourceMetadataUrls(const QUrl &serverUrl);

// Where an authorization server's metadata may be, in the spec's priority order: for an
// issuer with a path, RFC 8414 and OpenID Connect with path insertion, then OpenID Connect
// with the path appended; without a path, RFC 8414 then OpenID Connect.
QList<QUrl> authorizationServerMetadataUrls(const QUrl &issuer);

// Whether the `resource` that protected resource metadata names covers the server's URL:
// the same origin, and its path the server's path or a parent of it (RFC 8707, RFC 9728 3.3).
bool resourceCovers(const QString &resource, const QUrl &serverUrl);

struct ProtectedResource
{
    QString resource;
    QStringList authorizationServers; // issuer identifiers, as written, in the document's order
    QStringList scopesSupported;
    QUrl url; // where it was read
};

struct AuthorizationServer
{
    QString issuer;
    QUrl authorizationEndpoint;
    QUrl tokenEndpoint;
    QUrl registrationEndpoint; // empty: no dynamic client registration
    QStringList scopesSupported;
    QStringList grantTypesSupported;
    QStringList codeChallengeMethodsSupported;
    QStringList tokenEndpointAuthMethodsSupported;
    bool clientIdMetadataDocumentSupported = false;
    bool issParameterSupported = false; // authorization_response_iss_parameter_supported
    bool fromDefaults = false;          // 2025-03-26: no metadata, the default endpoints
    QUrl url;                           // where it was read (empty for the defaults)
    Json raw = Json::object();
};

// Reads a protected resource metadata document; nullopt (and why, in `problem`) when it is
// not usable for `serverUrl`: not an object, no authorization server, or a resource that
// does not cover the server (the metadata must then not be used at all).
std::optional<ProtectedResource> readProtectedResource(const Json &document, const QUrl &from,
                                                       const QUrl &serverUrl, QString *problem);

// Reads authorization server metadata fetched for `issuer`; nullopt (and why) when its
// `issuer` is not that very string, an endpoint is missing or not secure.
std::optional<AuthorizationServer> readAuthorizationServer(const Json &document,
                                                           const QString &issuer, const QUrl &from,
                                                           QString *problem);

// A request to an authorization or resource server's document or endpoint: JSON accepted,
// no cookies kept or sent, never from a cache, given up after `timeoutMs`.
QNetworkRequest oauthRequest(const QUrl &url, QNetworkRequest::RedirectPolicy redirects,
                             int timeoutMs);

// The 2025-03-26 fallback for a server without any metadata: /authorize, /token and
// /register at the server's origin.
AuthorizationServer defaultEndpoints(const QUrl &serverUrl);

struct DiscoveryResult
{
    std::optional<ProtectedResource> resource; // none for a 2025-03-26 server
    AuthorizationServer server;
    BearerChallenge challenge; // the 401's, for the scope to ask for
    QString error;             // set when discovery failed (then nothing else is)
    bool ok() const { return error.isEmpty(); }
};

// Finds the authorization server of one MCP server: GETs metadata documents one after the
// other (no cookies, no redirect to another origin, 10 s each, 1 MiB at most) and calls
// back exactly once, unless destroyed first.
class Discovery : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(const DiscoveryResult &)>;

    // `challenge`: the WWW-Authenticate header of the server's 401 (may be empty).
    // `protocolVersion`: sent as MCP-Protocol-Version to the MCP server's own documents.
    Discovery(QUrl serverUrl, QByteArray challenge, QByteArray protocolVersion,
              QObject *parent = nullptr);
    ~Discovery() override;

    void start(Done done);
    // Every URL asked so far, in order (for the protocol log and tests).
    const QList<QUrl> &requested() const { return m_requested; }

private:
    enum class Step { ResourceMetadata, ServerMetadata, LegacyServerMetadata };
    void next();
    void fetch(const QUrl &url, bool toResourceServer);
    void onFetched(int status, const QByteArray &body, const QString &networkError);
    void finish(DiscoveryResult result);
    void fail(const QString &error);
    void beginServerMetadata(const QString &issuer, Step step);

    QUrl m_serverUrl;
    QByteArray m_protocolVersion;
    DiscoveryResult m_result;
    Done m_done;
    Step m_step = Step::ResourceMetadata;
    QList<QUrl> m_candidates;
    QString m_issuer;
    QStringList m_problems; // why each candidate was passed over
    QList<QUrl> m_requested;
    QPointer<QNetworkReply> m_reply;
    QUrl m_current;
};

} // namespace Mcp::OAuth
