// Authorizer: the sign-in to one MCP server, from its refusal through discovery and
// registration to the user agent; and the helpers the OAuth client's files share.
#include "oauthclient.h"
#include "oauthclientinternal.h"

#include <mcp/wire/jsonparser.h>

#include <QNetworkReply>

Q_LOGGING_CATEGORY(lcSignIn, "switchboard.mcp.oauth.signin", QtWarningMsg)

namespace Mcp::OAuth::Internal {

constexpr int ExchangeTimeoutMs = 30000;

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

QString serverError(const Json &answer, int status)
{
    const QString code = member(answer, "error");
    const QString description = member(answer, "error_description");
    if (code.isEmpty())
        return Authorizer::tr("HTTP %1").arg(status);
    return description.isEmpty() ? code : Authorizer::tr("%1 (%2)").arg(code, description);
}

} // namespace Mcp::OAuth::Internal

namespace Mcp::OAuth {

using namespace Internal;

namespace {

QStringList words(const QString &scope)
{
    return scope.split(u' ', Qt::SkipEmptyParts);
}

// Whether a registration's redirect URI serves for this one: the same, or both on the
// loopback interface and differing only in the port, which authorization servers must let
// a native application choose each time (RFC 8252 7.3).
bool sameRedirect(const QUrl &registered, const QUrl &wanted)
{
    if (registered == wanted)
        return true;
    const auto loopback = [](const QUrl &url) {
        return url.scheme() == QLatin1String("http")
               && (url.host() == QLatin1String("127.0.0.1") || url.host() == QLatin1String("::1"));
    };
    return loopback(registered) && loopback(wanted)
           && registered.adjusted(QUrl::RemovePort) == wanted.adjusted(QUrl::RemovePort);
}

} // namespace

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

void Authorizer::signInNow(Done done)
{
    Refusal refusal = m_lastRefusal;
    refusal.status = 401; // a step-up is not what the user asks for
    refused(refusal, m_lastVersion, std::move(done));
}

void Authorizer::prepare()
{
    if (m_store)
        m_store->prepare(m_serverKey, [] {});
}

RequestAuthorizer::Headers Authorizer::headersFor(const QByteArray &method, const QUrl &url)
{
    if (!m_store)
        return {};
    const std::optional<Grant> grant = m_store->grant(m_serverKey);
    if (!grant || grant->tokens.accessToken.isEmpty())
        return {};
    const QByteArray &token = grant->tokens.accessToken;
    if (grant->tokens.tokenType == QLatin1String("DPoP") && m_dpopKey)
        return {{QByteArrayLiteral("Authorization"), "DPoP " + token},
                {QByteArrayLiteral("DPoP"), dpopProof(method, url, token, m_resourceNonce)}};
    return {{QByteArrayLiteral("Authorization"), "Bearer " + token}};
}

void Authorizer::refused(const Refusal &refusal, const QByteArray &protocolVersion, Done done)
{
    // A DPoP server that wants a nonce in the proofs (RFC 9449 9): the same token, again.
    for (const Challenge &challenge : parseChallenges(refusal.challenge)) {
        if (challenge.scheme.compare(QLatin1String("DPoP"), Qt::CaseInsensitive) == 0
            && challenge.params.value(QStringLiteral("error")) == QLatin1String("use_dpop_nonce")
            && !refusal.dpopNonce.isEmpty() && refusal.dpopNonce != m_resourceNonce) {
            m_resourceNonce = refusal.dpopNonce;
            if (m_running) {
                m_waiting.push_back(std::move(done));
            } else {
                QMetaObject::invokeMethod(
                        this, [done = std::move(done)] { done(true, QString()); },
                        Qt::QueuedConnection);
            }
            return;
        }
    }
    if (refusal.status == 401 || refusal.status == 403)
        m_lastRefusal = refusal;
    if (!protocolVersion.isEmpty())
        m_lastVersion = protocolVersion;
    m_waiting.push_back(std::move(done));
    if (m_running)
        return; // answered when the sign-in under way ends
    m_running = true;
    const quint64 generation = ++m_generation;
    m_stepUpScope.clear();
    auto begin = [this, generation, refusal, protocolVersion] {
        if (generation == m_generation)
            beginSignIn(refusal, protocolVersion);
    };
    if (m_store)
        m_store->prepare(m_serverKey, begin);
    else
        begin();
}

void Authorizer::beginSignIn(const Refusal &refusal, const QByteArray &protocolVersion)
{
    const BearerChallenge bearer = bearerChallenge(refusal.challenge);
    std::optional<Grant> grant = m_store ? m_store->grant(m_serverKey) : std::nullopt;
    if (refusal.status == 403) {
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
    m_discovery
            = std::make_unique<Discovery>(m_options.serverUrl, refusal.challenge, protocolVersion);
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
    if (m_options.flow != SignInOptions::Flow::AuthorizationCode) {
        signInWithoutUser();
        return;
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

void Authorizer::registerClient()
{
    const AuthorizationServer &server = m_discovered.server;
    if (const QString why = m_agent ? m_agent->unavailable() : QString(); !why.isEmpty()) {
        finish(false, why);
        return;
    }
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
        if (known->kind != Registration::Kind::Dynamic
            || sameRedirect(QUrl(known->redirectUri), QUrl(redirect))) {
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
    if (!server.registrationEndpoint.isEmpty() && m_agent) {
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
             "application/json", {},
             [this, generation, issuer, redirect](const HttpAnswer &answer) {
                 if (generation != m_generation)
                     return;
                 if (!answer.error.isEmpty()) {
                     finish(false, tr("registering with %1 failed: %2").arg(issuer, answer.error));
                     return;
                 }
                 const Json body = parseJson(
                         std::string_view(answer.body.constData(), size_t(answer.body.size())));
                 const QString clientId = member(body, "client_id");
                 if (answer.status / 100 != 2 || clientId.isEmpty()) {
                     finish(false, tr("%1 refused to register this client: %2")
                                           .arg(issuer, serverError(body, answer.status)));
                     return;
                 }
                 const Registration registration{
                         Registration::Kind::Dynamic, clientId, member(body, "client_secret"),
                         member(body, "token_endpoint_auth_method"), redirect};
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
