// CredentialStore: registrations and grants in memory, and through its backend across runs.
#include "oauthclientinternal.h"

#include <mcp/wire/jsonparser.h>

namespace Mcp::OAuth {

using namespace Internal;

namespace {

template<typename T>
std::optional<T> lookUp(const QHash<QString, T> &hash, const QString &key)
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

} // namespace

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

} // namespace Mcp::OAuth
