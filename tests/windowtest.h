#pragma once

#include <engine/policy/truststore.h>
#include <mcp/config/config.h>
#include <ui/mainwindow.h>

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QProcessEnvironment>
#include <QString>
#include <QTest>
#include <QTimer>
#include <QUrl>

#include <memory>

// Runs the event loop as the application does until `done` or `ms` have passed; whether
// `done`. QTest::qWaitFor and the QTRY macros sleep between their turns, which holds Qt
// WebEngine's own tasks on this thread back by seconds: a view would not start as it does for
// a person.
template<typename Predicate>
bool waitUntil(Predicate done, int ms)
{
    if (done())
        return true;
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    check.start(2);
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

// The rows of a test run once per language (screenshots): "lang" = "en", "zh_CN".
inline void addLanguageRows()
{
    QTest::addColumn<QString>("lang");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

inline void pause(int ms)
{
    waitUntil([] { return false; }, ms);
}

// What windows made by testWindowOptions() would have opened in the browser, oldest first.
inline QList<QUrl> &openedUrls()
{
    static QList<QUrl> urls;
    return urls;
}

// Options for a MainWindow under test: the workspace, and everything the window would
// otherwise keep in the user's own folders (conversations, settings, audit log, keychain
// entries) under `dataDir` (and the trust decisions in `dataDir`/trust.json), so a test never
// reads or changes them.
inline Gui::MainWindowOptions testWindowOptions(const QString &workspace, const QString &dataDir,
                                                const QString &conversations
                                                = QStringLiteral("conversations"))
{
    Gui::MainWindowOptions options;
    options.workspace = QDir(workspace).canonicalPath();
    options.conversationFolder = QDir(dataDir).filePath(conversations);
    options.settingsFile = QDir(dataDir).filePath(QStringLiteral("settings.ini"));
    options.auditLogFile = QDir(dataDir).filePath(QStringLiteral("audit.jsonl"));
    options.keychainService = QStringLiteral("switchboard-test");
    options.trustFile = QDir(dataDir).filePath(QStringLiteral("trust.json"));
    // A test never starts a browser: what the window would open is kept in openedUrls().
    options.openUrl = [](const QUrl &url) {
        openedUrls() << url;
    };
    return options;
}

// Trusts every server of the workspace's .mcp.json, as the user would in the trust banner,
// so that a test about something else finds its servers running. False if nothing could be
// written.
inline bool trustWorkspace(const Gui::MainWindowOptions &options)
{
    const Mcp::McpConfig config = Mcp::ConfigLoader::load(options.workspace, options.configFile,
                                                          QProcessEnvironment::systemEnvironment());
    Engine::TrustStore store(options.trustFile);
    if (!store.load())
        return false;
    for (const Mcp::ServerConfig &server : config.servers) {
        if (Engine::TrustStore::needsTrust(server) && !store.trust(options.workspace, server))
            return false;
    }
    return true;
}

// The window on `workspace`, whose .mcp.json lists `servers` (the members of "mcpServers", as
// JSON text), its data under `dataDir` (conversations in `conversations`), its model the
// OpenAI-compatible one at `modelUrl`: trusted, shown, settled, and `server` connected. Null
// if any of that fails.
inline std::unique_ptr<Gui::MainWindow>
openTestWindow(const QString &workspace, const QString &dataDir, const QString &conversations,
               const QString &servers, const QString &modelUrl, const QString &server)
{
    QFile config(QDir(workspace).filePath(QStringLiteral(".mcp.json")));
    if (!config.open(QIODevice::WriteOnly)
        || config.write(QStringLiteral("{\"mcpServers\": {%1}}\n").arg(servers).toUtf8()) < 0)
        return nullptr;
    config.close();
    qputenv("OPENAI_BASE_URL", modelUrl.toUtf8());
    qunsetenv("OPENAI_API_KEY");
    qunsetenv("ANTHROPIC_API_KEY");
    const Gui::MainWindowOptions options = testWindowOptions(workspace, dataDir, conversations);
    if (!trustWorkspace(options))
        return nullptr;
    auto window = std::make_unique<Gui::MainWindow>(options);
    window->resize(1100, 720);
    window->show();
    if (!QTest::qWaitFor(
                [&] { return window->manager()->isSettled() && window->manager()->client(server); },
                20000))
        return nullptr;
    return window;
}
