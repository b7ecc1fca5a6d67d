#include "cli.h"
#include "cliinternal.h"

#include <engine/secrets/secretstore.h>
#include <engine/secrets/signin.h>

#include <QUrl>

using namespace Mcp;

namespace Cli {

using namespace Internal;

// The one remote server `auth login|logout SERVER` names, or null with the exit code in *code.
const ServerConfig *Application::authServer(const QString &sub, int *code)
{
    if (m_args.size() != 1) {
        *code = usageError(QStringLiteral("auth %1: name one server").arg(sub));
        return nullptr;
    }
    const QString name = m_args.takeFirst();
    if (!loadConfig()) {
        *code = InvalidConfig;
        return nullptr;
    }
    const ServerConfig *server = m_session->config().find(name);
    if (!server) {
        err(tr("no server named '%1'").arg(name));
        *code = Usage;
        return nullptr;
    }
    if (server->type != TransportType::Http) {
        err(tr("'%1' is not a remote server (\"url\" with Streamable HTTP): there is nothing "
               "to sign in to")
                    .arg(name));
        *code = Usage;
        return nullptr;
    }
    return server;
}

// auth login SERVER
int Application::cmdAuthLogin()
{
    int code = Ok;
    const ServerConfig *server = authServer(QStringLiteral("login"), &code);
    if (!server)
        return code;
    authLogin(server->name);
    return -1;
}

// auth logout SERVER
int Application::cmdAuthLogout()
{
    int code = Ok;
    const ServerConfig *server = authServer(QStringLiteral("logout"), &code);
    if (!server)
        return code;
    const QString name = server->name;
    if (!m_session->signIn()->authorizerFor(*server)) {
        err(tr("'%1' sends its own Authorization header (in \"headers\"): Switchboard "
               "keeps no tokens for it")
                    .arg(name));
        return Usage;
    }
    m_session->signIn()->signOut(name);
    m_session->signIn()->whenSaved([this, name] {
        out(tr("signed out of %1: its tokens are forgotten").arg(name) + QLatin1Char('\n'));
        finish(Ok);
    });
    return -1;
}

// Connects; a server that wants the user gets the browser (the URL printed too, for a
// machine without one), then is connected again with the tokens.
void Application::authLogin(const QString &name)
{
    auto report = [this, name] {
        const ServerStatus status = m_session->manager()->status(name);
        if (status.state != ServerState::Connected) {
            err(tr("%1: %2").arg(name, status.reason));
            finish(ServerFailed);
            return;
        }
        const Engine::SignIn::Status signIn = m_session->signIn()->status(name);
        m_session->signIn()->whenSaved([this, name, signIn] {
            QString text = signIn.state == Engine::SignIn::State::SignedIn
                                   ? tr("signed in to %1 (authorization server %2)")
                                             .arg(name, signIn.detail)
                                   : tr("%1 is connected; it asked for no sign-in").arg(name);
            if (signIn.state == Engine::SignIn::State::SignedIn && signIn.memoryOnly)
                text += QLatin1Char('\n')
                        + tr("no keychain answered: the tokens were kept in memory only and "
                             "are gone when this command ends");
            out(text + QLatin1Char('\n'));
            finish(Ok);
        });
    };
    startServers({name});
    whenSettled([this, name, report] {
        if (m_session->manager()->status(name).state == ServerState::Connected
            || m_session->signIn()->status(name).state != Engine::SignIn::State::Needed) {
            report();
            return;
        }
        m_session->signIn()->signInNow(name, [this, name, report](bool ok, const QString &why) {
            if (!ok) {
                err(tr("%1: sign-in failed: %2").arg(name, why));
                finish(ServerFailed);
                return;
            }
            m_session->manager()->restartServer(name);
            whenSettled(report);
        });
    });
}

// auth status: every remote server, whether the keychain holds its tokens.
int Application::cmdAuthStatus()
{
    if (!m_args.isEmpty())
        return usageError(
                QStringLiteral("auth status: unexpected argument '%1'").arg(m_args.first()));
    if (!loadConfig())
        return InvalidConfig;
    auto servers = std::make_shared<QList<ServerConfig>>();
    for (const ServerConfig &server : m_session->config().servers) {
        if (server.type == TransportType::Http && m_session->signIn()->authorizerFor(server))
            servers->append(server);
    }
    if (servers->isEmpty()) {
        out(tr("no remote server here signs in") + QLatin1Char('\n'));
        return Ok;
    }
    auto left = std::make_shared<int>(int(servers->size()));
    for (const ServerConfig &server : std::as_const(*servers)) {
        const QString key = Mcp::OAuth::canonicalResource(QUrl(server.url));
        m_session->signIn()->store()->prepare(key, [this, servers, left] {
            if (--*left > 0)
                return;
            for (const ServerConfig &each : std::as_const(*servers)) {
                const auto grant = m_session->signIn()->store()->grant(
                        Mcp::OAuth::canonicalResource(QUrl(each.url)));
                out(grant ? tr("%1: signed in (authorization server %2, since %3)")
                                    .arg(each.name, grant->issuer,
                                         grant->obtained.toLocalTime().toString(Qt::ISODate))
                          : tr("%1: not signed in").arg(each.name));
                out(QStringLiteral("\n"));
            }
            if (!m_session->signIn()->store()->backendError().isEmpty())
                err(tr("the keychain did not answer (%1): nothing is kept across runs")
                            .arg(m_session->signIn()->store()->backendError()));
            finish(Ok);
        });
    }
    return -1;
}

} // namespace Cli
