#include <mcp/auth/oauthflow.h>

#include <QTest>
#include <QUrlQuery>

#include <set>

using namespace Mcp;
using namespace Mcp::OAuth;

namespace {

AuthorizationServer server(bool advertisesIss = true)
{
    AuthorizationServer s;
    s.issuer = QStringLiteral("https://auth.example.com/tenant1");
    s.authorizationEndpoint = QUrl("https://auth.example.com/tenant1/authorize?prompt=consent");
    s.tokenEndpoint = QUrl("https://auth.example.com/tenant1/token");
    s.codeChallengeMethodsSupported = {QStringLiteral("S256")};
    s.scopesSupported = {QStringLiteral("mcp:read"), QStringLiteral("offline_access")};
    s.issParameterSupported = advertisesIss;
    return s;
}

AuthorizationRequest request()
{
    AuthorizationRequest r;
    r.clientId = QStringLiteral("client 1+2/é");
    r.redirectUri = QUrl("http://127.0.0.1:50123/callback");
    r.scope = QStringLiteral("mcp:read offline_access");
    r.state = randomState();
    r.pkce = Pkce::generate();
    r.resource = QStringLiteral("https://mcp.example.com/mcp");
    return r;
}

QMap<QString, QString> form(const QByteArray &body)
{
    QMap<QString, QString> out;
    for (const QByteArray &pair : body.split('&')) {
        const qsizetype eq = pair.indexOf('=');
        out.insert(QString::fromUtf8(QByteArray::fromPercentEncoding(pair.left(eq))),
                   QString::fromUtf8(QByteArray::fromPercentEncoding(pair.mid(eq + 1))));
    }
    return out;
}

} // namespace

// Issue 11, deliverable 3 (the pure half): PKCE, state, the authorization URL, the redirect
// read back (state, RFC 9207 iss, errors), client authentication at the token endpoint, and
// the token response.
class tst_OAuthFlow : public QObject
{
    Q_OBJECT

private slots:
    void pkce()
    {
        // RFC 7636, appendix B.
        QCOMPARE(Pkce::challengeFor("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
                 QByteArray("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"));
        std::set<QByteArray> seen;
        for (int i = 0; i < 50; ++i) {
            const Pkce p = Pkce::generate();
            QCOMPARE(p.verifier.size(), 43);
            for (const char c : p.verifier)
                QVERIFY(QByteArray("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-"
                                   "._~")
                                .contains(c));
            QCOMPARE(p.challenge, Pkce::challengeFor(p.verifier));
            QVERIFY(seen.insert(p.verifier).second);
            QVERIFY(seen.insert(randomState()).second);
        }
    }

    void canonicalResources()
    {
        QCOMPARE(canonicalResource(QUrl("HTTPS://MCP.Example.com/mcp/")),
                 QStringLiteral("https://mcp.example.com/mcp"));
        QCOMPARE(canonicalResource(QUrl("https://mcp.example.com/")),
                 QStringLiteral("https://mcp.example.com"));
        QCOMPARE(canonicalResource(QUrl("http://127.0.0.1:3000/mcp#frag")),
                 QStringLiteral("http://127.0.0.1:3000/mcp"));
        QCOMPARE(canonicalResource(QUrl("https://u:p@mcp.example.com:8443/a/b")),
                 QStringLiteral("https://mcp.example.com:8443/a/b"));
        // The metadata's own string wins, as written (the conformance suite checks this).
        DiscoveryResult d;
        ProtectedResource prm;
        prm.resource = QStringLiteral("http://localhost:3000");
        d.resource = prm;
        QCOMPARE(resourceParameter(d, QUrl("http://localhost:3000/mcp")),
                 QStringLiteral("http://localhost:3000"));
        d.resource.reset();
        QCOMPARE(resourceParameter(d, QUrl("http://localhost:3000/mcp/")),
                 QStringLiteral("http://localhost:3000/mcp"));
    }

    void scopes()
    {
        DiscoveryResult d;
        d.server = server();
        d.challenge.scope = QStringLiteral("files:read  files:write");
        QCOMPARE(scopeToRequest(d), QStringLiteral("files:read files:write offline_access"));
        d.challenge.scope.clear();
        ProtectedResource resource;
        resource.scopesSupported = {QStringLiteral("mcp:read"), QStringLiteral("mcp:write")};
        d.resource = resource;
        QCOMPARE(scopeToRequest(d), QStringLiteral("mcp:read mcp:write offline_access"));
        d.server.scopesSupported.clear(); // offline_access only where listed
        QCOMPARE(scopeToRequest(d), QStringLiteral("mcp:read mcp:write"));
        d.resource.reset();
        QCOMPARE(scopeToRequest(d), QString()); // nothing known: omitted
    }

    void serverMustOfferS256()
    {
        QString why;
        QVERIFY(supportsAuthorizationCode(server(), &why));
        AuthorizationServer plain = server();
        plain.codeChallengeMethodsSupported = {QStringLiteral("plain")};
        QVERIFY(!supportsAuthorizationCode(plain, &why));
        QVERIFY(why.contains(QStringLiteral("S256")));
        plain.codeChallengeMethodsSupported.clear();
        QVERIFY(!supportsAuthorizationCode(plain, &why));
        QVERIFY(supportsAuthorizationCode(defaultEndpoints(QUrl("https://old.example.com/mcp")),
                                          &why));
        AuthorizationServer none = server();
        none.authorizationEndpoint = QUrl();
        QVERIFY(!supportsAuthorizationCode(none, &why));
    }

    void authorizationUrlCarriesEverything()
    {
        const AuthorizationRequest r = request();
        const QUrl url = authorizationUrl(server(), r);
        QCOMPARE(url.host(), QStringLiteral("auth.example.com"));
        QCOMPARE(url.path(), QStringLiteral("/tenant1/authorize"));
        const QUrlQuery q(url);
        auto item = [&q](const char *name) {
            return q.queryItemValue(QLatin1String(name), QUrl::FullyDecoded);
        };
        QCOMPARE(item("prompt"), QStringLiteral("consent")); // the endpoint's own query kept
        QCOMPARE(item("response_type"), QStringLiteral("code"));
        QCOMPARE(item("client_id"), r.clientId);
        QCOMPARE(item("redirect_uri"), r.redirectUri.toString());
        QCOMPARE(item("code_challenge"), QString::fromLatin1(r.pkce.challenge));
        QCOMPARE(item("code_challenge_method"), QStringLiteral("S256"));
        QCOMPARE(item("state"), QString::fromLatin1(r.state));
        QCOMPARE(item("scope"), r.scope);
        QCOMPARE(item("resource"), r.resource);
        QVERIFY(!url.toString(QUrl::FullyEncoded).contains(u' '));
        AuthorizationRequest noScope = r;
        noScope.scope.clear();
        QVERIFY(!QUrlQuery(authorizationUrl(server(), noScope)).hasQueryItem("scope"));
    }

    void redirectIsChecked()
    {
        const AuthorizationServer s = server();
        const QByteArray state = "st4te";
        const QString base = QStringLiteral("http://127.0.0.1:50123/callback?");
        auto read = [&](const QString &query, const AuthorizationServer &with) {
            return readRedirect(QUrl(base + query), state, with);
        };
        const QString iss = QStringLiteral("&iss=https%3A%2F%2Fauth.example.com%2Ftenant1");
        AuthorizationResponse r = read("code=abc%2B1&state=st4te" + iss, s);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.code, QByteArray("abc+1"));
        QVERIFY(!read("code=abc&state=other" + iss, s).error.isEmpty());
        QVERIFY(!read("code=abc" + iss, s).error.isEmpty());
        // RFC 9207: promised and missing, or present and wrong, is refused.
        QVERIFY(!read("code=abc&state=st4te", s).error.isEmpty());
        QVERIFY(!read("code=abc&state=st4te&iss=https%3A%2F%2Fevil.example", s).error.isEmpty());
        QVERIFY(!read("code=abc&state=st4te&iss=https%3A%2F%2Fevil.example", server(false))
                         .error.isEmpty());
        QVERIFY(read("code=abc&state=st4te", server(false)).error.isEmpty());
        // The server's refusal, in words.
        r = read("error=access_denied&error_description=The+user+said+no&state=st4te" + iss, s);
        QVERIFY(r.code.isEmpty());
        QVERIFY2(r.error.contains(QStringLiteral("access_denied")), qPrintable(r.error));
        QVERIFY(!read("state=st4te" + iss, s).error.isEmpty()); // no code
    }

    void tokenRequests()
    {
        const AuthorizationRequest r = request();
        TokenRequest t = codeTokenRequest(r, "the+code", ClientAuth::None, QString());
        QMap<QString, QString> f = form(t.body);
        QCOMPARE(f.value("grant_type"), QStringLiteral("authorization_code"));
        QCOMPARE(f.value("code"), QStringLiteral("the+code"));
        QCOMPARE(f.value("redirect_uri"), r.redirectUri.toString());
        QCOMPARE(f.value("code_verifier"), QString::fromLatin1(r.pkce.verifier));
        QCOMPARE(f.value("resource"), r.resource);
        QCOMPARE(f.value("client_id"), r.clientId);
        QVERIFY(t.authorization.isEmpty());

        t = codeTokenRequest(r, "c", ClientAuth::SecretPost, QStringLiteral("s3cr:t"));
        f = form(t.body);
        QCOMPARE(f.value("client_secret"), QStringLiteral("s3cr:t"));
        QVERIFY(t.authorization.isEmpty());

        t = codeTokenRequest(r, "c", ClientAuth::SecretBasic, QStringLiteral("s3cr:t"));
        f = form(t.body);
        QVERIFY(!f.contains("client_secret"));
        QVERIFY(!f.contains("client_id"));
        QVERIFY(t.authorization.startsWith("Basic "));
        const QByteArray pair = QByteArray::fromBase64(t.authorization.mid(6));
        QCOMPARE(pair, QByteArray("client%201%2B2%2F%C3%A9:s3cr%3At")); // RFC 6749 2.3.1

        t = refreshTokenRequest(QStringLiteral("c1"), "r/t", QStringLiteral("a b"), r.resource,
                                ClientAuth::None, QString());
        f = form(t.body);
        QCOMPARE(f.value("grant_type"), QStringLiteral("refresh_token"));
        QCOMPARE(f.value("refresh_token"), QStringLiteral("r/t"));
        QCOMPARE(f.value("scope"), QStringLiteral("a b"));
        QCOMPARE(f.value("client_id"), QStringLiteral("c1"));

        AuthorizationServer s = server();
        QCOMPARE(clientAuthFor(s, false), ClientAuth::None);
        QCOMPARE(clientAuthFor(s, true), ClientAuth::SecretBasic);
        s.tokenEndpointAuthMethodsSupported = {QStringLiteral("client_secret_post")};
        QCOMPARE(clientAuthFor(s, true), ClientAuth::SecretPost);
        s.tokenEndpointAuthMethodsSupported << QStringLiteral("client_secret_basic");
        QCOMPARE(clientAuthFor(s, true), ClientAuth::SecretBasic);
    }

    void tokenResponses()
    {
        QString error;
        auto t = readTokenResponse(
                200,
                "{\"access_token\":\"at\",\"token_type\":\"bearer\",\"expires_in\":3600,"
                "\"refresh_token\":\"rt\",\"scope\":\"mcp:read\"}",
                &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->accessToken, QByteArray("at"));
        QCOMPARE(t->tokenType, QStringLiteral("Bearer"));
        QCOMPARE(t->expiresInS, 3600);
        QCOMPARE(t->refreshToken, QByteArray("rt"));
        QVERIFY(!readTokenResponse(
                400, "{\"error\":\"invalid_grant\",\"error_description\":\"expired\"}", &error));
        QVERIFY(error.contains(QStringLiteral("invalid_grant"))
                && error.contains(QStringLiteral("expired")));
        QVERIFY(!readTokenResponse(200, "{\"token_type\":\"Bearer\"}", &error));
        QVERIFY(!readTokenResponse(200, "{\"access_token\":\"a\",\"token_type\":\"mac\"}", &error));
        QVERIFY(!readTokenResponse(502, "<html>bad gateway</html>", &error));
        QVERIFY(error.contains(QStringLiteral("502")));
        QVERIFY(!readTokenResponse(200, QByteArray(), &error));
        t = readTokenResponse(
                200, "{\"access_token\":\"a\",\"token_type\":\"DPoP\",\"expires_in\":-5}", &error);
        QVERIFY(t);
        QCOMPARE(t->tokenType, QStringLiteral("DPoP"));
        QCOMPARE(t->expiresInS, -1);
    }
};

QTEST_GUILESS_MAIN(tst_OAuthFlow)
#include "tst_oauthflow.moc"
