#include "oauthclient.h"

#include <mcp/transport/httptransport.h>
#include <mcp/wire/jsonparser.h>

#include <QCryptographicHash>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>

#include <algorithm>

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

// What the backend keeps: a server's grant, and all registrations, as JSON.
constexpr auto RegistrationsKey = "oauth-clients";

QString grantKey(const QString &server)
{
    return QStringLiteral("oauth-token ") + server;
}

Json toJson(const Grant &grant)
{
    return {{"issuer", grant.issuer.toStdString()},
            {"access_token", grant.tokens.accessToken.toStdString()},
            {"token_type", grant.tokens.tokenType.toStdString()},
            {"refresh_token", grant.tokens.refreshToken.toStdString()},
            {"expires_in", grant.tokens.expiresInS},
            {"scope", grant.scope.toStdString()},
            {"obtained", grant.obtained.toSecsSinceEpoch()}};
}

std::optional<Grant> grantFromJson(const Json &json)
{
    if (!json.is_object())
        return std::nullopt;
    Grant grant;
    grant.issuer = member(json, "issuer");
    grant.tokens.accessToken = member(json, "access_token").toUtf8();
    grant.tokens.tokenType = member(json, "token_type");
    grant.tokens.refreshToken = member(json, "refresh_token").toUtf8();
    grant.tokens.expiresInS = json.value("expires_in", qint64(-1));
    grant.scope = member(json, "scope");
    grant.obtained = QDateTime::fromSecsSinceEpoch(json.value("obtained", qint64(0)), Qt::UTC);
    if (grant.issuer.isEmpty() || grant.tokens.tokenType != QLatin1String("Bearer"))
        return std::nullopt; // DPoP tokens are bound to a key that is never kept
    return grant;
}

void CredentialStore::prepare(const QString &server, std::function<void()> done)
{
    if (!m_backend || (m_prepared.contains(server) && m_registrationsRead)) {
        done();
        return;
    }
    auto pending = std::make_shared<int>(1);
    auto finished = [pending, done = std::move(done)] {
        if (--*pending == 0)
            done();
    };
    auto failed = [this](const QString &error) {
        if (!error.isEmpty())
            m_backendError = error;
    };
    if (!m_registrationsRead) {
        ++*pending;
        m_registrationsRead = true;
        m_backend->read(QLatin1String(RegistrationsKey), this,
                        [this, finished, failed](const std::optional<QByteArray> &value,
                                                 const QString &error) {
                            failed(error);
                            Json json = value ? parseJson(std::string_view(value->constData(),
                                                                           size_t(value->size())))
                                              : Json();
                            if (!json.is_object())
                                json = Json::object();
                            for (const auto &[issuer, item] : json.items()) {
                                const QString id = QString::fromStdString(issuer);
                                if (m_registrations.contains(id) || !item.is_object())
                                    continue;
                                Registration registration;
                                registration.kind = item.value("kind", "") == "document"
                                                            ? Registration::Kind::MetadataDocument
                                                            : Registration::Kind::Dynamic;
                                registration.clientId = member(item, "client_id");
                                registration.clientSecret = member(item, "client_secret");
                                registration.tokenEndpointAuthMethod
                                        = member(item, "token_endpoint_auth_method");
                                registration.redirectUri = member(item, "redirect_uri");
                                if (!registration.clientId.isEmpty())
                                    m_registrations.insert(id, registration);
                            }
                            finished();
                        });
    }
    if (!m_prepared.contains(server)) {
        ++*pending;
        m_prepared.insert(server);
        m_backend->read(grantKey(server), this,
                        [this, server, finished, failed](const std::optional<QByteArray> &value,
                                                         const QString &error) {
                            failed(error);
                            if (value && !m_grants.contains(server)) {
                                if (auto grant = grantFromJson(parseJson(std::string_view(
                                            value->constData(), size_t(value->size())))))
                                    m_grants.insert(server, *grant);
                            }
                            finished();
                        });
    }
    finished(); // the guard taken first: `done` runs once, after the last read
}

QStringList CredentialStore::secrets() const
{
    QStringList values;
    for (const Grant &grant : m_grants) {
        for (const QByteArray &token : {grant.tokens.accessToken, grant.tokens.refreshToken}) {
            if (!token.isEmpty())
                values << QString::fromUtf8(token);
        }
    }
    for (const Registration &registration : m_registrations) {
        if (!registration.clientSecret.isEmpty())
            values << registration.clientSecret;
    }
    return values;
}

std::optional<Registration> CredentialStore::registration(const QString &issuer) const
{
    return lookUp(m_registrations, issuer);
}

void CredentialStore::setRegistration(const QString &issuer, const Registration &registration)
{
    put(m_registrations, issuer, registration);
    saveRegistrations();
}

void CredentialStore::forgetRegistration(const QString &issuer)
{
    drop(m_registrations, issuer);
    saveRegistrations();
}

std::optional<Grant> CredentialStore::grant(const QString &server) const
{
    return lookUp(m_grants, server);
}

void CredentialStore::setGrant(const QString &server, const Grant &grant)
{
    put(m_grants, server, grant);
    saveGrant(server);
}

void CredentialStore::forgetGrant(const QString &server)
{
    drop(m_grants, server);
    saveGrant(server);
}

// Pre-registered clients come from the configuration each time and are not written.
void CredentialStore::saveRegistrations()
{
    if (!m_backend)
        return;
    Json all = Json::object();
    for (auto it = m_registrations.cbegin(); it != m_registrations.cend(); ++it) {
        if (it->kind == Registration::Kind::PreRegistered)
            continue;
        all[it.key().toStdString()] = {
                {"kind", it->kind == Registration::Kind::MetadataDocument ? "document" : "dynamic"},
                {"client_id", it->clientId.toStdString()},
                {"client_secret", it->clientSecret.toStdString()},
                {"token_endpoint_auth_method", it->tokenEndpointAuthMethod.toStdString()},
                {"redirect_uri", it->redirectUri.toStdString()}};
    }
    m_backend->write(QLatin1String(RegistrationsKey), QByteArray::fromStdString(all.dump()));
}

void CredentialStore::saveGrant(const QString &server)
{
    if (!m_backend)
        return;
    const auto it = m_grants.constFind(server);
    if (it == m_grants.cend() || it->tokens.tokenType != QLatin1String("Bearer"))
        m_backend->remove(grantKey(server));
    else
        m_backend->write(grantKey(server), QByteArray::fromStdString(toJson(*it).dump()));
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

LoopbackAgent::LoopbackAgent(Open open, QObject *parent)
    : QObject(parent)
    , m_open(std::move(open))
    , m_server(new QTcpServer(this))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        end(QUrl(),
            tr("no answer came from the browser within %1 minutes").arg(m_timeoutMs / 60000));
    });
    connect(m_server, &QTcpServer::newConnection, this, &LoopbackAgent::onConnection);
}

LoopbackAgent::~LoopbackAgent() = default;

QUrl LoopbackAgent::redirectUri() const
{
    if (!m_server->isListening() && !m_server->listen(QHostAddress::LocalHost))
        return QUrl();
    return QUrl(QStringLiteral("http://127.0.0.1:%1/callback").arg(m_server->serverPort()));
}

void LoopbackAgent::authorize(const QUrl &url, Done done)
{
    if (m_done)
        end(QUrl(), tr("another sign-in started"));
    if (redirectUri().isEmpty()) {
        done(QUrl(), tr("cannot listen on this machine for the browser's answer: %1")
                             .arg(m_server->errorString()));
        return;
    }
    m_done = std::move(done);
    m_state = QUrlQuery(url).queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded);
    m_strays = 0;
    m_timer->start(m_timeoutMs);
    if (m_open)
        m_open(url);
}

void LoopbackAgent::cancel(const QString &why)
{
    end(QUrl(), why);
}

// Reads one request line; the browser's GET /callback?... ends the wait, anything else gets
// a 404 and the wait goes on. Requests are small: more than 16 KiB is not a browser's.
void LoopbackAgent::onConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
            if (socket->bytesAvailable() > 16 * 1024) {
                socket->abort();
                return;
            }
            if (!socket->canReadLine())
                return;
            const QList<QByteArray> line = socket->readLine().trimmed().split(' ');
            const QUrl target = line.size() == 3 && line[0] == "GET"
                                        ? QUrl::fromEncoded(line[1], QUrl::StrictMode)
                                        : QUrl();
            const QUrlQuery query(target);
            const bool atCallback = m_done && target.path() == QLatin1String("/callback");
            // Only the answer to this sign-in ends the wait (readRedirect() checks it again).
            const bool stray = atCallback && !m_state.isEmpty()
                               && query.queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded)
                                          != m_state;
            const bool callback = atCallback && !stray;
            const bool refused = query.hasQueryItem(QStringLiteral("error"));
            const QString text = stray ? tr("This is not the answer to the sign-in Switchboard "
                                            "is waiting for; it was ignored.")
                                 : !callback ? tr("Nothing here.")
                                 : refused   ? tr("Sign-in was refused. You can close this tab "
                                                    "and return to Switchboard.")
                                             : tr("Signed in. You can close this tab and return "
                                                    "to Switchboard.");
            const QByteArray page = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>"
                                    "Switchboard</title></head><body><p>"
                                    + text.toHtmlEscaped().toUtf8() + "</p></body></html>";
            socket->write((callback ? "HTTP/1.1 200 OK\r\n"
                           : stray  ? "HTTP/1.1 400 Bad Request\r\n"
                                    : "HTTP/1.1 404 Not Found\r\n")
                          + QByteArray("Content-Type: text/html; charset=utf-8\r\n"
                                       "Cache-Control: no-store\r\nConnection: close\r\n"
                                       "Content-Length: ")
                          + QByteArray::number(page.size()) + "\r\n\r\n" + page);
            socket->disconnectFromHost();
            if (stray && ++m_strays >= MaxStrayAnswers) {
                end(QUrl(), tr("%1 answers that were not for this sign-in came to its "
                               "listener; it stopped waiting")
                                    .arg(m_strays));
                return;
            }
            if (callback) {
                QUrl redirect
                        = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server->serverPort()))
                                  .resolved(target);
                end(redirect, QString());
            }
        });
    }
}

void LoopbackAgent::end(const QUrl &redirect, const QString &error)
{
    m_timer->stop();
    m_server->close();
    if (Done done = std::exchange(m_done, {}))
        done(redirect, error);
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

void Authorizer::exchangeCode(const Registration &registration, const AuthorizationRequest &request,
                              const QByteArray &code)
{
    const TokenRequest token
            = codeTokenRequest(request, code, clientAuth(registration), registration.clientSecret);
    requestAndKeep(token, request.scope);
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
