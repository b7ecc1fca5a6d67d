#include "oauthflow.h"

#include <mcp/wire/jsonparser.h>

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QUrlQuery>

namespace Mcp::OAuth {

namespace {

constexpr auto Base64Url = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;

QByteArray randomBytes(int count)
{
    QByteArray bytes(count, Qt::Uninitialized);
    QRandomGenerator *random = QRandomGenerator::system();
    for (int i = 0; i < count; ++i)
        bytes[i] = char(random->bounded(256));
    return bytes;
}

// application/x-www-form-urlencoded (RFC 6749 appendix B): every byte but the unreserved
// ones percent-encoded, spaces included.
QByteArray formEncode(const QByteArray &value)
{
    return value.toPercentEncoding();
}

class Form
{
public:
    void add(const char *name, const QByteArray &value)
    {
        if (!m_body.isEmpty())
            m_body += '&';
        m_body += name;
        m_body += '=';
        m_body += formEncode(value);
    }
    void add(const char *name, const QString &value) { add(name, value.toUtf8()); }
    QByteArray body() const { return m_body; }

private:
    QByteArray m_body;
};

QString jsonString(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

void addClient(Form &form, TokenRequest &out, const QString &clientId, ClientAuth auth,
               const QString &clientSecret)
{
    switch (auth) {
    case ClientAuth::None:
        form.add("client_id", clientId);
        break;
    case ClientAuth::SecretPost:
        form.add("client_id", clientId);
        form.add("client_secret", clientSecret);
        break;
    case ClientAuth::SecretBasic:
        out.authorization = basicAuthorization(clientId, clientSecret);
        break;
    }
}

} // namespace

QByteArray formBody(const FormFields &fields)
{
    Form form;
    for (const auto &[name, value] : fields)
        form.add(name, value);
    return form.body();
}

QByteArray basicAuthorization(const QString &clientId, const QString &secret)
{
    return "Basic "
           + (formEncode(clientId.toUtf8()) + ':' + formEncode(secret.toUtf8())).toBase64();
}

Pkce Pkce::generate()
{
    Pkce pkce;
    pkce.verifier = randomBytes(32).toBase64(Base64Url);
    pkce.challenge = challengeFor(pkce.verifier);
    return pkce;
}

QByteArray Pkce::challengeFor(const QByteArray &verifier)
{
    return QCryptographicHash::hash(verifier, QCryptographicHash::Sha256).toBase64(Base64Url);
}

QByteArray randomState()
{
    return randomBytes(32).toBase64(Base64Url);
}

QString canonicalResource(const QUrl &serverUrl)
{
    QUrl url = serverUrl.adjusted(QUrl::RemoveFragment | QUrl::RemoveUserInfo);
    url.setScheme(url.scheme().toLower());
    url.setHost(url.host().toLower());
    QString text = url.toString(QUrl::FullyEncoded);
    if (url.path().size() > 1 && text.endsWith(u'/') && !url.hasQuery())
        text.chop(1);
    if (url.path() == QLatin1String("/") && !url.hasQuery())
        text.chop(1); // the origin alone
    return text;
}

QString resourceParameter(const DiscoveryResult &discovery, const QUrl &serverUrl)
{
    return discovery.resource ? discovery.resource->resource : canonicalResource(serverUrl);
}

QString scopeToRequest(const DiscoveryResult &discovery)
{
    QStringList scopes;
    if (!discovery.challenge.scope.isEmpty())
        scopes = discovery.challenge.scope.split(u' ', Qt::SkipEmptyParts);
    else if (discovery.resource && !discovery.resource->scopesSupported.isEmpty())
        scopes = discovery.resource->scopesSupported;
    const QString offline = QStringLiteral("offline_access");
    if (!scopes.isEmpty() && discovery.server.scopesSupported.contains(offline)
        && !scopes.contains(offline))
        scopes << offline;
    return scopes.join(u' ');
}

bool supportsAuthorizationCode(const AuthorizationServer &server, QString *why)
{
    if (server.authorizationEndpoint.isEmpty()) {
        if (why)
            *why = Discovery::tr("%1 has no authorization endpoint").arg(server.issuer);
        return false;
    }
    // 2025-03-26 servers without metadata cannot advertise anything: PKCE is assumed.
    if (!server.fromDefaults
        && !server.codeChallengeMethodsSupported.contains(QLatin1String("S256"))) {
        if (why)
            *why = Discovery::tr("%1 does not offer PKCE with S256, which sign-in requires")
                           .arg(server.issuer);
        return false;
    }
    return true;
}

QUrl authorizationUrl(const AuthorizationServer &server, const AuthorizationRequest &request)
{
    QUrl url = server.authorizationEndpoint;
    QUrlQuery query(url);
    auto add = [&query](const QString &name, const QString &value) {
        // Encoded here, so that '+' and the like survive whatever QUrl would leave alone.
        query.addQueryItem(name, QString::fromLatin1(formEncode(value.toUtf8())));
    };
    add(QStringLiteral("response_type"), QStringLiteral("code"));
    add(QStringLiteral("client_id"), request.clientId);
    add(QStringLiteral("redirect_uri"), request.redirectUri.toString(QUrl::FullyEncoded));
    add(QStringLiteral("code_challenge"), QString::fromLatin1(request.pkce.challenge));
    add(QStringLiteral("code_challenge_method"), QStringLiteral("S256"));
    add(QStringLiteral("state"), QString::fromLatin1(request.state));
    if (!request.scope.isEmpty())
        add(QStringLiteral("scope"), request.scope);
    if (!request.resource.isEmpty())
        add(QStringLiteral("resource"), request.resource);
    url.setQuery(query.query(QUrl::FullyEncoded), QUrl::StrictMode);
    return url;
}

AuthorizationResponse readRedirect(const QUrl &redirect, const QByteArray &expectedState,
                                   const AuthorizationServer &server)
{
    AuthorizationResponse response;
    const QUrlQuery query(redirect);
    const auto item = [&query](const char *name) {
        return query.queryItemValue(QLatin1String(name), QUrl::FullyDecoded);
    };
    if (!query.hasQueryItem(QStringLiteral("state")) || item("state").toUtf8() != expectedState) {
        response.error = Discovery::tr("the answer from %1 does not carry this sign-in's state; "
                                       "ignored")
                                 .arg(server.issuer);
        return response;
    }
    // RFC 9207: a server that says it sends `iss` must, and any `iss` must be this server.
    const bool hasIss = query.hasQueryItem(QStringLiteral("iss"));
    if (hasIss && item("iss") != server.issuer) {
        response.error = Discovery::tr("the answer names issuer '%1', not %2; ignored")
                                 .arg(item("iss"), server.issuer);
        return response;
    }
    if (!hasIss && server.issParameterSupported) {
        response.error = Discovery::tr("the answer from %1 lacks the issuer it promised to "
                                       "send; ignored")
                                 .arg(server.issuer);
        return response;
    }
    if (query.hasQueryItem(QStringLiteral("error"))) {
        const QString description = item("error_description");
        response.error = description.isEmpty()
                                 ? Discovery::tr("%1 refused: %2").arg(server.issuer, item("error"))
                                 : Discovery::tr("%1 refused: %2 (%3)")
                                           .arg(server.issuer, item("error"), description);
        return response;
    }
    response.code = item("code").toUtf8();
    if (response.code.isEmpty())
        response.error = Discovery::tr("the answer from %1 has no code").arg(server.issuer);
    return response;
}

ClientAuth clientAuthFor(const AuthorizationServer &server, bool hasSecret)
{
    if (!hasSecret)
        return ClientAuth::None;
    const QStringList &methods = server.tokenEndpointAuthMethodsSupported;
    if (!methods.isEmpty() && !methods.contains(QLatin1String("client_secret_basic"))
        && methods.contains(QLatin1String("client_secret_post")))
        return ClientAuth::SecretPost;
    return ClientAuth::SecretBasic;
}

TokenRequest codeTokenRequest(const AuthorizationRequest &request, const QByteArray &code,
                              ClientAuth auth, const QString &clientSecret)
{
    TokenRequest out;
    Form form;
    form.add("grant_type", QByteArrayLiteral("authorization_code"));
    form.add("code", code);
    form.add("redirect_uri", request.redirectUri.toString(QUrl::FullyEncoded));
    form.add("code_verifier", request.pkce.verifier);
    if (!request.resource.isEmpty())
        form.add("resource", request.resource);
    addClient(form, out, request.clientId, auth, clientSecret);
    out.body = form.body();
    return out;
}

TokenRequest refreshTokenRequest(const QString &clientId, const QByteArray &refreshToken,
                                 const QString &scope, const QString &resource, ClientAuth auth,
                                 const QString &clientSecret)
{
    TokenRequest out;
    Form form;
    form.add("grant_type", QByteArrayLiteral("refresh_token"));
    form.add("refresh_token", refreshToken);
    if (!scope.isEmpty())
        form.add("scope", scope);
    if (!resource.isEmpty())
        form.add("resource", resource);
    addClient(form, out, clientId, auth, clientSecret);
    out.body = form.body();
    return out;
}

std::optional<Tokens> readTokenResponse(int status, const QByteArray &body, QString *error)
{
    const Json json = parseJson(std::string_view(body.constData(), size_t(body.size())));
    const auto fail = [error](const QString &why) -> std::optional<Tokens> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (!json.is_object())
        return fail(Discovery::tr("the token endpoint answered HTTP %1 without a JSON object")
                            .arg(status));
    if (status != 200 || json.contains("error")) {
        const QString code = jsonString(json, "error");
        const QString description = jsonString(json, "error_description");
        if (code.isEmpty())
            return fail(Discovery::tr("the token endpoint answered HTTP %1").arg(status));
        return fail(description.isEmpty()
                            ? Discovery::tr("the token endpoint refused: %1").arg(code)
                            : Discovery::tr("the token endpoint refused: %1 (%2)")
                                      .arg(code, description));
    }
    Tokens tokens;
    tokens.accessToken = jsonString(json, "access_token").toUtf8();
    tokens.tokenType = jsonString(json, "token_type");
    if (tokens.accessToken.isEmpty())
        return fail(Discovery::tr("the token endpoint's answer has no access_token"));
    if (tokens.tokenType.compare(QLatin1String("Bearer"), Qt::CaseInsensitive) == 0)
        tokens.tokenType = QStringLiteral("Bearer");
    else if (tokens.tokenType.compare(QLatin1String("DPoP"), Qt::CaseInsensitive) == 0)
        tokens.tokenType = QStringLiteral("DPoP");
    else
        return fail(Discovery::tr("the token endpoint issued a token of type '%1', which "
                                  "this client cannot use")
                            .arg(tokens.tokenType));
    tokens.refreshToken = jsonString(json, "refresh_token").toUtf8();
    tokens.scope = jsonString(json, "scope");
    if (auto it = json.find("expires_in");
        it != json.end() && it->is_number_integer() && it->get<qint64>() >= 0)
        tokens.expiresInS = it->get<qint64>();
    return tokens;
}

} // namespace Mcp::OAuth
