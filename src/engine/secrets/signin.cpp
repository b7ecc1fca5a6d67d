#include "signin.h"

#include "secretstore.h"

#include <QFile>
#include <QTimer>

namespace Engine {

using namespace Mcp::OAuth;

// The keychain as the credential store's backend: a failure leaves the values in memory
// (SecretStore's session copy) and is remembered for the status.
class SignIn::Keychain : public CredentialBackend
{
public:
    Keychain(SecretStore *secrets, SignIn *owner)
        : m_secrets(secrets)
        , m_owner(owner)
    {
    }
    void read(const QString &key, QObject *context, ReadDone done) override
    {
        m_secrets->read(key, context,
                        [this, done = std::move(done)](const SecretStore::Result &result) {
                            noteFailure(result);
                            if (result.status == SecretStore::Result::Ok)
                                done(result.secret.toUtf8(), QString());
                            else
                                done(std::nullopt, result.error);
                        });
    }
    void write(const QString &key, const QByteArray &value) override
    {
        ++m_pending;
        m_secrets->write(key, QString::fromUtf8(value), m_owner,
                         [this](const SecretStore::Result &result) { settle(result); });
    }
    void remove(const QString &key) override
    {
        ++m_pending;
        m_secrets->remove(key, m_owner,
                          [this](const SecretStore::Result &result) { settle(result); });
    }
    bool memoryOnly() const { return m_memoryOnly; }
    int pending() const { return m_pending; }

private:
    void settle(const SecretStore::Result &result)
    {
        --m_pending;
        noteFailure(result);
    }
    void noteFailure(const SecretStore::Result &result)
    {
        if (result.status == SecretStore::Result::Unavailable || result.sessionOnly)
            m_memoryOnly = true;
    }
    SecretStore *m_secrets;
    SignIn *m_owner;
    bool m_memoryOnly = false;
    int m_pending = 0;
};

// One server's user agent: the shared loopback listener, but only once the user asked to
// sign in to this server; otherwise the face's hint, without opening anything.
class SignIn::Agent : public UserAgent
{
public:
    Agent(SignIn *owner, QString server)
        : m_owner(owner)
        , m_server(std::move(server))
    {
    }
    QUrl redirectUri() const override { return m_owner->m_loopback.redirectUri(); }
    QString unavailable() const override
    {
        if (m_owner->m_entries.value(m_server).browserAllowed)
            return QString();
        m_owner->setState(m_server, State::Needed);
        return m_owner->m_hint ? m_owner->m_hint(m_server) : SignIn::tr("sign-in needed");
    }
    void authorize(const QUrl &url, Done done) override
    {
        if (const QString why = unavailable(); !why.isEmpty()) {
            done(QUrl(), why);
            return;
        }
        m_owner->m_entries[m_server].browserAllowed = false;
        m_owner->setState(m_server, State::Waiting);
        m_owner->m_loopback.authorize(url, std::move(done));
    }

private:
    SignIn *m_owner;
    QString m_server;
};

SignIn::SignIn(SecretStore *secrets, QObject *parent)
    : QObject(parent)
{
    if (secrets) {
        m_keychain = std::make_unique<Keychain>(secrets, this);
        m_store.setBackend(m_keychain.get());
    }
}

SignIn::~SignIn()
{
    m_store.setBackend(nullptr);
}

void SignIn::setOpenUrl(LoopbackAgent::Open open)
{
    m_loopback.setOpen(std::move(open));
}

void SignIn::setNeededHint(std::function<QString(const QString &)> hint)
{
    m_hint = std::move(hint);
}

std::shared_ptr<Mcp::RequestAuthorizer> SignIn::authorizerFor(const Mcp::ServerConfig &config)
{
    if (config.type != Mcp::TransportType::Http)
        return nullptr;
    // A token the user put in the config is the user's business.
    for (auto it = config.headers.cbegin(); it != config.headers.cend(); ++it) {
        if (it.key().compare(QLatin1String("Authorization"), Qt::CaseInsensitive) == 0)
            return nullptr;
    }
    SignInOptions options;
    options.serverUrl = QUrl(config.url);
    options.serverName = config.name;
    options.clientId = config.oauth.clientId;
    options.clientSecret = config.oauth.clientSecret;
    options.scopes = config.oauth.scopes;
    options.clientMetadataUrl = QUrl(config.oauth.clientMetadataUrl);
    if (config.oauth.grant == QLatin1String("client_credentials"))
        options.flow = SignInOptions::Flow::ClientCredentials;
    if (!config.oauth.privateKeyFile.isEmpty()) {
        QFile key(config.oauth.privateKeyFile);
        if (key.open(QIODevice::ReadOnly))
            options.privateKeyPem = key.read(64 * 1024);
        else
            options.privateKeyPem = "unreadable: " + key.errorString().toUtf8();
    }
    Entry &entry = m_entries[config.name];
    const QString settings = QStringList{config.url,
                                         config.oauth.clientId,
                                         config.oauth.clientSecret,
                                         config.oauth.scopes.join(u' '),
                                         config.oauth.clientMetadataUrl,
                                         config.oauth.grant,
                                         config.oauth.privateKeyFile}
                                     .join(QChar(0));
    if (entry.authorizer && entry.settings == settings)
        return entry.authorizer;
    entry.url = options.serverUrl;
    entry.settings = settings;
    if (!entry.agent) // kept: an earlier transport's authorizer may still use it
        entry.agent = std::make_shared<Agent>(this, config.name);
    auto authorizer = std::make_shared<Authorizer>(options, &m_store, entry.agent.get());
    entry.authorizer = authorizer;
    const QString name = config.name;
    connect(authorizer.get(), &Authorizer::signedIn, this, [this, name] {
        const std::optional<Grant> grant = m_store.grant(canonicalResource(m_entries[name].url));
        setState(name, State::SignedIn, grant ? grant->issuer : QString());
    });
    connect(authorizer.get(), &Authorizer::failed, this, [this, name](const QString &why) {
        if (status(name).state != State::Needed)
            setState(name, State::Failed, why);
    });
    authorizer->prepare();
    return authorizer;
}

void SignIn::allowBrowser(const QString &server)
{
    m_entries[server].browserAllowed = true;
}

void SignIn::signInNow(const QString &server, std::function<void(bool ok, const QString &why)> done)
{
    const auto it = m_entries.find(server);
    if (it == m_entries.end() || !it->authorizer) {
        done(false, tr("'%1' has not asked for a sign-in").arg(server));
        return;
    }
    it->browserAllowed = true;
    it->authorizer->signInNow(std::move(done));
}

void SignIn::whenSaved(std::function<void()> done)
{
    if (!m_keychain || m_keychain->pending() == 0) {
        done();
        return;
    }
    QTimer::singleShot(20, this,
                       [this, done = std::move(done)]() mutable { whenSaved(std::move(done)); });
}

void SignIn::signOut(const QString &server)
{
    const auto it = m_entries.constFind(server);
    if (it == m_entries.cend())
        return;
    m_store.forgetGrant(canonicalResource(it->url));
    setState(server, State::None);
}

QStringList SignIn::secrets() const
{
    return m_store.secrets();
}

SignIn::Status SignIn::status(const QString &server) const
{
    Status status = m_entries.value(server).status;
    status.memoryOnly = !m_keychain || m_keychain->memoryOnly();
    return status;
}

void SignIn::setState(const QString &server, State state, const QString &detail)
{
    Status &status = m_entries[server].status;
    status.state = state;
    status.detail = detail;
    emit statusChanged(server);
}

} // namespace Engine
