#include "bundlefixture.h"
#include "pinnednode.h"
#include "postedevents.h"
#include "registryfixture.h"
#include "windowtest.h"

#include <ui/addserverdialog.h>
#include <ui/installactions.h>
#include <ui/installbundledialog.h>
#include <ui/language.h>
#include <ui/linkreceiver.h>
#include <ui/registryicons.h>
#include <ui/serverdock.h>

#include <engine/install/bundleinstaller.h>

#include <mcp/bundles/bundle.h>
#include <mcp/config/config.h>
#include <mcp/config/configpatcher.h>

#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDirIterator>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using Mcp::Json;

// "Add server…" in the window, against a registry on 127.0.0.1 serving real server.json
// documents (tests/fixtures/registry): results as the person types (one search per pause, not
// per key), the install form of the chosen entry, the command line before anything is written,
// and Install: the real @modelcontextprotocol/server-memory (npx, from the source tree's pinned
// packages) written into the person's mcp.json, started, and its tools called. Screenshots of
// the search and the form in both languages.
class tst_AddServer : public QObject
{
    Q_OBJECT

    // Under the build folder, so that npx finds the pinned packages of the source tree.
    QTemporaryDir m_dir{QStringLiteral(SWITCHBOARD_BINARY_DIR "/addserver-XXXXXX")};
    FakeRegistry m_registry;

    QString workspace() const { return m_dir.filePath(QStringLiteral("ws")); }
    QString userConfig() const
    {
        return m_dir.filePath(QStringLiteral("config/switchboard/mcp.json"));
    }

    std::unique_ptr<Gui::MainWindow> openWindow(const QString &name)
    {
        Gui::MainWindowOptions options
                = testWindowOptions(workspace(), m_dir.filePath(QStringLiteral("data")),
                                    QStringLiteral("conversations-") + name);
        QDir().mkpath(QFileInfo(options.settingsFile).path());
        QFile settings(options.settingsFile);
        if (!settings.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return nullptr;
        settings.write("[General]\nregistryUrl=" + m_registry.base().toString().toUtf8() + "\n");
        settings.close();
        auto window = std::make_unique<Gui::MainWindow>(options);
        window->resize(1100, 720);
        window->show();
        return window;
    }

    // The fixture bundle packed in a folder of its own, `name`: its bytes (empty on failure,
    // with mcpb's output logged) and in `packed` its path.
    QByteArray packIn(const QString &name, QString *packed)
    {
        const QString folder = m_dir.filePath(name);
        QString output;
        *packed = QDir().mkpath(folder) ? packFixtureBundle(folder, &output) : QString();
        QFile file(*packed);
        if (packed->isEmpty() || !file.open(QIODevice::ReadOnly)) {
            qWarning("%s", qPrintable(output));
            return {};
        }
        return file.readAll();
    }

    // What the installed key-echo server says its key's SHA-256 is (empty: no answer).
    QString keyDigest(Gui::MainWindow &window)
    {
        std::optional<Mcp::ToolResult> result;
        Mcp::Client *client = window.manager()->client(QStringLiteral("key-echo"));
        if (!client)
            return {};
        client->callTool("key_sha256", Json::object(), this,
                         [&result](Mcp::ToolResult r) { result = std::move(r); });
        return waitUntil([&] { return result.has_value(); }, 10000) ? result->text() : QString();
    }
    static QString digestOf(const QString &key)
    {
        return QString::fromLatin1(
                QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha256).toHex());
    }

    template<typename T>
    static T *child(QWidget *parent, const QString &name)
    {
        return parent->findChild<T *>(name);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_registry.port);
        m_registry.entries = RegistryFixture::realEntries();
        QVERIFY(QDir().mkpath(workspace()));
        // The person's own folders are this run's; npx runs servers on the pinned Node, offline.
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        qputenv("XDG_CACHE_HOME", m_dir.filePath(QStringLiteral("cache")).toUtf8());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdgdata")).toUtf8());
        qputenv("PATH", (QFileInfo(PinnedNode::program()).path() + QLatin1Char(':')).toUtf8()
                                + qgetenv("PATH"));
        qputenv("npm_config_offline", "true");
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("ANTHROPIC_API_KEY");
        QCOMPARE(Mcp::ConfigLoader::userConfigPath(), userConfig());
    }

    // The acceptance: server-memory from the registry, through the dialog, into the person's
    // mcp.json, started, its tools called; nothing else written.
    void installFromTheDialog()
    {
        auto window = openWindow(QStringLiteral("install"));
        QVERIFY(window);
        // The Servers dock's button opens it, as Tools → Add server… does.
        auto *add = child<QPushButton>(window.get(), QStringLiteral("addServerButton"));
        QVERIFY(add && add->isVisible());
        add->click();
        Gui::AddServerDialog *dialog = window->addServerDialog();
        QVERIFY(dialog);
        QVERIFY(waitUntil([&] { return dialog->resultCount() == 4; }, 10000));

        // Typing "memory" key by key searches once, after the pause.
        m_registry.requests.clear();
        auto *search = child<QLineEdit>(dialog, QStringLiteral("registrySearchEdit"));
        QTest::keyClicks(search, QStringLiteral("memory"));
        QVERIFY(waitUntil([&] { return dialog->resultCount() == 1; }, 10000));
        QCOMPARE(m_registry.requests.size(), 1);
        QVERIFY2(m_registry.requests.first().contains(QLatin1String("search=memory")),
                 qPrintable(m_registry.requests.first()));

        auto *results = child<QListWidget>(dialog, QStringLiteral("registryResults"));
        results->setCurrentRow(0);
        QVERIFY(child<QLabel>(dialog, QStringLiteral("serverTitle"))->text() == "Memory");
        auto *install = child<QPushButton>(dialog, QStringLiteral("installButton"));
        QCOMPARE(dialog->preview(),
                 QStringLiteral("Runs: npx -y @modelcontextprotocol/server-memory@2026.8.31"));
        QVERIFY(install->isEnabled());
        const QString memoryFile = m_dir.filePath(QStringLiteral("memory.jsonl"));
        auto *path = child<QLineEdit>(dialog, QStringLiteral("answer:env:MEMORY_FILE_PATH"));
        QVERIFY(path);
        QTest::keyClicks(path, memoryFile);
        // A name that is taken or cannot be one stops Install, saying why.
        auto *name = child<QLineEdit>(dialog, QStringLiteral("serverNameEdit"));
        QCOMPARE(name->text(), QStringLiteral("memory"));
        name->setText(QStringLiteral("a b"));
        QVERIFY(!install->isEnabled());
        QVERIFY(child<QLabel>(dialog, QStringLiteral("installProblem"))
                        ->text()
                        .contains(QLatin1String("a server name may only contain")));
        name->setText(QStringLiteral("memory"));
        QVERIFY(install->isEnabled());
        QVERIFY(!QFile::exists(userConfig())); // nothing is written before Install

        install->click();
        QVERIFY(waitUntil([&] { return !window->addServerDialog(); }, 20000));
        const Mcp::McpConfig written = Mcp::ConfigLoader::loadFile(userConfig(), {});
        const Mcp::ServerConfig *memory = written.find(QStringLiteral("memory"));
        QVERIFY2(memory, QFile(userConfig()).exists() ? "no memory in mcp.json" : "no mcp.json");
        QCOMPARE(memory->env.value(QStringLiteral("MEMORY_FILE_PATH")), memoryFile);
        QVERIFY(waitUntil([&] { return window->manager()->client(QStringLiteral("memory")); },
                          30000));
        QCOMPARE(window->manager()->status(QStringLiteral("memory")).toolCount, 9);
        Mcp::Client *client = window->manager()->client(QStringLiteral("memory"));
        std::optional<Mcp::ToolResult> result;
        client->callTool("create_entities",
                         Json::parse(R"({"entities": [{"name": "Switchboard", "entityType": "app",
                                     "observations": ["installed from the dialog"]}]})"),
                         this, [&result](Mcp::ToolResult r) { result = std::move(r); });
        QVERIFY(waitUntil([&] { return result.has_value(); }, 10000));
        QVERIFY2(!result->failed(), qPrintable(result->text()));
        QFile stored(memoryFile);
        QVERIFY(stored.open(QIODevice::ReadOnly));
        QVERIFY(stored.readAll().contains("installed from the dialog"));
        window.reset();
        QVERIFY(Mcp::ConfigPatcher::removeServer(userConfig(), QStringLiteral("memory")));
    }

    // An MCP Bundle from the window: File → Install extension… with the packed fixture (here
    // through installExtension(), as the file dialog would), its confirmation and user_config
    // form, Install: extracted, added to the person's mcp.json, started, and the server has the
    // key (no keychain runs here: the note says to export the variable, which this test did).
    // A hostile bundle is refused in a message with the reason; a dropped .mcpb opens the same
    // confirmation.
    void installsABundleFromTheWindow()
    {
        QString output;
        const QString packed = packFixtureBundle(m_dir.path(), &output);
        QVERIFY2(!packed.isEmpty(), qPrintable(output));
        const QString key = QStringLiteral("kw-5c1e8a2f9d");
        qputenv("KEY_ECHO_API_KEY", key.toUtf8());
        auto window = openWindow(QStringLiteral("bundle"));
        QVERIFY(window);
        window->installExtension(packed);
        Gui::InstallBundleDialog *dialog = window->installBundleDialog();
        QVERIFY(dialog);
        QVERIFY(child<QLabel>(dialog, QStringLiteral("bundleSignature"))
                        ->text()
                        .startsWith(QLatin1String("Not signed")));
        auto *install = child<QPushButton>(dialog, QStringLiteral("installBundleButton"));
        QVERIFY(!install->isEnabled());
        QCOMPARE(dialog->problem(), QStringLiteral("API key is required"));
        auto *apiKey = child<QLineEdit>(dialog, QStringLiteral("option:api_key"));
        QCOMPARE(apiKey->echoMode(), QLineEdit::Password);
        QTest::keyClicks(apiKey, key);
        // The default as it will be used, not as the manifest writes it ("${HOME}").
        QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("option:folder"))->placeholderText(),
                 QDir::homePath());
        auto *limit = child<QLineEdit>(dialog, QStringLiteral("option:limit"));
        limit->setText(QStringLiteral("1000"));
        QCOMPARE(dialog->problem(), QStringLiteral("Limit must be between 1 and 100"));
        limit->setText(QStringLiteral("5"));
        QVERIFY(install->isEnabled());
        install->click();
        QVERIFY(waitUntil([&] { return !window->installBundleDialog(); }, 20000));
        QVERIFY(waitUntil([&] { return window->manager()->client(QStringLiteral("key-echo")); },
                          20000));
        QCOMPARE(keyDigest(*window), digestOf(key));
        QFile written(userConfig());
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(!written.readAll().contains(key.toUtf8()));

        // Refused: a zip whose manifest's name was turned into a path leading out.
        QFile packedFile(packed);
        QVERIFY(packedFile.open(QIODevice::ReadOnly));
        QByteArray hostile = packedFile.readAll();
        QVERIFY(hostile.count("manifest.json") == 2); // its local header and the directory
        hostile.replace("manifest.json", "../x/evil.txt");
        const QString hostilePath = m_dir.filePath(QStringLiteral("hostile.mcpb"));
        QFile hostileFile(hostilePath);
        QVERIFY(hostileFile.open(QIODevice::WriteOnly));
        hostileFile.write(hostile);
        hostileFile.close();
        window->installExtension(hostilePath);
        auto *box = window->findChild<QMessageBox *>(QStringLiteral("bundleRefusedBox"));
        QVERIFY(box);
        QVERIFY2(box->text().startsWith(QLatin1String("The bundle is refused")),
                 qPrintable(box->text()));
        box->close();

        // Dropped on the window: the same confirmation; here, since this version is installed
        // already, the reason it cannot update it.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(packed)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(window.get(), &drop);
        QVERIFY(waitUntil([&] { return window->installActions()->messageBox() != nullptr; }, 5000));
        QVERIFY2(window->installActions()->messageBox()->text().contains(
                         QLatin1String("Key Echo 1.0.0 is installed; this file holds version "
                                       "1.0.0, which is not newer")),
                 qPrintable(window->installActions()->messageBox()->text()));
        // Dropped on the message box: the same, not an attachment.
        const QPointer<QMessageBox> first = window->installActions()->messageBox();
        auto *composer = window->findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QVERIFY(composer);
        QDragEnterEvent enterComposer(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                                      Qt::NoModifier);
        QApplication::sendEvent(composer->viewport(), &enterComposer);
        QDropEvent dropOnComposer(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                                  Qt::NoModifier);
        QApplication::sendEvent(composer->viewport(), &dropOnComposer);
        QVERIFY(waitUntil(
                [&] {
                    QMessageBox *box = window->installActions()->messageBox();
                    return box && box != first;
                },
                5000));
        QVERIFY(window->installActions()->messageBox()->text().contains(
                QLatin1String("which is not newer")));
        QVERIFY(window->findChildren<QToolButton *>(QStringLiteral("attachmentChip")).isEmpty());
        window.reset();
        qunsetenv("KEY_ECHO_API_KEY");
        QVERIFY(Mcp::ConfigPatcher::removeServer(userConfig(), QStringLiteral("key-echo")));
        QVERIFY(QDir(Engine::BundleInstaller::defaultExtensionsDir() + QStringLiteral("/key-echo"))
                        .removeRecursively());
    }

    // From the Servers dock: Update… asks for the newer .mcpb and opens its confirmation with
    // the answers kept (the version it goes from and to in the title); Update swaps it in and
    // the server restarts with the same settings. Uninstall… asks (naming the file, the folder
    // and, with a check box, the secrets only it reads) and removes it all.
    void updatesAndUninstallsFromTheDock()
    {
        const QString folder = m_dir.filePath(QStringLiteral("update"));
        QVERIFY(QDir().mkpath(folder));
        QString output;
        const QString older = packFixtureBundle(folder, &output);
        QVERIFY2(!older.isEmpty(), qPrintable(output));
        const QString newer = packFixtureBundle(folder, &output, QStringLiteral("1.1.0"));
        QVERIFY2(!newer.isEmpty(), qPrintable(output));
        const QString key = QStringLiteral("ku-77d0c4e1");
        qputenv("KEY_ECHO_API_KEY", key.toUtf8());
        // A server of the person's own, whose secret only it reads.
        QVERIFY(Mcp::ConfigPatcher::addServer(
                userConfig(), QStringLiteral("plain"),
                nlohmann::ordered_json::parse(R"({"command": "true", "disabled": true,
                                                  "env": {"T": "${secret:plain.token}"}})")));
        auto window = openWindow(QStringLiteral("update"));
        QVERIFY(window);
        window->installExtension(older);
        Gui::InstallBundleDialog *dialog = window->installBundleDialog();
        QVERIFY(dialog);
        QTest::keyClicks(child<QLineEdit>(dialog, QStringLiteral("option:api_key")), key);
        child<QLineEdit>(dialog, QStringLiteral("option:limit"))->setText(QStringLiteral("7"));
        child<QPushButton>(dialog, QStringLiteral("installBundleButton"))->click();
        QVERIFY(waitUntil([&] { return window->manager()->client(QStringLiteral("key-echo")); },
                          20000));
        const QString extension
                = Engine::BundleInstaller::defaultExtensionsDir() + QStringLiteral("/key-echo");
        QVERIFY(QFileInfo(extension).isDir());

        auto *dock = window->findChild<Gui::ServerDock *>();
        dock->selectServer(QStringLiteral("key-echo"));
        auto *update = child<QToolButton>(dock, QStringLiteral("updateServerButton"));
        QVERIFY(update->isEnabled());
        update->click();
        auto *files = window->findChild<QFileDialog *>(QStringLiteral("updateFileDialog"));
        QVERIFY(files);
        emit files->fileSelected(newer);
        files->close();
        Gui::InstallBundleDialog *confirm = window->installActions()->bundleDialog();
        QVERIFY(confirm);
        QCOMPARE(child<QLabel>(confirm, QStringLiteral("bundleTitle"))->text(),
                 QStringLiteral("Key Echo: 1.0.0 → 1.1.0"));
        QCOMPARE(child<QLineEdit>(confirm, QStringLiteral("option:limit"))->text(),
                 QStringLiteral("7"));
        QVERIFY(child<QLineEdit>(confirm, QStringLiteral("option:api_key"))->text().isEmpty());
        QCOMPARE(confirm->problem(), QString());
        child<QPushButton>(confirm, QStringLiteral("installBundleButton"))->click();
        QVERIFY(waitUntil([&] { return !window->installActions()->bundleDialog(); }, 20000));
        const Mcp::McpConfig updated = Mcp::ConfigLoader::loadFile(userConfig(), {});
        const Mcp::ServerConfig *echo = updated.find(QStringLiteral("key-echo"));
        QVERIFY(echo);
        QVERIFY(echo->definition["installedFrom"]["version"] == "1.1.0");
        QCOMPARE(echo->env.value(QStringLiteral("KEY_ECHO_LIMIT")), QStringLiteral("7"));
        QVERIFY(waitUntil(
                [&] {
                    const Mcp::ServerConfig *running
                            = window->manager()->serverConfig(QStringLiteral("key-echo"));
                    return running && running->definition == echo->definition
                           && window->manager()->client(QStringLiteral("key-echo"));
                },
                20000));
        QCOMPARE(keyDigest(*window), digestOf(key));

        // The same version again: refused, saying why.
        window->installActions()->update(QStringLiteral("key-echo"), newer);
        QMessageBox *refused = window->installActions()->messageBox();
        QVERIFY(refused);
        QVERIFY2(refused->text().contains(QLatin1String("which is not newer")),
                 qPrintable(refused->text()));
        refused->close();

        // Uninstall: asked, then the entry and the folder are gone and the server stopped.
        child<QToolButton>(dock, QStringLiteral("uninstallServerButton"))->click();
        QMessageBox *ask = window->installActions()->messageBox();
        QVERIFY(ask);
        QCOMPARE(ask->objectName(), QStringLiteral("uninstallBox"));
        QVERIFY2(ask->informativeText().contains(extension), qPrintable(ask->informativeText()));
        QVERIFY(!ask->checkBox()); // its key is an exported variable: no secret of its own
        child<QPushButton>(ask, QStringLiteral("uninstallButton"))->click();
        QVERIFY(waitUntil(
                [&] { return !window->manager()->serverConfig(QStringLiteral("key-echo")); },
                10000));
        QVERIFY(!QFileInfo::exists(extension));
        QVERIFY(!Mcp::ConfigLoader::loadFile(userConfig(), {}).find(QStringLiteral("key-echo")));

        // A server of the person's own: its secret is named, to be deleted too.
        dock->selectServer(QStringLiteral("plain"));
        QVERIFY(!update->isEnabled()); // no install made it: nothing to update from
        child<QToolButton>(dock, QStringLiteral("uninstallServerButton"))->click();
        ask = window->installActions()->messageBox();
        QVERIFY(ask && ask->checkBox());
        QCOMPARE(ask->checkBox()->text(),
                 QStringLiteral("Also delete its secrets from the keychain: plain.token"));
        QVERIFY(ask->checkBox()->isChecked());
        child<QPushButton>(ask, QStringLiteral("uninstallButton"))->click();
        QVERIFY(waitUntil([&] { return !window->manager()->serverConfig(QStringLiteral("plain")); },
                          10000));

        // A registry server of an older version: Update… shows what will run, then it does.
        QVERIFY(Mcp::ConfigPatcher::addServer(userConfig(), QStringLiteral("memory"),
                                              nlohmann::ordered_json::parse(R"({"command": "npx",
                    "args": ["-y", "@modelcontextprotocol/server-memory@2025.9.25"],
                    "installedFrom": {"name": "io.github.modelcontextprotocol/server-memory",
                                      "version": "2025.9.25",
                                      "package": "npm @modelcontextprotocol/server-memory"}})")));
        window->applyConfig(Mcp::ConfigLoader::loadFile(userConfig(), {}));
        QVERIFY(waitUntil([&] { return window->manager()->serverConfig(QStringLiteral("memory")); },
                          10000));
        dock->selectServer(QStringLiteral("memory"));
        QVERIFY(update->isEnabled());
        update->click();
        QVERIFY(waitUntil(
                [&] {
                    QMessageBox *box = window->installActions()->messageBox();
                    return box && box->objectName() == QLatin1String("updateBox");
                },
                10000));
        ask = window->installActions()->messageBox();
        QCOMPARE(ask->text(), QStringLiteral("Update memory from 2025.9.25 to 2026.8.31?"));
        QVERIFY2(ask->informativeText().contains(
                         QLatin1String("npx -y @modelcontextprotocol/server-memory@2026.8.31")),
                 qPrintable(ask->informativeText()));
        child<QPushButton>(ask, QStringLiteral("updateButton"))->click();
        QVERIFY(waitUntil(
                [&] {
                    Mcp::Client *memory = window->manager()->client(QStringLiteral("memory"));
                    return memory && memory->tools().size() == 9;
                },
                30000));
        QVERIFY(Mcp::ConfigLoader::loadFile(userConfig(), {})
                        .find(QStringLiteral("memory"))
                        ->definition["installedFrom"]["version"]
                == "2026.8.31");
        window.reset();
        QVERIFY(Mcp::ConfigPatcher::removeServer(userConfig(), QStringLiteral("memory")));
        qunsetenv("KEY_ECHO_API_KEY");
    }

    // A registry entry that is an MCP Bundle: Download… fetches it, checks its SHA-256, and the
    // bundle's own confirmation opens on the file; a download that is not the file the entry
    // names is refused in the dialog's status line.
    void installsABundleFromTheRegistry()
    {
        QString packed;
        const QByteArray bytes = packIn(QStringLiteral("registry-bundle"), &packed);
        QVERIFY(!bytes.isEmpty());
        const std::string sha
                = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString();
        m_registry.files.insert(QStringLiteral("/dl/key-echo.mcpb"), bytes);
        m_registry.files.insert(QStringLiteral("/dl/changed.mcpb"), bytes + "x");
        const std::vector<Json> kept = m_registry.entries;
        for (const char *name : {"key-echo", "changed"}) {
            const std::string url
                    = m_registry.base().toString().toStdString() + "dl/" + name + ".mcpb";
            m_registry.entries.push_back(Json{
                    {"server",
                     {{"name", std::string("io.example/bundle-") + name},
                      {"description", "Key Echo as a bundle"},
                      {"version", "1.0.0"},
                      {"packages", Json::array({Json{{"registryType", "mcpb"},
                                                     {"identifier", url},
                                                     {"fileSha256", sha},
                                                     {"transport", {{"type", "stdio"}}}}})}}}});
        }
        auto window = openWindow(QStringLiteral("registry-bundle"));
        QVERIFY(window);
        window->openAddServer(QStringLiteral("bundle-"));
        Gui::AddServerDialog *dialog = window->addServerDialog();
        QVERIFY(dialog);
        QVERIFY(waitUntil([&] { return dialog->resultCount() == 2; }, 10000));
        auto *results = child<QListWidget>(dialog, QStringLiteral("registryResults"));
        auto *install = child<QPushButton>(dialog, QStringLiteral("installButton"));
        auto *problem = child<QLabel>(dialog, QStringLiteral("installProblem"));
        results->setCurrentRow(1); // changed
        QVERIFY2(dialog->preview().startsWith(QLatin1String("Downloads: http://127.0.0.1")),
                 qPrintable(dialog->preview()));
        QCOMPARE(install->text(), QStringLiteral("&Download…"));
        install->click();
        QVERIFY(waitUntil(
                [&] { return problem->text().contains(QLatin1String("is not the file")); }, 10000));
        QVERIFY(window->addServerDialog());

        results->setCurrentRow(0);
        QVERIFY(install->isEnabled());
        install->click();
        QVERIFY(waitUntil([&] { return window->installBundleDialog() != nullptr; }, 10000));
        QVERIFY(!window->addServerDialog());
        QCOMPARE(
                child<QLabel>(window->installBundleDialog(), QStringLiteral("bundleTitle"))->text(),
                QStringLiteral("Key Echo 1.0.0"));
        window->installBundleDialog()->reject();
        window.reset();
        m_registry.entries = kept;
    }

    // Links: a registry entry by name opens "Add server…" on it; a download is asked first,
    // then fetched, checked and confirmed; a file opens its confirmation; anything else says
    // why. `switchboard --install LINK` hands the link to the Switchboard already running.
    void installsFromLinks()
    {
        auto window = openWindow(QStringLiteral("links"));
        QVERIFY(window);
        window->openInstallLink(QStringLiteral(
                "switchboard://install?name=io.github.modelcontextprotocol%2Fserver-memory"));
        Gui::AddServerDialog *dialog = window->addServerDialog();
        QVERIFY(dialog);
        QVERIFY(waitUntil(
                [&] {
                    return child<QLabel>(dialog, QStringLiteral("serverTitle"))->text()
                           == QLatin1String("Memory");
                },
                10000));
        QCOMPARE(dialog->preview(),
                 QStringLiteral("Runs: npx -y @modelcontextprotocol/server-memory@2026.8.31"));
        dialog->close();

        window->openInstallLink(
                QStringLiteral("switchboard://install?name=a/b&registry=http://evil.example"));
        auto *box = window->findChild<QMessageBox *>(QStringLiteral("installLinkBox"));
        QVERIFY(box);
        QVERIFY2(box->text().startsWith(QLatin1String("This link cannot be installed: ")),
                 qPrintable(box->text()));
        box->close();
        // Closed from here, outside an event loop: deleted by hand, as QTest::qWait would.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QVERIFY(!window->findChild<QMessageBox *>(QStringLiteral("installLinkBox")));

        QString packed;
        const QByteArray bytes = packIn(QStringLiteral("links"), &packed);
        QVERIFY(!bytes.isEmpty());
        m_registry.files.insert(QStringLiteral("/links/key-echo.mcpb"), bytes);
        const QUrl download
                = m_registry.base().resolved(QUrl(QStringLiteral("links/key-echo.mcpb")));
        window->openInstallLink(
                QStringLiteral("switchboard://install?bundle=%1&sha256=%2")
                        .arg(QString::fromLatin1(QUrl::toPercentEncoding(download.toString())),
                             QString::fromLatin1(
                                     QCryptographicHash::hash(bytes, QCryptographicHash::Sha256)
                                             .toHex())));
        box = window->findChild<QMessageBox *>(QStringLiteral("installLinkBox"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(download.toString()), qPrintable(box->text()));
        QVERIFY(!window->installBundleDialog()); // nothing fetched before the person says so
        child<QPushButton>(box, QStringLiteral("downloadButton"))->click();
        QVERIFY(waitUntil([&] { return window->installBundleDialog() != nullptr; }, 10000));
        window->installBundleDialog()->close();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QVERIFY(!window->installBundleDialog());

        window->openInstallLink(QUrl::fromLocalFile(packed).toString());
        QVERIFY(window->installBundleDialog());
        window->installBundleDialog()->close();

        // A second `switchboard --install …` hands its link over and exits.
        const QString socket = QStringLiteral("switchboard-links-test-%1")
                                       .arg(QCoreApplication::applicationPid());
        qputenv("SWITCHBOARD_LINK_SOCKET", socket.toUtf8());
        Gui::LinkReceiver receiver;
        QVERIFY(receiver.listening());
        QStringList received;
        connect(&receiver, &Gui::LinkReceiver::received, this,
                [&received](const QString &link) { received << link; });
        QProcess second;
        second.start(
                QStringLiteral(SWITCHBOARD_GUI),
                {QStringLiteral("--install"), QStringLiteral("switchboard://install?name=a/b")});
        QVERIFY(waitUntil([&] { return second.state() == QProcess::NotRunning; }, 20000));
        QCOMPARE(second.exitCode(), 0);
        QVERIFY(second.readAllStandardOutput().contains("handed to the Switchboard"));
        QVERIFY(waitUntil([&] { return !received.isEmpty(); }, 5000));
        QCOMPARE(received, QStringList{QStringLiteral("switchboard://install?name=a/b")});
        qunsetenv("SWITCHBOARD_LINK_SOCKET");
    }

    // Each listed entry's icon is fetched from where the entry says; a picture too large, one
    // with too many pixels, an SVG or something that is no picture leaves it without one.
    void showsIcons()
    {
        const auto png = [](int side) {
            QImage image(side, side, QImage::Format_RGB32);
            image.fill(Qt::darkCyan);
            QByteArray bytes;
            QBuffer buffer(&bytes);
            buffer.open(QIODevice::WriteOnly);
            image.save(&buffer, "PNG");
            return bytes;
        };
        m_registry.files.insert(QStringLiteral("/icons/ok.png"), png(48));
        m_registry.files.insert(QStringLiteral("/icons/huge.png"), png(5000));
        m_registry.files.insert(QStringLiteral("/icons/heavy.png"),
                                png(48) + QByteArray(300 * 1024, 'x'));
        m_registry.files.insert(QStringLiteral("/icons/vector.png"),
                                QByteArray("<svg xmlns='http://www.w3.org/2000/svg'/>"));
        const std::vector<Json> kept = m_registry.entries;
        for (const char *name : {"ok", "huge", "heavy", "vector"}) {
            const std::string src
                    = m_registry.base().toString().toStdString() + "icons/" + name + ".png";
            m_registry.entries.push_back(
                    Json{{"server",
                          {{"name", std::string("io.example/icon-") + name},
                           {"description", "An entry with an icon"},
                           {"version", "1.0.0"},
                           {"icons", Json::array({Json{{"src", src}, {"mimeType", "image/png"}}})},
                           {"remotes", Json::array({Json{{"type", "streamable-http"},
                                                         {"url", "https://example.com/mcp"}}})}}}});
        }
        Gui::AddServerDialog::Options options;
        options.registry = m_registry.base();
        options.userFile = userConfig();
        options.search = QStringLiteral("icon-");
        Gui::AddServerDialog dialog(options);
        dialog.show();
        QVERIFY(waitUntil([&] { return dialog.resultCount() == 4; }, 10000));
        QVERIFY(waitUntil([&] { return !dialog.resultIcon(0).isNull(); }, 10000));
        QCOMPARE(dialog.resultIcon(0).availableSizes().value(0), QSize(48, 48));
        // The others are all asked for, and give none.
        QVERIFY(waitUntil([&] { return dialog.iconsPending() == 0; }, 10000));
        QCOMPARE(m_registry.requests.filter(QStringLiteral("/icons/")).size(), 4);
        for (int row = 1; row < 4; ++row)
            QVERIFY2(dialog.resultIcon(row).isNull(), qPrintable(QString::number(row)));
        QCOMPARE(Gui::RegistryIcons::decode(png(48)).size(), QSize(48, 48));
        QVERIFY(Gui::RegistryIcons::decode(png(5000)).isNull());
        QVERIFY(Gui::RegistryIcons::decode("<svg xmlns='http://www.w3.org/2000/svg'/>").isNull());
        m_registry.entries = kept;
    }

    // A registry that fails: the dialog says why in its status line, lists nothing, and stays.
    void failingRegistrySaysSo()
    {
        FakeRegistry broken;
        broken.mode = FakeRegistry::Mode::Crowded;
        Gui::AddServerDialog::Options options;
        options.registry = broken.base();
        options.userFile = userConfig();
        Gui::AddServerDialog dialog(options);
        dialog.show();
        auto *status = child<QLabel>(&dialog, QStringLiteral("registryStatus"));
        QVERIFY(waitUntil([&] { return status->text().contains(QLatin1String("100000")); }, 10000));
        QCOMPARE(dialog.resultCount(), 0);
        QVERIFY(dialog.isVisible());
    }

    void screenshots_data() { addLanguageRows(); }

    // The search with results, and the install form of an entry with a secret.
    void screenshots()
    {
        QFETCH(QString, lang);
        Gui::installLanguage(lang);
        Gui::AddServerDialog::Options options;
        options.registry = m_registry.base();
        options.userFile = QStringLiteral("~/.config/switchboard/mcp.json");
        options.workspaceFile = QStringLiteral("~/projects/site/.mcp.json");
        Gui::AddServerDialog dialog(options);
        dialog.resize(960, 620);
        dialog.show();
        QVERIFY(waitUntil([&] { return dialog.resultCount() == 4; }, 10000));
        const QString dir
                = qEnvironmentVariable("SWITCHBOARD_SCREENSHOT_DIR",
                                       QStringLiteral(SWITCHBOARD_BINARY_DIR "/tests/screenshots"));
        QVERIFY(QDir().mkpath(dir));
        auto *results = child<QListWidget>(&dialog, QStringLiteral("registryResults"));
        results->setCurrentRow(0); // the GitHub server: a package with a secret
        QVERIFY(deliverPostedEvents());
        QVERIFY(dialog.grab().save(
                QDir(dir).filePath(QStringLiteral("add-server-search-%1.png").arg(lang))));
        auto *token = child<QLineEdit>(&dialog,
                                       QStringLiteral("answer:env:GITHUB_PERSONAL_ACCESS_TOKEN"));
        QVERIFY(token);
        QCOMPARE(token->echoMode(), QLineEdit::Password);
        token->setText(QStringLiteral("ghp_example"));
        QVERIFY(dialog.preview().contains(QLatin1String("docker run -i --rm")));
        QVERIFY2(dialog.preview().contains(QLatin1String("GITHUB_PERSONAL_ACCESS_TOKEN=${secret:"
                                                         "github.GITHUB_PERSONAL_ACCESS_TOKEN}")),
                 qPrintable(dialog.preview()));
        QVERIFY(!dialog.preview().contains(QLatin1String("ghp_example")));
        QVERIFY(deliverPostedEvents());
        QVERIFY(dialog.grab().save(
                QDir(dir).filePath(QStringLiteral("add-server-form-%1.png").arg(lang))));

        // A bundle's confirmation with its user_config form.
        QString output;
        QTemporaryDir packing;
        const QString packed = packFixtureBundle(packing.path(), &output);
        QVERIFY2(!packed.isEmpty(), qPrintable(output));
        const Mcp::Bundles::OpenResult opened = Mcp::Bundles::openBundle(packed);
        QVERIFY(opened.bundle);
        Gui::InstallBundleDialog::Options bundleOptions;
        bundleOptions.bundle = *opened.bundle;
        bundleOptions.userFile = QStringLiteral("~/.config/switchboard/mcp.json");
        bundleOptions.extensionsDir = QStringLiteral("~/.local/share/switchboard/extensions");
        Gui::InstallBundleDialog confirm(bundleOptions);
        confirm.show();
        child<QLineEdit>(&confirm, QStringLiteral("option:api_key"))->setText(QStringLiteral("x"));
        QVERIFY(deliverPostedEvents());
        QVERIFY(confirm.grab().save(
                QDir(dir).filePath(QStringLiteral("install-bundle-%1.png").arg(lang))));
        Gui::installLanguage(QStringLiteral("en"));
    }
};

QTEST_MAIN(tst_AddServer)
#include "tst_addserver.moc"
