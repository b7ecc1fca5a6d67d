#include "jsontest.h"

#include <engine/apps/viewresources.h>
#include <engine/tools/toolregistry.h>
#include <engine/tools/toolsearch.h>

#include <mcp/apps/appmeta.h>
#include <mcp/apps/bridgemessage.h>
#include <mcp/apps/contentpolicy.h>
#include <mcp/apps/partialinput.h>

#include <QTest>

using namespace Mcp;
using namespace Mcp::Apps;

namespace {

// A tool of a server with a given `_meta.ui` visibility.
class VisibleTool : public Engine::Tool
{
public:
    VisibleTool(QString name, ToolUi ui)
        : m_name(std::move(name))
        , m_ui(std::move(ui))
    {
    }
    QString name() const override { return m_name; }
    QString description() const override { return QStringLiteral("shows the weather map"); }
    Json inputSchema() const override { return Json{{"type", "object"}}; }
    Engine::Risk risk() const override { return Engine::Risk::Read; }
    QString source() const override { return QStringLiteral("weather"); }
    bool isBuiltin() const override { return false; }
    const ToolUi &appUi() const override { return m_ui; }

protected:
    Engine::CancelHandle execute(const Json &, const Engine::ToolContext &,
                                 std::function<void(Engine::ToolOutput)> done) override
    {
        done(Engine::ToolOutput::text(QStringLiteral("ok")));
        return {};
    }

private:
    QString m_name;
    ToolUi m_ui;
};

Json readResult(const Json &item)
{
    return Json{{"contents", Json::array({item})}};
}

} // namespace

// MCP Apps without a window: what a tool's and a view's `_meta.ui` say, the content policy
// built from it (the spec's CSP and the request check that backs it), the checks a view's
// resources/read goes through, and the reader of what a view posts.
class tst_Apps : public QObject
{
    Q_OBJECT

private slots:
    void clientCapability()
    {
        QCOMPARE_JSON(Apps::clientCapability(),
                      Json::parse(R"({"mimeTypes": ["text/html;profile=mcp-app"]})"));
        QVERIFY(isViewMimeType(QStringLiteral("text/html;profile=mcp-app")));
        QVERIFY(isViewMimeType(QStringLiteral("Text/HTML; profile=mcp-app")));
        QVERIFY(!isViewMimeType(QStringLiteral("text/html")));
        QVERIFY(!isViewMimeType(QStringLiteral("text/html;profile=mcp-app2")));
    }

    void toolUi_data();
    void toolUi()
    {
        QFETCH(QByteArray, tool);
        const Json definition = Json::parse(tool.toStdString());
        const ToolUi ui = ToolUi::fromTool(definition);
        QTEST(QString::fromStdString(ui.resourceUri), "uri");
        QTEST(ui.fromFlatKey, "flat");
        QTEST(ui.model, "model");
        QTEST(ui.app, "app");
        QTEST(!toolUiNote(definition).isEmpty(), "noted");
    }

    // A tool only a view may call is never offered to the model nor found by search_tools; one
    // for both is.
    void appOnlyToolsAreNotOffered()
    {
        Engine::ToolRegistry registry;
        ToolUi appOnly;
        appOnly.app = true;
        appOnly.model = false;
        registry.add(std::make_shared<VisibleTool>(QStringLiteral("mcp__weather__refresh_map"),
                                                   appOnly));
        registry.add(
                std::make_shared<VisibleTool>(QStringLiteral("mcp__weather__show_map"), ToolUi{}));
        QStringList offered;
        for (const auto &tool : registry.offeredTools())
            offered << tool->name();
        QCOMPARE(offered, QStringList{QStringLiteral("mcp__weather__show_map")});
        QVERIFY(!registry.isOffered(*registry.find(QStringLiteral("mcp__weather__refresh_map"))));
        Engine::SearchToolsTool search(&registry);
        QCOMPARE(search.search(QStringLiteral("map"), 10),
                 QStringList{QStringLiteral("mcp__weather__show_map")});
    }

    void viewMeta();

    // The spec's restrictive default when nothing is declared, exactly.
    void defaultPolicy()
    {
        const ContentPolicy policy;
        QCOMPARE(policy.csp(),
                 QStringLiteral("default-src 'none'; script-src 'self' 'unsafe-inline'; "
                                "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                                "media-src 'self' data:; connect-src 'none'; frame-src 'none'; "
                                "object-src 'none'; base-uri 'self'; form-action 'none'"));
        QVERIFY(!policy.reachesOut());
        const QUrl self(QStringLiteral("sbview-1://view"));
        QVERIFY(policy.allows(QUrl(QStringLiteral("sbview-1://view/app.js")),
                              ContentPolicy::Use::Resource, self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("http://127.0.0.1:8080/leak")),
                               ContentPolicy::Use::Connect, self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("http://127.0.0.1:8080/pixel.png")),
                               ContentPolicy::Use::Resource, self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("file:///etc/passwd")),
                               ContentPolicy::Use::Resource, self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("sbview-2://view/")),
                               ContentPolicy::Use::Resource, self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("https://example.com/")),
                               ContentPolicy::Use::Navigate, self));
        QVERIFY(policy.allows(QUrl(QStringLiteral("data:image/png;base64,AAAA")),
                              ContentPolicy::Use::Resource, self));
    }

    // The spec's policy built from declared origins; what was dropped is said.
    void declaredPolicy()
    {
        ViewMeta meta;
        meta.declared = meta.cspDeclared = true;
        meta.connectDomains
                = {QStringLiteral("https://api.example.com"), QStringLiteral("*"),
                   QStringLiteral("https:"), QStringLiteral("https://x.com; script-src *")};
        meta.resourceDomains = {QStringLiteral("https://*.cdn.example.com"),
                                QStringLiteral("cdn.jsdelivr.net/npm/")};
        meta.baseUriDomains = {QStringLiteral("https://docs.example.com")};
        const ContentPolicy policy(meta);
        QCOMPARE(policy.csp(),
                 QStringLiteral("default-src 'none'; "
                                "script-src 'self' 'unsafe-inline' https://*.cdn.example.com "
                                "https://cdn.jsdelivr.net/npm/; "
                                "style-src 'self' 'unsafe-inline' https://*.cdn.example.com "
                                "https://cdn.jsdelivr.net/npm/; "
                                "img-src 'self' data: https://*.cdn.example.com "
                                "https://cdn.jsdelivr.net/npm/; "
                                "media-src 'self' data: https://*.cdn.example.com "
                                "https://cdn.jsdelivr.net/npm/; "
                                "connect-src 'self' https://api.example.com; "
                                "font-src 'self' https://*.cdn.example.com "
                                "https://cdn.jsdelivr.net/npm/; "
                                "frame-src 'none'; object-src 'none'; "
                                "base-uri https://docs.example.com; form-action 'none'"));
        QCOMPARE(policy.rejected().size(), 3);
        QVERIFY(policy.reachesOut());
        const QUrl self(QStringLiteral("sbview-1://view"));
        using Use = ContentPolicy::Use;
        QVERIFY(policy.allows(QUrl(QStringLiteral("https://api.example.com/v1/x")), Use::Connect,
                              self));
        QVERIFY(policy.allows(QUrl(QStringLiteral("wss://api.example.com/socket")), Use::Connect,
                              self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("http://api.example.com/v1/x")), Use::Connect,
                               self)); // https declared: not its insecure form
        QVERIFY(!policy.allows(QUrl(QStringLiteral("https://api.example.com:8443/")), Use::Connect,
                               self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("https://api.example.com/x")), Use::Resource,
                               self)); // declared for connecting, not for loading
        QVERIFY(policy.allows(QUrl(QStringLiteral("https://a.cdn.example.com/lib.js")),
                              Use::Resource, self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("https://cdn.example.com/lib.js")),
                               Use::Resource, self)); // "*." needs a subdomain
        QVERIFY(!policy.allows(QUrl(QStringLiteral("https://evilcdn.example.com/lib.js")),
                               Use::Resource, self));
        QVERIFY(policy.allows(QUrl(QStringLiteral("https://cdn.jsdelivr.net/npm/x@1/x.js")),
                              Use::Resource, self));
        QVERIFY(!policy.allows(QUrl(QStringLiteral("https://cdn.jsdelivr.net/gh/x/x.js")),
                               Use::Resource, self)); // outside the declared path
        QVERIFY(!policy.allows(QUrl(QStringLiteral("https://x.com/")), Use::Connect, self));
    }

    void cleanSource_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("source"); // empty: dropped
        QTest::newRow("origin") << "https://api.example.com"
                                << "https://api.example.com";
        QTest::newRow("bare host") << "api.example.com"
                                   << "https://api.example.com";
        QTest::newRow("upper case host") << "https://API.Example.com"
                                         << "https://api.example.com";
        QTest::newRow("port") << "http://127.0.0.1:8080"
                              << "http://127.0.0.1:8080";
        QTest::newRow("any port") << "http://localhost:*"
                                  << "http://localhost:*";
        QTest::newRow("ipv6") << "http://[::1]:3000"
                              << "http://[::1]:3000";
        QTest::newRow("wss") << "wss://live.example.com"
                             << "wss://live.example.com";
        QTest::newRow("wildcard") << "https://*.example.com"
                                  << "https://*.example.com";
        QTest::newRow("path") << "https://cdn.example.com/lib/"
                              << "https://cdn.example.com/lib/";
        QTest::newRow("star") << "*"
                              << "";
        QTest::newRow("scheme only") << "https:"
                                     << "";
        QTest::newRow("keyword") << "'unsafe-eval'"
                                 << "";
        QTest::newRow("self") << "'self'"
                              << "";
        QTest::newRow("data") << "data:"
                              << "";
        QTest::newRow("file") << "file:///etc"
                              << "";
        QTest::newRow("javascript") << "javascript:alert(1)"
                                    << "";
        QTest::newRow("directive injection") << "https://a.com; script-src *"
                                             << "";
        QTest::newRow("comma") << "https://a.com,https://b.com"
                               << "";
        QTest::newRow("newline") << "https://a.com\nscript-src *"
                                 << "";
        QTest::newRow("quote") << "https://a.com'"
                               << "";
        QTest::newRow("wildcard tld") << "https://*.com"
                                      << "";
        QTest::newRow("wildcard inside") << "https://a.*.com"
                                         << "";
        QTest::newRow("empty label") << "https://a..com"
                                     << "";
        QTest::newRow("bad port") << "https://a.com:99999"
                                  << "";
        QTest::newRow("port with a space") << "https://[::10]: 30"
                                           << "";
        QTest::newRow("signed port") << "https://a.com:+80"
                                     << "";
        QTest::newRow("empty port") << "https://a.com:"
                                    << "";
        QTest::newRow("user info") << "https://user@a.com"
                                   << "";
        QTest::newRow("long") << "https://" + QString(600, QLatin1Char('a')) + ".com"
                              << "";
        QTest::newRow("unicode host") << "https://exämple.com"
                                      << "";
        QTest::newRow("empty") << "  "
                               << "";
    }
    void cleanSource()
    {
        QFETCH(QString, entry);
        QString why;
        const QString source = ContentPolicy::cleanSource(entry, &why);
        QTEST(source, "source");
        QCOMPARE(why.isEmpty(), !source.isEmpty());
    }

    void fromRead_data();
    void fromRead()
    {
        QFETCH(QByteArray, result);
        QFETCH(QByteArray, html);
        QFETCH(QString, error);
        const Engine::View view = Engine::ViewResources::fromRead(
                QStringLiteral("apps"), "ui://a", Json::parse(result.toStdString()));
        QCOMPARE(view.html, html);
        QCOMPARE(view.ok(), error.isEmpty());
        QVERIFY2(view.error.contains(error), qPrintable(view.error));
    }

    // A view over Engine::MaxViewBytes is refused (as text and as blob), one at the limit is not;
    // the read content's `_meta.ui` is taken.
    void viewSizeLimit();

    void bridgeMessage_data();
    void bridgeMessage();

    // ui/notifications/tool-input-partial: a call's arguments cut anywhere, recovered as far
    // as they are whole.
    void partialArguments_data();
    void partialArguments();
    // Every prefix of a real call's arguments gives an object (once the brace is there), each
    // with at least the keys of the one before, and the whole text gives the whole object.
    void partialArgumentsGrow();
};

// Defined out of the class: Qt 6.4's moc loses a class whose body has a raw string
// literal with "//" in it.
void tst_Apps::toolUi_data()
{
    QTest::addColumn<QByteArray>("tool");
    QTest::addColumn<QString>("uri");
    QTest::addColumn<bool>("flat");
    QTest::addColumn<bool>("model");
    QTest::addColumn<bool>("app");
    QTest::addColumn<bool>("noted");
    const QString view = QStringLiteral("ui://get-time/mcp-app.html");
    QTest::newRow("none") << QByteArray(R"({"name":"t"})") << QString() << false << true << true
                          << false;
    QTest::newRow("both keys, as registerAppTool writes them")
            << QByteArray(R"({"name":"t","_meta":{"ui":{"resourceUri":"ui://get-time/mcp-app.html"},
                             "ui/resourceUri":"ui://get-time/mcp-app.html"}})")
            << view << false << true << true << false;
    QTest::newRow("flat key only: used and noted")
            << QByteArray(R"({"name":"t","_meta":{"ui/resourceUri":"ui://get-time/mcp-app.html"}})")
            << view << true << true << true << true;
    QTest::newRow("keys differ: the nested one wins")
            << QByteArray(R"({"name":"t","_meta":{"ui":{"resourceUri":"ui://get-time/mcp-app.html"},
                             "ui/resourceUri":"ui://other"}})")
            << view << false << true << true << true;
    QTest::newRow("not ui://") << QByteArray(
            R"({"name":"t","_meta":{"ui":{"resourceUri":"https://evil.example/x"}}})")
                               << QString() << false << true << true << true;
    QTest::newRow("app only") << QByteArray(R"({"name":"t","_meta":{"ui":{"visibility":["app"]}}})")
                              << QString() << false << false << true << false;
    QTest::newRow("model only") << QByteArray(
            R"({"name":"t","_meta":{"ui":{"visibility":["model"]}}})")
                                << QString() << false << true << false << false;
    QTest::newRow("empty visibility: neither")
            << QByteArray(R"({"name":"t","_meta":{"ui":{"visibility":[]}}})") << QString() << false
            << false << false << false;
    QTest::newRow("unknown entry")
            << QByteArray(R"({"name":"t","_meta":{"ui":{"visibility":["app","user"]}}})")
            << QString() << false << false << true << true;
    QTest::newRow("visibility not a list: both, noted")
            << QByteArray(R"({"name":"t","_meta":{"ui":{"visibility":"app"}}})") << QString()
            << false << true << true << true;
    QTest::newRow("_meta not an object") << QByteArray(R"({"name":"t","_meta":[1]})") << QString()
                                         << false << true << true << false;
}

void tst_Apps::viewMeta()
{
    const Json meta = Json::parse(R"({"ui": {
        "csp": {"connectDomains": ["https://api.example.com", 7],
                "resourceDomains": ["https://cdn.example.com"]},
        "permissions": {"camera": {}, "microphone": true, "clipboardWrite": {}},
        "domain": "abc.example-host.com", "prefersBorder": false}})");
    const ViewMeta view = ViewMeta::fromMeta(meta);
    QVERIFY(view.declared);
    QVERIFY(view.cspDeclared);
    QCOMPARE(view.connectDomains, QStringList{QStringLiteral("https://api.example.com")});
    QCOMPARE(view.resourceDomains, QStringList{QStringLiteral("https://cdn.example.com")});
    QVERIFY(view.camera);
    QVERIFY(!view.microphone); // not an object
    QVERIFY(view.clipboardWrite);
    QVERIFY(!view.geolocation);
    QCOMPARE(view.domain, QStringLiteral("abc.example-host.com"));
    QCOMPARE(view.prefersBorder, std::optional<bool>(false));
    QCOMPARE(ViewMeta::fromMeta(Json::object()), ViewMeta{});
    QCOMPARE(ViewMeta::fromMeta(Json::parse(R"({"ui": 3})")), ViewMeta{});

    Json many = Json::array();
    for (int i = 0; i < 1000; ++i)
        many.push_back("https://h" + std::to_string(i) + ".example.com");
    const ViewMeta bounded
            = ViewMeta::fromMeta(Json{{"ui", {{"csp", {{"connectDomains", many}}}}}});
    QCOMPARE(bounded.connectDomains.size(), MaxDomains);
}

void tst_Apps::fromRead_data()
{
    QTest::addColumn<QByteArray>("result");
    QTest::addColumn<QByteArray>("html"); // empty: refused
    QTest::addColumn<QString>("error");   // a part of the message
    QTest::newRow("text") << QByteArray(R"({"contents":[{"uri":"ui://a","mimeType":
            "text/html;profile=mcp-app","text":"<!doctype html><p>hi"}]})")
                          << QByteArray("<!doctype html><p>hi") << QString();
    QTest::newRow("blob") << QByteArray(R"({"contents":[{"uri":"ui://a","mimeType":
            "text/html;profile=mcp-app","blob":"PHA+aGk="}]})")
                          << QByteArray("<p>hi") << QString();
    QTest::newRow("several: the one with the uri")
            << QByteArray(R"({"contents":[{"uri":"ui://b","mimeType":"text/html;profile=mcp-app",
                "text":"<p>b"},{"uri":"ui://a","mimeType":"text/html;profile=mcp-app","text":"<p>a"}]})")
            << QByteArray("<p>a") << QString();
    QTest::newRow("several, none with the uri")
            << QByteArray(R"({"contents":[{"uri":"ui://b","mimeType":"text/html;profile=mcp-app",
                "text":"<p>b"},{"uri":"ui://c","mimeType":"text/html;profile=mcp-app","text":"<p>c"}]})")
            << QByteArray() << QStringLiteral("none of them");
    QTest::newRow("plain html") << QByteArray(
            R"({"contents":[{"uri":"ui://a","mimeType":"text/html","text":"<p>"}]})")
                                << QByteArray() << QStringLiteral("not a view");
    QTest::newRow("no mime type") << QByteArray(R"({"contents":[{"uri":"ui://a","text":"<p>"}]})")
                                  << QByteArray() << QStringLiteral("not a view");
    QTest::newRow("no contents") << QByteArray(R"({"contents":[]})") << QByteArray()
                                 << QStringLiteral("no content");
    QTest::newRow("contents not a list")
            << QByteArray(R"({"contents":{}})") << QByteArray() << QStringLiteral("no content");
    QTest::newRow("empty") << QByteArray(R"({"contents":[{"uri":"ui://a","mimeType":
            "text/html;profile=mcp-app","text":"   "}]})")
                           << QByteArray() << QStringLiteral("empty");
    QTest::newRow("bad base64") << QByteArray(R"({"contents":[{"uri":"ui://a","mimeType":
            "text/html;profile=mcp-app","blob":"!!!"}]})")
                                << QByteArray() << QStringLiteral("base64");
}

void tst_Apps::viewSizeLimit()
{
    auto item = [](Json body) {
        Json out{{"uri", "ui://a"}, {"mimeType", ViewMimeType}};
        out.update(body);
        return out;
    };
    const std::string atLimit(std::size_t(Engine::MaxViewBytes), 'x');
    QVERIFY(Engine::ViewResources::fromRead({}, "ui://a", readResult(item({{"text", atLimit}})))
                    .ok());
    const Engine::View over = Engine::ViewResources::fromRead(
            {}, "ui://a", readResult(item({{"text", atLimit + "x"}})));
    QVERIFY(!over.ok());
    QVERIFY2(over.error.contains(QLatin1String("5.0 MB")), qPrintable(over.error));
    const QByteArray big = QByteArray(Engine::MaxViewBytes + 3, 'x').toBase64();
    QVERIFY(!Engine::ViewResources::fromRead({}, "ui://a",
                                             readResult(item({{"blob", big.toStdString()}})))
                     .ok());
    const Engine::View withMeta = Engine::ViewResources::fromRead(
            {}, "ui://a",
            readResult(item({{"text", "<p>"}, {"_meta", {{"ui", {{"prefersBorder", true}}}}}})));
    QVERIFY(withMeta.meta.declared);
    QCOMPARE(withMeta.meta.prefersBorder, std::optional<bool>(true));
}

void tst_Apps::bridgeMessage_data()
{
    using Kind = BridgeMessage::Kind;
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QByteArray>("id"); // as JSON
    QTest::newRow("initialize, id 0")
            << QByteArray(R"({"jsonrpc":"2.0","id":0,"method":"ui/initialize","params":{}})")
            << int(Kind::Request) << QByteArray("0");
    QTest::newRow("string id") << QByteArray(R"({"jsonrpc":"2.0","id":"a","method":"ping"})")
                               << int(Kind::Request) << QByteArray(R"("a")");
    QTest::newRow("notification without params")
            << QByteArray(R"({"jsonrpc":"2.0","method":"ui/notifications/initialized"})")
            << int(Kind::Notification) << QByteArray("null");
    QTest::newRow("response") << QByteArray(R"({"jsonrpc":"2.0","id":5,"result":{}})")
                              << int(Kind::Response) << QByteArray("5");
    QTest::newRow("error response")
            << QByteArray(R"({"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"x"}})")
            << int(Kind::Response) << QByteArray("5");
    QTest::newRow("not json") << QByteArray("{") << int(Kind::Invalid) << QByteArray("null");
    QTest::newRow("a string") << QByteArray(R"("{\"jsonrpc\":\"2.0\"}")") << int(Kind::Invalid)
                              << QByteArray("null");
    QTest::newRow("batch") << QByteArray(R"([{"jsonrpc":"2.0","method":"ping","id":1}])")
                           << int(Kind::Invalid) << QByteArray("null");
    QTest::newRow("version 1") << QByteArray(R"({"jsonrpc":"1.0","method":"ping","id":1})")
                               << int(Kind::Invalid) << QByteArray("null");
    QTest::newRow("params a list, answered")
            << QByteArray(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]})")
            << int(Kind::Invalid) << QByteArray("3");
    QTest::newRow("object id") << QByteArray(R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})")
                               << int(Kind::Invalid) << QByteArray("null");
    QTest::newRow("long method") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":")")
                                            + QByteArray(200, 'a') + QByteArray(R"("})")
                                 << int(Kind::Invalid) << QByteArray("1");
    QTest::newRow("response with both")
            << QByteArray(R"({"jsonrpc":"2.0","id":5,"result":{},"error":{}})")
            << int(Kind::Invalid) << QByteArray("null");
    QTest::newRow("nothing") << QByteArray(R"({"jsonrpc":"2.0"})") << int(Kind::Invalid)
                             << QByteArray("null");
    QTest::newRow("oversize") << QByteArray(R"({"jsonrpc":"2.0","method":"x","params":{"a":")")
                                         + QByteArray(MaxBridgeMessageBytes, 'a')
                                         + QByteArray(R"("}})")
                              << int(Kind::Invalid) << QByteArray("null");
    QTest::newRow("deep") << QByteArray(100000, '[') << int(Kind::Invalid) << QByteArray("null");
}

void tst_Apps::bridgeMessage()
{
    QFETCH(QByteArray, text);
    QFETCH(int, kind);
    QFETCH(QByteArray, id);
    const BridgeMessage message = BridgeMessage::read(text);
    QCOMPARE(int(message.kind), kind);
    QCOMPARE_JSON(message.id, Json::parse(id.toStdString()));
    QCOMPARE(message.problem.isEmpty(), kind != int(BridgeMessage::Kind::Invalid));
    if (message.kind == BridgeMessage::Kind::Request
        || message.kind == BridgeMessage::Kind::Notification)
        QVERIFY(message.params.is_object());
}

void tst_Apps::partialArguments_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected"); // JSON, or "null"
    const auto row = [](const char *name, const char *text, const char *expected) {
        QTest::newRow(name) << QByteArray(text) << QByteArray(expected);
    };
    row("empty", "", "null");
    row("not an object", "[1,2", "null");
    row("prose", "Sure, here", "null");
    row("brace", "  {", "{}");
    row("key cut", R"({"ci)", "{}");
    row("key whole", R"({"city")", "{}");
    row("colon", R"({"city":)", "{}");
    row("string cut", R"({"city":"Ber)", R"({"city":"Ber"})");
    row("string whole", R"({"city":"Berlin")", R"({"city":"Berlin"})");
    row("second key cut", R"({"city":"Berlin","da)", R"({"city":"Berlin"})");
    row("number cut", R"({"n":12)", "{}");
    row("number whole", R"({"n":12,)", R"({"n":12})");
    row("literal cut", R"({"ok":tr)", "{}");
    row("literal whole", R"({"ok":true})", R"({"ok":true})");
    row("nested", R"({"a":{"b":[1,2,{"c":"x)", R"({"a":{"b":[1,2,{"c":"x"}]}})");
    row("array open", R"({"list":[)", R"({"list":[]})");
    row("array strings", R"({"list":["one","tw)", R"({"list":["one","tw"]})");
    row("escape cut", R"({"s":"a\)", R"({"s":"a"})");
    row("escape whole", R"({"s":"a\n)", R"({"s":"a\n"})");
    row("unicode cut", R"({"s":"a\u00)", R"({"s":"a"})");
    row("unicode whole", R"({"s":"a\u00e9)", R"({"s":"a\u00e9"})");
    row("high surrogate alone", R"({"s":"a\ud83d)", R"({"s":"a"})");
    row("surrogate pair", R"({"s":"\ud83d\ude00)", R"({"s":"\ud83d\ude00"})");
    row("quote escaped", R"({"s":"say \"hi)", R"({"s":"say \"hi"})");
    row("closed, then more", R"({"a":1} trailing)", R"({"a":1})");
    row("byte order mark", "\xEF\xBB\xBF{\"a\":\"b", R"({"a":"b"})");
    row("garbage value", R"({"a":1,"b":nope,"c":2})", R"({"a":1})");
    row("whitespace", "{ \"a\" : [ 1 , 2 ", R"({"a":[1,2]})");
    row("number then space", R"({"a":1 )", R"({"a":1})");
}

void tst_Apps::partialArguments()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    const Json got = Mcp::Apps::partialArguments(std::string_view(text.constData(), text.size()));
    const Json want = expected == "null" ? Json() : Json::parse(expected.toStdString());
    QCOMPARE(QString::fromStdString(got.dump()), QString::fromStdString(want.dump()));
}

void tst_Apps::partialArgumentsGrow()
{
    const Json whole = {{"path", "notes/today.md"},
                        {"content", "Line one\nLine \"two\" \u00e9 \U0001F600\n"},
                        {"lines", {1, 2, 30}},
                        {"options", {{"append", false}, {"mode", nullptr}, {"ratio", -1.5e3}}},
                        {"empty", Json::object()}};
    const std::string text = whole.dump(1);
    std::size_t keys = 0;
    for (std::size_t cut = 1; cut <= text.size(); ++cut) {
        const Json partial = Mcp::Apps::partialArguments(std::string_view(text).substr(0, cut));
        QVERIFY2(partial.is_object(), qPrintable(QString::number(cut)));
        QVERIFY2(partial.size() >= keys, qPrintable(QString::number(cut)));
        keys = partial.size();
    }
    QCOMPARE_JSON(Mcp::Apps::partialArguments(text), whole);
    // Deeper than the bound: kept down to the bound, not further.
    std::string deep = R"({"a":1,"b":)";
    for (int i = 0; i < 2 * Mcp::Apps::MaxPartialDepth; ++i)
        deep += '[';
    const std::string bounded = Mcp::Apps::partialArguments(deep).dump();
    QCOMPARE(std::count(bounded.begin(), bounded.end(), '['), Mcp::Apps::MaxPartialDepth - 1);
    QVERIFY(bounded.starts_with(R"({"a":1,"b":[[)"));
}

QTEST_GUILESS_MAIN(tst_Apps)
#include "tst_apps.moc"
