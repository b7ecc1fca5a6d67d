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

#include <mcp/client.h>
#include <mcp/httptransport.h>

#include <QCoreApplication>
#include <QTimer>

#include <cstdio>
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
        if (m_scenario == QLatin1String("elicitation-sep1034-client-defaults"))
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
                QCoreApplication::exit(m_ok ? 0 : 1);
            }
        });
        QTimer::singleShot(OverallTimeoutMs, this,
                           [this] { finish(false, QStringLiteral("gave up after 25 s")); });
    }

    void start() { m_client->connectToServer(); }

private:
    void run()
    {
        if (m_scenario == QLatin1String("initialize")) {
            finish(true);
        } else if (m_scenario == QLatin1String("tools_call")) {
            call("add_numbers", {{"a", 2}, {"b", 3}});
        } else if (m_scenario == QLatin1String("elicitation-sep1034-client-defaults")) {
            // The server asks on its own stream (GET): call once that stream is up.
            whenServerStreamOpen(
                    [this] { call("test_client_elicitation_defaults", Json::object()); });
        } else if (m_scenario == QLatin1String("sse-retry")) {
            call("test_reconnection", Json::object());
        } else if (m_scenario == QLatin1String("json-schema-2020-12-preservation")) {
            const Json *tool = m_client->findTool("json_schema_2020_12_tool");
            if (!tool) {
                finish(false, QStringLiteral("the server lists no json_schema_2020_12_tool"));
                return;
            }
            // The schema exactly as the server gave it, sent back.
            call("json_schema_echo", {{"schema", tool->value("inputSchema", Json::object())}});
        } else {
            finish(false, QStringLiteral("scenario '%1' is not supported yet").arg(m_scenario));
        }
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
            QCoreApplication::exit(ok ? 0 : 1);
        else
            m_client->close(); // the session is DELETEd; Closed exits
    }

    QString m_scenario;
    Client *m_client = nullptr;
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
    return app.exec();
}
