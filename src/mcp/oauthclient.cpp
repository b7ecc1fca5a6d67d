#include "oauthclient.h"

#include "httptransport.h"
#include "jsonparser.h"

#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

Q_LOGGING_CATEGORY(lcSignIn, "switchboard.mcp.oauth.signin", QtWarningMsg)

namespace Mcp::OAuth {

namespace {

// Answers from authorization servers are small; anything bigger is not one.
constexpr qint64 MaxAnswerBytes = 1 << 20;
constexpr int ExchangeTimeoutMs = 30000;

// Never followed: a token or registration endpoint that redirects is not one, and the
// authorization endpoint's redirect is the answer itself.
QNetworkRequest plainRequest(const QUrl &url)
{
    return oauthRequest(url, QNetworkRequest::ManualRedirectPolicy, ExchangeTimeoutMs);
}

void capSize(QNetworkReply *reply)
{
    QObject::connect(reply, &QNetworkReply::downloadProgress, reply,
                     [reply](qint64 received, qint64) {
                         if (received > MaxAnswerBytes)
                             reply->abort();
                     });
}

QString member(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

QStringList words(const QString &scope)
{
    return scope.split(u' ', Qt::SkipEmptyParts);
}

// The server's own error in an OAuth error answer, in words.
QString serverError(const Json &answer, int status)
{
    const QString code = member(answer, "error");
    const QString description = member(answer, "error_description");
    if (code.isEmpty())
        return Authorizer::tr("HTTP %1").arg(status);
    return description.isEmpty() ? code : Authorizer::tr("%1 (%2)").arg(code, description);
}

} // namespace

template<typename T>
static std::optional<T> lookUp(const QHash<QString, T> &hash, const QString &key)
{
    const auto it = hash.constFind(key);
    return it == hash.cend() ? std::nullopt : std::optional<T>(*it);
}

std::optional<Registration> CredentialStore::registration(const QString &issuer) const
{
    return lookUp(m_registrations, issuer);
}

void CredentialStore::setRegistration(const QString &issuer, const Registration &registration)
{
    put(m_registrations, issuer, registration);
}

void CredentialStore::forgetRegistration(const QString &issuer)
{
    drop(m_registrations, issuer);
}

std::optional<Grant> CredentialStore::grant(const QString &server) const
{
    return lookUp(m_grants, server);
}

void CredentialStore::setGrant(const QString &server, const Grant &grant)
{
    put(m_grants, server, grant);
}

void CredentialStore::forgetGrant(const QString &server)
{
    drop(m_grants, server);
}

RedirectReadingAgent::RedirectReadingAgent(QUrl redirectUri, QObject *parent)
    : QObject(parent)
    , m_redirectUri(std::move(redirectUri))
{
}

RedirectReadingAgent::~RedirectReadingAgent()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void RedirectReadingAgent::authorize(const QUrl &url, Done done)
{
    QNetworkRequest request = plainRequest(url);
    request.setRawHeader("Accept", "text/html, */*");
    m_reply = threadNetworkAccess()->get(request);
    QNetworkReply *reply = m_reply;
    capSize(reply);
    connect(reply, &QNetworkReply::finished, this, [reply, url, done = std::move(done)] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray location = reply->rawHeader("Location");
        if (status / 100 == 3 && !location.isEmpty()) {
            done(url.resolved(QUrl::fromEncoded(location)), QString());
            return;
        }
        done(QUrl(), status == 0 ? reply->errorString()
                                 : Authorizer::tr("the authorization endpoint answered HTTP %1 "
                                                  "without sending the browser back")
                                           .arg(status));
    });
}

Authorizer::Authorizer(SignInOptions options, CredentialStore *store, UserAgent *agent,
                       QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_serverKey(canonicalResource(m_options.serverUrl))
    , m_store(store)
    , m_agent(agent)
{
}

Authorizer::~Authorizer()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

RequestAuthorizer::Headers Authorizer::headersFor(const QByteArray &, const QUrl &)
{
    if (!m_store)
        return {};
    const std::optional<Grant> grant = m_store->grant(m_serverKey);
    if (!grant || grant->tokens.accessToken.isEmpty())
        return {};
    return {{QByteArrayLiteral("Authorization"), "Bearer " + grant->tokens.accessToken}};
}

void Authorizer::refused(int status, const QByteArray &challenge, const QByteArray &protocolVersion,
                         Done done)
{
    m_waiting.push_back(std::move(done));
    if (m_running)
        return; // answered when the sign-in under way ends
    m_running = true;
    ++m_generation;
    m_stepUpScope.clear();
    const BearerChallenge bearer = bearerChallenge(challenge);
    std::optional<Grant> grant = m_store ? m_store->grant(m_serverKey) : std::nullopt;
    if (status == 403) {
        if (bearer.error != QLatin1String("insufficient_scope")) {
            finish(false,
                   bearer.errorDescription.isEmpty()
                           ? tr("the server refuses access (HTTP 403)")
                           : tr("the server refuses access: %1").arg(bearer.errorDescription));
            return;
        }
        // Step-up: everything asked for before, and what the server now wants.
        QStringList scopes = words(grant ? grant->scope : m_lastScope);
        const QStringList before = scopes;
        for (const QString &scope : words(bearer.scope)) {
            if (!scopes.contains(scope))
                scopes << scope;
        }
        if (scopes == before) {
            finish(false, tr("the server still asks for more access (scope '%1') after it was "
                             "granted")
                                  .arg(bearer.scope));
            return;
        }
        m_stepUpScope = scopes.join(u' ');
    } else if (grant && !grant->tokens.accessToken.isEmpty() && m_store) {
        // The server no longer takes the access token; a refresh token may still be good.
        grant->tokens.accessToken.clear();
        m_store->setGrant(m_serverKey, *grant);
    }
    m_discovery = std::make_unique<Discovery>(m_options.serverUrl, challenge, protocolVersion);
    m_discovery->start([this](const DiscoveryResult &result) {
        m_requested << m_discovery->requested();
        onDiscovered(result);
    });
}

void Authorizer::onDiscovered(const DiscoveryResult &result)
{
    if (!result.ok()) {
        finish(false, result.error);
        return;
    }
    m_discovered = result;
    const QString issuer = result.server.issuer;
    std::optional<Grant> grant = m_store ? m_store->grant(m_serverKey) : std::nullopt;
    if (grant && grant->issuer != issuer) {
        // The server moved to another authorization server: what the old one issued is of
        // no use there, and must not be shown to it.
        qCDebug(lcSignIn) << m_options.serverName << "now uses" << issuer;
        m_store->forgetGrant(m_serverKey);
        grant.reset();
    }
    if (m_stepUpScope.isEmpty() && grant && !grant->tokens.refreshToken.isEmpty()) {
        const std::optional<Registration> registration
                = !m_options.clientId.isEmpty() ? std::optional(
                          Registration{Registration::Kind::PreRegistered, m_options.clientId,
                                       m_options.clientSecret, QString(), QString()})
                                                : m_store->registration(issuer);
        if (registration) {
            useRefreshToken(*registration, *grant);
            return;
        }
    }
    registerClient();
}

void Authorizer::useRefreshToken(const Registration &registration, const Grant &grant)
{
    const QString resource = resourceParameter(m_discovered, m_options.serverUrl);
    const TokenRequest request
            = refreshTokenRequest(registration.clientId, grant.tokens.refreshToken, QString(),
                                  resource, clientAuth(registration), registration.clientSecret);
    const quint64 generation = m_generation;
    postForm(m_discovered.server.tokenEndpoint, request.body, "application/x-www-form-urlencoded",
             request.authorization,
             [this, generation, grant](int status, const QByteArray &body, const QString &error) {
                 if (generation != m_generation)
                     return;
                 QString why = error;
                 std::optional<Tokens> tokens;
                 if (why.isEmpty())
                     tokens = readTokenResponse(status, body, &why);
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

void Authorizer::registerClient()
{
    const AuthorizationServer &server = m_discovered.server;
    if (!m_options.clientId.isEmpty()) {
        authorize(Registration{Registration::Kind::PreRegistered, m_options.clientId,
                               m_options.clientSecret, QString(), QString()});
        return;
    }
    const QString redirect
            = m_agent ? m_agent->redirectUri().toString(QUrl::FullyEncoded) : QString();
    if (std::optional<Registration> known
        = m_store ? m_store->registration(server.issuer) : std::nullopt) {
        // A dynamic registration holds for the redirect it named; another needs its own.
        if (known->kind != Registration::Kind::Dynamic || known->redirectUri == redirect) {
            authorize(*known);
            return;
        }
    }
    if (server.clientIdMetadataDocumentSupported && m_options.clientMetadataUrl.isValid()
        && m_options.clientMetadataUrl.scheme() == QLatin1String("https")) {
        const Registration document{Registration::Kind::MetadataDocument,
                                    m_options.clientMetadataUrl.toString(QUrl::FullyEncoded),
                                    QString(), QStringLiteral("none"), QString()};
        m_store->setRegistration(server.issuer, document);
        authorize(document);
        return;
    }
    if (!server.registrationEndpoint.isEmpty()) {
        registerDynamically();
        return;
    }
    finish(false, tr("%1 offers this client no way to register; add the client ID it gave you "
                     "to the server's entry as \"oauth\": {\"clientId\": \"...\"}")
                          .arg(server.issuer));
}

void Authorizer::registerDynamically()
{
    const AuthorizationServer &server = m_discovered.server;
    const QString redirect = m_agent->redirectUri().toString(QUrl::FullyEncoded);
    // RFC 7591, with the 2026-07-28 application_type: a native application on this machine,
    // a public client (PKCE is its proof), refresh tokens wanted.
    const Json metadata = {
            {"client_name", m_options.clientName.toStdString()},
            {"redirect_uris", Json::array({redirect.toStdString()})},
            {"grant_types", Json::array({"authorization_code", "refresh_token"})},
            {"response_types", Json::array({"code"})},
            {"token_endpoint_auth_method", "none"},
            {"application_type", "native"},
    };
    const quint64 generation = m_generation;
    const QString issuer = server.issuer;
    postForm(server.registrationEndpoint, QByteArray::fromStdString(metadata.dump()),
             "application/json", QByteArray(),
             [this, generation, issuer, redirect](int status, const QByteArray &body,
                                                  const QString &error) {
                 if (generation != m_generation)
                     return;
                 if (!error.isEmpty()) {
                     finish(false, tr("registering with %1 failed: %2").arg(issuer, error));
                     return;
                 }
                 const Json answer
                         = parseJson(std::string_view(body.constData(), size_t(body.size())));
                 const QString clientId = member(answer, "client_id");
                 if (status / 100 != 2 || clientId.isEmpty()) {
                     finish(false, tr("%1 refused to register this client: %2")
                                           .arg(issuer, serverError(answer, status)));
                     return;
                 }
                 const Registration registration{
                         Registration::Kind::Dynamic, clientId, member(answer, "client_secret"),
                         member(answer, "token_endpoint_auth_method"), redirect};
                 if (m_store)
                     m_store->setRegistration(issuer, registration);
                 authorize(registration);
             });
}

QString Authorizer::requestedScope() const
{
    if (!m_stepUpScope.isEmpty())
        return m_stepUpScope;
    DiscoveryResult discovered = m_discovered;
    if (discovered.challenge.scope.isEmpty() && !m_options.scopes.isEmpty())
        discovered.challenge.scope = m_options.scopes.join(u' ');
    return scopeToRequest(discovered);
}

void Authorizer::authorize(const Registration &registration)
{
    const AuthorizationServer &server = m_discovered.server;
    QString why;
    if (!supportsAuthorizationCode(server, &why)) {
        finish(false, why);
        return;
    }
    if (!m_agent) {
        finish(false, tr("nobody is there to sign in"));
        return;
    }
    AuthorizationRequest request;
    request.clientId = registration.clientId;
    request.redirectUri = m_agent->redirectUri();
    request.scope = requestedScope();
    request.state = randomState();
    request.pkce = Pkce::generate();
    request.resource = resourceParameter(m_discovered, m_options.serverUrl);
    m_lastScope = request.scope;
    ++m_authorizations;
    const QUrl url = authorizationUrl(server, request);
    emit waitingForUser(url);
    QPointer<Authorizer> self(this);
    const quint64 generation = m_generation;
    m_agent->authorize(url, [self, generation, registration, request](const QUrl &redirect,
                                                                      const QString &error) {
        if (!self || generation != self->m_generation)
            return;
        if (!error.isEmpty()) {
            self->finish(false, error);
            return;
        }
        const AuthorizationResponse response
                = readRedirect(redirect, request.state, self->m_discovered.server);
        if (!response.error.isEmpty()) {
            self->finish(false, response.error);
            return;
        }
        self->exchangeCode(registration, request, response.code);
    });
}

void Authorizer::exchangeCode(const Registration &registration, const AuthorizationRequest &request,
                              const QByteArray &code)
{
    const TokenRequest token
            = codeTokenRequest(request, code, clientAuth(registration), registration.clientSecret);
    const quint64 generation = m_generation;
    const QString scope = request.scope;
    postForm(m_discovered.server.tokenEndpoint, token.body, "application/x-www-form-urlencoded",
             token.authorization,
             [this, generation, scope](int status, const QByteArray &body, const QString &error) {
                 if (generation != m_generation)
                     return;
                 QString why = error;
                 std::optional<Tokens> tokens;
                 if (why.isEmpty())
                     tokens = readTokenResponse(status, body, &why);
                 if (!tokens) {
                     finish(false, why);
                     return;
                 }
                 keepTokens(*tokens, scope, QByteArray());
                 finish(true, QString());
             });
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
                          const QByteArray &authorization, Answer answer)
{
    m_requested << url;
    QNetworkRequest request = plainRequest(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    if (!authorization.isEmpty())
        request.setRawHeader("Authorization", authorization);
    m_reply = threadNetworkAccess()->post(request, body);
    QNetworkReply *reply = m_reply;
    capSize(reply);
    connect(reply, &QNetworkReply::finished, this, [reply, answer = std::move(answer)] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body
                = reply->bytesAvailable() <= MaxAnswerBytes ? reply->readAll() : QByteArray();
        answer(status, body,
               status == 0 ? tr("%1: %2").arg(reply->url().toDisplayString(QUrl::RemoveQuery),
                                              reply->errorString())
                           : QString());
    });
}

void Authorizer::finish(bool ok, const QString &why)
{
    m_running = false;
    m_stepUpScope.clear();
    ++m_generation;
    if (m_discovery)
        m_discovery.release()->deleteLater();
    qCDebug(lcSignIn) << m_options.serverName << (ok ? "signed in" : "sign-in failed:") << why;
    if (ok)
        emit signedIn();
    else
        emit failed(why);
    for (Done &done : std::exchange(m_waiting, {}))
        done(ok, why);
}

} // namespace Mcp::OAuth
