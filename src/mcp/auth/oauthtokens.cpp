// Authorizer: the token requests of a sign-in (the code exchange, a refresh, the grants without
// a user), DPoP proofs, and the form POSTs to the authorization server.
#include "oauthclientinternal.h"

#include <mcp/transport/httptransport.h>
#include <mcp/wire/jsonparser.h>

#include <QCryptographicHash>
#include <QNetworkAccessManager>
#include <QNetworkReply>

#include <algorithm>

namespace Mcp::OAuth {

using namespace Internal;

void Authorizer::exchangeCode(const Registration &registration, const AuthorizationRequest &request,
                              const QByteArray &code)
{
    const TokenRequest token
            = codeTokenRequest(request, code, clientAuth(registration), registration.clientSecret);
    requestAndKeep(token, request.scope);
}

void Authorizer::useRefreshToken(const Registration &registration, const Grant &grant)
{
    const QString resource = resourceParameter(m_discovered, m_options.serverUrl);
    const TokenRequest request
            = refreshTokenRequest(registration.clientId, grant.tokens.refreshToken, QString(),
                                  resource, clientAuth(registration), registration.clientSecret);
    const quint64 generation = m_generation;
    requestTokens(request,
                  [this, generation, grant](std::optional<Tokens> tokens, const QString &why) {
                      if (generation != m_generation)
                          return;
                      if (tokens) {
                          keepTokens(*tokens, grant.scope, grant.tokens.refreshToken);
                          finish(true, QString());
                          return;
                      }
                      // A refresh token that no longer works is dropped; the user is asked anew.
                      qCDebug(lcSignIn) << m_options.serverName << "refresh failed:" << why;
                      if (m_store)
                          m_store->forgetGrant(m_serverKey);
                      registerClient();
                  });
}

// The extensions' grants: the client proves who it is (or whose behalf it acts on) with
// what it was configured with; nobody is asked, and a refusal is final (never another grant).
void Authorizer::signInWithoutUser()
{
    using Flow = SignInOptions::Flow;
    const AuthorizationServer &server = m_discovered.server;
    const QString scope = requestedScope();
    m_lastScope = scope;
    const QByteArray resource = resourceParameter(m_discovered, m_options.serverUrl).toUtf8();
    TokenRequest request;
    FormFields fields;
    if (m_options.flow == Flow::EnterpriseManaged) {
        exchangeIdToken();
        return;
    }
    if (m_options.flow == Flow::JwtBearer) {
        fields = {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                  {"assertion", m_options.assertion}};
        if (!m_options.clientId.isEmpty())
            fields.emplace_back("client_id", m_options.clientId.toUtf8());
    } else {
        fields = {{"grant_type", "client_credentials"}};
        if (!m_options.privateKeyPem.isEmpty()) {
            QString why;
            const std::optional<SigningKey> key = SigningKey::fromPem(
                    m_options.privateKeyPem, m_options.signingAlgorithm, &why);
            if (!key) {
                finish(false, tr("the client's private key cannot be used: %1").arg(why));
                return;
            }
            // RFC 7523 3: issued by and about this client, for this authorization server.
            const qint64 now = QDateTime::currentSecsSinceEpoch();
            const QByteArray assertion = signJwt(*key, {{"typ", "JWT"}},
                                                 {{"iss", m_options.clientId.toStdString()},
                                                  {"sub", m_options.clientId.toStdString()},
                                                  {"aud", server.issuer.toStdString()},
                                                  {"iat", now},
                                                  {"exp", now + 300},
                                                  {"jti", randomState().toStdString()}});
            fields.emplace_back("client_assertion_type",
                                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
            fields.emplace_back("client_assertion", assertion);
        } else {
            addClientSecret(fields, request);
        }
    }
    if (!scope.isEmpty())
        fields.emplace_back("scope", scope.toUtf8());
    fields.emplace_back("resource", resource);
    request.body = formBody(fields);
    requestAndKeep(request, scope);
}

// Enterprise-managed authorization (SEP-990): the user's ID token is exchanged at the
// identity provider for an identity assertion grant (ID-JAG, RFC 8693), which the
// authorization server then takes as a JWT bearer grant (RFC 7523) from this client.
void Authorizer::exchangeIdToken()
{
    const AuthorizationServer &server = m_discovered.server;
    if (!isSecureUrl(m_options.idpTokenEndpoint)) {
        finish(false, tr("the identity provider's token endpoint %1 is not https")
                              .arg(m_options.idpTokenEndpoint.toDisplayString()));
        return;
    }
    const QString scope = requestedScope();
    const QByteArray resource = resourceParameter(m_discovered, m_options.serverUrl).toUtf8();
    FormFields fields{{"grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"},
                      {"requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"},
                      {"audience", server.issuer.toUtf8()},
                      {"resource", resource},
                      {"subject_token", m_options.idToken},
                      {"subject_token_type", "urn:ietf:params:oauth:token-type:id_token"},
                      {"client_id", m_options.idpClientId.toUtf8()}};
    if (!scope.isEmpty())
        fields.emplace_back("scope", scope.toUtf8());
    const quint64 generation = m_generation;
    postForm(m_options.idpTokenEndpoint, formBody(fields), "application/x-www-form-urlencoded", {},
             [this, generation, scope, resource](const HttpAnswer &answer) {
                 if (generation != m_generation)
                     return;
                 const Json body = parseJson(
                         std::string_view(answer.body.constData(), size_t(answer.body.size())));
                 const QByteArray grant = member(body, "access_token").toUtf8();
                 const QString type = member(body, "issued_token_type");
                 if (!answer.error.isEmpty() || answer.status != 200 || grant.isEmpty()
                     || (!type.isEmpty()
                         && type != QLatin1String("urn:ietf:params:oauth:token-type:id-jag"))) {
                     finish(false,
                            tr("the identity provider did not grant access to %1: %2")
                                    .arg(m_discovered.server.issuer,
                                         answer.error.isEmpty() ? serverError(body, answer.status)
                                                                : answer.error));
                     return;
                 }
                 FormFields fields{{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                                   {"assertion", grant}};
                 if (!scope.isEmpty())
                     fields.emplace_back("scope", scope.toUtf8());
                 fields.emplace_back("resource", resource);
                 TokenRequest request;
                 addClientSecret(fields, request);
                 request.body = formBody(fields);
                 requestAndKeep(request, scope);
             });
}

void Authorizer::requestAndKeep(const TokenRequest &request, const QString &scope)
{
    const quint64 generation = m_generation;
    requestTokens(request,
                  [this, generation, scope](std::optional<Tokens> tokens, const QString &why) {
                      if (generation != m_generation)
                          return;
                      if (!tokens) {
                          finish(false, why);
                          return;
                      }
                      keepTokens(*tokens, scope, QByteArray());
                      finish(true, QString());
                  });
}

// The configured client's secret, as the authorization server wants it: in the form when it
// takes only client_secret_post, else client_secret_basic.
void Authorizer::addClientSecret(FormFields &fields, TokenRequest &request) const
{
    if (clientAuthFor(m_discovered.server, true) == ClientAuth::SecretPost) {
        fields.emplace_back("client_id", m_options.clientId.toUtf8());
        fields.emplace_back("client_secret", m_options.clientSecret.toUtf8());
    } else {
        request.authorization = basicAuthorization(m_options.clientId, m_options.clientSecret);
    }
}

void Authorizer::keepTokens(const Tokens &tokens, const QString &scope,
                            const QByteArray &oldRefresh)
{
    if (!m_store)
        return;
    Grant grant;
    grant.issuer = m_discovered.server.issuer;
    grant.tokens = tokens;
    // A refresh that returns no new refresh token leaves the old one in force (RFC 6749 6).
    if (grant.tokens.refreshToken.isEmpty())
        grant.tokens.refreshToken = oldRefresh;
    grant.scope = scope;
    grant.obtained = QDateTime::currentDateTimeUtc();
    m_store->setGrant(m_serverKey, grant);
}

bool Authorizer::serverTakesDpop() const
{
    const Json &raw = m_discovered.server.raw;
    const auto it = raw.find("dpop_signing_alg_values_supported");
    if (it == raw.end() || !it->is_array())
        return false;
    return std::any_of(it->begin(), it->end(),
                       [](const Json &alg) { return alg.is_string() && alg == "ES256"; });
}

QByteArray Authorizer::dpopProof(const QByteArray &method, const QUrl &url,
                                 const QByteArray &accessToken, const QByteArray &nonce) const
{
    if (!m_dpopKey)
        return {};
    // RFC 9449 4.2: a fresh jti each time; htu without query and fragment; ath binds the
    // proof to the access token it goes with.
    Json claims = {
            {"jti", randomState().toStdString()},
            {"htm", method.toStdString()},
            {"htu", url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment)
                            .toString(QUrl::FullyEncoded)
                            .toStdString()},
            {"iat", QDateTime::currentSecsSinceEpoch()},
    };
    if (!accessToken.isEmpty())
        claims["ath"] = base64Url(QCryptographicHash::hash(accessToken, QCryptographicHash::Sha256))
                                .toStdString();
    if (!nonce.isEmpty())
        claims["nonce"] = nonce.toStdString();
    return signJwt(*m_dpopKey, {{"typ", "dpop+jwt"}, {"jwk", m_dpopKey->publicJwk()}}, claims);
}

void Authorizer::requestTokens(const TokenRequest &request, TokensDone done, QUrl endpoint,
                               bool again)
{
    if (endpoint.isEmpty())
        endpoint = m_discovered.server.tokenEndpoint;
    const bool dpop = serverTakesDpop();
    if (dpop && !m_dpopKey)
        m_dpopKey = SigningKey::generateEs256();
    Headers headers;
    if (!request.authorization.isEmpty())
        headers.emplace_back("Authorization", request.authorization);
    if (dpop)
        headers.emplace_back("DPoP", dpopProof("POST", endpoint, {}, m_tokenNonce));
    const quint64 generation = m_generation;
    postForm(endpoint, request.body, "application/x-www-form-urlencoded", headers,
             [this, request, endpoint, again, dpop, done = std::move(done),
              generation](const HttpAnswer &answer) {
                 if (generation != m_generation)
                     return;
                 if (!answer.dpopNonce.isEmpty())
                     m_tokenNonce = answer.dpopNonce;
                 const Json body = parseJson(
                         std::string_view(answer.body.constData(), size_t(answer.body.size())));
                 // RFC 9449 8: the server wants its nonce in the proof; once.
                 if (dpop && !again && answer.status == 400
                     && member(body, "error") == QLatin1String("use_dpop_nonce")
                     && !answer.dpopNonce.isEmpty()) {
                     requestTokens(request, done, endpoint, true);
                     return;
                 }
                 if (!answer.error.isEmpty()) {
                     done(std::nullopt, answer.error);
                     return;
                 }
                 QString why;
                 std::optional<Tokens> tokens = readTokenResponse(answer.status, answer.body, &why);
                 if (tokens && tokens->tokenType == QLatin1String("DPoP") && !dpop) {
                     why = tr("the token endpoint issued a DPoP-bound token without being sent "
                              "a proof");
                     tokens.reset();
                 }
                 done(std::move(tokens), why);
             });
}

ClientAuth Authorizer::clientAuth(const Registration &registration) const
{
    const QString &method = registration.tokenEndpointAuthMethod;
    if (registration.clientSecret.isEmpty() || method == QLatin1String("none"))
        return ClientAuth::None;
    if (method == QLatin1String("client_secret_post"))
        return ClientAuth::SecretPost;
    if (method == QLatin1String("client_secret_basic"))
        return ClientAuth::SecretBasic;
    return clientAuthFor(m_discovered.server, true);
}

void Authorizer::postForm(const QUrl &url, const QByteArray &body, const QByteArray &contentType,
                          const Headers &headers, Answer answer)
{
    m_requested << url;
    QNetworkRequest request = plainRequest(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    m_reply = threadNetworkAccess()->post(request, body);
    QNetworkReply *reply = m_reply;
    capSize(reply);
    connect(reply, &QNetworkReply::finished, this, [reply, answer = std::move(answer)] {
        reply->deleteLater();
        HttpAnswer result;
        result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        result.body = reply->bytesAvailable() <= MaxAnswerBytes ? reply->readAll() : QByteArray();
        result.dpopNonce = reply->rawHeader("DPoP-Nonce");
        if (result.status == 0)
            result.error = tr("%1: %2").arg(reply->url().toDisplayString(QUrl::RemoveQuery),
                                            reply->errorString());
        answer(result);
    });
}

} // namespace Mcp::OAuth
