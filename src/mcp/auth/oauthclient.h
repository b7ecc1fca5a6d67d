#pragma once

#include "oauthcrypto.h"
#include "oauthdiscovery.h"
#include "oauthflow.h"

#include <mcp/transport/requestauthorizer.h>

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

class QNetworkReply;
class QTcpServer;
class QTimer;

// The network half of MCP authorization: registering the client with an authorization
// server, sending the user to it, and exchanging what comes back for tokens, which every
// request to the MCP server then carries. Discovery and the pure pieces of the flow are in
// oauthdiscovery.h and oauthflow.h.
namespace Mcp::OAuth {

// How this client is known to one authorization server.
struct Registration
{
    enum class Kind { PreRegistered, MetadataDocument, Dynamic };
    Kind kind = Kind::Dynamic;
    QString clientId;
    QString clientSecret;            // empty: a public client
    QString tokenEndpointAuthMethod; // as registered ("none", "client_secret_post", ...), or empty
    QString redirectUri;             // the one registered (dynamic registration)
};

// What signing in to one MCP server left: its tokens, and who issued them.
struct Grant
{
    QString issuer; // the authorization server's identifier
    Tokens tokens;
    QString scope; // what was asked for
    QDateTime obtained;
};

// Where a CredentialStore keeps what it holds across runs (the OS keychain): text under a
// key, read asynchronously.
class CredentialBackend
{
public:
    // `value` nullopt: nothing is kept under the key; `error` set: the backend failed.
    using ReadDone
            = std::function<void(const std::optional<QByteArray> &value, const QString &error)>;
    virtual ~CredentialBackend() = default;
    // `done` is called exactly once, from the event loop, unless `context` is destroyed.
    virtual void read(const QString &key, QObject *context, ReadDone done) = 0;
    virtual void write(const QString &key, const QByteArray &value) = 0;
    virtual void remove(const QString &key) = 0;
};

// Registrations (per authorization server) and grants (per MCP server) while the application
// runs, and through the backend (when there is one) across runs: a server's grant is read the
// first time it is prepared, and every change is written back. Never in a file.
class CredentialStore : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Nothing is kept beyond memory without one. Not owned.
    void setBackend(CredentialBackend *backend) { m_backend = backend; }
    // Reads what the backend keeps for `server` (and the registrations, once), then calls
    // `done` (at once when there is nothing to read).
    void prepare(const QString &server, std::function<void()> done);
    // Every token and client secret held, for whoever keeps secrets out of sight.
    QStringList secrets() const;
    // The backend failed to read or write: what is held lives in memory only, and why.
    QString backendError() const { return m_backendError; }

    std::optional<Registration> registration(const QString &issuer) const;
    void setRegistration(const QString &issuer, const Registration &registration);
    void forgetRegistration(const QString &issuer);

    // `server`: the MCP server's canonical URL (canonicalResource()).
    std::optional<Grant> grant(const QString &server) const;
    void setGrant(const QString &server, const Grant &grant);
    void forgetGrant(const QString &server);

signals:
    void changed();

private:
    template<typename T>
    void put(QHash<QString, T> &hash, const QString &key, const T &value)
    {
        hash.insert(key, value);
        emit changed();
    }
    template<typename T>
    void drop(QHash<QString, T> &hash, const QString &key)
    {
        if (hash.remove(key))
            emit changed();
    }

    void saveRegistrations();
    void saveGrant(const QString &server);

    QHash<QString, Registration> m_registrations;
    QHash<QString, Grant> m_grants;
    CredentialBackend *m_backend = nullptr;
    QSet<QString> m_prepared; // servers whose grant was read
    bool m_registrationsRead = false;
    QString m_backendError;
};

// Where the user meets the authorization server: the system browser with a loopback
// listener in the window and the CLI; an agent that follows the redirect itself where
// nobody is there (the conformance suite, tests).
class UserAgent
{
public:
    // The redirect, or why there is none (in words).
    using Done = std::function<void(const QUrl &redirect, const QString &error)>;
    virtual ~UserAgent() = default;
    // The redirect URI the answer comes back to.
    virtual QUrl redirectUri() const = 0;
    // Non-empty: nobody can be asked now, and why; the authorizer then stops before it
    // registers anything with the authorization server.
    virtual QString unavailable() const { return QString(); }
    // Shows the authorization URL; `done` is called exactly once, unless the agent is
    // destroyed first.
    virtual void authorize(const QUrl &url, Done done) = 0;
};

// A user agent for automation: it GETs the authorization URL itself (no cookies, no
// redirect followed) and takes the redirect from the answer's Location, as the conformance
// suite expects of a headless client. The redirect URI is never listened on.
class RedirectReadingAgent : public QObject, public UserAgent
{
    Q_OBJECT
public:
    explicit RedirectReadingAgent(QUrl redirectUri, QObject *parent = nullptr);
    ~RedirectReadingAgent() override;
    QUrl redirectUri() const override { return m_redirectUri; }
    void authorize(const QUrl &url, Done done) override;

private:
    QUrl m_redirectUri;
    QPointer<QNetworkReply> m_reply;
    // DPoP (RFC 9449): the key tokens are bound to (made when a server first takes proofs,
    // kept in memory only) and the nonces the two servers asked for.
    std::optional<SigningKey> m_dpopKey;
    QByteArray m_resourceNonce;
    QByteArray m_tokenNonce;
};

// The user agent of a desktop: the system browser (opened by `open`, which the face
// supplies) sent to the authorization URL, and a one-shot listener on a loopback port
// (http://127.0.0.1:PORT/callback, RFC 8252 7.3) that takes the browser's redirect back,
// answers it with a page saying the tab may be closed, and closes. A request to the callback
// without this sign-in's `state` (another program on this machine, a stale tab) gets 400 and
// the wait goes on, for at most MaxStrayAnswers of them. Gives up after `timeoutMs`
// (5 minutes) or cancel().
class LoopbackAgent : public QObject, public UserAgent
{
    Q_OBJECT
public:
    using Open = std::function<void(const QUrl &url)>;
    explicit LoopbackAgent(Open open = {}, QObject *parent = nullptr);
    ~LoopbackAgent() override;

    // Listens (on a port the system picks) until the answer came or the wait ended.
    QUrl redirectUri() const override;
    void authorize(const QUrl &url, Done done) override;
    void cancel(const QString &why);
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    void setOpen(Open open) { m_open = std::move(open); }
    bool isWaiting() const { return bool(m_done); }

private:
    void onConnection();
    void end(const QUrl &redirect, const QString &error);

    // Enough for a few stale tabs; a flood of wrong answers is someone guessing.
    static constexpr int MaxStrayAnswers = 20;

    Open m_open;
    QTcpServer *m_server = nullptr;
    QTimer *m_timer = nullptr;
    Done m_done;
    QString m_state; // the authorization URL's `state`: what the browser's answer must carry
    int m_strays = 0;
    int m_timeoutMs = 5 * 60 * 1000;
};

struct SignInOptions
{
    // How tokens are obtained: with the user (the authorization code grant), or without
    // anybody (the extensions io.modelcontextprotocol/oauth-client-credentials, the JWT
    // bearer grant of workload identity, enterprise-managed authorization).
    enum class Flow { AuthorizationCode, ClientCredentials, JwtBearer, EnterpriseManaged };

    QUrl serverUrl;
    QString serverName;
    Flow flow = Flow::AuthorizationCode;
    // A client registered beforehand (the config's "oauth"): used with every authorization
    // server, before any other way.
    QString clientId;
    QString clientSecret;
    QStringList scopes; // asked for when the server's challenge names none
    // This client's metadata document (https): its URL is the client_id where the server
    // supports client ID metadata documents.
    QUrl clientMetadataUrl;
    QString clientName = QStringLiteral("Switchboard");
    // Client credentials with private_key_jwt (RFC 7523): the PEM private key, and the
    // algorithm it must be for ("ES256", "RS256", or empty for whichever it is).
    QByteArray privateKeyPem;
    QString signingAlgorithm;
    // JwtBearer: the assertion (a workload's identity token).
    QByteArray assertion;
    // EnterpriseManaged: the identity provider's token endpoint, this client's id there, and
    // the user's ID token from it, exchanged there for an ID-JAG (SEP-990).
    QUrl idpTokenEndpoint;
    QString idpClientId;
    QByteArray idToken;
};

// Signs in to one MCP server (MCP 2025-11-25 and 2026-07-28 authorization): on a 401 it
// discovers the authorization server, uses a refresh token when it has one from that very
// server, else registers (pre-registered, then a client ID metadata document, then dynamic
// registration; remembered per authorization server, never carried to another) and runs the
// authorization code grant with PKCE through the user agent. A 403 insufficient_scope asks
// again for the union of the scopes, and only while that adds one. Refusals that arrive while
// a sign-in runs wait for it.
class Authorizer : public QObject, public RequestAuthorizer
{
    Q_OBJECT
public:
    Authorizer(SignInOptions options, CredentialStore *store, UserAgent *agent,
               QObject *parent = nullptr);
    ~Authorizer() override;

    // Reads what the store's backend keeps for this server now, so that the first request
    // can carry it (else it is read on the first refusal).
    void prepare();

    Headers headersFor(const QByteArray &method, const QUrl &url) override;
    void refused(const Refusal &refusal, const QByteArray &protocolVersion, Done done) override;

    // Signs in now, as if the server had just refused (with the last refusal it sent, if
    // any): the user's "Sign in" for a server that failed for want of it.
    void signInNow(Done done);

    bool isSigningIn() const { return m_running; }
    // Authorization requests sent to the user agent so far.
    int authorizationCount() const { return m_authorizations; }
    // Every URL this authorizer asked (discovery, registration, tokens), for tests and the log.
    const QList<QUrl> &requested() const { return m_requested; }

signals:
    // The user is being asked at this URL (the dock says "waiting for the browser").
    void waitingForUser(const QUrl &url);
    void signedIn();
    void failed(const QString &why);

private:
    struct HttpAnswer
    {
        int status = 0;
        QByteArray body;
        QString error; // the network's, when there is no answer
        QByteArray dpopNonce;
    };
    using Answer = std::function<void(const HttpAnswer &)>;
    using TokensDone = std::function<void(std::optional<Tokens> tokens, const QString &why)>;

    void beginSignIn(const Refusal &refusal, const QByteArray &protocolVersion);
    void onDiscovered(const DiscoveryResult &result);
    void useRefreshToken(const Registration &registration, const Grant &grant);
    void registerClient();
    void registerDynamically();
    void authorize(const Registration &registration);
    void exchangeCode(const Registration &registration, const AuthorizationRequest &request,
                      const QByteArray &code);
    void signInWithoutUser();
    void exchangeIdToken();
    // Asks for tokens, keeps them with the scope asked for, and ends the sign-in.
    void requestAndKeep(const TokenRequest &request, const QString &scope);
    void addClientSecret(FormFields &fields, TokenRequest &request) const;
    void keepTokens(const Tokens &tokens, const QString &scope, const QByteArray &oldRefresh);
    // A token request to `endpoint` (the authorization server's unless named), with a DPoP
    // proof when the server takes them (and once more with its nonce when it asks).
    void requestTokens(const TokenRequest &request, TokensDone done, QUrl endpoint = {},
                       bool again = false);
    void postForm(const QUrl &url, const QByteArray &body, const QByteArray &contentType,
                  const RequestAuthorizer::Headers &headers, Answer answer);
    QByteArray dpopProof(const QByteArray &method, const QUrl &url, const QByteArray &accessToken,
                         const QByteArray &nonce) const;
    bool serverTakesDpop() const;
    ClientAuth clientAuth(const Registration &registration) const;
    QString requestedScope() const;
    void finish(bool ok, const QString &why);

    SignInOptions m_options;
    QString m_serverKey;
    QPointer<CredentialStore> m_store;
    UserAgent *m_agent = nullptr;
    bool m_running = false;
    std::vector<Done> m_waiting;
    std::unique_ptr<Discovery> m_discovery;
    DiscoveryResult m_discovered;
    Refusal m_lastRefusal{401, {}, {}};
    QByteArray m_lastVersion;
    QString m_stepUpScope; // set while a 403 insufficient_scope is answered
    QString m_lastScope;   // what the last authorization asked for
    int m_authorizations = 0;
    QList<QUrl> m_requested;
    QPointer<QNetworkReply> m_reply;
    // DPoP (RFC 9449): the key tokens are bound to (made when a server first takes proofs,
    // kept in memory only) and the nonces the two servers asked for.
    std::optional<SigningKey> m_dpopKey;
    QByteArray m_resourceNonce;
    QByteArray m_tokenNonce;
    // Bumped by every sign-in: a user agent's late answer to an earlier one is ignored.
    quint64 m_generation = 0;
};

} // namespace Mcp::OAuth
