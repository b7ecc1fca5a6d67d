#pragma once

#include "oauthdiscovery.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>
#include <utility>
#include <vector>

// The authorization code grant of MCP authorization (OAuth 2.1 with PKCE, RFC 8707
// resource indicators, RFC 9207 issuer identification), as pure functions: what goes into
// the authorization URL and the token request, and how the redirect and the token response
// are read. The network and the browser are elsewhere.
namespace Mcp::OAuth {

// A PKCE pair (RFC 7636, S256 only): a 43-character verifier from 32 random bytes, and its
// challenge, BASE64URL(SHA-256(verifier)).
struct Pkce
{
    QByteArray verifier;
    QByteArray challenge;
    static Pkce generate();
    static QByteArray challengeFor(const QByteArray &verifier);
};

// An unguessable value for `state` (32 random bytes, base64url).
QByteArray randomState();

// The canonical URI of an MCP server, for the `resource` parameter (RFC 8707; MCP's
// "canonical server URI"): scheme and host lower-cased, no fragment, no user info, no
// trailing slash after a path.
QString canonicalResource(const QUrl &serverUrl);
// The `resource` parameter for this server: exactly the string its protected resource
// metadata names (never re-parsed: "http://h:p" must not become "http://h:p/"), else, for a
// 2025-03-26 server without one, its canonical URI.
QString resourceParameter(const DiscoveryResult &discovery, const QUrl &serverUrl);

// The scope to ask for (2025-11-25, scope selection): the challenge's, else what the
// protected resource metadata lists, else none; `offline_access` added only when the
// authorization server lists it (for a refresh token).
QString scopeToRequest(const DiscoveryResult &discovery);

// Whether the authorization server allows the flow at all: PKCE with S256 must be
// advertised (MCP clients must refuse otherwise), and an authorization endpoint must exist.
bool supportsAuthorizationCode(const AuthorizationServer &server, QString *why);

struct AuthorizationRequest
{
    QString clientId;
    QUrl redirectUri;
    QString scope; // may be empty: then no scope parameter
    QByteArray state;
    Pkce pkce;
    QString resource;
};
QUrl authorizationUrl(const AuthorizationServer &server, const AuthorizationRequest &request);

// The redirect back to the client, read: the code, or the server's error in words. The
// state must be the one sent; the issuer (RFC 9207 `iss`) must be the server's when the
// server advertises it, and whenever it is present.
struct AuthorizationResponse
{
    QByteArray code;
    QString error; // set when there is no usable code
};
AuthorizationResponse readRedirect(const QUrl &redirect, const QByteArray &expectedState,
                                   const AuthorizationServer &server);

// An application/x-www-form-urlencoded body (RFC 6749 appendix B) of these fields, in order.
using FormFields = std::vector<std::pair<const char *, QByteArray>>;
QByteArray formBody(const FormFields &fields);
// client_secret_basic's Authorization value (RFC 6749 2.3.1: both parts form-encoded first).
QByteArray basicAuthorization(const QString &clientId, const QString &secret);

// How the client proves itself at the token endpoint.
enum class ClientAuth { None, SecretBasic, SecretPost };
// The method to use with this server: a client without a secret uses none; with one,
// client_secret_basic unless the server lists only client_secret_post (RFC 8414's default
// when it lists nothing is client_secret_basic).
ClientAuth clientAuthFor(const AuthorizationServer &server, bool hasSecret);

struct TokenRequest
{
    QByteArray body;          // application/x-www-form-urlencoded
    QByteArray authorization; // the Authorization header's value, or empty
};
TokenRequest codeTokenRequest(const AuthorizationRequest &request, const QByteArray &code,
                              ClientAuth auth, const QString &clientSecret);
TokenRequest refreshTokenRequest(const QString &clientId, const QByteArray &refreshToken,
                                 const QString &scope, const QString &resource, ClientAuth auth,
                                 const QString &clientSecret);

struct Tokens
{
    QByteArray accessToken;
    QString tokenType; // "Bearer" or "DPoP"
    QByteArray refreshToken;
    qint64 expiresInS = -1; // -1: not said
    QString scope;
};
// A token endpoint's answer: the tokens, or nullopt and the server's error in words
// (`error`, `error_description`) or why the answer is unusable.
std::optional<Tokens> readTokenResponse(int status, const QByteArray &body, QString *error);

} // namespace Mcp::OAuth
