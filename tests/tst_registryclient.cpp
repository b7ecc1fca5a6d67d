#include "jsontest.h"
#include "postedevents.h"
#include "registryfixture.h"

#include <mcp/registry/registryclient.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <vector>

using namespace Mcp;
using namespace Mcp::Registry;

// The registry's read API against a registry on 127.0.0.1 (Qt's HTTP server) that pages as the
// official one does, and that can answer as a broken or hostile one would: each such answer
// ends the request with a sentence naming the registry, never a crash, a hang or a page.
class tst_RegistryClient : public QObject
{
    Q_OBJECT

private slots:
    void pagesThroughASearch();
    void searchFindsByName();
    void latestEntryOfOneServer();
    void hostileAnswers_data();
    void hostileAnswers();
    // switchboard-cli registry search and show, against the same registry.
    void cliSearchesAndShows();
    // Answers saved for offline browsing, used when the registry cannot be asked.
    void savedAnswersWhenTheRegistryCannotBeAsked();
    void cliUsesTheSettingAndSavedAnswers();
};

namespace {

Json entry(const QString &name, const std::string &identifier = "@example/server")
{
    return {{"server",
             {{"name", name.toStdString()},
              {"description", "A server for the tests."},
              {"version", "1.0.0"},
              {"packages",
               {{{"registryType", "npm"},
                 {"identifier", identifier},
                 {"version", "1.0.0"},
                 {"transport", {{"type", "stdio"}}}}}}}},
            {"_meta",
             {{"io.modelcontextprotocol.registry/official",
               {{"status", "active"}, {"isLatest", true}}}}}};
}

// What went wrong, or empty (for messages: QVERIFY2 reads its message whatever the outcome).
template<typename Result>
QString errorOf(const Result &result)
{
    const QString *error = std::get_if<QString>(&result);
    return error ? *error : QString();
}

// Runs `start` and waits for its one callback; the number of callbacks in `calls`.
template<typename Result, typename Start>
std::optional<Result> once(Start start, int *calls)
{
    std::optional<Result> result;
    *calls = 0;
    start([&](Result r) {
        ++*calls;
        result = std::move(r);
    });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 20000))
        return std::nullopt;
    deliverPostedEvents(); // a second callback would have come by now
    return result;
}

} // namespace

void tst_RegistryClient::pagesThroughASearch()
{
    FakeRegistry registry;
    QVERIFY(registry.port);
    for (int i = 0; i < 250; ++i)
        registry.entries.push_back(entry(QStringLiteral("io.example/server-%1").arg(i)));
    RegistryClient client(registry.base());
    int calls = 0;
    const auto first = once<RegistryClient::PageResult>(
            [&](auto done) { client.search(QString(), QString(), 30, done); }, &calls);
    QVERIFY(first);
    QCOMPARE(calls, 1);
    const ListPage *page = std::get_if<ListPage>(&*first);
    QVERIFY2(page, qPrintable(errorOf(*first)));
    QCOMPARE(page->servers.size(), 30);
    QCOMPARE(page->nextCursor, QStringLiteral("30"));
    QCOMPARE(registry.requests.value(0), QStringLiteral("/v0.1/servers?limit=30&version=latest"));

    registry.requests.clear();
    const auto all = once<RegistryClient::PageResult>(
            [&](auto done) { client.searchAll(QString(), done); }, &calls);
    QVERIFY2(all && std::holds_alternative<ListPage>(*all), qPrintable(errorOf(*all)));
    QCOMPARE(calls, 1);
    QCOMPARE(std::get<ListPage>(*all).servers.size(), 250);
    QVERIFY(std::get<ListPage>(*all).skipped.isEmpty());
    QCOMPARE(registry.requests.size(), 3);
    QCOMPARE(registry.requests.value(2),
             QStringLiteral("/v0.1/servers?limit=100&version=latest&cursor=200"));
}

void tst_RegistryClient::searchFindsByName()
{
    FakeRegistry registry;
    registry.entries.push_back(entry(QStringLiteral("io.github.modelcontextprotocol/server-memory"),
                                     "@modelcontextprotocol/server-memory"));
    registry.entries.push_back(entry(QStringLiteral("io.example/other")));
    RegistryClient client(registry.base());
    int calls = 0;
    const auto found = once<RegistryClient::PageResult>(
            [&](auto done) { client.search(QStringLiteral("memory & more"), QString(), 10, done); },
            &calls);
    QVERIFY2(found && std::holds_alternative<ListPage>(*found), qPrintable(errorOf(*found)));
    // The search text is sent encoded, whatever it holds.
    QCOMPARE(registry.requests.value(0),
             QStringLiteral("/v0.1/servers?search=memory%20%26%20more&limit=10&version=latest"));
    const auto memory = once<RegistryClient::PageResult>(
            [&](auto done) { client.search(QStringLiteral("memory"), QString(), 10, done); },
            &calls);
    QVERIFY2(memory && std::holds_alternative<ListPage>(*memory), qPrintable(errorOf(*memory)));
    QCOMPARE(std::get<ListPage>(*memory).servers.size(), 1);
    QCOMPARE(std::get<ListPage>(*memory).servers.at(0).server.packages.at(0).identifier,
             QStringLiteral("@modelcontextprotocol/server-memory"));
}

void tst_RegistryClient::savedAnswersWhenTheRegistryCannotBeAsked()
{
    FakeRegistry registry;
    registry.entries = RegistryFixture::realEntries();
    QTemporaryDir cache;
    RegistryClient client(registry.base());
    client.setCacheDir(cache.path());
    client.setTimeoutMs(500);
    int calls = 0;
    const auto search = [&] {
        return once<RegistryClient::PageResult>(
                [&](auto done) {
                    client.search(QStringLiteral("modelcontextprotocol"), QString(), 30, done);
                },
                &calls);
    };
    const auto latest = [&](const QString &name) {
        return once<RegistryClient::EntryResult>([&](auto done) { client.latest(name, done); },
                                                 &calls);
    };
    auto live = search();
    QVERIFY2(live && std::holds_alternative<ListPage>(*live), qPrintable(errorOf(*live)));
    QVERIFY(!std::get<ListPage>(*live).fromCache.isValid());
    const auto memory = QStringLiteral("io.github.modelcontextprotocol/server-memory");
    auto entry = latest(memory);
    QVERIFY2(entry && std::holds_alternative<Listing>(*entry), qPrintable(errorOf(*entry)));

    for (const FakeRegistry::Mode mode :
         {FakeRegistry::Mode::Error500, FakeRegistry::Mode::Silent, FakeRegistry::Mode::NotJson}) {
        registry.mode = mode;
        const auto saved = search();
        QVERIFY2(saved && std::holds_alternative<ListPage>(*saved), qPrintable(errorOf(*saved)));
        QCOMPARE(calls, 1);
        QVERIFY(std::get<ListPage>(*saved).fromCache.isValid());
        QCOMPARE(std::get<ListPage>(*saved).servers.size(),
                 std::get<ListPage>(*live).servers.size());
        entry = latest(memory);
        QVERIFY2(entry && std::holds_alternative<Listing>(*entry), qPrintable(errorOf(*entry)));
        QVERIFY(std::get<Listing>(*entry).fromCache.isValid());
        QCOMPARE(std::get<Listing>(*entry).server.name, memory);
        // Nothing saved for this one: the failure itself.
        const auto other = latest(QStringLiteral("io.example/never-asked"));
        QVERIFY(other && std::holds_alternative<QString>(*other));
    }
    // "No such server" is an answer, not a failure: never replaced by a saved one.
    registry.mode = FakeRegistry::Mode::Normal;
    registry.entries.clear();
    entry = latest(memory);
    QVERIFY(entry && errorOf(*entry).contains(QStringLiteral("has no such server")));
    QVERIFY(QDir(cache.path()).entryList(QDir::Files).size() >= 2);
}

void tst_RegistryClient::latestEntryOfOneServer()
{
    FakeRegistry registry;
    registry.entries.push_back(entry(QStringLiteral("io.github.modelcontextprotocol/server-memory"),
                                     "@modelcontextprotocol/server-memory"));
    RegistryClient client(registry.base());
    int calls = 0;
    const auto latest = once<RegistryClient::EntryResult>(
            [&](auto done) {
                client.latest(QStringLiteral("io.github.modelcontextprotocol/server-memory"), done);
            },
            &calls);
    QVERIFY(latest);
    QCOMPARE(calls, 1);
    const Listing *listing = std::get_if<Listing>(&*latest);
    QVERIFY2(listing, qPrintable(errorOf(*latest)));
    QCOMPARE(listing->server.version, QStringLiteral("1.0.0"));
    // The name's slash travels encoded.
    QCOMPARE(registry.requests.value(0),
             QStringLiteral("/v0.1/servers/io.github.modelcontextprotocol%2Fserver-memory/"
                            "versions/latest"));
    const auto missing = once<RegistryClient::EntryResult>(
            [&](auto done) { client.latest(QStringLiteral("io.example/none"), done); }, &calls);
    QVERIFY(missing);
    QVERIFY(errorOf(*missing).contains(QLatin1String("has no such server")));
}

void tst_RegistryClient::hostileAnswers_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("all");         // searchAll rather than one page
    QTest::addColumn<QString>("expected"); // in the error, or in `skipped`
    using M = FakeRegistry::Mode;
    QTest::newRow("not JSON") << int(M::NotJson) << false << QStringLiteral("not JSON");
    QTest::newRow("50 MB") << int(M::Huge) << false << QStringLiteral("more than 4 MiB");
    QTest::newRow("100,000 entries")
            << int(M::Crowded) << false << QStringLiteral("lists 100000 servers in one page");
    QTest::newRow("a cursor that repeats")
            << int(M::RepeatingCursor) << true
            << QStringLiteral("sent a cursor it had sent before; stopped after 2 pages");
    QTest::newRow("no answer") << int(M::Silent) << false
                               << QStringLiteral("did not answer within 0.5 s");
    QTest::newRow("HTTP 500") << int(M::Error500) << false << QStringLiteral("answered HTTP 500");
    QTest::newRow("a command in an identifier")
            << int(M::Normal) << false
            << QStringLiteral("servers[1]: packages[0]: 'x; rm -rf ~' is not an npm package name");
}

void tst_RegistryClient::hostileAnswers()
{
    QFETCH(int, mode);
    QFETCH(bool, all);
    QFETCH(QString, expected);
    FakeRegistry registry;
    registry.mode = FakeRegistry::Mode(mode);
    registry.entries.push_back(entry(QStringLiteral("io.example/fine")));
    registry.entries.push_back(entry(QStringLiteral("io.example/evil"), "x; rm -rf ~"));
    RegistryClient client(registry.base());
    // Half a second of silence for the registry that never answers; the others get the time a
    // loaded machine (or a sanitizer build) needs to send 50 MB, so each row meets its own
    // limit and not the timeout's.
    client.setTimeoutMs(registry.mode == FakeRegistry::Mode::Silent ? 500 : 15000);
    int calls = 0;
    const auto result = once<RegistryClient::PageResult>(
            [&](auto done) {
                if (all)
                    client.searchAll(QString(), done);
                else
                    client.search(QString(), QString(), 30, done);
            },
            &calls);
    QVERIFY(result);
    QCOMPARE(calls, 1);
    QString said;
    if (const QString *error = std::get_if<QString>(&*result))
        said = *error;
    else
        said = std::get<ListPage>(*result).skipped.join(QLatin1Char('\n'));
    QVERIFY2(said.contains(expected), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("127.0.0.1"))
                     || said.startsWith(QLatin1String("servers[")),
             qPrintable(said));
}

namespace {

struct CliRun
{
    int code = -1;
    QString out;
    QString err;
};

// The CLI as a person runs it, while this test's event loop serves the registry.
// `setting`: the window's "registryUrl" in the CLI's settings.ini (none when empty).
CliRun runCli(const QStringList &args, const QString &registry = QString(),
              const QString &setting = QString())
{
    QTemporaryDir folder;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SWITCHBOARD_REGISTRY"));
    if (!registry.isEmpty())
        env.insert(QStringLiteral("SWITCHBOARD_REGISTRY"), registry);
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
    // The CLI's settings and saved answers are this run's, kept across its invocations.
    static QTemporaryDir home;
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    const QString settings = home.filePath(QStringLiteral("config/switchboard/settings.ini"));
    QFile::remove(settings);
    if (!setting.isEmpty()) {
        QDir().mkpath(QFileInfo(settings).path());
        QFile file(settings);
        if (file.open(QIODevice::WriteOnly))
            file.write("[General]\nregistryUrl=" + setting.toUtf8() + "\n");
    }
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(folder.path());
    process.start(QStringLiteral(SWITCHBOARD_CLI), args);
    CliRun run;
    if (!QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, 30000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace

void tst_RegistryClient::cliSearchesAndShows()
{
    FakeRegistry registry;
    Json memory = entry(QStringLiteral("io.github.modelcontextprotocol/server-memory"),
                        "@modelcontextprotocol/server-memory");
    memory["server"]["packages"][0]["environmentVariables"]
            = Json::array({{{"name", "MEMORY_FILE_PATH"},
                            {"description", "Where the graph is kept"},
                            {"format", "filepath"}}});
    registry.entries.push_back(memory);
    registry.entries.push_back(entry(QStringLiteral("io.example/other")));
    const QString base = registry.base().toString();

    CliRun run = runCli({QStringLiteral("registry"), QStringLiteral("search"),
                         QStringLiteral("memory"), QStringLiteral("--registry"), base});
    QCOMPARE(run.code, 0);
    QVERIFY2(run.out.startsWith(QLatin1String(
                     "io.github.modelcontextprotocol/server-memory 1.0.0  A server for the tests.\n"
                     "    npm @modelcontextprotocol/server-memory 1.0.0\n")),
             qPrintable(run.out));
    QVERIFY(!run.out.contains(QLatin1String("io.example/other")));

    // The same from $SWITCHBOARD_REGISTRY, as JSON.
    run = runCli({QStringLiteral("registry"), QStringLiteral("search"), QStringLiteral("--json")},
                 base);
    QCOMPARE(run.code, 0);
    const Json listed = Json::parse(run.out.toStdString(), nullptr, false);
    QVERIFY2(listed.is_object(), qPrintable(run.out));
    QCOMPARE(listed["servers"].size(), std::size_t(2));
    QCOMPARE_JSON(listed["servers"][0]["packages"][0]["identifier"],
                  Json("@modelcontextprotocol/server-memory"));

    run = runCli({QStringLiteral("registry"), QStringLiteral("show"),
                  QStringLiteral("io.github.modelcontextprotocol/server-memory"),
                  QStringLiteral("--registry=") + base});
    QCOMPARE(run.code, 0);
    QVERIFY2(run.out.contains(
                     QLatin1String("  runs: npx -y @modelcontextprotocol/server-memory@1.0.0\n")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QLatin1String("    MEMORY_FILE_PATH: Where the graph is kept")),
             qPrintable(run.out));

    // A registry that answers wrong: exit 3 and what was wrong; a bad address: a usage error.
    registry.mode = FakeRegistry::Mode::Crowded;
    run = runCli({QStringLiteral("registry"), QStringLiteral("search")}, base);
    QCOMPARE(run.code, 3);
    QVERIFY2(run.err.contains(QLatin1String("lists 100000 servers in one page")),
             qPrintable(run.err));
    run = runCli({QStringLiteral("registry"), QStringLiteral("search"),
                  QStringLiteral("--registry"), QStringLiteral("file:///etc")});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains(QLatin1String("is not a registry address")), qPrintable(run.err));
}

// The window's setting names the registry when neither --registry nor $SWITCHBOARD_REGISTRY
// does; a registry that cannot be asked is answered from what the CLI saved, saying so.
void tst_RegistryClient::cliUsesTheSettingAndSavedAnswers()
{
    FakeRegistry registry;
    registry.entries = RegistryFixture::realEntries();
    CliRun run = runCli(
            {QStringLiteral("registry"), QStringLiteral("search"), QStringLiteral("memory")},
            QString(), registry.base().toString());
    QCOMPARE(run.code, 0);
    QVERIFY2(run.out.contains(QLatin1String("io.github.modelcontextprotocol/server-memory")),
             qPrintable(run.out + run.err));
    QVERIFY(run.err.isEmpty());
    registry.mode = FakeRegistry::Mode::Error500;
    run = runCli({QStringLiteral("registry"), QStringLiteral("search"), QStringLiteral("memory")},
                 QString(), registry.base().toString());
    QCOMPARE(run.code, 0);
    QVERIFY2(run.out.contains(QLatin1String("io.github.modelcontextprotocol/server-memory")),
             qPrintable(run.out + run.err));
    QVERIFY2(run.err.contains(QLatin1String("the registry could not be asked: this is what it "
                                            "answered on")),
             qPrintable(run.err));
}

QTEST_GUILESS_MAIN(tst_RegistryClient)
#include "tst_registryclient.moc"
