#include "fakellmserver.h"
#include "filemode.h"
#include "keychaintest.h"
#include "postedevents.h"

#include <engine/secrets/secretstore.h>
#include <engine/secrets/serversecrets.h>
#include <ui/appsettings.h>
#include <ui/serversecretspage.h>
#include <ui/settingsdialog.h>

#include <qt6keychain/keychain.h>

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QUuid>

using Engine::ProviderConfig;
using Engine::SecretStore;
using Gui::AppSettings;
using Gui::SettingsDialog;

Q_DECLARE_METATYPE(std::optional<ProviderConfig>)

// The settings file, the API key's way into the keychain (or, where no keychain answers, into
// this session's memory only) and the Settings dialog: round trips through a temporary INI
// file, the key never in that file, the keychain-unavailable note, inline validation, and the
// mapping from settings to the model provider's configuration. The keychain entries live
// under a service name of their own per run, removed at the end, never the real one.
class tst_SettingsDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_service = QStringLiteral("switchboard-test-")
                        + QUuid::createUuid().toString(QUuid::WithoutBraces);

    QString file(const QString &name) const { return m_dir.filePath(name); }

    static QByteArray bytes(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    template<typename T>
    static T *child(QWidget *dialog, const char *name)
    {
        return dialog->findChild<T *>(QString::fromLatin1(name));
    }

    static void selectData(QComboBox *combo, const QString &data)
    {
        const int index = combo->findData(data);
        QVERIFY2(index >= 0, qPrintable(data));
        combo->setCurrentIndex(index);
    }

    // The dialog has read the key state of the selected provider from the keychain.
    static bool keyStateKnown(QWidget *dialog)
    {
        auto state = child<QLabel>(dialog, "keyStateLabel");
        return state && !state->text().isEmpty()
               && state->text() != SettingsDialog::tr("Reading the keychain…");
    }

    // Reads `key` through a store and waits for the one answer.
    static std::optional<Engine::SecretStore::Result> readSecret(Engine::SecretStore &store,
                                                                 const QString &key)
    {
        std::optional<Engine::SecretStore::Result> answer;
        int calls = 0;
        QObject context;
        store.read(key, &context, [&](const Engine::SecretStore::Result &result) {
            answer = result;
            ++calls;
        });
        if (!QTest::qWaitFor([&] { return calls > 0; }, 30000))
            return std::nullopt;
        // A second call would be posted with the first.
        if (!deliverPostedEvents())
            return std::nullopt;
        return calls == 1 ? answer : std::nullopt;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void cleanupTestCase()
    {
        // Leave nothing behind in a real keychain.
        Engine::SecretStore store(m_service);
        QObject context;
        const QStringList profiles{QString::fromLatin1(AppSettings::EnvironmentProvider),
                                   QString::fromLatin1(AppSettings::OpenAiProvider),
                                   QString::fromLatin1(AppSettings::AnthropicProvider),
                                   QStringLiteral("profile-2"), QStringLiteral("profile-3")};
        int pending = int(profiles.size());
        for (const QString &profile : profiles)
            store.remove(AppSettings::keychainKey(profile), &context,
                         [&](const Engine::SecretStore::Result &) { --pending; });
        QTRY_COMPARE_WITH_TIMEOUT(pending, 0, 30000);
    }

    void settingsRoundTrip()
    {
        const QString path = file(QStringLiteral("roundtrip.ini"));
        QCOMPARE(AppSettings::load(path), AppSettings()); // no file: the defaults

        AppSettings settings;
        settings.active().provider = QString::fromLatin1(AppSettings::AnthropicProvider);
        settings.active().baseUrl = QStringLiteral("https://proxy.example.com/anthropic");
        settings.active().model = QStringLiteral("claude-test");
        settings.requestTimeoutS = 42;
        settings.toolTimeoutS = 7;
        settings.language = QString::fromLatin1(AppSettings::ChineseLanguage);
        settings.bashSandbox = Mcp::Sandbox::Mode::Off;
        settings.maxConcurrentStarts = 3;
        settings.maxInboundTasks = 9;
        settings.observationChars = 5000;
        settings.contextTokens = 32768;
        settings.toolSearchThreshold = 0;
        settings.modelSeesImages = false;
        settings.pinnedTools = {QStringLiteral("mcp__gh__create_issue"), QStringLiteral("bash")};
        settings.registryUrl = QStringLiteral("https://registry.example.com/mcp");
        QString error;
        QVERIFY2(settings.save(path, &error), qPrintable(error));
        QCOMPARE(AppSettings::load(path), settings);
        // Where the CLI finds it too.
        QVERIFY(bytes(path).contains("registryUrl=https://registry.example.com/mcp"));
        QVERIFY(bytes(path).contains("claude-test"));
        QVERIFY(bytes(path).contains("[bash]\nsandbox=off"));
        QVERIFY(bytes(path).contains("[servers]\nmaxConcurrentStarts=3"));
        QVERIFY(bytes(path).contains("contextTokens=32768"));
        QVERIFY(bytes(path).contains("[a2a]\nmaxInboundTasks=9"));
        QVERIFY(bytes(path).contains("searchThreshold=0"));

        // A hand-edited file: unknown names fall back, numbers are clamped or ignored.
        QFile edited(file(QStringLiteral("edited.ini")));
        QVERIFY(edited.open(QIODevice::WriteOnly));
        edited.write("[model]\nprovider=gemini\nrequestTimeout=999999\n"
                     "[tools]\ntimeout=soon\n[interface]\nlanguage=fr\n[bash]\nsandbox=maybe\n"
                     "[servers]\nmaxConcurrentStarts=0\n[model]\ncontextTokens=12\n"
                     "[a2a]\nmaxInboundTasks=100000\n");
        edited.close();
        const AppSettings loaded = AppSettings::load(edited.fileName());
        QCOMPARE(loaded.active().provider, QString::fromLatin1(AppSettings::EnvironmentProvider));
        QCOMPARE(loaded.requestTimeoutS, AppSettings::MaxRequestTimeoutS);
        QCOMPARE(loaded.toolTimeoutS, AppSettings::DefaultToolTimeoutS);
        QCOMPARE(loaded.language, QString::fromLatin1(AppSettings::SystemLanguage));
        QCOMPARE(loaded.bashSandbox, Mcp::Sandbox::Mode::Auto);
        QCOMPARE(loaded.maxConcurrentStarts, 1);
        QCOMPARE(loaded.contextTokens, AppSettings::MinContextTokens);
        QCOMPARE(loaded.maxInboundTasks, AppSettings::MaxInboundTasks);
    }

    // Model profiles: a file from before them gives one under its provider's id (so its key in
    // the keychain stays its own); several round-trip with the one in use; a hand-edited list
    // loses rows without an id or with one seen before, and an unknown active one.
    void profilesRoundTripAndMigration()
    {
        QFile old(file(QStringLiteral("before-profiles.ini")));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("[model]\nprovider=anthropic\nbaseUrl=https://proxy.example.com\n"
                  "model=claude-y\n");
        old.close();
        const AppSettings migrated = AppSettings::load(old.fileName());
        QCOMPARE(migrated.profiles.size(), 1);
        QCOMPARE(migrated.active().id, QStringLiteral("anthropic"));
        QCOMPARE(AppSettings::keychainKey(migrated.active().id),
                 QStringLiteral("api-key/anthropic"));
        QCOMPARE(migrated.active().baseUrl, QStringLiteral("https://proxy.example.com"));
        QCOMPARE(migrated.active().model, QStringLiteral("claude-y"));
        QCOMPARE(migrated.active().shownName(), QStringLiteral("Anthropic"));

        AppSettings settings = migrated;
        AppSettings::ModelProfile local;
        local.id = AppSettings::newProfileId(settings.profiles);
        QCOMPARE(local.id, QStringLiteral("profile-2"));
        local.name = QStringLiteral("Local / 本地");
        local.provider = QString::fromLatin1(AppSettings::OpenAiProvider);
        local.baseUrl = QStringLiteral("http://127.0.0.1:11434/v1");
        local.model = QStringLiteral("qwen");
        settings.profiles << local;
        settings.activeProfile = local.id;
        const QString path = file(QStringLiteral("profiles.ini"));
        QVERIFY(settings.save(path));
        QCOMPARE(AppSettings::load(path), settings);
        // An older version reads the profile in use where it always looked.
        QVERIFY(bytes(path).contains("[model]"));
        QVERIFY(bytes(path).contains("baseUrl=http://127.0.0.1:11434/v1"));
        QVERIFY(bytes(path).contains("profile=profile-2"));
        // The profile names the configuration (there is a choice), and where its key is from.
        QProcessEnvironment env;
        const auto config = settings.providerConfig(QStringLiteral("sk-local"), env);
        QVERIFY(config);
        QCOMPARE(config->profile, QStringLiteral("Local / 本地"));
        QCOMPARE(int(config->keyFrom), int(ProviderConfig::KeyFrom::Settings));
        QString whyNot;
        AppSettings noKey = settings;
        noKey.profiles.first().baseUrl.clear(); // Anthropic's own service: a key is needed
        QVERIFY(!noKey.providerConfig(noKey.profiles.first(), QString(), env, &whyNot));
        QVERIFY2(whyNot.startsWith(QLatin1String("profile \"Anthropic\": no API key")),
                 qPrintable(whyNot));

        QFile edited(file(QStringLiteral("edited-profiles.ini")));
        QVERIFY(edited.open(QIODevice::WriteOnly));
        edited.write("[model]\nprofile=gone\n[profiles]\nsize=4\n"
                     "1\\id=a\n1\\provider=openai\n1\\name=First\n"
                     "2\\id=\n2\\provider=openai\n"
                     "3\\id=a\n3\\provider=anthropic\n"
                     "4\\id=b\n4\\provider=gemini\n");
        edited.close();
        const AppSettings loaded = AppSettings::load(edited.fileName());
        QCOMPARE(loaded.profiles.size(), 2);
        QCOMPARE(loaded.profiles.at(0).name, QStringLiteral("First"));
        QCOMPARE(loaded.profiles.at(0).provider, QString::fromLatin1(AppSettings::OpenAiProvider));
        QCOMPARE(loaded.profiles.at(1).provider,
                 QString::fromLatin1(AppSettings::EnvironmentProvider));
        QCOMPARE(loaded.activeProfile, QStringLiteral("a"));
    }

    // The dialog edits several profiles: Add, a name, each its own provider, address and key
    // (typed keys kept while switching), Remove; OK saves them all, the one shown in use, and
    // each typed key under its own profile's keychain entry; a removed profile's key goes.
    void profilesInTheDialog()
    {
        const QString path = file(QStringLiteral("profiles-dialog.ini"));
        AppSettings saved;
        saved.active().provider = QString::fromLatin1(AppSettings::OpenAiProvider);
        saved.active().baseUrl = QStringLiteral("http://127.0.0.1:9/v1");
        QVERIFY(saved.save(path));
        Engine::SecretStore store(m_service);
        auto dialog = std::make_unique<SettingsDialog>(path, &store);
        dialog->show();
        dialog->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(dialog.get()));
        QTRY_VERIFY_WITH_TIMEOUT(keyStateKnown(dialog.get()), 30000);
        auto profiles = child<QComboBox>(dialog.get(), "profileCombo");
        QCOMPARE(profiles->count(), 1);
        QCOMPARE(profiles->currentText(), QStringLiteral("OpenAI-compatible"));
        QVERIFY(!child<QToolButton>(dialog.get(), "removeProfileButton")->isEnabled());
        auto keyEdit = child<QLineEdit>(dialog.get(), "apiKeyEdit");
        keyEdit->setText(QStringLiteral("sk-first"));

        child<QToolButton>(dialog.get(), "addProfileButton")->click();
        QCOMPARE(profiles->count(), 2);
        QCOMPARE(profiles->currentIndex(), 1);
        auto name = child<QLineEdit>(dialog.get(), "profileNameEdit");
        QCOMPARE(QApplication::focusWidget(), name);
        QVERIFY(keyEdit->text().isEmpty()); // the new profile's own key
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("Work"));
        QCOMPARE(profiles->itemText(1), QStringLiteral("Work"));
        selectData(child<QComboBox>(dialog.get(), "providerCombo"),
                   QString::fromLatin1(AppSettings::AnthropicProvider));
        child<QLineEdit>(dialog.get(), "modelEdit")->setText(QStringLiteral("claude-w"));
        QTest::keyClicks(keyEdit, QStringLiteral("sk-work"));

        profiles->setCurrentIndex(0); // back: the first profile's fields and typed key
        QCOMPARE(child<QLineEdit>(dialog.get(), "baseUrlEdit")->text(),
                 QStringLiteral("http://127.0.0.1:9/v1"));
        QCOMPARE(keyEdit->text(), QStringLiteral("sk-first"));
        profiles->setCurrentIndex(1); // the chat uses the one shown at OK
        QCOMPARE(keyEdit->text(), QStringLiteral("sk-work"));
        const AppSettings expected = dialog->settings();
        QCOMPARE(expected.profiles.size(), 2);
        QCOMPARE(expected.active().name, QStringLiteral("Work"));
        QCOMPARE(expected.active().model, QStringLiteral("claude-w"));

        QSignalSpy accepted(dialog.get(), &QDialog::accepted);
        child<QPushButton>(dialog.get(), "okButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(accepted.count(), 1, 30000);
        QCOMPARE(AppSettings::load(path), expected);
        QVERIFY(!bytes(path).contains("sk-"));
        const QString workId = expected.active().id;
        const QString firstId = expected.profiles.first().id;
        QCOMPARE(readSecret(store, AppSettings::keychainKey(firstId))->secret,
                 QStringLiteral("sk-first"));
        QCOMPARE(readSecret(store, AppSettings::keychainKey(workId))->secret,
                 QStringLiteral("sk-work"));

        // Removed: the profile and, on OK, its key.
        dialog = std::make_unique<SettingsDialog>(path, &store);
        dialog->show();
        profiles = child<QComboBox>(dialog.get(), "profileCombo");
        QCOMPARE(profiles->currentText(), QStringLiteral("Work"));
        child<QToolButton>(dialog.get(), "removeProfileButton")->click();
        QCOMPARE(profiles->count(), 1);
        QCOMPARE(child<QLineEdit>(dialog.get(), "baseUrlEdit")->text(),
                 QStringLiteral("http://127.0.0.1:9/v1"));
        QSignalSpy acceptedAgain(dialog.get(), &QDialog::accepted);
        child<QPushButton>(dialog.get(), "okButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(acceptedAgain.count(), 1, 30000);
        const AppSettings after = AppSettings::load(path);
        QCOMPARE(after.profiles.size(), 1);
        QCOMPARE(after.active().id, firstId);
        QVERIFY(!store.hasSessionSecret(AppSettings::keychainKey(workId)));
        const auto gone = readSecret(store, AppSettings::keychainKey(workId));
        QVERIFY(gone);
        QVERIFY(gone->status != Engine::SecretStore::Result::Ok);
        QCOMPARE(readSecret(store, AppSettings::keychainKey(firstId))->secret,
                 QStringLiteral("sk-first"));
        // Nothing left for the tests after this one.
        bool removed = false;
        store.remove(AppSettings::keychainKey(firstId), this,
                     [&removed](const Engine::SecretStore::Result &) { removed = true; });
        QTRY_VERIFY_WITH_TIMEOUT(removed, 30000);
    }

    // Test connection: the provider's models with the profile's address and key, or the
    // server's exact refusal naming the profile; nothing saved by it.
    void testConnectionListsModelsOrSaysWhy()
    {
        FakeLlmServer server(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(server.listen());
        server.setModelList(R"({"data":[{"id":"alpha"},{"id":"beta"}]})");
        const QString path = file(QStringLiteral("test-connection.ini"));
        AppSettings saved;
        saved.active().provider = QString::fromLatin1(AppSettings::OpenAiProvider);
        saved.active().baseUrl = server.baseUrl();
        QVERIFY(saved.save(path));
        const QByteArray before = bytes(path);
        Engine::SecretStore store(m_service);
        SettingsDialog dialog(path, &store);
        dialog.show();
        QTRY_VERIFY_WITH_TIMEOUT(keyStateKnown(&dialog), 30000);
        child<QLineEdit>(&dialog, "apiKeyEdit")->setText(QStringLiteral("sk-typed"));
        auto test = child<QPushButton>(&dialog, "testConnectionButton");
        auto result = child<QLabel>(&dialog, "testResult");
        test->click();
        QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QLatin1String("Connected")), 10000);
        QVERIFY2(result->text().contains(QLatin1String("alpha, beta")), qPrintable(result->text()));
        QVERIFY(test->isEnabled());
        QCOMPARE(server.modelListRequests(), 1);
        QVERIFY2(server.modelListHeaders().join('\n').toLower().contains("bearer sk-typed"),
                 server.modelListHeaders().join('\n').constData());

        // Refused: the exact words, and which profile's key.
        child<QLineEdit>(&dialog, "profileNameEdit")->setText(QStringLiteral("Office"));
        server.setModelList(R"({"error":{"message":"Incorrect API key provided"}})", 401);
        test->click();
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains(QLatin1String("401")), 10000);
        QVERIFY2(result->text().contains(QLatin1String("Incorrect API key provided")),
                 qPrintable(result->text()));
        QVERIFY2(result->text().contains(QLatin1String("the profile \"Office\"")),
                 qPrintable(result->text()));
        QVERIFY(!result->text().contains(QLatin1String("sk-typed")));
        // Nothing there: the reason as Qt gives it.
        child<QLineEdit>(&dialog, "baseUrlEdit")->setText(QStringLiteral("http://127.0.0.1:9/v1"));
        test->click();
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains(QLatin1String("could not list")), 10000);
        QCOMPARE(bytes(path), before);
    }

    // The dialog fits a 1366×768 screen: at most MaxHeight tall, its General page scrolls.
    void fitsASmallScreen()
    {
        const QString path = file(QStringLiteral("small.ini"));
        AppSettings saved;
        saved.active().provider = QString::fromLatin1(AppSettings::OpenAiProvider);
        QVERIFY(saved.save(path));
        Engine::SecretStore store(m_service);
        SettingsDialog dialog(path, &store);
        dialog.show();
        dialog.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QTRY_VERIFY_WITH_TIMEOUT(keyStateKnown(&dialog), 30000);
        QVERIFY(deliverPostedEvents());
        QVERIFY2(dialog.frameGeometry().height() <= SettingsDialog::MaxHeight + 40,
                 qPrintable(QString::number(dialog.frameGeometry().height())));
        QVERIFY(dialog.height() <= SettingsDialog::MaxHeight);
        // The price columns' headers are not cut.
        auto prices = child<QTableWidget>(&dialog, "pricesTable");
        for (int column : {1, 2}) {
            const QString text = prices->horizontalHeaderItem(column)->text();
            const int needed = prices->horizontalHeader()->fontMetrics().horizontalAdvance(text);
            QVERIFY2(prices->horizontalHeader()->sectionSize(column) > needed, qPrintable(text));
        }
        auto scroll = child<QScrollArea>(&dialog, "generalScroll");
        QVERIFY(scroll);
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0); // more than fits: it scrolls
        // A field at the bottom is reached by Tab, scrolled into view.
        auto language = child<QWidget>(&dialog, "languageCombo");
        auto registry = child<QWidget>(&dialog, "registryUrlEdit");
        registry->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), registry);
        QTest::keyClick(registry, Qt::Key_Tab);
        QTRY_COMPARE(QApplication::focusWidget(), language);
        const QPoint top = language->mapTo(scroll->viewport(), QPoint(0, 0));
        QVERIFY2(top.y() >= 0 && top.y() + language->height() <= scroll->viewport()->height(),
                 qPrintable(QString::number(top.y())));
    }

    // The price table: kept per model (ids with '/' too), a hand-edited bad row is ignored,
    // and the cost of a turn follows from it.
    void pricesRoundTripAndCost()
    {
        const QString path = file(QStringLiteral("prices.ini"));
        AppSettings settings;
        settings.prices.insert(QStringLiteral("openai/gpt-4o"), {2.5, 10});
        settings.prices.insert(QStringLiteral("local"), {0, 0});
        QVERIFY(settings.save(path));
        QCOMPARE(AppSettings::load(path).prices, settings.prices);
        QCOMPARE(*settings.cost(QStringLiteral("openai/gpt-4o"), 1000000, 100000), 3.5);
        QCOMPARE(*settings.cost(QStringLiteral("local"), 5, 5), 0.0);
        QVERIFY(!settings.cost(QStringLiteral("unpriced"), 5, 5));
        QCOMPARE(AppSettings::formatCost(3.5), QStringLiteral("$3.50"));
        QCOMPARE(AppSettings::formatCost(0.00042), QStringLiteral("$0.0004"));

        QFile edited(file(QStringLiteral("badprices.ini")));
        QVERIFY(edited.open(QIODevice::WriteOnly));
        edited.write("[model]\nprices=\"{\\\"ok\\\":[1,2],\\\"neg\\\":[-1,2],\\\"short\\\":[1],"
                     "\\\"text\\\":[\\\"a\\\",2]}\"\n");
        edited.close();
        const AppSettings loaded = AppSettings::load(edited.fileName());
        QCOMPARE(loaded.prices.keys(), QStringList{QStringLiteral("ok")});

        // The dialog's table, edited and read back.
        Engine::SecretStore store(m_service);
        SettingsDialog dialog(path, &store);
        auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("pricesTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        dialog.findChild<QToolButton *>(QStringLiteral("addPriceButton"))->click();
        QCOMPARE(table->rowCount(), 3);
        table->item(2, 0)->setText(QStringLiteral("claude-test"));
        table->setItem(2, 1, new QTableWidgetItem(QStringLiteral("3")));
        table->setItem(2, 2, new QTableWidgetItem(QStringLiteral("15")));
        QCOMPARE(dialog.settings().prices.value(QStringLiteral("claude-test")),
                 (AppSettings::Price{3, 15}));
        QCOMPARE(dialog.settings().prices.size(), 3);
    }

    // The settings file is 0600 in a 0700 folder, also when an older version left it readable.
    void savedSettingsArePrivate()
    {
#ifndef Q_OS_UNIX
        QSKIP("POSIX permissions");
#else
        const auto ownerFile = QFileDevice::ReadOwner | QFileDevice::WriteOwner
                               | QFileDevice::ReadUser | QFileDevice::WriteUser;
        const QString folder = file(QStringLiteral("private/switchboard"));
        const QString path = folder + QStringLiteral("/settings.ini");
        AppSettings settings;
        settings.active().model = QStringLiteral("private-model");
        QString error;
        QVERIFY2(settings.save(path, &error), qPrintable(error));
        QCOMPARE(posixMode(path), 0600);
        QCOMPARE(posixMode(folder), 0700);

        QVERIFY(QFile::setPermissions(path, ownerFile | QFileDevice::ReadOther));
        QCOMPARE(AppSettings::load(path).active().model,
                 settings.active().model); // restricted on open
        QCOMPARE(posixMode(path), 0600);
#endif
    }

    void dialogShowsAndSavesSettings()
    {
        const QString path = file(QStringLiteral("dialog.ini"));
        AppSettings saved;
        saved.active().provider = QString::fromLatin1(AppSettings::OpenAiProvider);
        saved.active().baseUrl = QStringLiteral("http://127.0.0.1:11434/v1");
        saved.active().model = QStringLiteral("llama3");
        saved.requestTimeoutS = 30;
        saved.toolTimeoutS = 90;
        saved.language = QString::fromLatin1(AppSettings::EnglishLanguage);
        saved.bashSandbox = Mcp::Sandbox::Mode::On;
        QVERIFY(saved.save(path));

        Engine::SecretStore store(m_service);
        SettingsDialog dialog(path, &store);
        dialog.show();
        QCOMPARE(dialog.settings(), saved);
        QCOMPARE(child<QLineEdit>(&dialog, "baseUrlEdit")->text(), saved.active().baseUrl);
        QCOMPARE(child<QSpinBox>(&dialog, "toolTimeoutSpin")->value(), 90);
        QCOMPARE(child<QComboBox>(&dialog, "languageCombo")->currentText(),
                 QStringLiteral("English"));
        QCOMPARE(child<QComboBox>(&dialog, "bashSandboxCombo")->currentData().toInt(),
                 int(Mcp::Sandbox::Mode::On));
        // The sensitive-file list: the defaults until the user changes it.
        QCOMPARE(child<QLineEdit>(&dialog, "sensitiveFilesEdit")->text(),
                 Engine::Workspace::defaultSensitivePatterns().join(u' '));

        // Anthropic: the placeholders show its defaults.
        selectData(child<QComboBox>(&dialog, "providerCombo"),
                   QString::fromLatin1(AppSettings::AnthropicProvider));
        auto baseUrl = child<QLineEdit>(&dialog, "baseUrlEdit");
        auto model = child<QLineEdit>(&dialog, "modelEdit");
        QCOMPARE(baseUrl->placeholderText(),
                 QString::fromLatin1(ProviderConfig::DefaultAnthropicBaseUrl));
        QCOMPARE(model->placeholderText(),
                 QString::fromLatin1(ProviderConfig::DefaultAnthropicModel));
        baseUrl->clear();
        model->setText(QStringLiteral("claude-x"));
        child<QSpinBox>(&dialog, "requestTimeoutSpin")->setValue(300);
        child<QSpinBox>(&dialog, "toolTimeoutSpin")->setValue(5);
        selectData(child<QComboBox>(&dialog, "languageCombo"),
                   QString::fromLatin1(AppSettings::ChineseLanguage));
        auto sandbox = child<QComboBox>(&dialog, "bashSandboxCombo");
        sandbox->setCurrentIndex(sandbox->findData(int(Mcp::Sandbox::Mode::Off)));
        QCOMPARE(child<QComboBox>(&dialog, "languageCombo")->currentText(),
                 QStringLiteral("简体中文"));
        child<QLineEdit>(&dialog, "sensitiveFilesEdit")->setText(QStringLiteral("  .env*  *.p12 "));

        QSignalSpy accepted(&dialog, &QDialog::accepted);
        child<QPushButton>(&dialog, "okButton")->click();
        QTRY_COMPARE(accepted.count(), 1); // no key typed: nothing for the keychain to do
        AppSettings expected;
        expected.active().provider = QString::fromLatin1(AppSettings::AnthropicProvider);
        expected.active().model = QStringLiteral("claude-x");
        expected.requestTimeoutS = 300;
        expected.toolTimeoutS = 5;
        expected.language = QString::fromLatin1(AppSettings::ChineseLanguage);
        expected.bashSandbox = Mcp::Sandbox::Mode::Off;
        expected.sensitiveFiles = QStringList{QStringLiteral(".env*"), QStringLiteral("*.p12")};
        QCOMPARE(AppSettings::load(path), expected);
    }

    void cancelDiscards()
    {
        const QString path = file(QStringLiteral("cancel.ini"));
        AppSettings saved;
        saved.active().model = QStringLiteral("kept");
        QVERIFY(saved.save(path));
        const QByteArray before = bytes(path);

        Engine::SecretStore store(m_service);
        SettingsDialog dialog(path, &store);
        dialog.show();
        selectData(child<QComboBox>(&dialog, "providerCombo"),
                   QString::fromLatin1(AppSettings::OpenAiProvider));
        child<QLineEdit>(&dialog, "modelEdit")->setText(QStringLiteral("changed"));
        child<QLineEdit>(&dialog, "apiKeyEdit")->setText(QStringLiteral("sk-cancelled"));
        QSignalSpy rejected(&dialog, &QDialog::rejected);
        child<QPushButton>(&dialog, "cancelButton")->click();
        QCOMPARE(rejected.count(), 1);
        QCOMPARE(bytes(path), before);
        QVERIFY(!store.hasSessionSecret(AppSettings::keychainKey(saved.active().id)));
    }

    void checkBaseUrl_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("valid");
        QTest::newRow("empty: the default") << QString() << true;
        QTest::newRow("https") << QStringLiteral("https://api.deepseek.com/v1") << true;
        QTest::newRow("http with port") << QStringLiteral("http://127.0.0.1:11434/v1") << true;
        QTest::newRow("upper-case scheme") << QStringLiteral("HTTP://localhost:8080") << true;
        QTest::newRow("no scheme") << QStringLiteral("localhost:8080/v1") << false;
        QTest::newRow("ftp") << QStringLiteral("ftp://example.com") << false;
        QTest::newRow("no host") << QStringLiteral("http://") << false;
        QTest::newRow("file") << QStringLiteral("file:///etc/passwd") << false;
        QTest::newRow("garbage") << QStringLiteral("http://exa mple.com") << false;
    }

    void checkBaseUrl()
    {
        QFETCH(QString, url);
        QFETCH(bool, valid);
        const QString problem = AppSettings::checkBaseUrl(url);
        QVERIFY2(problem.isEmpty() == valid, qPrintable(problem));
    }

    void invalidBaseUrlBlocksOk()
    {
        const QString path = file(QStringLiteral("invalid.ini"));
        Engine::SecretStore store(m_service);
        SettingsDialog dialog(path, &store);
        dialog.show();
        selectData(child<QComboBox>(&dialog, "providerCombo"),
                   QString::fromLatin1(AppSettings::OpenAiProvider));
        auto baseUrl = child<QLineEdit>(&dialog, "baseUrlEdit");
        auto error = child<QLabel>(&dialog, "baseUrlError");
        auto ok = child<QPushButton>(&dialog, "okButton");
        QVERIFY(!error->isVisible());
        QVERIFY(ok->isEnabled());

        QTest::keyClicks(baseUrl, QStringLiteral("ftp://example.com"));
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains(QLatin1String("http://")), qPrintable(error->text()));
        QVERIFY(!ok->isEnabled());
        // Even when asked directly (Enter, a script), OK does not go through.
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        dialog.accept();
        QCOMPARE(accepted.count(), 0);
        QVERIFY(dialog.isVisible());
        QVERIFY(!QFile::exists(path));

        // Environment variables need no base URL: nothing to check then.
        selectData(child<QComboBox>(&dialog, "providerCombo"),
                   QString::fromLatin1(AppSettings::EnvironmentProvider));
        QVERIFY(!baseUrl->isEnabled());
        QVERIFY(!error->isVisible());
        QVERIFY(ok->isEnabled());
        selectData(child<QComboBox>(&dialog, "providerCombo"),
                   QString::fromLatin1(AppSettings::OpenAiProvider));
        QVERIFY(error->isVisible());

        baseUrl->setText(QStringLiteral("http://127.0.0.1:8000/v1"));
        QVERIFY(!error->isVisible());
        QVERIFY(ok->isEnabled());
        // The MCP Registry's address is checked the same way.
        auto registry = child<QLineEdit>(&dialog, "registryUrlEdit");
        auto registryError = child<QLabel>(&dialog, "registryUrlError");
        registry->setText(QStringLiteral("file:///etc"));
        QVERIFY(registryError->isVisible());
        QVERIFY(registryError->text().startsWith(QLatin1String("MCP Registry:")));
        QVERIFY(!ok->isEnabled());
        registry->setText(QStringLiteral("https://mcp.example.com"));
        QVERIFY(!registryError->isVisible());
        QVERIFY(ok->isEnabled());
        ok->click();
        QTRY_COMPARE(accepted.count(), 1);
        QCOMPARE(AppSettings::load(path).active().baseUrl,
                 QStringLiteral("http://127.0.0.1:8000/v1"));
        QCOMPARE(AppSettings::load(path).registryUrl, QStringLiteral("https://mcp.example.com"));
    }

    // Whether or not this machine has a keychain (CI under CTest has no D-Bus session, so
    // qtkeychain fails there), the key never reaches the settings file and stays usable.
    // A keychain failure is described, never just "Unknown error".
    void keychainErrorsSayWhatIsWrong()
    {
        const QString none = Engine::SecretStore::describeError(QKeychain::NoBackendAvailable,
                                                                "Unknown error");
        QVERIFY2(none.contains(QStringLiteral("no keychain service")), qPrintable(none));
        QVERIFY(!none.contains(QStringLiteral("Unknown error")));
        const QString other
                = Engine::SecretStore::describeError(QKeychain::OtherError, "Unknown error");
        QVERIFY2(!other.contains(QStringLiteral("Unknown error")), qPrintable(other));
        QVERIFY(!other.isEmpty());
        const QString detailed = Engine::SecretStore::describeError(
                QKeychain::AccessDenied, QStringLiteral("Collection is locked"));
        QVERIFY2(detailed.contains(QStringLiteral("Collection is locked")), qPrintable(detailed));
    }

    void apiKeyGoesToKeychainOrSessionOnly()
    {
        const QString path = file(QStringLiteral("key.ini"));
        const QString provider = QString::fromLatin1(AppSettings::OpenAiProvider);
        // The key belongs to the profile: a new file's one profile is "environment".
        const QString entry = AppSettings::keychainKey(AppSettings().active().id);
        const QString key = QStringLiteral("sk-test-") + QUuid::createUuid().toString(QUuid::Id128);
        Engine::SecretStore store(m_service);
        auto dialog = std::make_unique<SettingsDialog>(path, &store);
        dialog->show();
        selectData(child<QComboBox>(dialog.get(), "providerCombo"), provider);
        QTRY_VERIFY_WITH_TIMEOUT(keyStateKnown(dialog.get()), 30000);
        auto note = child<QLabel>(dialog.get(), "keychainNote");
        const bool keychainWorks = !note->isVisible();
        qInfo("the keychain %s", keychainWorks ? "works" : "is not available");
        if (keychainRequired())
            QVERIFY2(keychainWorks, qPrintable(note->text()));
        if (!keychainWorks) {
            // Said once and plainly: how long a typed key lasts, and the variable instead.
            QVERIFY2(note->text().startsWith(QLatin1String("No keychain answers here (")),
                     qPrintable(note->text()));
            QVERIFY2(note->text().contains(QLatin1String("lasts only until Switchboard quits")),
                     qPrintable(note->text()));
            QVERIFY(note->text().contains(QLatin1String("set OPENAI_API_KEY")));
            // The reason is qtkeychain's, not empty.
            QVERIFY(!note->text().contains(QLatin1String("here ()")));
            // No second sentence above it that contradicts it ("saved when you press OK").
            QVERIFY(!child<QLabel>(dialog.get(), "keyStateLabel")->isVisible());
        } else {
            QVERIFY2(child<QLabel>(dialog.get(), "keyStateLabel")
                             ->text()
                             .contains(QLatin1String("No key stored")),
                     qPrintable(child<QLabel>(dialog.get(), "keyStateLabel")->text()));
        }

        auto keyEdit = child<QLineEdit>(dialog.get(), "apiKeyEdit");
        QCOMPARE(keyEdit->echoMode(), QLineEdit::Password);
        child<QToolButton>(dialog.get(), "showKeyButton")->click();
        QCOMPARE(keyEdit->echoMode(), QLineEdit::Normal);
        child<QToolButton>(dialog.get(), "showKeyButton")->click();
        QCOMPARE(keyEdit->echoMode(), QLineEdit::Password);
        QTest::keyClicks(keyEdit, key);
        QSignalSpy accepted(dialog.get(), &QDialog::accepted);
        child<QPushButton>(dialog.get(), "okButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(accepted.count(), 1, 30000);

        QVERIFY(QFile::exists(path));
        const QByteArray saved = bytes(path);
        QVERIFY(saved.contains("provider=openai"));
        QVERIFY2(!saved.contains(key.toUtf8()), saved.constData());
        QVERIFY(!saved.contains("sk-test-"));
        // Without a keychain the dialog has said so already: the window does not say it again.
        QVERIFY(dialog->keychainError().isEmpty());

        const auto read = readSecret(store, entry);
        QVERIFY(read);
        QCOMPARE(read->status, Engine::SecretStore::Result::Ok);
        QCOMPARE(read->secret, key);
        QCOMPARE(read->sessionOnly, !keychainWorks);
        QCOMPARE(store.hasSessionSecret(entry), !keychainWorks);
        if (keychainRequired()) // really in the Secret Service, for any client to find
            QCOMPARE(secretServiceValue(m_service, entry), std::optional<QString>(key));

        // Opened again, the dialog says where the key is, never showing it.
        dialog = std::make_unique<SettingsDialog>(path, &store);
        dialog->show();
        QTRY_VERIFY_WITH_TIMEOUT(keyStateKnown(dialog.get()), 30000);
        QVERIFY(child<QLineEdit>(dialog.get(), "apiKeyEdit")->text().isEmpty());
        const QString state = child<QLabel>(dialog.get(), "keyStateLabel")->text();
        QVERIFY2(state.contains(keychainWorks ? QLatin1String("Stored in the keychain")
                                              : QLatin1String("this session only")),
                 qPrintable(state));

        // Forget: gone from memory and keychain alike.
        child<QPushButton>(dialog.get(), "forgetKeyButton")->click();
        QSignalSpy acceptedAgain(dialog.get(), &QDialog::accepted);
        child<QPushButton>(dialog.get(), "okButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(acceptedAgain.count(), 1, 30000);
        QVERIFY(!store.hasSessionSecret(entry));
        const auto gone = readSecret(store, entry);
        QVERIFY(gone);
        QCOMPARE(gone->status, keychainWorks ? Engine::SecretStore::Result::NotFound
                                             : Engine::SecretStore::Result::Unavailable);
        if (keychainRequired())
            QCOMPARE(secretServiceValue(m_service, entry), std::nullopt);
    }

    void providerConfig_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("storedKey");
        QTest::addColumn<QStringList>("environment");
        QTest::addColumn<std::optional<ProviderConfig>>("expected");

        const QString env = QString::fromLatin1(AppSettings::EnvironmentProvider);
        const QString openAi = QString::fromLatin1(AppSettings::OpenAiProvider);
        const QString anthropic = QString::fromLatin1(AppSettings::AnthropicProvider);
        const auto config
                = [](ProviderConfig::Kind kind, const QString &url, const QString &model,
                     const QString &key,
                     ProviderConfig::KeyFrom from = ProviderConfig::KeyFrom::Environment) {
                      ProviderConfig c;
                      c.kind = kind;
                      c.baseUrl = url;
                      c.model = model;
                      c.apiKey = key;
                      c.keyFrom = from;
                      c.requestTimeoutMs = 45000; // every row's settings say 45 s
                      return std::optional<ProviderConfig>(c);
                  };
        const QString openAiUrl = QString::fromLatin1(ProviderConfig::DefaultOpenAiBaseUrl);
        const QString openAiModel = QString::fromLatin1(ProviderConfig::DefaultOpenAiModel);
        const QString anthropicUrl = QString::fromLatin1(ProviderConfig::DefaultAnthropicBaseUrl);
        const QString anthropicModel = QString::fromLatin1(ProviderConfig::DefaultAnthropicModel);

        QTest::newRow("environment: as before settings")
                << env << QStringLiteral("http://ignored") << QString() << QStringLiteral("k")
                << QStringList{QStringLiteral("OPENAI_BASE_URL=http://127.0.0.1:9/v1/"),
                               QStringLiteral("OPENAI_MODEL=m")}
                << config(ProviderConfig::OpenAi, QStringLiteral("http://127.0.0.1:9/v1"),
                          QStringLiteral("m"), QString());
        QTest::newRow("environment: anthropic")
                << env << QString() << QString() << QString()
                << QStringList{QStringLiteral("ANTHROPIC_API_KEY=ak")}
                << config(ProviderConfig::Anthropic, anthropicUrl, anthropicModel,
                          QStringLiteral("ak"));
        QTest::newRow("environment: nothing set")
                << env << QString() << QString() << QString() << QStringList()
                << std::optional<ProviderConfig>();
        QTest::newRow("openai: defaults and the stored key")
                << openAi << QString() << QString() << QStringLiteral("sk-stored") << QStringList()
                << config(ProviderConfig::OpenAi, openAiUrl, openAiModel,
                          QStringLiteral("sk-stored"), ProviderConfig::KeyFrom::Settings);
        QTest::newRow("openai: the stored key wins over the variable")
                << openAi << QString() << QString() << QStringLiteral("sk-stored")
                << QStringList{QStringLiteral("OPENAI_API_KEY=sk-env")}
                << config(ProviderConfig::OpenAi, openAiUrl, openAiModel,
                          QStringLiteral("sk-stored"), ProviderConfig::KeyFrom::Settings);
        QTest::newRow("openai: no stored key, the variable's")
                << openAi << QString() << QStringLiteral("gpt-x") << QString()
                << QStringList{QStringLiteral("OPENAI_API_KEY=sk-env"),
                               QStringLiteral("OPENAI_BASE_URL=http://env-url-not-used/v1"),
                               QStringLiteral("ANTHROPIC_API_KEY=ak")}
                << config(ProviderConfig::OpenAi, openAiUrl, QStringLiteral("gpt-x"),
                          QStringLiteral("sk-env"));
        QTest::newRow("openai: a local server needs no key")
                << openAi << QStringLiteral("http://127.0.0.1:11434/v1/") << QStringLiteral("qwen")
                << QString() << QStringList()
                << config(ProviderConfig::OpenAi, QStringLiteral("http://127.0.0.1:11434/v1"),
                          QStringLiteral("qwen"), QString());
        QTest::newRow("openai: the service without any key")
                << openAi << QString() << QString() << QString()
                << QStringList{QStringLiteral("ANTHROPIC_API_KEY=ak")}
                << std::optional<ProviderConfig>();
        QTest::newRow("openai: a hand-edited bad URL")
                << openAi << QStringLiteral("localhost:11434") << QString() << QStringLiteral("sk")
                << QStringList() << std::optional<ProviderConfig>();
        QTest::newRow("anthropic: defaults, the variable's key")
                << anthropic << QString() << QString() << QString()
                << QStringList{QStringLiteral("ANTHROPIC_API_KEY=ak"),
                               QStringLiteral("OPENAI_API_KEY=sk-not-this")}
                << config(ProviderConfig::Anthropic, anthropicUrl, anthropicModel,
                          QStringLiteral("ak"));
        QTest::newRow("anthropic: a proxy")
                << anthropic << QStringLiteral("https://proxy.example.com")
                << QStringLiteral("claude-y") << QStringLiteral("ak-stored") << QStringList()
                << config(ProviderConfig::Anthropic, QStringLiteral("https://proxy.example.com"),
                          QStringLiteral("claude-y"), QStringLiteral("ak-stored"),
                          ProviderConfig::KeyFrom::Settings);
    }

    void providerConfig()
    {
        QFETCH(QString, provider);
        QFETCH(QString, baseUrl);
        QFETCH(QString, model);
        QFETCH(QString, storedKey);
        QFETCH(QStringList, environment);
        QFETCH(std::optional<ProviderConfig>, expected);

        AppSettings settings;
        settings.active().provider = provider;
        settings.active().baseUrl = baseUrl;
        settings.active().model = model;
        settings.requestTimeoutS = 45;
        QProcessEnvironment env;
        for (const QString &assignment : std::as_const(environment))
            env.insert(assignment.section(QLatin1Char('='), 0, 0),
                       assignment.section(QLatin1Char('='), 1));
        QString whyNot;
        const auto config = settings.providerConfig(storedKey, env, &whyNot);
        QCOMPARE(config.has_value(), expected.has_value());
        if (!expected) {
            QVERIFY(!whyNot.isEmpty());
            if (provider == QLatin1String(AppSettings::OpenAiProvider) && baseUrl.isEmpty())
                QVERIFY2(whyNot.contains(QLatin1String("OPENAI_API_KEY")), qPrintable(whyNot));
            if (!baseUrl.isEmpty())
                QVERIFY2(whyNot.contains(baseUrl), qPrintable(whyNot));
            return;
        }
        QCOMPARE(config->kind, expected->kind);
        QCOMPARE(config->baseUrl, expected->baseUrl);
        QCOMPARE(config->model, expected->model);
        QCOMPARE(config->apiKey, expected->apiKey);
        QCOMPARE(config->requestTimeoutMs, expected->requestTimeoutMs);
        QCOMPARE(int(config->keyFrom), int(expected->keyFrom));
        QCOMPARE(config->profile, QString()); // one profile, not named: nothing to tell apart
        QVERIFY(*config == *expected);
    }

    // Every labelled field sits in its label's row of its form, inside the dialog (a field
    // added before it existed left "Context window" without a field, the spin box in the
    // dialog's corner and the images check box nowhere).
    void everyFieldIsInItsRow()
    {
        Engine::SecretStore store(m_service);
        SettingsDialog dialog(file(QStringLiteral("rows.ini")), &store);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        int checked = 0;
        for (QGridLayout *grid : dialog.findChildren<QGridLayout *>()) {
            for (int i = 0; i < grid->count(); ++i) {
                auto *label = qobject_cast<QLabel *>(grid->itemAt(i)->widget());
                if (!label || !label->buddy())
                    continue;
                int row = -1, column = -1, rowSpan = 0, columnSpan = 0;
                grid->getItemPosition(i, &row, &column, &rowSpan, &columnSpan);
                QLayoutItem *field = grid->itemAtPosition(row, 1);
                QVERIFY2(field, qPrintable(label->text() + QStringLiteral(": no field")));
                const bool holdsBuddy
                        = field->widget() == label->buddy()
                          || (field->layout() && field->layout()->indexOf(label->buddy()) >= 0);
                QVERIFY2(holdsBuddy, qPrintable(label->text()));
                QVERIFY2(label->buddy()->isVisibleTo(&dialog), qPrintable(label->text()));
                ++checked;
            }
        }
        QVERIFY2(checked >= 15, qPrintable(QString::number(checked)));
        auto *images = child<QWidget>(&dialog, "seesImagesCheck");
        QVERIFY(images->isVisibleTo(&dialog));
        auto *context = child<QWidget>(&dialog, "contextTokensSpin");
        QVERIFY(context->parentWidget() != &dialog);
        QVERIFY(context->parentWidget()->layout()->indexOf(context) >= 0);
    }

    void keyboardOrder()
    {
        Engine::SecretStore store(m_service);
        AppSettings saved;
        saved.active().provider = QString::fromLatin1(AppSettings::OpenAiProvider);
        const QString path = file(QStringLiteral("keyboard.ini"));
        QVERIFY(saved.save(path));
        SettingsDialog dialog(path, &store);
        dialog.show();
        dialog.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QTRY_VERIFY_WITH_TIMEOUT(keyStateKnown(&dialog), 30000);
        auto provider = child<QComboBox>(&dialog, "providerCombo");
        provider->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), provider);
        QList<QWidget *> expected{
                child<QWidget>(&dialog, "baseUrlEdit"), child<QWidget>(&dialog, "modelEdit"),
                child<QWidget>(&dialog, "apiKeyEdit"), child<QWidget>(&dialog, "showKeyButton")};
        if (child<QWidget>(&dialog, "forgetKeyButton")->isEnabled())
            expected << child<QWidget>(&dialog, "forgetKeyButton");
        expected << child<QWidget>(&dialog, "testConnectionButton")
                 << child<QWidget>(&dialog, "requestTimeoutSpin")
                 << child<QWidget>(&dialog, "contextTokensSpin")
                 << child<QWidget>(&dialog, "seesImagesCheck")
                 << child<QWidget>(&dialog, "pricesTable")
                 << child<QWidget>(&dialog, "addPriceButton")
                 << child<QWidget>(&dialog, "removePriceButton")
                 << child<QWidget>(&dialog, "toolTimeoutSpin")
                 << child<QWidget>(&dialog, "observationCharsSpin")
                 << child<QWidget>(&dialog, "keepResultSpin")
                 << child<QWidget>(&dialog, "keepConversationSpin")
                 << child<QWidget>(&dialog, "maxConcurrentStartsSpin")
                 << child<QWidget>(&dialog, "maxInboundTasksSpin")
                 << child<QWidget>(&dialog, "toolSearchSpin")
                 << child<QWidget>(&dialog, "pinnedToolsEdit")
                 << child<QWidget>(&dialog, "bashSandboxCombo")
                 << child<QWidget>(&dialog, "sensitiveFilesEdit")
                 << child<QWidget>(&dialog, "registryUrlEdit")
                 << child<QWidget>(&dialog, "languageCombo");
        for (QWidget *next : std::as_const(expected)) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QCOMPARE(QApplication::focusWidget(), next);
        }
        // Every field has a label whose mnemonic reaches it.
        QTest::keyClick(&dialog, Qt::Key_M, Qt::AltModifier);
        QCOMPARE(QApplication::focusWidget(), child<QWidget>(&dialog, "modelEdit"));
        // Escape is Cancel.
        QSignalSpy rejected(&dialog, &QDialog::rejected);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QCOMPARE(rejected.count(), 1);
    }

    // The "Server secrets" page: names only, which servers read each, Add / Set / Delete acting
    // on the keychain at once; a bad name is refused while typed; the value never shown.
    void serverSecretsPage()
    {
        const QString path = file(QStringLiteral("secrets.ini"));
        QVERIFY(AppSettings().save(path));
        Engine::SecretStore store(m_service);
        Engine::ServerSecrets secrets(&store, file(QStringLiteral("server-secrets.json")));
        SettingsDialog dialog(path, &store, nullptr, &secrets,
                              {{QStringLiteral("GH_TOKEN"), {QStringLiteral("github")}}});
        QSignalSpy changed(&dialog, &SettingsDialog::serverSecretChanged);
        dialog.show();
        auto pages = child<QTabWidget>(&dialog, "settingsPages");
        pages->setCurrentIndex(1);
        auto list = child<QTreeWidget>(&dialog, "secretsList");
        QCOMPARE(list->topLevelItemCount(), 1);
        QTreeWidgetItem *gh = list->topLevelItem(0);
        QCOMPARE(gh->text(0), QStringLiteral("GH_TOKEN"));
        QCOMPARE(gh->text(1), QStringLiteral("github"));
        QCOMPARE(gh->text(2), QStringLiteral("not stored"));
        auto replace = child<QPushButton>(&dialog, "replaceSecretButton");
        auto remove = child<QPushButton>(&dialog, "deleteSecretButton");
        QVERIFY(!replace->isEnabled() && !remove->isEnabled());
        list->setCurrentItem(gh);
        QVERIFY(replace->isEnabled() && !remove->isEnabled());
        QCOMPARE(replace->text(), QStringLiteral("&Set…"));

        // Add: a name that cannot be one is refused as it is typed.
        QTest::mouseClick(child<QPushButton>(&dialog, "addSecretButton"), Qt::LeftButton);
        auto ask = dialog.findChild<QDialog *>(
                QLatin1String(Gui::ServerSecretsPage::ValueDialogName));
        QVERIFY(ask);
        auto name = child<QLineEdit>(ask, "secretNameEdit");
        auto value = child<QLineEdit>(ask, "secretValueEdit");
        QCOMPARE(value->echoMode(), QLineEdit::Password);
        auto ok = ask->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QTest::keyClicks(name, QStringLiteral("my token"));
        QTest::keyClicks(value, QStringLiteral("v4lue-9f2c"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(child<QLabel>(ask, "secretNameProblem")
                        ->text()
                        .contains(QStringLiteral("cannot name a secret")));
        name->setText(QStringLiteral("NPM_TOKEN"));
        QVERIFY(ok->isEnabled());
        QTest::mouseClick(ok, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 20000);
        QCOMPARE(changed.first().first().toString(), QStringLiteral("NPM_TOKEN"));
        QCOMPARE(list->topLevelItemCount(), 2);
        QTreeWidgetItem *npm
                = list->findItems(QStringLiteral("NPM_TOKEN"), Qt::MatchExactly).value(0);
        QVERIFY(npm);
        QCOMPARE(npm->text(1), QStringLiteral("no server"));
        const QString status = child<QLabel>(&dialog, "secretsStatus")->text();
        if (keychainRequired()) {
            QCOMPARE(npm->text(2), QStringLiteral("in the keychain"));
            QCOMPARE(secretServiceValue(m_service, QStringLiteral("server-secret/NPM_TOKEN")),
                     std::optional<QString>(QStringLiteral("v4lue-9f2c")));
        } else {
            QCOMPARE(npm->text(2), QStringLiteral("until the app quits"));
            QVERIFY2(status.contains(QStringLiteral("export it as an environment variable")),
                     qPrintable(status));
        }
        QVERIFY(!status.contains(QStringLiteral("v4lue")));
        QVERIFY(!bytes(file(QStringLiteral("server-secrets.json"))).contains("v4lue"));

        // Delete asks first, naming who reads it.
        list->setCurrentItem(npm);
        QVERIFY(remove->isEnabled());
        QTest::mouseClick(remove, Qt::LeftButton);
        auto question = dialog.findChild<QMessageBox *>(QStringLiteral("deleteSecretQuestion"));
        QVERIFY(question);
        QTest::mouseClick(question->button(QMessageBox::Yes), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 2, 20000);
        QCOMPARE(list->findItems(QStringLiteral("NPM_TOKEN"), Qt::MatchExactly).size(), 0);
        if (keychainRequired())
            QCOMPARE(secretServiceValue(m_service, QStringLiteral("server-secret/NPM_TOKEN")),
                     std::nullopt);
    }

    void screenshot()
    {
        const QString path = file(QStringLiteral("screenshot.ini"));
        AppSettings saved;
        saved.active().provider = QString::fromLatin1(AppSettings::OpenAiProvider);
        QVERIFY(saved.save(path));
        Engine::SecretStore store(m_service);
        SettingsDialog dialog(path, &store);
        dialog.show();
        QTRY_VERIFY_WITH_TIMEOUT(keyStateKnown(&dialog), 30000);
        QVERIFY(deliverPostedEvents()); // a note that appeared has made room (LayoutRequest)
        const QByteArray target = qgetenv("SWITCHBOARD_SETTINGS_SCREENSHOT");
        const QString png = target.isEmpty() ? file(QStringLiteral("settings.png"))
                                             : QString::fromLocal8Bit(target);
        QVERIFY(dialog.grab().save(png));
        QVERIFY(QFileInfo(png).size() > 1000);

        // The "Server secrets" page, with a stored secret and one a server reads but lacks.
        Engine::ServerSecrets secrets(&store, file(QStringLiteral("shot-secrets.json")));
        bool stored = false;
        secrets.set(QStringLiteral("GITHUB_TOKEN"), QStringLiteral("ghp_example"), this,
                    [&stored](const Engine::ServerSecrets::Outcome &) { stored = true; });
        QTRY_VERIFY_WITH_TIMEOUT(stored, 20000);
        SettingsDialog withSecrets(path, &store, nullptr, &secrets,
                                   {{QStringLiteral("GITHUB_TOKEN"), {QStringLiteral("github")}},
                                    {QStringLiteral("SLACK_BOT_TOKEN"),
                                     {QStringLiteral("slack"), QStringLiteral("slack-staging")}}});
        withSecrets.resize(dialog.size());
        withSecrets.show();
        child<QTabWidget>(&withSecrets, "settingsPages")->setCurrentIndex(1);
        QVERIFY(deliverPostedEvents());
        const QString secretsPng = QFileInfo(png).path() + QStringLiteral("/")
                                   + QFileInfo(png).completeBaseName()
                                   + QStringLiteral("-secrets.png");
        QVERIFY(withSecrets.grab().save(secretsPng));
        bool removed = false;
        secrets.remove(QStringLiteral("GITHUB_TOKEN"), this,
                       [&removed](const Engine::ServerSecrets::Outcome &) { removed = true; });
        QTRY_VERIFY_WITH_TIMEOUT(removed, 20000);
    }
};

QTEST_MAIN(tst_SettingsDialog)
#include "tst_settingsdialog.moc"
