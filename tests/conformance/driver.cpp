// switchboard-conformance: the client side of the official MCP conformance suite
// (@modelcontextprotocol/conformance). The suite runs it as
//
//   switchboard-conformance <server URL>
//
// with MCP_CONFORMANCE_SCENARIO naming the scenario (and MCP_CONFORMANCE_PROTOCOL_VERSION,
// MCP_CONFORMANCE_CONTEXT where a scenario needs them). It connects through the same
// Mcp::Client and Mcp::HttpTransport the application uses, does what the scenario asks of a
// client, closes the session and exits by itself: 0 when the scenario's part went through, 1
// (with the reason on stderr) when it did not or the scenario is not one it knows.

#include <mcp/auth/oauthclient.h>
#include <mcp/client/client.h>
#include <mcp/client/skills.h>
#include <mcp/transport/httptransport.h>

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QTimer>

#include <cstdio>
#include <deque>
#include <functional>

using namespace Mcp;

namespace {

// The suite kills a client after 30 s; give up a little earlier with a reason.
constexpr int OverallTimeoutMs = 25000;

void say(const QString &text)
{
    std::fprintf(stderr, "switchboard-conformance: %s\n", qPrintable(text));
}

// An elicitation/create answer that accepts with every default the requested schema names.
Json acceptWithDefaults(const Json &params)
{
    Json content = Json::object();
    const Json schema = params.value("requestedSchema", Json::object());
    const Json properties
            = schema.is_object() ? schema.value("properties", Json::object()) : Json::object();
    if (properties.is_object()) {
        for (const auto &[name, property] : properties.items()) {
            if (property.is_object() && property.contains("default"))
                content[name] = property["default"];
        }
    }
    return {{"action", "accept"}, {"content", content}};
}

class Driver : public QObject
{
public:
    Driver(QString scenario, QUrl url)
        : m_scenario(std::move(scenario))
    {
        HttpOptions http;
        http.serverName = QStringLiteral("conformance");
        http.url = std::move(url);
        ClientOptions options;
        options.serverName = http.serverName;
        options.clientName = "switchboard-conformance";
        options.clientVersion = "0.1.0";
        // The revision under test is what the era cache would hold for this server.
        const QString version = qEnvironmentVariable("MCP_CONFORMANCE_PROTOCOL_VERSION");
        for (const char *modern : ModernProtocolVersions) {
            if (version == QLatin1String(modern))
                options.era = Era::Rev2026_07_28;
        }
        if (m_scenario.startsWith(QLatin1String("auth/")))
            http.authorizer = signIn(http.url);
        if (m_scenario == QLatin1String("elicitation-sep1034-client-defaults")
            || options.era == Era::Rev2026_07_28)
            options.capabilities = {{"elicitation", {{"form", Json::object()}}}};
        m_client = new Client(new HttpTransport(http), options, this);
        m_client->setRequestHandler("elicitation/create",
                                    [](const Json &params, Client::Reply reply) {
                                        reply(Response::success(acceptWithDefaults(params)));
                                    });
        connect(m_client, &Client::warning, this, [](const QString &text) { say(text); });
        connect(m_client, &Client::stateChanged, this, [this](Client::State state) {
            if (state == Client::State::Ready && !m_started) {
                m_started = true;
                run();
            } else if (state == Client::State::Failed) {
                finish(false, m_client->errorString());
            } else if (state == Client::State::Closed) {
                exitSoon(m_ok ? 0 : 1);
            }
        });
        QTimer::singleShot(OverallTimeoutMs, this,
                           [this] { finish(false, QStringLiteral("gave up after 25 s")); });
    }

    void start() { m_client->connectToServer(); }

private:
    // Sign-in as the application does it, with the browser replaced by an agent that reads
    // the authorization server's redirect itself. A scenario's context may hold a client
    // registered beforehand.
    std::shared_ptr<OAuth::Authorizer> signIn(const QUrl &url)
    {
        const Json context
                = parseContext(qEnvironmentVariable("MCP_CONFORMANCE_CONTEXT").toStdString());
        OAuth::SignInOptions options;
        options.serverUrl = url;
        options.serverName = QStringLiteral("conformance");
        options.clientName = QStringLiteral("switchboard-conformance");
        const auto text = [&context](const char *key) {
            return QString::fromStdString(context.value(key, ""));
        };
        using Flow = OAuth::SignInOptions::Flow;
        if (m_scenario == QLatin1String("auth/pre-registration")
            || m_scenario.startsWith(QLatin1String("auth/client-credentials-"))
            || m_scenario == QLatin1String("auth/enterprise-managed-authorization")) {
            options.clientId = text("client_id");
            options.clientSecret = text("client_secret");
        }
        if (m_scenario.startsWith(QLatin1String("auth/client-credentials-"))) {
            options.flow = Flow::ClientCredentials;
            options.privateKeyPem = text("private_key_pem").toUtf8();
            options.signingAlgorithm = text("signing_algorithm");
        } else if (m_scenario == QLatin1String("auth/enterprise-managed-authorization")) {
            options.flow = Flow::EnterpriseManaged;
            options.idpTokenEndpoint = QUrl(text("idp_token_endpoint"));
            options.idpClientId = text("idp_client_id");
            options.idToken = text("idp_id_token").toUtf8();
        } else if (m_scenario == QLatin1String("auth/wif-jwt-bearer")) {
            options.flow = Flow::JwtBearer;
            options.clientId = text("client_id");
            options.assertion = text("valid_jwt").toUtf8();
        }
        options.clientMetadataUrl
                = QUrl(QStringLiteral("https://conformance-test.local/client-metadata.json"));
        auto *store = new OAuth::CredentialStore(this);
        auto *agent = new OAuth::RedirectReadingAgent(
                QUrl(QStringLiteral("http://127.0.0.1:9876/callback")), this);
        auto authorizer = std::make_shared<OAuth::Authorizer>(options, store, agent);
        connect(authorizer.get(), &OAuth::Authorizer::failed, this,
                [](const QString &why) { say(QStringLiteral("sign-in failed: %1").arg(why)); });
        return authorizer;
    }

    void run()
    {
        if (m_scenario.startsWith(QLatin1String("auth/"))) {
            // An authenticated list (on the way in) and call: step-up and a move to another
            // authorization server happen between the two.
            call("test-tool", Json::object());
        } else if (m_scenario == QLatin1String("initialize")) {
            finish(true);
        } else if (m_scenario == QLatin1String("tools_call")) {
            call("add_numbers", {{"a", 2}, {"b", 3}});
        } else if (m_scenario == QLatin1String("elicitation-sep1034-client-defaults")) {
            // The server asks on its own stream (GET): call once that stream is up.
            whenServerStreamOpen(
                    [this] { call("test_client_elicitation_defaults", Json::object()); });
        } else if (m_scenario == QLatin1String("sse-retry")) {
            // The scenario's server takes the first GET it sees after the call for the
            // reconnection it waits for: the client's own GET stream must be up before the
            // call, or it is judged a reconnection that came too early (which happened where
            // localhost is ::1 first and that stream's connection took longer).
            whenServerStreamOpen([this] { call("test_reconnection", Json::object()); });
        } else if (m_scenario == QLatin1String("request-metadata")) {
            // The retry with a supported version happened on the way in; one more request.
            then([this](Step done) { request("tools/list", Json::object(), done); });
            next();
        } else if (m_scenario == QLatin1String("json-schema-ref-no-deref")) {
            finish(true); // the tools were listed; nothing is fetched from a $ref
        } else if (m_scenario == QLatin1String("sep-2322-client-request-state")) {
            // Multi-round requests: the elicitation handler accepts; a call that needs no
            // input must carry none of another call's state.
            for (const char *tool : {"test_mrtr_echo_state", "test_mrtr_unrelated",
                                     "test_mrtr_no_state", "test_mrtr_no_result_type"})
                then([this, tool](Step done) { call(tool, Json::object(), done); });
            next();
        } else if (m_scenario == QLatin1String("http-standard-headers")) {
            then([this](Step done) { call("test_headers", Json::object(), done); });
            then([this](Step done) {
                request("resources/list", Json::object(), [this, done](const Json &result) {
                    const Json resources = result.value("resources", Json::array());
                    if (!resources.is_array() || resources.empty()) {
                        finish(false, QStringLiteral("resources/list listed nothing"));
                        return;
                    }
                    request("resources/read", {{"uri", resources[0].value("uri", "")}}, done);
                });
            });
            then([this](Step done) { request("prompts/list", Json::object(), done); });
            then([this](Step done) {
                request("prompts/get", {{"name", "test_prompt"}, {"arguments", Json::object()}},
                        done);
            });
            next();
        } else if (m_scenario == QLatin1String("http-custom-headers")) {
            const Json context
                    = parseContext(qEnvironmentVariable("MCP_CONFORMANCE_CONTEXT").toStdString());
            for (const Json &toolCall : context.value("toolCalls", Json::array())) {
                const std::string name = toolCall.value("name", "");
                const Json arguments = toolCall.value("arguments", Json::object());
                then([this, name, arguments](Step done) { call(name, arguments, done); });
            }
            next();
        } else if (m_scenario == QLatin1String("http-invalid-tool-headers")) {
            // Whatever is left after the client dropped the tools with invalid declarations.
            for (const Json &tool : m_client->tools()) {
                const std::string name = tool.value("name", "");
                then([this, name](Step done) { call(name, {{"region", "us-west1"}}, done); });
            }
            next();
        } else if (m_scenario == QLatin1String("json-schema-2020-12-preservation")) {
            const Json *tool = m_client->findTool("json_schema_2020_12_tool");
            if (!tool) {
                finish(false, QStringLiteral("the server lists no json_schema_2020_12_tool"));
                return;
            }
            // The schema exactly as the server gave it, sent back.
            call("json_schema_echo", {{"schema", tool->value("inputSchema", Json::object())}});
        } else if (m_scenario.startsWith(QLatin1String("sep-2640-client-"))) {
            useSkill(m_scenario != QLatin1String("sep-2640-client-no-prefetch"));
        } else {
            finish(false, QStringLiteral("scenario '%1' is not supported yet").arg(m_scenario));
        }
    }

    // Skills (SEP-2640): listed on connection, never read ahead of use. Using one reads its
    // SKILL.md, verifies it against the listing (size, digest, frontmatter) and only then
    // reads its other listed files, each verified too.
    void useSkill(bool use)
    {
        if (!Skills::offered(m_client->serverCapabilities())) {
            finish(false, QStringLiteral("the server does not declare the skills extension"));
            return;
        }
        request("skills/list", Json::object(), [this, use](const Json &result) {
            QStringList problems;
            const std::vector<Skills::Entry> skills = Skills::readList(result, &problems);
            for (const QString &problem : problems)
                say(QStringLiteral("skipped a skill: %1").arg(problem));
            if (!use) {
                finish(true);
                return;
            }
            if (skills.empty()) {
                finish(false, QStringLiteral("skills/list listed no usable skill"));
                return;
            }
            const Skills::Entry skill = skills.front();
            std::vector<QString> order{skill.uri};
            for (const Skills::File &file : skill.files) {
                if (file.uri != skill.uri)
                    order.push_back(file.uri);
            }
            for (const QString &uri : order) {
                then([this, skill, uri](Step done) {
                    request("resources/read", {{"uri", uri.toStdString()}},
                            [this, skill, uri, done](const Json &read) {
                                QString error;
                                const auto bytes = Skills::contentBytes(read, uri, &error);
                                if (bytes)
                                    error = Skills::verify(skill, uri, *bytes);
                                if (!error.isEmpty()) {
                                    finish(false,
                                           QStringLiteral("refused the skill: %1").arg(error));
                                    return;
                                }
                                done();
                            });
                });
            }
            next();
        });
    }

    using Step = std::function<void()>;
    // Steps run one after the other; each calls `done` when it went through.
    void then(std::function<void(Step done)> step) { m_steps.push_back(std::move(step)); }
    void next()
    {
        if (m_steps.empty()) {
            finish(true);
            return;
        }
        auto step = std::move(m_steps.front());
        m_steps.pop_front();
        step([this] { next(); });
    }

    void call(const std::string &tool, Json arguments, Step done)
    {
        m_client->callTool(tool, std::move(arguments), this, [this, tool, done](ToolResult result) {
            if (result.error)
                finish(false,
                       QStringLiteral("%1: %2").arg(QString::fromStdString(tool), result.text()));
            else
                done();
        });
    }

    void request(const std::string &method, Json params, Step done)
    {
        request(method, std::move(params), [done](const Json &) { done(); });
    }
    void request(const std::string &method, Json params, std::function<void(const Json &)> then)
    {
        m_client->request(method, std::move(params), this, [this, method, then](Response r) {
            if (!r.ok())
                finish(false, QStringLiteral("%1: %2").arg(QString::fromStdString(method),
                                                           r.error->toString()));
            else
                then(r.result);
        });
    }

    static Json parseContext(const std::string &text)
    {
        Json context = Json::parse(text, nullptr, false);
        return context.is_object() ? context : Json::object();
    }

    void call(const std::string &tool, Json arguments)
    {
        m_client->callTool(tool, std::move(arguments), this, [this, tool](ToolResult result) {
            if (result.error)
                finish(false,
                       QStringLiteral("%1: %2").arg(QString::fromStdString(tool), result.text()));
            else
                finish(true);
        });
    }

    // Exits a little later, with the network access manager's connection cache flushed
    // first: the replies the transport let go (an aborted GET stream, the DELETE that ended
    // the session) and the kept-alive connections are then gone while the network thread that
    // owns their other halves still runs, so nothing of theirs is left behind at exit.
    void exitSoon(int code)
    {
        threadNetworkAccess()->clearConnectionCache();
        QTimer::singleShot(50, qApp, [code] { QCoreApplication::exit(code); });
    }

    void whenServerStreamOpen(std::function<void()> then)
    {
        auto *http = qobject_cast<HttpTransport *>(m_client->transport());
        auto *poll = new QTimer(this);
        auto waited = std::make_shared<int>(0);
        connect(poll, &QTimer::timeout, this, [http, poll, waited, then] {
            *waited += 10;
            if (http->isServerStreamOpen() || *waited >= 3000) {
                poll->deleteLater();
                then();
            }
        });
        poll->start(10);
    }

    void finish(bool ok, const QString &why = QString())
    {
        if (m_finishing)
            return;
        m_finishing = true;
        m_ok = ok;
        if (!ok)
            say(why);
        if (m_client->state() == Client::State::Failed
            || m_client->state() == Client::State::Closed)
            exitSoon(ok ? 0 : 1);
        else
            m_client->close(); // the session is DELETEd; Closed exits
    }

    QString m_scenario;
    Client *m_client = nullptr;
    std::deque<std::function<void(Step)>> m_steps;
    bool m_started = false;
    bool m_finishing = false;
    bool m_ok = false;
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QString scenario = qEnvironmentVariable("MCP_CONFORMANCE_SCENARIO");
    if (argc < 2 || scenario.isEmpty()) {
        say(QStringLiteral("usage: MCP_CONFORMANCE_SCENARIO=NAME switchboard-conformance URL"));
        return 1;
    }
    const QUrl url(QString::fromLocal8Bit(argv[argc - 1]));
    Driver driver(scenario, url);
    driver.start();
    const int code = app.exec();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return code;
}
