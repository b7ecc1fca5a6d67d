#pragma once

#include <mcp/auth/oauthclient.h>
#include <mcp/config/config.h>

#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>

namespace Engine {

class SecretStore;

// Sign-in to the remote servers of a Session (MCP authorization), the same for the window
// and the CLI: an Mcp::OAuth::Authorizer per HTTP server (none where the config sends its own
// Authorization header), tokens and registrations in the OS keychain through a SecretStore
// (memory only where no keychain answers, and the status says so). The browser is opened only
// for a server the user asked to sign in to (allowBrowser()); a server that needs the user
// otherwise fails with the face's hint ("run switchboard-cli auth login NAME").
class SignIn : public QObject
{
    Q_OBJECT
public:
    enum class State {
        None,     // nothing known yet: the server has not asked
        Needed,   // the server wants a sign-in the user has not started
        Waiting,  // the browser is open on the authorization server
        SignedIn, // tokens in hand
        Failed,   // the last sign-in failed (detail says why)
    };
    struct Status
    {
        State state = State::None;
        QString detail;          // Failed: why; SignedIn: the authorization server
        bool memoryOnly = false; // no keychain answered: the tokens go with the process
    };

    // `secrets`: where tokens are kept (not owned); none: memory only.
    explicit SignIn(SecretStore *secrets, QObject *parent = nullptr);
    ~SignIn() override;

    // How the face shows the authorization URL (the system browser; the CLI prints it too).
    void setOpenUrl(Mcp::OAuth::LoopbackAgent::Open open);
    // What a server that needs the user says when no sign-in was started for it.
    void setNeededHint(std::function<QString(const QString &server)> hint);

    // The authorizer of one server's transport, or none.
    std::shared_ptr<Mcp::RequestAuthorizer> authorizerFor(const Mcp::ServerConfig &config);

    // The user asks to sign in to `server`: its next refusal opens the browser.
    void allowBrowser(const QString &server);
    // The user asks to sign in to `server` now (its transport exists: it has started once):
    // the browser opens unless a refresh token does; `done` once with the outcome.
    void signInNow(const QString &server, std::function<void(bool ok, const QString &why)> done);
    // Calls `done` once every write to the keychain has finished (at once when none is due).
    void whenSaved(std::function<void()> done);
    // Forgets the server's tokens, here and in the keychain.
    void signOut(const QString &server);
    Status status(const QString &server) const;
    // Every access and refresh token and client secret held now: secrets for the redactor.
    QStringList secrets() const;
    Mcp::OAuth::CredentialStore *store() { return &m_store; }
    Mcp::OAuth::LoopbackAgent *loopback() { return &m_loopback; }

signals:
    void statusChanged(const QString &server);

private:
    class Agent;
    class Keychain;
    struct Entry
    {
        QUrl url;
        QString settings; // what the authorizer was made from (a new one when it changes)
        // Kept here too: a sign-in the user started outlives the transport that failed.
        std::shared_ptr<Mcp::OAuth::Authorizer> authorizer;
        std::shared_ptr<Agent> agent;
        bool browserAllowed = false;
        Status status;
    };
    void setState(const QString &server, State state, const QString &detail = QString());

    std::unique_ptr<Keychain> m_keychain;
    Mcp::OAuth::CredentialStore m_store;
    Mcp::OAuth::LoopbackAgent m_loopback;
    std::function<QString(const QString &)> m_hint;
    QHash<QString, Entry> m_entries;
};

} // namespace Engine
