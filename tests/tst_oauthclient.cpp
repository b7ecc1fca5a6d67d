#include "jsontest.h"
#include "mcphttpserver.h"
#include "mcptest.h"
#include "oauthserver.h"
#include "processtest.h"

#include <mcp/auth/oauthclient.h>
#include <mcp/client/client.h>
#include <mcp/transport/httptransport.h>

#include <QDirIterator>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace Mcp;
using namespace Mcp::OAuth;

// Sign-in end to end on 127.0.0.1: an MCP server that wants a bearer token
// (tests/mcphttpserver.h), a real OAuth authorization server (tests/oauthserver.h, Qt
// HttpServer), and Mcp::Client over HttpTransport with the Authorizer; the browser is the
// agent that reads the redirect. What the conformance suite cannot show: refresh tokens used
// before the user is asked again, registrations kept per authorization server, and the
// server's refusal in words.
class tst_OAuthClient : public QObject
{
    Q_OBJECT

    std::unique_ptr<OAuthServer> m_auth;
    std::unique_ptr<McpHttpServer> m_mcp;
    std::unique_ptr<CredentialStore> m_store;
    std::unique_ptr<RedirectReadingAgent> m_agent;

    std::pair<std::unique_ptr<Client>, std::shared_ptr<Authorizer>> makeClient(UserAgent *agent
                                                                               = nullptr)
    {
        SignInOptions signIn;
        signIn.serverUrl = QUrl(m_mcp->url());
        signIn.serverName = QStringLiteral("remote");
        auto authorizer = std::make_shared<Authorizer>(signIn, m_store.get(),
                                                       agent ? agent : m_agent.get());
        HttpOptions http;
        http.serverName = QStringLiteral("remote");
        http.url = QUrl(m_mcp->url());
        http.closeTimeoutMs = 1000;
        http.authorizer = authorizer;
        ClientOptions options;
        options.serverName = http.serverName;
        options.initializeTimeoutMs = 20000;
        auto client = std::make_unique<Client>(new HttpTransport(http), options);
        return {std::move(client), authorizer};
    }

    // The Authorization headers the MCP server saw on POSTs, in order.
    QList<QByteArray> bearers() const
    {
        QList<QByteArray> seen;
        for (const McpHttpServer::Request &request : m_mcp->requests()) {
            if (request.method == "POST")
                seen << request.headers.value("authorization");
        }
        return seen;
    }

private slots:
    void init()
    {
        m_auth = std::make_unique<OAuthServer>();
        m_mcp = std::make_unique<McpHttpServer>();
        QVERIFY(m_mcp->listen());
        m_auth->resource = m_mcp->url();
        m_mcp->resourceMetadata = m_auth->resourceMetadataUrl().toUtf8();
        m_mcp->authorize = [this](const QByteArray &authorization) {
            return m_auth->accepts(authorization);
        };
        m_store = std::make_unique<CredentialStore>();
        m_agent = std::make_unique<RedirectReadingAgent>(
                QUrl(QStringLiteral("http://127.0.0.1:9/callback")));
    }

    void cleanup()
    {
        m_agent.reset();
        m_store.reset();
        m_mcp.reset();
        m_auth.reset();
    }

    void signInThenEveryRequestCarriesTheToken()
    {
        auto [client, authorizer] = makeClient();
        QSignalSpy waiting(authorizer.get(), &Authorizer::waitingForUser);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QVERIFY2(client->state() == Client::State::Ready, qPrintable(client->errorString()));
        QCOMPARE(m_auth->registrations, 1);
        QCOMPARE(m_auth->authorizations, 1);
        QCOMPARE(m_auth->codeGrants, 1);
        QCOMPARE(waiting.count(), 1);

        // The authorization request: PKCE S256, the resource exactly as the metadata says,
        // the metadata's scopes and offline_access (the authorization server lists it).
        const QUrlQuery &asked = m_auth->lastAuthorization;
        QCOMPARE(asked.queryItemValue("code_challenge_method"), QStringLiteral("S256"));
        QCOMPARE(asked.queryItemValue("resource", QUrl::FullyDecoded), m_mcp->url());
        QCOMPARE(asked.queryItemValue("scope", QUrl::FullyDecoded),
                 QStringLiteral("mcp:read offline_access"));
        QCOMPARE(asked.queryItemValue("client_id"), QStringLiteral("client-1"));
        QCOMPARE(m_auth->lastTokenForm.value("resource"), m_mcp->url());
        QVERIFY(!m_auth->lastTokenForm.value("code_verifier").isEmpty());

        // The first POST went without a token and was refused; it and every one after carry
        // the token issued.
        const QList<QByteArray> seen = bearers();
        QVERIFY(seen.size() >= 3);
        QVERIFY(seen.first().isEmpty());
        for (qsizetype i = 1; i < seen.size(); ++i)
            QVERIFY2(m_auth->accepts(seen[i]), seen[i].constData());
        QCOMPARE(echoedText(client.get()), QStringLiteral("hello"));

        const std::optional<Grant> grant = m_store->grant(canonicalResource(QUrl(m_mcp->url())));
        QVERIFY(grant);
        QCOMPARE(grant->issuer, m_auth->issuer());
        QVERIFY(!grant->tokens.refreshToken.isEmpty());
    }

    void refreshTokenComesBeforeTheUser()
    {
        auto [client, authorizer] = makeClient();
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Ready);
        m_auth->expireAccessTokens();
        QCOMPARE(echoedText(client.get()), QStringLiteral("hello"));
        QCOMPARE(m_auth->refreshGrants, 1);
        QCOMPARE(m_auth->authorizations, 1);
        QCOMPARE(authorizer->authorizationCount(), 1);
        QCOMPARE(m_auth->lastTokenForm.value("grant_type"), QStringLiteral("refresh_token"));
        QCOMPARE(m_auth->lastTokenForm.value("resource"), m_mcp->url());
    }

    // A registration belongs to the authorization server, not to one sign-in: signing in
    // again (the grant forgotten, as "Sign out" does) registers nothing new.
    void registrationIsKeptPerAuthorizationServer()
    {
        {
            auto [client, authorizer] = makeClient();
            client->connectToServer();
            QVERIFY(settle(client.get()));
            QCOMPARE(client->state(), Client::State::Ready);
        }
        QVERIFY(m_store->registration(m_auth->issuer()));
        m_store->forgetGrant(canonicalResource(QUrl(m_mcp->url())));
        auto [client, authorizer] = makeClient();
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Ready);
        QCOMPARE(m_auth->registrations, 1);
        QCOMPARE(m_auth->authorizations, 2);
        QCOMPARE(m_auth->lastAuthorization.queryItemValue("client_id"), QStringLiteral("client-1"));
    }

    // The authorization server says no: the request fails with its reason in words, and
    // nothing the server issued (or a token) is in the message.
    void refusalIsShownInWords()
    {
        m_auth->refuseWith = QStringLiteral("access_denied");
        auto [client, authorizer] = makeClient();
        QSignalSpy failed(authorizer.get(), &Authorizer::failed);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        const QString error = client->errorString();
        QVERIFY2(error.contains(QLatin1String("access_denied"))
                         && error.contains(QLatin1String("sign-in failed"))
                         && error.contains(QLatin1String("'remote'")),
                 qPrintable(error));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(m_auth->codeGrants, 0);
        QVERIFY(!m_store->grant(canonicalResource(QUrl(m_mcp->url()))));
    }

    // The desktop's agent: the "browser" (here a test that follows the authorization
    // server's redirect to the loopback listener) lands on the callback, which answers with
    // a page and closes.
    void loopbackAgentTakesTheBrowsersAnswer()
    {
        QByteArray page;
        QUrl redirected;
        auto browser = [&](const QUrl &url) {
            followSignIn(m_network, url, [&](const QUrl &redirect, const QByteArray &answer) {
                redirected = redirect;
                page = answer;
            });
        };
        LoopbackAgent agent(browser);
        auto [client, authorizer] = makeClient(&agent);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QVERIFY2(client->state() == Client::State::Ready, qPrintable(client->errorString()));
        QCOMPARE(redirected.host(), QStringLiteral("127.0.0.1"));
        QCOMPARE(redirected.path(), QStringLiteral("/callback"));
        QTRY_VERIFY(page.contains("close this tab"));
        QVERIFY(!agent.isWaiting());
        // The listener is gone once it has its answer.
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, quint16(redirected.port()));
        QVERIFY(!probe.waitForConnected(1000));
    }

    // A request to the callback without this sign-in's state (another program on this
    // machine, a stale tab) gets 400 and the listener keeps waiting: the real redirect after
    // it still signs in.
    void loopbackAgentIgnoresStrayAnswers()
    {
        QList<int> strayStatus;
        QByteArray page;
        auto browser = [&](const QUrl &url) {
            const QUrl callback(QUrlQuery(url).queryItemValue(QStringLiteral("redirect_uri"),
                                                              QUrl::FullyDecoded));
            auto stray = [this, &strayStatus, callback](const QString &query,
                                                        std::function<void()> then) {
                QUrl target = callback;
                target.setQuery(query);
                QNetworkReply *reply = m_network.get(QNetworkRequest(target));
                connect(reply, &QNetworkReply::finished, this, [&strayStatus, reply, then] {
                    reply->deleteLater();
                    strayStatus
                            << reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                    then();
                });
            };
            stray(QStringLiteral("code=stolen&state=wrong"), [&, stray, url] {
                stray(QStringLiteral("code=stolen"), [&, url] {
                    followSignIn(m_network, url,
                                 [&](const QUrl &, const QByteArray &answer) { page = answer; });
                });
            });
        };
        LoopbackAgent agent(browser);
        auto [client, authorizer] = makeClient(&agent);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QVERIFY2(client->state() == Client::State::Ready, qPrintable(client->errorString()));
        QCOMPARE(strayStatus, (QList<int>{400, 400}));
        QTRY_VERIFY(page.contains("close this tab"));
        QVERIFY(!agent.isWaiting());
    }

    void loopbackAgentGivesUp()
    {
        LoopbackAgent agent([](const QUrl &) {}); // nobody answers in the browser
        agent.setTimeoutMs(300);
        auto [client, authorizer] = makeClient(&agent);
        client->connectToServer();
        QVERIFY(settle(client.get()));
        QCOMPARE(client->state(), Client::State::Failed);
        QVERIFY2(client->errorString().contains(QLatin1String("no answer came from the browser")),
                 qPrintable(client->errorString()));
    }

    // switchboard-cli: a server that needs sign-in fails with exit 3 and a reason naming
    // `auth login`; `auth login` prints the authorization URL (the test is the browser) and
    // connects once signed in; no token reaches the files under the config and data folders.
    void cliSignsInThroughTheBrowser()
    {
        QTemporaryDir home, workspace;
        const QString config = workspace.filePath(QStringLiteral("remote.json"));
        {
            QFile file(config);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QStringLiteral("{\"mcpServers\": {\"remote\": {\"url\": \"%1\"}}}")
                               .arg(m_mcp->url())
                               .toUtf8());
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("SWITCHBOARD_KEYCHAIN_SERVICE"),
                   QStringLiteral("switchboard-test-%1").arg(QCoreApplication::applicationPid()));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        struct Run
        {
            int code = -1;
            QString out, err;
        };
        // `browser`: called with each stderr line while the command runs.
        auto cli = [&](const QStringList &args, std::function<void(const QString &)> browser = {}) {
            QProcess process;
            process.setProcessEnvironment(env);
            Run run;
            connect(&process, &QProcess::readyReadStandardError, this, [&] {
                const QString text = QString::fromUtf8(process.readAllStandardError());
                run.err += text;
                if (browser) {
                    for (const QString &line : text.split(QLatin1Char('\n')))
                        browser(line);
                }
            });
            process.start(QStringLiteral(SWITCHBOARD_CLI),
                          QStringList{QStringLiteral("--workspace"), workspace.path(),
                                      QStringLiteral("--config"), config}
                                  + args);
            if (!finishWhileServing(process))
                return run;
            run.code = process.exitCode();
            run.out = QString::fromUtf8(process.readAllStandardOutput());
            run.err += QString::fromUtf8(process.readAllStandardError());
            return run;
        };

        Run run = cli({QStringLiteral("servers")});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.out.contains(QLatin1String("auth login remote")), qPrintable(run.out));
        QCOMPARE(m_auth->authorizations, 0); // nothing was opened for a plain `servers`

        bool followed = false;
        run = cli({QStringLiteral("auth"), QStringLiteral("login"), QStringLiteral("remote")},
                  [&](const QString &line) {
                      if (!line.startsWith(m_auth->issuer() + QLatin1String("/authorize")))
                          return;
                      followed = true;
                      followSignIn(m_network, QUrl(line.trimmed()));
                  });
        QVERIFY2(run.code == 0, qPrintable((run.err + run.out).right(1500)));
        QVERIFY(followed);
        QVERIFY2(run.out.contains(QLatin1String("signed in to remote")), qPrintable(run.out));
        QCOMPARE(m_auth->authorizations, 1);
        QCOMPARE(m_auth->codeGrants, 1);

        // No token, refresh token or code in any file the CLI wrote.
        QDirIterator files(home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        int seen = 0;
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray content = file.readAll();
            ++seen;
            QVERIFY2(!content.contains("access-") && !content.contains("refresh-")
                             && !content.contains("code-"),
                     qPrintable(file.fileName()));
        }
        QVERIFY(seen > 0); // the audit log, the era cache: the check looked at something

        run = cli({QStringLiteral("auth"), QStringLiteral("status")});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.contains(QLatin1String("remote:")), qPrintable(run.out));
        run = cli({QStringLiteral("auth"), QStringLiteral("logout"), QStringLiteral("remote")});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.contains(QLatin1String("signed out of remote")), qPrintable(run.out));
    }

private:
    QNetworkAccessManager m_network;

    static QString echoedText(Client *client)
    {
        auto result = callAndWait(client, "echo", Json{{"text", "hello"}}, 15000);
        if (!result)
            return QStringLiteral("<no answer>");
        if (result->failed())
            return QStringLiteral("<failed> ") + result->text();
        return result->text();
    }
};

QTEST_GUILESS_MAIN(tst_OAuthClient)
#include "tst_oauthclient.moc"
