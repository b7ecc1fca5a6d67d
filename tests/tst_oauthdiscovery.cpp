#include "jsontest.h"
#include "postedevents.h"

#include <mcp/auth/oauthdiscovery.h>

#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QTest>

#include <map>
#include <optional>

using namespace Mcp;
using namespace Mcp::OAuth;

namespace {

// Serves JSON documents at exact paths; everything else is 404. Records each request's
// path and its MCP-Protocol-Version header.
struct MetadataServer
{
    QHttpServer http;
    quint16 port = 0;
    std::map<QString, QByteArray> documents;
    QStringList paths;
    QMap<QString, QByteArray> versions;

    MetadataServer()
    {
        http.setMissingHandler(
                [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                    const QString path = request.url().path();
                    paths << path;
                    versions.insert(path, request.value("MCP-Protocol-Version"));
                    auto it = documents.find(path);
                    if (it == documents.end()) {
                        responder.write(QHttpServerResponder::StatusCode::NotFound);
                        return;
                    }
                    responder.write(it->second, "application/json");
                });
        port = http.listen(QHostAddress::LocalHost);
    }
    QString base() const { return QStringLiteral("http://127.0.0.1:%1").arg(port); }
    void serve(const QString &path, const Json &document)
    {
        documents[path] = QByteArray::fromStdString(document.dump());
    }
};

Json serverMetadata(const QString &issuer)
{
    const std::string i = issuer.toStdString();
    return {{"issuer", i},
            {"authorization_endpoint", i + "/authorize"},
            {"token_endpoint", i + "/token"},
            {"registration_endpoint", i + "/register"},
            {"code_challenge_methods_supported", {"S256"}},
            {"scopes_supported", {"mcp:read", "offline_access"}},
            {"authorization_response_iss_parameter_supported", true}};
}

static std::optional<DiscoveryResult> discover(const QUrl &serverUrl, const QByteArray &challenge,
                                               QList<QUrl> *requested = nullptr)
{
    Discovery discovery(serverUrl, challenge, "2025-11-25");
    std::optional<DiscoveryResult> result;
    int calls = 0;
    discovery.start([&](const DiscoveryResult &r) {
        ++calls;
        result = r;
    });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 15000))
        return std::nullopt;
    if (!deliverPostedEvents()) // a second answer would have been posted by now
        return std::nullopt;
    if (calls != 1)
        return std::nullopt;
    if (requested)
        *requested = discovery.requested();
    return result;
}

} // namespace

// Issue 11, deliverable 1: from a 401's WWW-Authenticate to the authorization server. The
// parsing and URL rules on their own; the whole discovery against metadata served on
// 127.0.0.1 by a real HTTP server (QHttpServer).
class tst_OAuthDiscovery : public QObject
{
    Q_OBJECT

private slots:
    void challenges()
    {
        const QList<Challenge> list = parseChallenges(
                "Basic realm=\"simple\", Bearer error=\"invalid_token\", error_description=\"The "
                "token \\\"expired\\\"\", "
                "resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/"
                "mcp\", scope=\"files:read files:write\", Negotiate abc123==");
        QCOMPARE(list.size(), 3);
        QCOMPARE(list[0].scheme, QStringLiteral("Basic"));
        QCOMPARE(list[0].params.value(QStringLiteral("realm")), QStringLiteral("simple"));
        QCOMPARE(list[1].scheme, QStringLiteral("Bearer"));
        QCOMPARE(list[1].params.value(QStringLiteral("error_description")),
                 QStringLiteral("The token \"expired\""));
        QCOMPARE(list[2].scheme, QStringLiteral("Negotiate"));
        QCOMPARE(list[2].params.value(QString()), QStringLiteral("abc123=="));

        const BearerChallenge bearer = bearerChallenge(
                "bearer Resource_Metadata = "
                "\"http://127.0.0.1:8080/.well-known/oauth-protected-resource\" ,scope=mcp");
        QVERIFY(bearer.present);
        QCOMPARE(bearer.resourceMetadata,
                 QUrl("http://127.0.0.1:8080/.well-known/oauth-protected-resource"));
        QCOMPARE(bearer.scope, QStringLiteral("mcp"));
        QVERIFY(!bearerChallenge("Basic realm=x").present);
        QVERIFY(!bearerChallenge("").present);
        // Garbage never hangs or crashes, and yields what it can.
        for (const QByteArray &junk :
             {QByteArray("\"\"\"==,,,=\\"), QByteArray("Bearer =,=,"),
              QByteArray("Bearer scope=\"unterminated"), QByteArray(",,, ;;; Bearer"),
              QByteArray(4096, '='), QByteArray("Bearer a=b, c")}) {
            (void)parseChallenges(junk);
        }
        QCOMPARE(bearerChallenge("Bearer scope=\"unterminated").scope,
                 QStringLiteral("unterminated"));
        QCOMPARE(parseChallenges("Bearer a=b, c").size(), 2);
    }

    void wellKnownUrls()
    {
        QCOMPARE(
                protectedResourceMetadataUrls(QUrl("https://example.com/public/mcp")),
                (QList<QUrl>{
                        QUrl("https://example.com/.well-known/oauth-protected-resource/public/mcp"),
                        QUrl("https://example.com/.well-known/oauth-protected-resource")}));
        QCOMPARE(protectedResourceMetadataUrls(QUrl("https://example.com/")),
                 QList<QUrl>{QUrl("https://example.com/.well-known/oauth-protected-resource")});
        QCOMPARE(authorizationServerMetadataUrls(QUrl("https://auth.example.com/tenant1")),
                 (QList<QUrl>{
                         QUrl("https://auth.example.com/.well-known/oauth-authorization-server/"
                              "tenant1"),
                         QUrl("https://auth.example.com/.well-known/openid-configuration/tenant1"),
                         QUrl("https://auth.example.com/tenant1/.well-known/"
                              "openid-configuration")}));
        QCOMPARE(authorizationServerMetadataUrls(QUrl("https://auth.example.com")),
                 (QList<QUrl>{
                         QUrl("https://auth.example.com/.well-known/oauth-authorization-server"),
                         QUrl("https://auth.example.com/.well-known/openid-configuration")}));
    }

    void securityRules()
    {
        QVERIFY(isSecureUrl(QUrl("https://auth.example.com/x")));
        QVERIFY(isSecureUrl(QUrl("http://127.0.0.1:9000/")));
        QVERIFY(isSecureUrl(QUrl("http://localhost:9000/")));
        QVERIFY(isSecureUrl(QUrl("http://[::1]:9000/")));
        QVERIFY(!isSecureUrl(QUrl("http://auth.example.com/")));
        QVERIFY(!isSecureUrl(QUrl("ftp://127.0.0.1/")));
        QVERIFY(!isSecureUrl(QUrl("https://user:pw@auth.example.com/")));

        const QUrl server("https://mcp.example.com/tenant/mcp");
        QVERIFY(resourceCovers("https://mcp.example.com/tenant/mcp", server));
        QVERIFY(resourceCovers("https://mcp.example.com/tenant/mcp/", server));
        QVERIFY(resourceCovers("https://mcp.example.com/tenant", server));
        QVERIFY(resourceCovers("https://MCP.example.com", server));
        QVERIFY(!resourceCovers("https://mcp.example.com/ten", server));
        QVERIFY(!resourceCovers("https://evil.example.com/tenant/mcp", server));
        QVERIFY(!resourceCovers("http://mcp.example.com/tenant/mcp", server));
        QVERIFY(!resourceCovers("https://mcp.example.com:8443/tenant/mcp", server));
        QVERIFY(!resourceCovers("https://mcp.example.com/tenant/mcp/other", server));
        QVERIFY(!resourceCovers("not a url", server));

        QString problem;
        const QUrl from("https://attacker.example/.well-known/oauth-authorization-server");
        QVERIFY(!readAuthorizationServer(serverMetadata("https://honest.example"),
                                         "https://attacker.example", from, &problem));
        QVERIFY2(problem.contains(QStringLiteral("honest.example")), qPrintable(problem));
        // Exact string comparison: not even a trailing slash of difference.
        QVERIFY(!readAuthorizationServer(serverMetadata("https://auth.example.com"),
                                         "https://auth.example.com/", from, nullptr));
        Json plain = serverMetadata("https://auth.example.com");
        plain["token_endpoint"] = "http://auth.example.com/token";
        QVERIFY(!readAuthorizationServer(plain, "https://auth.example.com", from, &problem));
        plain.erase("token_endpoint");
        QVERIFY(!readAuthorizationServer(plain, "https://auth.example.com", from, &problem));
        auto ok = readAuthorizationServer(serverMetadata("https://auth.example.com"),
                                          "https://auth.example.com", from, nullptr);
        QVERIFY(ok);
        QVERIFY(ok->issParameterSupported);
        QCOMPARE(ok->tokenEndpoint, QUrl("https://auth.example.com/token"));
        QCOMPARE(ok->codeChallengeMethodsSupported, QStringList{QStringLiteral("S256")});

        QVERIFY(!readProtectedResource(Json{{"resource", "https://mcp.example.com/tenant/mcp"}},
                                       from, server, &problem)); // no authorization server
        QVERIFY(!readProtectedResource(Json{{"resource", "https://mcp.example.com/tenant/mcp"},
                                            {"authorization_servers", {"http://auth.example.com"}}},
                                       from, server, &problem)); // not https
        QVERIFY(!readProtectedResource(Json::array(), from, server, &problem));
    }

    // The challenge names the metadata: only that document is read for the resource, then
    // the authorization server's in priority order (path insertion first).
    void discoveryFollowsTheChallenge()
    {
        MetadataServer s;
        QVERIFY(s.port);
        const QString issuer = s.base() + "/tenant1";
        s.serve("/custom/prm.json", {{"resource", (s.base() + "/mcp").toStdString()},
                                     {"authorization_servers", {issuer.toStdString()}},
                                     {"scopes_supported", {"mcp:read"}}});
        s.serve("/tenant1/.well-known/openid-configuration", serverMetadata(issuer));
        const QByteArray challenge = "Bearer resource_metadata=\"" + s.base().toUtf8()
                                     + "/custom/prm.json\", scope=\"mcp:read mcp:write\"";
        QList<QUrl> requested;
        auto result = discover(QUrl(s.base() + "/mcp"), challenge, &requested);
        QVERIFY(result);
        QVERIFY2(result->ok(), qPrintable(result->error));
        QCOMPARE(result->server.issuer, issuer);
        QCOMPARE(result->server.tokenEndpoint, QUrl(issuer + "/token"));
        QCOMPARE(result->challenge.scope, QStringLiteral("mcp:read mcp:write"));
        QVERIFY(result->resource);
        QCOMPARE(result->resource->scopesSupported, QStringList{QStringLiteral("mcp:read")});
        QCOMPARE(s.paths,
                 (QStringList{"/custom/prm.json", "/.well-known/oauth-authorization-server/tenant1",
                              "/.well-known/openid-configuration/tenant1",
                              "/tenant1/.well-known/openid-configuration"}));
        // The MCP server's own document is asked in its protocol version; the authorization
        // server is not told it.
        QCOMPARE(s.versions.value("/custom/prm.json"), QByteArray("2025-11-25"));
        QCOMPARE(s.versions.value("/tenant1/.well-known/openid-configuration"), QByteArray());
    }

    // No resource_metadata in the challenge: the path-based well-known location, then the root.
    void discoveryFallsBackToWellKnownPaths()
    {
        MetadataServer s;
        s.serve("/.well-known/oauth-protected-resource",
                {{"resource", (s.base() + "/mcp").toStdString()},
                 {"authorization_servers", {s.base().toStdString()}}});
        s.serve("/.well-known/oauth-authorization-server", serverMetadata(s.base()));
        auto result = discover(QUrl(s.base() + "/mcp"), "Bearer");
        QVERIFY(result && result->ok());
        QCOMPARE(s.paths, (QStringList{"/.well-known/oauth-protected-resource/mcp",
                                       "/.well-known/oauth-protected-resource",
                                       "/.well-known/oauth-authorization-server"}));
        QCOMPARE(result->server.issuer, s.base());
        QVERIFY(!result->server.fromDefaults);
    }

    // Metadata for another resource stops everything: no authorization server is asked.
    void resourceMismatchStops()
    {
        MetadataServer s;
        s.serve("/.well-known/oauth-protected-resource/mcp",
                {{"resource", "https://evil.example.com/mcp"},
                 {"authorization_servers", {s.base().toStdString()}}});
        s.serve("/.well-known/oauth-authorization-server", serverMetadata(s.base()));
        auto result = discover(QUrl(s.base() + "/mcp"), QByteArray());
        QVERIFY(result);
        QVERIFY(!result->ok());
        QVERIFY2(result->error.contains(QStringLiteral("evil.example.com")),
                 qPrintable(result->error));
        QCOMPARE(s.paths, QStringList{"/.well-known/oauth-protected-resource/mcp"});
    }

    // An issuer that is not the one asked for is never used; with no other document, the
    // discovery fails and says why.
    void issuerMismatchIsRefused()
    {
        MetadataServer s;
        s.serve("/.well-known/oauth-protected-resource/mcp",
                {{"resource", (s.base() + "/mcp").toStdString()},
                 {"authorization_servers", {s.base().toStdString()}}});
        s.serve("/.well-known/oauth-authorization-server",
                serverMetadata("https://honest.example"));
        auto result = discover(QUrl(s.base() + "/mcp"), QByteArray());
        QVERIFY(result && !result->ok());
        QVERIFY2(result->error.contains(QStringLiteral("honest.example")),
                 qPrintable(result->error));
    }

    // 2025-03-26: no protected resource metadata; the server's origin is the authorization
    // server (its metadata at the root), else the default endpoints.
    void marchSpecFallbacks()
    {
        MetadataServer s;
        s.serve("/.well-known/oauth-authorization-server", serverMetadata(s.base()));
        auto result = discover(QUrl(s.base() + "/mcp"), "Bearer");
        QVERIFY(result && result->ok());
        QVERIFY(!result->resource);
        QCOMPARE(result->server.issuer, s.base());
        QVERIFY(!result->server.fromDefaults);

        MetadataServer bare;
        result = discover(QUrl(bare.base() + "/mcp"), QByteArray());
        QVERIFY(result && result->ok());
        QVERIFY(result->server.fromDefaults);
        QCOMPARE(result->server.authorizationEndpoint, QUrl(bare.base() + "/authorize"));
        QCOMPARE(result->server.tokenEndpoint, QUrl(bare.base() + "/token"));
        QCOMPARE(result->server.registrationEndpoint, QUrl(bare.base() + "/register"));
    }

    // Nobody listening, a document that is not JSON, one far too big: no crash, no hang, the
    // callback once.
    void badServers()
    {
        auto result = discover(QUrl("http://127.0.0.1:1/mcp"), QByteArray());
        QVERIFY(result);
        QVERIFY(result->ok()); // nothing answered: the 2025-03-26 defaults
        QVERIFY(result->server.fromDefaults);

        MetadataServer s;
        s.documents["/.well-known/oauth-protected-resource/mcp"] = "{not json";
        s.documents["/.well-known/oauth-protected-resource"] = QByteArray(3 * 1024 * 1024, ' ');
        s.serve("/.well-known/oauth-authorization-server", serverMetadata(s.base()));
        result = discover(QUrl(s.base() + "/mcp"), QByteArray());
        QVERIFY(result && result->ok());
        QVERIFY(!result->resource);

        // Destroyed while a request is out: the callback never comes.
        bool called = false;
        {
            Discovery discovery(QUrl(s.base() + "/mcp"), QByteArray(), QByteArray());
            discovery.start([&](const DiscoveryResult &) { called = true; });
        }
        // A discovery started later, from the same server, has come to its end.
        result = discover(QUrl(s.base() + "/mcp"), QByteArray());
        QVERIFY(result && result->ok());
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(tst_OAuthDiscovery)
#include "tst_oauthdiscovery.moc"
