#include "jsontest.h"

#include <engine/approval/approval.h>
#include <engine/approval/auditlog.h>
#include <engine/apps/appbridge.h>
#include <engine/tools/toolregistry.h>

#include <mcp/manager.h>

#include <QTemporaryDir>
#include <QTest>

using namespace Engine;
using Mcp::Json;

namespace {

// A tool of server "weather" with a given visibility; "hang" in its arguments keeps it running
// until cancelled.
class WeatherTool : public Tool
{
public:
    WeatherTool(QString server, QString tool, bool model, bool app)
        : m_server(std::move(server))
        , m_tool(std::move(tool))
    {
        m_ui.model = model;
        m_ui.app = app;
    }
    QString name() const override { return QStringLiteral("mcp__%1__%2").arg(m_server, m_tool); }
    QString description() const override { return QStringLiteral("weather"); }
    Json inputSchema() const override { return Json{{"type", "object"}}; }
    Risk risk() const override { return Risk::Mutating; }
    QString source() const override { return m_server; }
    bool isBuiltin() const override { return false; }
    QString originalName() const override { return m_tool; }
    const Mcp::Apps::ToolUi &appUi() const override { return m_ui; }

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &,
                         std::function<void(ToolOutput)> done) override
    {
        if (arguments.contains("hang"))
            return [done] {
                done(ToolOutput::error(QStringLiteral("stopped")));
            };
        ToolOutput output = ToolOutput::text(QStringLiteral("sunny"));
        output.structuredContent = Json{{"sky", "sunny"}};
        done(output);
        return {};
    }

private:
    QString m_server, m_tool;
    Mcp::Apps::ToolUi m_ui;
};

} // namespace

// The host's side of a view's bridge without a web engine: the handshake and what is owed the
// view in order, the view's calls through the gate (origin app) and what is refused, the
// throttles, the person's say over links and messages, display modes, sizes, teardown.
class tst_AppBridge : public QObject
{
    Q_OBJECT

    struct Rig
    {
        Mcp::Manager manager{Mcp::ManagerOptions{}};
        ToolRegistry registry;
        FixedApprovalGate gate{ApprovalDecision{ApprovalChoice::AllowOnce, {}}};
        ToolRunner runner{&registry, &gate, QStringLiteral("/tmp")};
        std::vector<Json> posted;
        QStringList logged;
        QStringList suggested;
        QStringList contexts;
        QList<QUrl> linksAsked;
        bool openLinks = false;
        QStringList modesAsked;
        QList<QSize> sizes;
        std::unique_ptr<AppBridge> bridge;

        explicit Rig(AppBridge::Options options = {})
        {
            registry.add(std::make_shared<WeatherTool>(QStringLiteral("weather"),
                                                       QStringLiteral("show_map"), true, true));
            registry.add(std::make_shared<WeatherTool>(QStringLiteral("weather"),
                                                       QStringLiteral("refresh"), false, true));
            registry.add(std::make_shared<WeatherTool>(QStringLiteral("weather"),
                                                       QStringLiteral("forecast"), true, false));
            registry.add(std::make_shared<WeatherTool>(QStringLiteral("bank"),
                                                       QStringLiteral("transfer"), true, true));
            options.server = QStringLiteral("weather");
            options.conversationId = QStringLiteral("conv-1");
            AppBridge::Face face;
            face.post = [this](const QByteArray &json) {
                posted.push_back(Json::parse(json.toStdString()));
            };
            face.log = [this](bool, const QString &text) {
                logged << text;
            };
            face.suggestMessage = [this](const QString &text) {
                suggested << text;
            };
            face.setModelContext = [this](const QString &text) {
                contexts << text;
            };
            face.openLink = [this](const QUrl &url, std::function<void(bool)> decide) {
                linksAsked << url;
                decide(openLinks);
            };
            face.requestDisplayMode = [this](const QString &mode) {
                modesAsked << mode;
                return mode;
            };
            face.sizeChanged = [this](int width, int height) {
                sizes << QSize(width, height);
            };
            bridge = std::make_unique<AppBridge>(&manager, &registry, &runner, options, face);
        }

        void send(const Json &message)
        {
            bridge->receive(QByteArray::fromStdString(message.dump()));
        }
        void request(int id, const char *method, Json params = Json::object())
        {
            send(Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
        }
        void notification(const char *method, Json params = Json::object())
        {
            send(Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
        }
        void initialize(Json appCapabilities = Json::object())
        {
            request(0, "ui/initialize",
                    {{"appInfo", {{"name", "Weather"}, {"version", "1"}}},
                     {"appCapabilities", appCapabilities},
                     {"protocolVersion", "2026-01-26"}});
            notification("ui/notifications/initialized");
        }
        // The answer to request `id`, once it came.
        std::optional<Json> answer(int id) const
        {
            for (const Json &message : posted) {
                if (message.contains("id") && message["id"] == id && !message.contains("method"))
                    return message;
            }
            return std::nullopt;
        }
        QStringList methods() const
        {
            QStringList out;
            for (const Json &message : posted) {
                if (message.contains("method"))
                    out << QString::fromStdString(message["method"].get<std::string>());
            }
            return out;
        }
    };

private slots:
    // ui/initialize gets the four members the SDK requires; nothing else goes to the view
    // before it is initialized; then the input, then the result, once each.
    void handshakeAndOrder()
    {
        AppBridge::Options options;
        options.hostContext = Json{{"theme", "dark"}, {"locale", "zh-CN"}};
        Rig rig(options);
        rig.bridge->toolInputPartial(Json{{"city", "Ber"}});
        rig.bridge->toolInput(Json{{"city", "Berlin"}});
        rig.bridge->toolResult(Json{{"content", Json::array()}, {"structuredContent", {{"t", 1}}}});
        QVERIFY(rig.posted.empty());
        rig.request(0, "ui/initialize", {{"protocolVersion", "2026-01-26"}});
        QCOMPARE(rig.posted.size(), std::size_t(1));
        const Json result = rig.posted[0]["result"];
        QCOMPARE_JSON(result["protocolVersion"], "2026-01-26");
        QCOMPARE_JSON(result["hostInfo"]["name"], "Switchboard");
        QVERIFY(result["hostCapabilities"].contains("serverTools"));
        QVERIFY(result["hostCapabilities"].contains("openLinks"));
        QCOMPARE_JSON(result["hostContext"]["theme"], "dark");
        QCOMPARE_JSON(result["hostContext"]["locale"], "zh-CN");
        QCOMPARE_JSON(result["hostContext"]["displayMode"], "inline");
        QCOMPARE(rig.posted.size(), std::size_t(1)); // still nothing before initialized
        rig.notification("ui/notifications/initialized");
        QCOMPARE(rig.methods(), (QStringList{QStringLiteral("ui/notifications/tool-input"),
                                             QStringLiteral("ui/notifications/tool-result")}));
        QCOMPARE_JSON(rig.posted[1]["params"]["arguments"]["city"], "Berlin");
        rig.bridge->toolResult(Json::object());
        rig.bridge->toolInput(Json::object());
        QCOMPARE(rig.methods().size(), 2); // once each

        // A page that reloads gets them again after its new handshake.
        rig.initialize();
        QCOMPARE(rig.methods().size(), 4);
        // An unknown version is answered with ours.
        rig.request(9, "ui/initialize", {{"protocolVersion", "1999-01-01"}});
        QCOMPARE_JSON((*rig.answer(9))["result"]["protocolVersion"], "2026-01-26");
    }

    void partialInputThenCancelled()
    {
        Rig rig;
        rig.initialize();
        rig.bridge->toolInputPartial(Json{{"city", "B"}});
        rig.bridge->toolInputPartial(Json{{"city", "Be"}});
        rig.bridge->toolCancelled(QStringLiteral("stopped by the person"));
        QCOMPARE(rig.methods(), (QStringList{QStringLiteral("ui/notifications/tool-input-partial"),
                                             QStringLiteral("ui/notifications/tool-input-partial"),
                                             QStringLiteral("ui/notifications/tool-input"),
                                             QStringLiteral("ui/notifications/tool-cancelled")}));
        QCOMPARE_JSON(rig.posted.back()["params"]["reason"], "stopped by the person");
    }

    // A view's call of its own server's "app" tool goes through the gate, which is told the
    // view asked; the audit log says origin app. Model-only tools, other servers' tools and
    // unknown tools are refused without asking anyone.
    void callsGoThroughTheGate()
    {
        QTemporaryDir dir;
        Rig rig;
        AuditLog audit(dir.filePath(QStringLiteral("audit.jsonl")));
        audit.attach(&rig.runner);
        rig.initialize();
        rig.request(1, "tools/call", {{"name", "show_map"}, {"arguments", {{"zoom", 3}}}});
        QTRY_VERIFY(rig.answer(1));
        QVERIFY(rig.gate.lastRequest().origin == CallOrigin::App);
        QCOMPARE(rig.gate.lastRequest().toolName, QStringLiteral("mcp__weather__show_map"));
        QCOMPARE_JSON((*rig.answer(1))["result"]["structuredContent"]["sky"], "sunny");
        QCOMPARE_JSON((*rig.answer(1))["result"]["isError"], false);
        const auto records = AuditLog::readRecords(dir.filePath(QStringLiteral("audit.jsonl")));
        QVERIFY(!records.empty());
        for (const Json &record : records)
            QCOMPARE_JSON(record["origin"], "app");

        rig.request(2, "tools/call", {{"name", "refresh"}}); // app only: fine for a view
        QTRY_VERIFY(rig.answer(2));
        QVERIFY((*rig.answer(2)).contains("result"));

        // Refusals below reach neither the gate nor the audit log.
        const std::size_t asked
                = AuditLog::readRecords(dir.filePath(QStringLiteral("audit.jsonl"))).size();
        for (const char *refused : {"forecast", "transfer", "nothing", "mcp__bank__transfer"}) {
            rig.request(3, "tools/call", {{"name", refused}});
            const auto answer = rig.answer(3);
            QVERIFY2(answer && answer->contains("error"), refused);
            QCOMPARE_JSON((*answer)["error"]["code"], -32000);
            rig.posted.clear();
        }
        QCOMPARE(AuditLog::readRecords(dir.filePath(QStringLiteral("audit.jsonl"))).size(), asked);
        QVERIFY(rig.logged.join(QLatin1Char('\n')).contains(QLatin1String("refused")));

        rig.request(4, "tools/call", {{"name", "show_map"}, {"arguments", Json::array({1})}});
        QCOMPARE_JSON((*rig.answer(4))["error"]["code"], -32602);
    }

    // At most MaxRunningCalls at once; the next is refused and the view told why; teardown
    // cancels the running ones.
    void callsAreThrottled()
    {
        Rig rig;
        rig.initialize();
        for (int i = 1; i <= AppBridge::MaxRunningCalls + 1; ++i)
            rig.request(i, "tools/call", {{"name", "show_map"}, {"arguments", {{"hang", true}}}});
        const auto refused = rig.answer(AppBridge::MaxRunningCalls + 1);
        QVERIFY(refused);
        QVERIFY(QString::fromStdString((*refused)["error"]["message"].get<std::string>())
                        .contains(QLatin1String("too many")));
        QVERIFY(!rig.answer(1));
        bool done = false;
        rig.bridge->teardown(QStringLiteral("closed"), [&done] { done = true; });
        QVERIFY(rig.methods().contains(QStringLiteral("ui/resource-teardown")));
        const qint64 teardownId = rig.posted.back()["id"].get<qint64>();
        rig.send(Json{{"jsonrpc", "2.0"}, {"id", teardownId}, {"result", Json::object()}});
        QVERIFY(done);
        QCOMPARE(rig.runner.runningCount(), 0);
    }

    // 10,000 messages at once: at most MaxMessagesPerSecond are read, the rest dropped and
    // counted in the log once the second is over.
    void floodIsDropped()
    {
        Rig rig;
        rig.initialize();
        rig.posted.clear();
        for (int i = 0; i < 10000; ++i)
            rig.request(100 + i, "ping");
        QVERIFY(rig.posted.size() <= std::size_t(AppBridge::MaxMessagesPerSecond));
        QVERIFY(rig.posted.size() > 10);
        // Once the second is over, a ping is read again.
        QTRY_VERIFY_WITH_TIMEOUT((rig.request(1, "ping"), rig.answer(1).has_value()), 3000);
        QVERIFY(rig.logged.join(QLatin1Char('\n')).contains(QLatin1String("too many")));
    }

    void openLink()
    {
        Rig rig;
        rig.initialize();
        rig.request(1, "ui/open-link", {{"url", "javascript:alert(1)"}});
        rig.request(2, "ui/open-link", {{"url", "file:///etc/passwd"}});
        rig.request(3, "ui/open-link", {{"url", 7}});
        rig.request(6, "ui/open-link", {{"url", "javascript://example.com/%0Aalert(1)"}});
        rig.request(7, "ui/open-link", {{"url", "ftp://example.com/file"}});
        QVERIFY(rig.linksAsked.isEmpty()); // never even asked
        for (int id : {1, 2, 3, 6, 7})
            QCOMPARE_JSON((*rig.answer(id))["error"]["message"], "Invalid URL");
        rig.request(4, "ui/open-link", {{"url", "https://example.com/docs?a=1"}});
        QCOMPARE(rig.linksAsked.size(), 1);
        QCOMPARE_JSON((*rig.answer(4))["error"]["message"], "Link opening denied by user");
        rig.openLinks = true;
        rig.request(5, "ui/open-link", {{"url", "https://example.com/"}});
        QVERIFY((*rig.answer(5)).contains("result"));
    }

    // ui/message goes into the composer (array or object content); update-model-context is
    // kept, bounded.
    void messageAndContext()
    {
        Rig rig;
        rig.initialize();
        rig.request(
                1, "ui/message",
                {{"role", "user"}, {"content", Json::array({{{"type", "text"}, {"text", "Hi"}}})}});
        rig.request(2, "ui/message",
                    {{"role", "user"}, {"content", {{"type", "text"}, {"text", "Ho"}}}});
        rig.request(3, "ui/message", {{"role", "assistant"}, {"content", "x"}});
        QCOMPARE(rig.suggested, (QStringList{QStringLiteral("Hi"), QStringLiteral("Ho")}));
        QVERIFY((*rig.answer(3)).contains("error"));
        const std::string big(100000, 'x');
        rig.request(4, "ui/update-model-context",
                    {{"content", Json::array({{{"type", "text"}, {"text", big}}})}});
        QCOMPARE(rig.contexts.size(), 1);
        QCOMPARE(rig.contexts[0].size(), AppBridge::MaxModelContextChars);
    }

    void sizesAndModes()
    {
        Rig rig;
        rig.initialize(Json{{"availableDisplayModes", {"inline"}}});
        rig.notification("ui/notifications/size-changed", {{"width", 300}, {"height", 1e9}});
        QCOMPARE(rig.sizes, (QList<QSize>{QSize(300, AppBridge::MaxViewSize)}));
        rig.request(1, "ui/request-display-mode", {{"mode", "fullscreen"}});
        QCOMPARE_JSON((*rig.answer(1))["result"]["mode"], "inline");
        QVERIFY(rig.modesAsked.isEmpty()); // the view said it cannot: not even asked

        Rig other;
        other.initialize(Json{{"availableDisplayModes", {"inline", "fullscreen"}}});
        other.request(1, "ui/request-display-mode", {{"mode", "fullscreen"}});
        QCOMPARE_JSON((*other.answer(1))["result"]["mode"], "fullscreen");
        QVERIFY(other.methods().contains(QStringLiteral("ui/notifications/host-context-changed")));
    }

    void refusalsOfShape()
    {
        Rig rig;
        rig.request(1, "tools/call", {{"name", "show_map"}});
        QVERIFY((*rig.answer(1)).contains("error")); // before ui/initialize
        rig.initialize();
        rig.request(2, "sampling/createMessage");
        QCOMPARE_JSON((*rig.answer(2))["error"]["code"], -32601);
        rig.bridge->receive("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":[1]}");
        QCOMPARE_JSON((*rig.answer(3))["error"]["code"], -32602);
        rig.request(4, "resources/read", {{"uri", "ui://x"}});
        QVERIFY((*rig.answer(4)).contains("error")); // the server is not connected here
        rig.bridge->receive("not json");
        QVERIFY(rig.logged.join(QLatin1Char('\n')).contains(QLatin1String("not JSON")));
    }

    // A view that never answers its teardown is closed after TeardownTimeoutMs; one that never
    // initialized is closed at once, without a message.
    void teardownBounds()
    {
        Rig silent;
        silent.initialize();
        bool done = false;
        silent.bridge->teardown(QStringLiteral("closed"), [&done] { done = true; });
        QVERIFY(!done);
        QTRY_VERIFY_WITH_TIMEOUT(done, AppBridge::TeardownTimeoutMs + 2000);

        Rig fresh;
        bool closed = false;
        fresh.bridge->teardown(QStringLiteral("closed"), [&closed] { closed = true; });
        QVERIFY(!closed); // never inside the call
        QTRY_VERIFY(closed);
        QVERIFY(fresh.posted.empty());
    }
};

QTEST_GUILESS_MAIN(tst_AppBridge)
#include "tst_appbridge.moc"
