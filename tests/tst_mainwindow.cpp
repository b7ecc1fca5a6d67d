#include "darkpalette.h"
#include "fakellmserver.h"
#include "keychaintest.h"
#include "mcphttpserver.h"
#include "oauthserver.h"
#include "postedevents.h"
#include "windowtest.h"

#include <ui/agentsdock.h>
#include <ui/appsettings.h>
#include <ui/auditlogdialog.h>
#include <ui/chatview.h>
#include <ui/configeditorpane.h>
#include <ui/conversationlist.h>
#include <ui/findbar.h>
#include <ui/icons.h>
#include <ui/language.h>
#include <ui/mainwindow.h>
#include <ui/modelpicker.h>
#include <ui/resultviewer.h>
#include <ui/serverdock.h>
#include <ui/settingsdialog.h>
#include <ui/toolbrowser.h>
#include <ui/trustbanner.h>

#include <QAction>
#include <Qsci/qsciscintilla.h>

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>
#include <QUuid>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <sys/types.h>
#endif

using namespace Engine;

// The window with a scripted model (a fake OpenAI-compatible server on 127.0.0.1) and the
// fixture MCP server: a dangerous call raises the modal approval dialog; Deny keeps the tool
// from running and the chat shows it; Always allow is saved in .mcp.json and not asked again.
// Saving Settings rebuilds the agent on the new model server without a restart, keeping the
// open conversation.
class tst_MainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

    // Keychain entries of these tests (if a keychain answers at all) are under a service of
    // their own, never the user's.
    QString m_service = QStringLiteral("switchboard-test-")
                        + QUuid::createUuid().toString(QUuid::WithoutBraces);

    struct Setup
    {
        QTemporaryDir workspace;
        QTemporaryDir config; // the settings file: never the user's
        FakeLlmServer model{FakeLlmServer::Dialect::OpenAi};
        std::unique_ptr<Gui::MainWindow> window;
    };

    // `fixtureTools`: filler tools the fixture server adds (--tools N).
    // `prepare`: writes more of the workspace before the window opens on it.
    // toolSearch >= 0: Settings → "Search tools above" set to it beforehand (0: off).
    std::unique_ptr<Setup> open(int fixtureTools = 0,
                                const std::function<void(const QString &)> &prepare = {},
                                int toolSearch = -1)
    {
        auto setup = std::make_unique<Setup>();
        if (prepare)
            prepare(setup->workspace.path());
        if (!setup->model.listen())
            return nullptr;
        QFile config(QDir(setup->workspace.path()).filePath(QStringLiteral(".mcp.json")));
        if (!config.open(QIODevice::WriteOnly))
            return nullptr;
        config.write(QStringLiteral("{\n  \"mcpServers\": {\n    \"fix\": {\n      \"command\": "
                                    "\"%1\",\n      \"args\": [%2]\n    }\n  }\n}\n")
                             .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER),
                                  fixtureTools > 0
                                          ? QStringLiteral("\"--tools\", \"%1\"").arg(fixtureTools)
                                          : QString())
                             .toUtf8());
        config.close();
        qputenv("OPENAI_BASE_URL", setup->model.baseUrl().toUtf8());
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("ANTHROPIC_API_KEY");
        if (!trustWorkspace(options(*setup)))
            return nullptr;
        if (toolSearch >= 0) {
            QSettings settings(options(*setup).settingsFile, QSettings::IniFormat);
            settings.setValue(QStringLiteral("tools/searchThreshold"), toolSearch);
        }
        setup->window = std::make_unique<Gui::MainWindow>(options(*setup));
        setup->window->show();
        if (!QTest::qWaitFor(
                    [&] {
                        return setup->window->manager()->isSettled()
                               && setup->window->manager()->client("fix");
                    },
                    10000))
            return nullptr;
        return setup;
    }

    // The user's data folder of this setup (as ~/.local/share/switchboard would be).
    static QString approvalsFile(const Setup &setup)
    {
        return QDir(setup.config.path())
                .filePath(QStringLiteral("data/switchboard/approvals.json"));
    }

    Gui::MainWindowOptions options(const Setup &setup) const
    {
        Gui::MainWindowOptions options;
        options.workspace = QDir(setup.workspace.path()).canonicalPath();
        options.conversationFolder = m_data.filePath(QStringLiteral("conversations"));
        options.settingsFile = QDir(setup.config.path()).filePath(QStringLiteral("settings.ini"));
        options.auditLogFile = m_data.filePath(QStringLiteral("audit.jsonl"));
        options.keychainService = m_service;
        options.trustFile = QDir(setup.config.path()).filePath(QStringLiteral("trust.json"));
        options.approvalsFile = approvalsFile(setup);
        return options;
    }

    // Opens Settings from the window's action, points it at an OpenAI-compatible server and
    // presses OK.
    static void saveSettings(Gui::MainWindow &window, const QString &baseUrl, const QString &model,
                             int toolTimeoutS)
    {
        QAction *action = window.findChild<QAction *>(QStringLiteral("settingsAction"));
        QVERIFY(action);
        action->trigger();
        auto *dialog = window.findChild<Gui::SettingsDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        auto *provider = dialog->findChild<QComboBox *>(QStringLiteral("providerCombo"));
        provider->setCurrentIndex(
                provider->findData(QString::fromLatin1(Gui::AppSettings::OpenAiProvider)));
        dialog->findChild<QLineEdit *>(QStringLiteral("baseUrlEdit"))->setText(baseUrl);
        dialog->findChild<QLineEdit *>(QStringLiteral("modelEdit"))->setText(model);
        dialog->findChild<QSpinBox *>(QStringLiteral("toolTimeoutSpin"))->setValue(toolTimeoutS);
        QSignalSpy accepted(dialog, &QDialog::accepted);
        dialog->findChild<QPushButton *>(QStringLiteral("okButton"))->click();
        QTRY_COMPARE(accepted.count(), 1);
    }

    static QPushButton *dialogButton(const char *name)
    {
        QWidget *modal = QApplication::activeModalWidget();
        return modal ? modal->findChild<QPushButton *>(QString::fromLatin1(name)) : nullptr;
    }

    static void send(Gui::MainWindow &window, const QString &text)
    {
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QVERIFY(composer);
        composer->setPlainText(text);
        window.submit();
    }

    // The real application's environment: its own home, config and data folders, offscreen,
    // no model.
    static QProcessEnvironment appEnvironment(const QString &home)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir(home).filePath(".config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), QDir(home).filePath(".local/share"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        env.remove(QStringLiteral("OPENAI_BASE_URL"));
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        return env;
    }

    // The first link of the chat whose href starts with "sb:ACTION:", or an empty string.
    static QString linkOf(const Gui::ChatView &chat, const QString &action)
    {
        const QString prefix = QStringLiteral("sb:%1:").arg(action);
        for (QTextBlock block = chat.document()->begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QString href = it.fragment().charFormat().anchorHref();
                if (href.startsWith(prefix))
                    return href;
            }
        }
        return QString();
    }

    // The next start on the same workspace and data: a new window, and its newest
    // conversation opened from the list.
    bool reopen(Setup &setup)
    {
        setup.window.reset();
        setup.window = std::make_unique<Gui::MainWindow>(options(setup));
        setup.window->show();
        if (!QTest::qWaitForWindowExposed(setup.window.get()))
            return false;
        auto *list = setup.window->findChild<QListWidget *>(QStringLiteral("conversationList"));
        if (!list || !QTest::qWaitFor([list] { return list->count() > 0; }, 5000))
            return false;
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                          list->visualItemRect(list->item(0)).center());
        return true;
    }

private slots:
    // Started from a menu (the current folder is the home folder) without --workspace, the
    // window asks for a folder instead of giving the tools the whole home folder; with
    // --workspace it opens at once.
    void homeFolderIsNotAnImplicitWorkspace()
    {
        QTemporaryDir home;
        const QString shot = QDir(home.path()).filePath(QStringLiteral("shot.png"));
        QProcess gui;
        gui.setProcessEnvironment(appEnvironment(home.path()));
        gui.setWorkingDirectory(home.path());
        gui.start(QStringLiteral(SWITCHBOARD_GUI), {QStringLiteral("--screenshot"), shot});
        QVERIFY(gui.waitForStarted());
        // The window would have saved its screenshot within a second or two; the question
        // waits for an answer instead.
        QVERIFY(!gui.waitForFinished(4000));
        QVERIFY(!QFile::exists(shot));
        gui.kill();
        gui.waitForFinished();

        QTemporaryDir project;
        gui.setWorkingDirectory(home.path());
        gui.start(QStringLiteral(SWITCHBOARD_GUI), {QStringLiteral("--workspace"), project.path(),
                                                    QStringLiteral("--screenshot"), shot});
        QVERIFY(gui.waitForFinished(30000));
        QCOMPARE(gui.exitCode(), 0);
        QVERIFY(QFile::exists(shot));
        // It is offered next time.
        QSettings settings(QDir(home.path()).filePath(".config/switchboard/settings.ini"),
                           QSettings::IniFormat);
        QCOMPARE(settings.value(QStringLiteral("workspaces/recent")).toStringList(),
                 QStringList({QFileInfo(project.path()).canonicalFilePath()}));
    }

    // A folder's .mcp.json runs nothing until the user answers the banner: "Trust selected"
    // starts only the checked server, "Trust" the rest; the decisions outlive the window and
    // stay out of the workspace.
    void trustBannerStartsOnlyWhatWasTrusted()
    {
        QTemporaryDir workspace, data;
        QFile config(QDir(workspace.path()).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral(R"({"mcpServers": {
            "alpha": {"command": "sh", "args": ["-c", "echo run >> alpha-ran; exec $0", "%1"]},
            "beta": {"command": "sh", "args": ["-c", "echo run >> beta-ran; exec $0", "%1"]}}})")
                             .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                             .toUtf8());
        config.close();
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        const Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        const auto ran = [&](const char *name) {
            return QFile::exists(QDir(workspace.path()).filePath(QLatin1String(name)));
        };
        // Each start of a server adds a line to its marker: one line once it has connected
        // after its trust shows that it never ran before.
        const auto runs = [&](const char *name) {
            QFile marker(QDir(workspace.path()).filePath(QLatin1String(name)));
            return marker.open(QIODevice::ReadOnly) ? int(marker.readAll().count('\n')) : 0;
        };
        {
            Gui::MainWindow window(options);
            window.show();
            Mcp::Manager *manager = window.manager();
            QTRY_COMPARE_WITH_TIMEOUT(manager->status("alpha").state, Mcp::ServerState::Untrusted,
                                      10000);
            QCOMPARE(manager->status("beta").state, Mcp::ServerState::Untrusted);
            auto *banner = window.findChild<Gui::TrustBanner *>(QStringLiteral("trustBanner"));
            QVERIFY(banner && banner->isVisible());
            QCOMPARE(banner->serverNames(), QStringList({"alpha", "beta"}));
            auto *list = banner->findChild<QTreeWidget *>(QStringLiteral("trustList"));
            QVERIFY(list);
            QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("alpha"));
            auto *details = banner->findChild<QPlainTextEdit *>(QStringLiteral("trustDetails"));
            QVERIFY(details);
            QVERIFY2(details->toPlainText().contains(
                             QLatin1String("  $ sh -c 'echo run >> alpha-ran; exec $0'")),
                     qPrintable(details->toPlainText()));
            QVERIFY(!manager->client("alpha") && !manager->client("beta"));
            QVERIFY(!ran("alpha-ran") && !ran("beta-ran"));

            banner->setChecked(QStringLiteral("alpha"), false);
            auto *selected
                    = banner->findChild<QPushButton *>(QStringLiteral("trustSelectedButton"));
            QVERIFY(selected && selected->isEnabled());
            selected->click();
            QTRY_COMPARE_WITH_TIMEOUT(manager->status("beta").state, Mcp::ServerState::Connected,
                                      10000);
            QCOMPARE(manager->status("alpha").state, Mcp::ServerState::Untrusted);
            QVERIFY(ran("beta-ran") && !ran("alpha-ran"));
            QCOMPARE(runs("beta-ran"), 1);
            QCOMPARE(banner->serverNames(), QStringList({"alpha"}));

            banner->findChild<QPushButton *>(QStringLiteral("trustAllButton"))->click();
            QTRY_COMPARE_WITH_TIMEOUT(manager->status("alpha").state, Mcp::ServerState::Connected,
                                      10000);
            QVERIFY(ran("alpha-ran"));
            QCOMPARE(runs("alpha-ran"), 1);
            QVERIFY(banner->isHidden());
            QSignalSpy stopped(manager, &Mcp::Manager::stopped);
            window.close();
            QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
        }
        QVERIFY(QFile::exists(options.trustFile));
        QCOMPARE(QDir(workspace.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList({".mcp.json", "alpha-ran", "beta-ran"}));
        // Next time both start without asking.
        Gui::MainWindow again(options);
        QTRY_VERIFY_WITH_TIMEOUT(
                again.manager()->client("alpha") && again.manager()->client("beta"), 10000);
        QVERIFY(again.findChild<Gui::TrustBanner *>(QStringLiteral("trustBanner"))->isHidden());
    }

    // Settings → "Result size for the model": the model reads that much of a result, with a
    // note of the rest; the chat's card keeps the whole.
    void observationSizeSettingCutsWhatTheModelReads()
    {
        auto setup = open();
        QVERIFY(setup);
        QSignalSpy stopped(setup->window->manager(), &Mcp::Manager::stopped);
        setup->window->close();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
        Gui::AppSettings settings = Gui::AppSettings::load(options(*setup).settingsFile);
        settings.observationChars = 1000;
        QVERIFY(settings.save(options(*setup).settingsFile));
        QFile big(QDir(setup->workspace.path()).filePath(QStringLiteral("big.txt")));
        QVERIFY(big.open(QIODevice::WriteOnly));
        for (int i = 0; i < 2000; ++i)
            big.write(QByteArray("line ") + QByteArray::number(i) + " of a big file\n");
        big.close();
        setup->window = std::make_unique<Gui::MainWindow>(options(*setup));
        setup->window->show();
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->agent(), 10000);

        setup->model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("read_file"), Json{{"path", "big.txt"}}}}));
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Read it.")));
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("read big.txt"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QCOMPARE(setup->model.requests().size(), 2);
        QString observation;
        for (const Json &message : setup->model.requests().at(1)["messages"]) {
            if (message.value("role", "") == "tool")
                observation = QString::fromStdString(message.value("content", ""));
        }
        QVERIFY2(observation.size() < 1200, qPrintable(QString::number(observation.size())));
        QVERIFY2(observation.contains(QStringLiteral("[cut:")), qPrintable(observation));
        QVERIFY(observation.contains(QStringLiteral("line 0 of a big file")));
    }

    void denyKeepsToolFromRunning()
    {
        auto setup = open();
        QVERIFY(setup);
        setup->model.enqueue(
                FakeLlmServer::openAiToolCalls({{QStringLiteral("mcp__fix__write_file"),
                                                 Json{{"path", "gui.txt"}, {"content", "x"}}}}));
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("OK, I will not.")));
        send(*setup->window, QStringLiteral("write it"));
        QTRY_VERIFY_WITH_TIMEOUT(dialogButton("denyButton"), 10000);
        dialogButton("denyButton")->click();
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QVERIFY(!QFile::exists(QDir(setup->workspace.path()).filePath(QStringLiteral("gui.txt"))));
        const QList<Gui::ChatView::CardInfo> cards = setup->window->chatView()->cards();
        QCOMPARE(cards.size(), 1);
        QCOMPARE(cards.at(0).state, QStringLiteral("denied"));
        QCOMPARE(setup->window->chatView()->lastAssistantText(), QStringLiteral("OK, I will not."));
    }

    // The denial is in the audit log, and Tools → Audit log… shows it without blocking the
    // window.
    void auditLogShowsTheDenial()
    {
        auto setup = open();
        QVERIFY(setup);
        setup->model.enqueue(
                FakeLlmServer::openAiToolCalls({{QStringLiteral("mcp__fix__write_file"),
                                                 Json{{"path", "gui.txt"}, {"content", "x"}}}}));
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("OK.")));
        send(*setup->window, QStringLiteral("write it"));
        QTRY_VERIFY_WITH_TIMEOUT(dialogButton("denyButton"), 10000);
        dialogButton("denyButton")->click();
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);

        QAction *action = setup->window->findChild<QAction *>(QStringLiteral("auditLogAction"));
        QVERIFY(action);
        action->trigger();
        Gui::AuditLogDialog *dialog = setup->window->auditLogDialog();
        QVERIFY(dialog);
        QSignalSpy loaded(dialog, &Gui::AuditLogDialog::loaded);
        QVERIFY(loaded.wait(5000));
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->windowModality(), Qt::NonModal);
        dialog->filterEdit()->setText(QStringLiteral("write_file"));
        QAbstractItemModel *rows = dialog->table()->model();
        // Newest first: the end of the run that never was, then the decision (earlier tests
        // share the log).
        QVERIFY(rows->rowCount() >= 2);
        QCOMPARE(rows->index(0, 5).data().toString(), QStringLiteral("denied"));
        QVERIFY(rows->index(1, 5).data().toString().startsWith(QStringLiteral("deny")));
        QCOMPARE(rows->index(1, 3).data().toString(), QStringLiteral("fix"));
    }

    // "Always allow" is kept in the user's data folder, per workspace, server and tool; the
    // workspace's .mcp.json is not touched; a fresh window (a restart) does not ask again.
    void alwaysAllowIsSavedAndNotAskedAgain()
    {
        auto setup = open();
        QVERIFY(setup);
        QFile config(QDir(setup->workspace.path()).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QByteArray configBefore = config.readAll();
        config.close();
        const auto call
                = FakeLlmServer::openAiToolCalls({{QStringLiteral("mcp__fix__write_file"),
                                                   Json{{"path", "gui.txt"}, {"content", "yes"}}}});
        setup->model.enqueue(call);
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Written.")));
        send(*setup->window, QStringLiteral("write it"));
        QTRY_VERIFY_WITH_TIMEOUT(dialogButton("alwaysAllowButton"), 10000);
        dialogButton("alwaysAllowButton")->click();
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QTRY_VERIFY(
                QFile::exists(QDir(setup->workspace.path()).filePath(QStringLiteral("gui.txt"))));
        QVERIFY(config.open(QIODevice::ReadOnly));
        QCOMPARE(config.readAll(), configBefore);
        config.close();
        QFile saved(approvalsFile(*setup));
        QVERIFY2(saved.open(QIODevice::ReadOnly), qPrintable(saved.fileName()));
        const Json grants = Json::parse(saved.readAll().toStdString(), nullptr, false);
        const std::string workspace = QDir(setup->workspace.path()).canonicalPath().toStdString();
        QVERIFY2(grants["workspaces"][workspace]["server/fix/write_file"] == Json(true),
                 grants.dump().c_str());

        // A fresh window reads the saved grant: no dialog this time.
        setup->window.reset();
        setup->model.enqueue(call);
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Again.")));
        QVERIFY(trustWorkspace(options(*setup)));
        setup->window = std::make_unique<Gui::MainWindow>(options(*setup));
        setup->window->show();
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->manager()->client("fix"), 10000);
        QSignalSpy again(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("again"));
        QTRY_COMPARE_WITH_TIMEOUT(again.count(), 1, 10000);
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(setup->window->chatView()->lastAssistantText(), QStringLiteral("Again."));
    }

    // Two calls of one turn queue two questions ("1 of 2"); stopping the turn withdraws both:
    // the dialog closes, nothing runs, and the window is free again.
    void stoppedTurnWithdrawsItsQuestions()
    {
        auto setup = open();
        QVERIFY(setup);
        setup->model.enqueue(
                FakeLlmServer::openAiToolCalls({{QStringLiteral("mcp__fix__write_file"),
                                                 Json{{"path", "a.txt"}, {"content", "a"}}},
                                                {QStringLiteral("mcp__fix__write_file"),
                                                 Json{{"path", "b.txt"}, {"content", "b"}}}}));
        send(*setup->window, QStringLiteral("write two"));
        QTRY_VERIFY_WITH_TIMEOUT(dialogButton("denyButton"), 10000);
        QWidget *dialog = QApplication::activeModalWidget();
        auto *queue = dialog->findChild<QLabel *>(QStringLiteral("queueLabel"));
        QVERIFY(queue);
        QTRY_VERIFY(queue->isVisible());
        QCOMPARE(queue->text(), QStringLiteral("Question 1 of 2"));
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        setup->window->agent()->cancel();
        QCOMPARE(done.count(), 1);
        QTRY_VERIFY(!QApplication::activeModalWidget());
        QVERIFY(deliverPostedEvents()); // no second dialog follows (its show is posted)
        QVERIFY(!QApplication::activeModalWidget());
        QVERIFY(!QFile::exists(QDir(setup->workspace.path()).filePath(QStringLiteral("a.txt"))));
        QVERIFY(!QFile::exists(QDir(setup->workspace.path()).filePath(QStringLiteral("b.txt"))));
    }

    // One click opens a saved conversation, also with no model configured; the model set up
    // afterwards goes on from it.
    void clickOpensConversationWithoutModel()
    {
        QTemporaryDir workspace, data;
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        const Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        ConversationStore store(options.conversationFolder);
        const QString id = store.create(QStringLiteral("saved one"), options.workspace);
        QVERIFY(!id.isEmpty());
        ChatMessage question;
        question.text = QStringLiteral("what was the plan?");
        QVERIFY(store.append(id, question));
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = QStringLiteral("The plan was this.");
        QVERIFY(store.append(id, answer));

        Gui::MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.agent());
        QVERIFY(window.findChild<QWidget *>(QStringLiteral("noModelNotice")));
        // The folder's name; the platform adds "— Switchboard" (not twice).
        QCOMPARE(window.windowTitle(), QDir(workspace.path()).dirName());
        auto *list = window.findChild<QListWidget *>(QStringLiteral("conversationList"));
        QVERIFY(list);
        QTRY_COMPARE(list->count(), 1);
        const QRect rect = list->visualItemRect(list->item(0));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
        QTRY_COMPARE(window.chatView()->lastAssistantText(), QStringLiteral("The plan was this."));
        QCOMPARE(list->currentItem(), list->item(0));

        // A model now: the notice goes, and the model goes on from the open conversation.
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        saveSettings(window, model.baseUrl(), QStringLiteral("scripted"), 60);
        QTRY_VERIFY_WITH_TIMEOUT(window.agent(), 10000);
        QCOMPARE(window.agent()->conversationId(), id);
        QVERIFY(!window.findChild<QLabel *>(QStringLiteral("noModelNotice")));
        QCOMPARE(window.agent()->messages().size(), size_t(2));
    }

    // --conversation ID (MainWindowOptions::conversationId) opens that conversation at start.
    void conversationOptionOpensIt()
    {
        QTemporaryDir workspace, data;
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        ConversationStore store(options.conversationFolder);
        QString id;
        for (const QString &title : {QStringLiteral("older"), QStringLiteral("wanted")}) {
            id = store.create(title, options.workspace);
            ChatMessage answer;
            answer.role = ChatMessage::Role::Assistant;
            answer.text = QStringLiteral("answer in %1").arg(title);
            QVERIFY(store.append(id, answer));
        }
        options.conversationId = id;
        Gui::MainWindow window(options);
        window.show();
        QCOMPARE(window.chatView()->lastAssistantText(), QStringLiteral("answer in wanted"));
        auto *list = window.findChild<QListWidget *>(QStringLiteral("conversationList"));
        QTRY_VERIFY(list->currentItem());
        QCOMPARE(list->currentItem()->data(Qt::UserRole).toString(), id);
    }

    // The list shows this workspace's conversations with when each was last used; "All
    // workspaces" adds the others (naming their folder), and the search box filters by title.
    void conversationListPerWorkspaceWithDatesAndSearch()
    {
        QTemporaryDir workspace, other, data;
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        const Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        {
            ConversationStore store(options.conversationFolder);
            QVERIFY(!store.create(QStringLiteral("Fix the build"), options.workspace).isEmpty());
            QVERIFY(!store.create(QString::fromUtf8("修复 the parser"), options.workspace)
                             .isEmpty());
            QVERIFY(!store.create(QStringLiteral("Elsewhere build"), other.path()).isEmpty());
        }
        Gui::MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *list = window.findChild<QListWidget *>(QStringLiteral("conversationList"));
        auto *search = window.findChild<QLineEdit *>(QStringLiteral("conversationSearch"));
        auto *all = window.findChild<QCheckBox *>(QStringLiteral("allWorkspaces"));
        auto *empty = window.findChild<QLabel *>(QStringLiteral("conversationListEmpty"));
        QVERIFY(list && search && all && empty);
        const auto titles = [list] {
            QStringList result;
            for (int row = 0; row < list->count(); ++row)
                result << list->item(row)->text();
            result.sort();
            return result;
        };
        QCOMPARE(titles(), QStringList({QStringLiteral("Fix the build"),
                                        QString::fromUtf8("修复 the parser")}));
        const QString when = list->item(0)->data(Gui::ConversationList::WhenRole).toString();
        QVERIFY2(when.startsWith(QStringLiteral("Today ")), qPrintable(when));

        all->setChecked(true);
        QCOMPARE(list->count(), 3);
        bool namesFolder = false;
        for (int row = 0; row < list->count(); ++row) {
            if (list->item(row)->text() == QLatin1String("Elsewhere build"))
                namesFolder = list->item(row)
                                      ->data(Gui::ConversationList::WhenRole)
                                      .toString()
                                      .endsWith(QDir(other.path()).dirName());
        }
        QVERIFY(namesFolder);

        QTest::keyClicks(search, QStringLiteral("BUILD"));
        QCOMPARE(titles(),
                 QStringList({QStringLiteral("Elsewhere build"), QStringLiteral("Fix the build")}));
        all->setChecked(false);
        QCOMPARE(titles(), QStringList({QStringLiteral("Fix the build")}));
        search->clear();
        search->insert(QString::fromUtf8("修复")); // what an input method does
        QCOMPARE(titles(), QStringList({QString::fromUtf8("修复 the parser")}));
        QTest::keyClicks(search, QStringLiteral(" nothing-like-this"));
        QVERIFY(!list->isVisible());
        QVERIFY(empty->isVisible());
        QVERIFY(empty->text().contains(QStringLiteral("nothing-like-this")));
    }

    // The conversation list finds words inside messages and shows the line; opening the hit
    // finds it in the chat. Ctrl+F finds in the open conversation: every match highlighted,
    // "2 of 3", Enter and Shift+Enter step through (wrapping), Esc closes the bar only.
    void searchFindsWordsInMessages()
    {
        QTemporaryDir workspace, data;
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        const Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        QString fruit;
        {
            ConversationStore store(options.conversationFolder);
            fruit = store.create(QStringLiteral("Shopping"), options.workspace);
            ChatMessage asked;
            asked.text = QStringLiteral("Where do I find banana7?");
            ChatMessage answered;
            answered.role = ChatMessage::Role::Assistant;
            answered.text = QStringLiteral("Intro line.\n\nThe **banana7** shelf is left; "
                                           "BANANA7 is cheap.\n\nNeedle-250 closes it.");
            QVERIFY(store.append(fruit, asked) && store.append(fruit, answered));
            const QString plain = store.create(QStringLiteral("Other"), options.workspace);
            asked.text = QStringLiteral("nothing to see");
            QVERIFY(store.append(plain, asked));
        }
        Gui::MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *list = window.findChild<QListWidget *>(QStringLiteral("conversationList"));
        auto *search = window.findChild<QLineEdit *>(QStringLiteral("conversationSearch"));
        QCOMPARE(list->count(), 2);
        QTest::keyClicks(search, QStringLiteral("needle-250"));
        QCOMPARE(list->count(), 1);
        QCOMPARE(list->item(0)->text(), QStringLiteral("Shopping"));
        QCOMPARE(list->item(0)->data(Gui::ConversationList::LineRole).toString(),
                 QStringLiteral("Needle-250 closes it."));
        search->clear();
        QTest::keyClicks(search, QStringLiteral("banana7"));
        QCOMPARE(list->count(), 1);
        QVERIFY(list->item(0)
                        ->data(Gui::ConversationList::LineRole)
                        .toString()
                        .contains(QLatin1String("banana7")));

        // Opening the hit opens the conversation with the chat finding it.
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                          list->visualItemRect(list->item(0)).center());
        auto *bar = window.findChild<Gui::FindBar *>(QStringLiteral("findBar"));
        QVERIFY(bar);
        QTRY_VERIFY(bar->isVisible());
        Gui::ChatView *chat = window.chatView();
        QCOMPARE(chat->findCount(), 3);
        QCOMPARE(bar->status(), QStringLiteral("1 of 3"));
        QCOMPARE(chat->extraSelections().size(), 3);
        auto *text = bar->findChild<QLineEdit *>(QStringLiteral("findText"));
        QTest::keyClick(text, Qt::Key_Return);
        QCOMPARE(bar->status(), QStringLiteral("2 of 3"));
        QCOMPARE(chat->textCursor().block().text().contains(QLatin1String("shelf")), true);
        QTest::keyClick(text, Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClick(text, Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(bar->status(), QStringLiteral("3 of 3")); // wrapped
        bar->findChild<QCheckBox *>(QStringLiteral("findCase"))->setChecked(true);
        QCOMPARE(chat->findCount(), 2);
        QTest::keyClick(text, Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(chat->extraSelections().isEmpty());

        // Ctrl+F from anywhere in the window; a word not there says so.
        window.findChild<QAction *>(QStringLiteral("findAction"))->trigger();
        QTRY_VERIFY(bar->isVisible() && window.focusWidget() == text);
        text->setText(QStringLiteral("kiwi"));
        QCOMPARE(bar->status(), QStringLiteral("No matches"));
        text->setText(QStringLiteral("NEEDLE-250"));
        QCOMPARE(bar->status(), QStringLiteral("No matches")); // Match case is still on
        bar->findChild<QCheckBox *>(QStringLiteral("findCase"))->setChecked(false);
        QCOMPARE(bar->status(), QStringLiteral("1 of 1"));
    }

    // File → Export conversation writes the open one (the menu asks where); "Fork" on the
    // user's first message makes a new conversation with that exchange only, opened in place,
    // the original unchanged.
    void exportAndFork()
    {
        QTemporaryDir workspace, data;
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        QString id;
        {
            ConversationStore store(options.conversationFolder);
            id = store.create(QStringLiteral("Two questions"), options.workspace);
            for (const auto &[role, text] :
                 {std::pair{ChatMessage::Role::User, QStringLiteral("first question")},
                  std::pair{ChatMessage::Role::Assistant, QStringLiteral("first answer")},
                  std::pair{ChatMessage::Role::User, QStringLiteral("second question")},
                  std::pair{ChatMessage::Role::Assistant, QStringLiteral("second answer")}}) {
                ChatMessage message;
                message.role = role;
                message.text = text;
                QVERIFY(store.append(id, message));
            }
        }
        options.conversationId = id;
        Gui::MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        auto *menu = window.findChild<QMenu *>(QStringLiteral("exportMenu"));
        QVERIFY(menu);
        QCOMPARE(menu->actions().size(), 3);
        window.findChild<QAction *>(QStringLiteral("exportHtmlAction"))->trigger();
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QFileDialog *>(QStringLiteral("exportDialog"))));
        QCOMPARE(dialog->defaultSuffix(), QStringLiteral("html"));
        QVERIFY(dialog->selectedFiles().value(0).endsWith(QLatin1String("Two questions.html")));
        dialog->reject();
        const QString page = QDir(data.path()).filePath(QStringLiteral("out.html"));
        window.exportConversation(Engine::ConversationExport::Format::Html, page);
        QFile file(page);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray html = file.readAll();
        QVERIFY(html.contains("second answer") && html.contains("<title>Two questions</title>"));
        QVERIFY(window.chatView()->toPlainText().contains(QStringLiteral("Exported to")));

        // Fork at the first question: a conversation with its exchange only.
        QStringList forks;
        for (QTextBlock block = window.chatView()->document()->begin(); block.isValid();
             block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QString href = it.fragment().charFormat().anchorHref();
                if (href.startsWith(QLatin1String("sb:fork:")))
                    forks << href;
            }
        }
        QCOMPARE(forks.size(), 2);
        window.chatView()->activateLink(QUrl(forks.first()));
        ConversationStore store(options.conversationFolder);
        QTRY_COMPARE(store.list().size(), 2);
        const ConversationInfo newest = store.list().first();
        QVERIFY(newest.id != id);
        QCOMPARE(newest.title, QStringLiteral("Two questions (fork)"));
        QCOMPARE(newest.messageCount, 2);
        QCOMPARE(window.chatView()->texts(Gui::ChatView::Kind::User),
                 QStringList{QStringLiteral("first question")});
        QCOMPARE(store.load(id)->messages.size(), size_t(4)); // the original is unchanged
        QCOMPARE(store.load(newest.id)->messages.at(1).text, QStringLiteral("first answer"));
    }

    // "Today 14:03", "Yesterday 09:12", a weekday within the week, else the date.
    void conversationTimesReadNaturally()
    {
        const QDateTime now(QDate(2026, 12, 3), QTime(15, 0)); // a Thursday
        const QLocale locale;
        const auto at = [](int day, int hour) {
            return QDateTime(QDate(2026, 12, day), QTime(hour, 5));
        };
        QCOMPARE(
                Gui::ConversationList::describeTime(at(3, 9), now),
                QStringLiteral("Today %1").arg(locale.toString(QTime(9, 5), QLocale::ShortFormat)));
        QVERIFY(Gui::ConversationList::describeTime(at(2, 23), now)
                        .startsWith(QStringLiteral("Yesterday ")));
        QVERIFY(Gui::ConversationList::describeTime(at(1, 8), now)
                        .startsWith(locale.dayName(2))); // Tuesday
        QCOMPARE(Gui::ConversationList::describeTime(QDateTime(QDate(2026, 11, 2), QTime(8, 0)),
                                                     now),
                 locale.toString(QDate(2026, 11, 2), QLocale::ShortFormat));
        QVERIFY(Gui::ConversationList::describeTime(QDateTime(), now).isEmpty());
    }

    // A failed turn offers Retry; Edit on the last message puts it back in the composer, and
    // Enter sends it in place of the old one and what followed (the model sees only that).
    // Attachments: a workspace file and an image pasted from the clipboard become chips; a
    // chip's click takes it off; a binary file is refused with the reason, a file that may hold
    // secrets asks first; the message carries them to the model (the file as named text, the
    // image as data) and the chat shows them.
    void attachmentsTravelWithTheMessage()
    {
        auto setup = open();
        QVERIFY(setup);
        Gui::MainWindow &window = *setup->window;
        QDir workspace(setup->workspace.path());
        QVERIFY(workspace.mkpath(QStringLiteral("notes")));
        const auto write = [&workspace](const QString &name, const QByteArray &data) {
            QFile file(workspace.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(data);
        };
        write(QStringLiteral("notes/plan.md"), "# Plan\nstep one\n");
        write(QStringLiteral("blob.bin"), QByteArray("\x01\x00\x02", 3));
        write(QStringLiteral(".env"), "TOKEN=not-for-the-model\n");
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QVERIFY(composer);
        const auto chips = [&window] {
            QStringList names;
            for (auto *chip : window.findChildren<QToolButton *>(QStringLiteral("attachmentChip")))
                names << chip->text();
            return names;
        };
        const auto paste = [composer](QMimeData *data) {
            QApplication::clipboard()->setMimeData(data);
            composer->setFocus();
            QTest::keyClick(composer, Qt::Key_V, Qt::ControlModifier);
        };
        auto *files = new QMimeData;
        files->setUrls({QUrl::fromLocalFile(workspace.filePath(QStringLiteral("notes/plan.md"))),
                        QUrl::fromLocalFile(workspace.filePath(QStringLiteral("blob.bin")))});
        paste(files);
        QTRY_COMPARE(chips().size(), 1);
        QVERIFY2(chips().first().startsWith(QLatin1String("notes/plan.md")),
                 qPrintable(chips().join(QLatin1Char(','))));
        QVERIFY2(window.chatView()->toPlainText().contains(QLatin1String("blob.bin")),
                 qPrintable(window.chatView()->toPlainText())); // refused, saying why
        auto *image = new QMimeData;
        QImage red(40, 30, QImage::Format_RGB32);
        red.fill(Qt::red);
        image->setImageData(red);
        paste(image);
        QTRY_COMPARE(chips().size(), 2);
        QVERIFY(composer->toPlainText().isEmpty()); // nothing pasted as text

        // A file that may hold secrets: asked about; Cancel leaves it out.
        auto *env = new QMimeData;
        env->setUrls({QUrl::fromLocalFile(workspace.filePath(QStringLiteral(".env")))});
        paste(env);
        QMessageBox *ask = nullptr;
        QTRY_VERIFY((ask = window.findChild<QMessageBox *>(
                             QStringLiteral("sensitiveAttachmentDialog"))));
        ask->button(QMessageBox::Cancel)->click();
        QVERIFY(deliverPostedEvents()); // an attachment would be posted from the answer
        QCOMPARE(chips().size(), 2);
        // A chip's click takes it off the message.
        paste(env);
        QTRY_VERIFY((ask = window.findChild<QMessageBox *>(
                             QStringLiteral("sensitiveAttachmentDialog"))));
        ask->findChild<QPushButton *>(QStringLiteral("attachAnywayButton"))->click();
        QTRY_COMPARE(chips().size(), 3);
        window.findChildren<QToolButton *>(QStringLiteral("attachmentChip")).last()->click();
        QTRY_COMPARE(chips().size(), 2);

        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("A plan and a red box.")));
        QSignalSpy turn(window.agent(), &Agent::turnFinished);
        send(window, QStringLiteral("what are these?"));
        QTRY_COMPARE_WITH_TIMEOUT(turn.count(), 1, 10000);
        QCOMPARE(chips().size(), 0); // sent with the message
        const Json content = setup->model.requests().first()["messages"].back()["content"];
        QVERIFY2(content.is_array() && content.size() == 3, content.dump().c_str());
        QCOMPARE(content[0]["text"].get<std::string>(), std::string("what are these?"));
        QVERIFY2(content[1]["text"].get<std::string>().find("[attached file notes/plan.md]\n# Plan")
                         != std::string::npos,
                 content[1].dump().c_str());
        const std::string url = content[2]["image_url"]["url"].get<std::string>();
        QVERIFY(url.rfind("data:image/png;base64,", 0) == 0);
        QImage sent;
        QVERIFY(sent.loadFromData(
                QByteArray::fromBase64(QByteArray::fromStdString(url.substr(22)))));
        QCOMPARE(sent.size(), QSize(40, 30));
        QVERIFY(content.dump().find("not-for-the-model") == std::string::npos);
        const QString chat = window.chatView()->toPlainText();
        QVERIFY2(chat.contains(QLatin1String("notes/plan.md")), qPrintable(chat));

        // Reopened, the message still shows its file (the conversation file keeps them).
        const QString id = window.agent()->conversationId();
        auto *list = window.findChild<QListWidget *>(QStringLiteral("conversationList"));
        QVERIFY(list);
        window.findChild<QPushButton *>(QStringLiteral("newConversationButton"))->click();
        QTRY_VERIFY(!window.chatView()->toPlainText().contains(QLatin1String("notes/plan.md")));
        QTRY_COMPARE(list->count(), 1);
        list->itemClicked(list->item(0));
        QTRY_VERIFY(window.chatView()->toPlainText().contains(QLatin1String("notes/plan.md")));
        QCOMPARE(window.agent()->conversationId(), id);
        QCOMPARE(window.agent()->messages().front().attachments.size(), size_t(2));
    }

    void editAndRetryTheLastTurn()
    {
        auto setup = open();
        QVERIFY(setup);
        Gui::ChatView *chat = setup->window->chatView();
        const auto linkOf = [chat](const QString &action) {
            return tst_MainWindow::linkOf(*chat, action);
        };
        FakeLlmServer::Reply refused;
        refused.status = 400;
        refused.body = R"({"error":{"message":"try later"}})";
        setup->model.enqueue(refused);
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("first question"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QTRY_VERIFY(!linkOf(QStringLiteral("retry")).isEmpty());

        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Answer A")));
        chat->activateLink(QUrl(linkOf(QStringLiteral("retry"))));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 10000);
        QCOMPARE(chat->texts(Gui::ChatView::Kind::Assistant),
                 QStringList({QStringLiteral("Answer A")}));
        QVERIFY(!chat->document()->toPlainText().contains(QStringLiteral("try later")));

        auto *composer = setup->window->findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        auto *hint = setup->window->findChild<QLabel *>(QStringLiteral("editHint"));
        QVERIFY(composer && hint);
        chat->activateLink(QUrl(linkOf(QStringLiteral("edit"))));
        QCOMPARE(composer->toPlainText(), QStringLiteral("first question"));
        QVERIFY(hint->isVisibleTo(setup->window.get()));
        QTest::keyClick(composer, Qt::Key_Escape); // cancelled: nothing changes
        QVERIFY(!hint->isVisibleTo(setup->window.get()));
        QVERIFY(composer->toPlainText().isEmpty());

        chat->activateLink(QUrl(linkOf(QStringLiteral("edit"))));
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Answer B")));
        composer->setPlainText(QStringLiteral("second question"));
        QTest::keyClick(composer, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, 10000);
        QCOMPARE(chat->texts(Gui::ChatView::Kind::User),
                 QStringList({QStringLiteral("second question")}));
        QCOMPARE(chat->texts(Gui::ChatView::Kind::Assistant),
                 QStringList({QStringLiteral("Answer B")}));
        const std::string sent = setup->model.requests().last()["messages"].dump();
        QVERIFY(sent.find("second question") != std::string::npos);
        QVERIFY(sent.find("first question") == std::string::npos);
        QVERIFY(sent.find("Answer A") == std::string::npos);
        QCOMPARE(setup->window->agent()->messages().size(), size_t(2));
    }

    // Which tools the model is offered is the user's: a server's Tools box in the dock, a tool's
    // check in the tool browser; the choice outlives the window, and more tools than a model
    // takes are warned about above the composer.
    // A remote server that needs sign-in: the dock says so and offers Sign in; the browser
    // (here a test that follows the authorization server's redirect to the loopback
    // listener) signs in, the server connects; Sign out forgets the tokens. No token, refresh
    // token or code is in any file under the config and data folders afterwards.
    void signInFromTheDock()
    {
        OAuthServer auth;
        McpHttpServer mcp;
        QVERIFY(mcp.listen());
        auth.resource = mcp.url();
        mcp.resourceMetadata = auth.resourceMetadataUrl().toUtf8();
        mcp.authorize = [&auth](const QByteArray &header) {
            return auth.accepts(header);
        };
        QTemporaryDir workspace, data;
        const QString configFile = QDir(data.path()).filePath(QStringLiteral("remote.json"));
        {
            QFile config(configFile);
            QVERIFY(config.open(QIODevice::WriteOnly));
            config.write(QStringLiteral("{\"mcpServers\": {\"remote\": {\"url\": \"%1\"}}}")
                                 .arg(mcp.url())
                                 .toUtf8());
        }
        Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        options.configFile = configFile;
        QNetworkAccessManager network;
        int browserVisits = 0;
        QByteArray page;
        options.openUrl = [&](const QUrl &url) {
            ++browserVisits;
            followSignIn(network, url,
                         [&](const QUrl &, const QByteArray &answer) { page = answer; });
        };
        auto window = std::make_unique<Gui::MainWindow>(options);
        window->show();
        Mcp::Manager *manager = window->manager();
        QTRY_COMPARE_WITH_TIMEOUT(manager->status("remote").state, Mcp::ServerState::Failed, 10000);
        QCOMPARE(browserVisits, 0); // nothing opens before the user asks
        QCOMPARE(auth.registrations, 0);
        auto *dock = window->findChild<Gui::ServerDock *>();
        QVERIFY(dock);
        dock->selectServer(QStringLiteral("remote"));
        auto *list = dock->findChild<QTreeWidget *>(QStringLiteral("serverList"));
        QTRY_VERIFY(list->topLevelItem(0)
                            ->text(Gui::ServerDock::ReasonColumn)
                            .contains(QLatin1String("press Sign in")));
        auto *signInButton = dock->findChild<QToolButton *>(QStringLiteral("signInButton"));
        QVERIFY(signInButton);
        // The dock's toolbar shows it at its next layout.
        QTRY_VERIFY(signInButton->isVisible() && signInButton->isEnabled());
        if (const QByteArray shots = qgetenv("SWITCHBOARD_SIGNIN_SCREENSHOT"); !shots.isEmpty())
            window->grab().save(QString::fromLocal8Bit(shots));

        signInButton->click();
        QTRY_COMPARE_WITH_TIMEOUT(manager->status("remote").state, Mcp::ServerState::Connected,
                                  10000);
        QCOMPARE(browserVisits, 1);
        QCOMPARE(auth.authorizations, 1);
        QTRY_VERIFY(page.contains("close this tab"));
        // The tokens are known secrets: a server that echoes one back shows it to no one.
        const QStringList secrets = window->session()->secrets();
        QVERIFY(std::any_of(secrets.cbegin(), secrets.cend(), [](const QString &value) {
            return value.startsWith(QLatin1String("access-"));
        }));
        QVERIFY(std::any_of(secrets.cbegin(), secrets.cend(), [](const QString &value) {
            return value.startsWith(QLatin1String("refresh-"));
        }));
        QTRY_VERIFY(!signInButton->isVisible());
        if (keychainRequired()) {
            // The tokens are in the keychain: the next window connects without the browser.
            QSignalSpy stopped(manager, &Mcp::Manager::stopped);
            window->close();
            QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
            window.reset();
            window = std::make_unique<Gui::MainWindow>(options);
            window->show();
            manager = window->manager();
            QTRY_COMPARE_WITH_TIMEOUT(manager->status("remote").state, Mcp::ServerState::Connected,
                                      10000);
            QCOMPARE(browserVisits, 1);
            QCOMPARE(auth.authorizations, 1);
            dock = window->findChild<Gui::ServerDock *>();
            dock->selectServer(QStringLiteral("remote"));
            signInButton = dock->findChild<QToolButton *>(QStringLiteral("signInButton"));
        }
        auto *signOutButton = dock->findChild<QToolButton *>(QStringLiteral("signOutButton"));
        QTRY_VERIFY(signOutButton && signOutButton->isVisible());

        signOutButton->click();
        QTRY_COMPARE_WITH_TIMEOUT(manager->status("remote").state, Mcp::ServerState::Failed, 10000);
        QTRY_VERIFY(signInButton->isVisible());
        QCOMPARE(browserVisits, 1);

        // Nothing the authorization server issued is in a file.
        for (const QString &folder :
             {data.path(), workspace.path(),
              QStandardPaths::writableLocation(QStandardPaths::AppDataLocation),
              QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)}) {
            QDirIterator files(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                QFile file(files.next());
                if (!file.open(QIODevice::ReadOnly))
                    continue;
                const QByteArray content = file.readAll();
                QVERIFY2(!content.contains("access-") && !content.contains("refresh-")
                                 && !content.contains("code-"),
                         qPrintable(file.fileName()));
            }
        }
    }

    // With tool search (the default), 200 tools are no warning: the model is given the
    // built-ins and search_tools, and finds the rest.
    void toolSearchKeepsRequestsSmall()
    {
        auto setup = open(200);
        QVERIFY(setup);
        auto *warning = setup->window->findChild<QLabel *>(QStringLiteral("toolLimitWarning"));
        QVERIFY(warning);
        QVERIFY(!warning->isVisibleTo(setup->window.get()));
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        send(*setup->window, QStringLiteral("which tools?"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        const Json tools = setup->model.requests().last()["tools"];
        QVERIFY(tools.size() <= 12);
        QVERIFY(tools.dump().find("search_tools") != std::string::npos);
        QVERIFY(tools.dump().find("mcp__fix__") == std::string::npos);
    }

    // Servers dock → "Use its instructions" off: the fixture's instructions leave the system
    // prompt, and the choice is kept for the next window.
    void serverInstructionsCanBeTurnedOff()
    {
        auto setup = open();
        QVERIFY(setup);
        auto *dock = setup->window->findChild<Gui::ServerDock *>();
        auto *list = dock->findChild<QTreeWidget *>(QStringLiteral("serverList"));
        list->setCurrentItem(list->topLevelItem(0));
        auto *use = dock->findChild<QAction *>(QStringLiteral("instructionsAction"));
        QVERIFY(use && use->isEnabled() && use->isChecked());
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        const auto systemPrompt = [&] {
            std::string system;
            const Json request = setup->model.requests().last();
            for (const Json &m : request["messages"]) {
                if (m.value("role", "") == "system")
                    system += m.value("content", "");
            }
            return system;
        };
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        send(*setup->window, QStringLiteral("hello"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QVERIFY2(systemPrompt().find("MCP server \"fix\"") != std::string::npos,
                 systemPrompt().c_str());
        use->trigger(); // off
        QVERIFY(!use->isChecked());
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        send(*setup->window, QStringLiteral("again"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 10000);
        QVERIFY2(systemPrompt().find("MCP server \"fix\"") == std::string::npos,
                 systemPrompt().c_str());
        const QSettings settings(options(*setup).settingsFile, QSettings::IniFormat);
        QCOMPARE(settings.value(QStringLiteral("instructions/off")).toStringList(),
                 QStringList{QStringLiteral("fix")});
    }

    void offeredToolsAreTheUsersChoice()
    {
        auto setup = open(200, {}, 0); // tool search off: every offered tool is sent
        QVERIFY(setup);
        auto *warning = setup->window->findChild<QLabel *>(QStringLiteral("toolLimitWarning"));
        QVERIFY(warning);
        QTRY_VERIFY(warning->isVisibleTo(setup->window.get()));
        QVERIFY2(warning->text().contains(QStringLiteral("128")), qPrintable(warning->text()));

        auto *dockTree = setup->window->findChild<Gui::ServerDock *>()->findChild<QTreeWidget *>();
        QVERIFY(dockTree);
        QTreeWidgetItem *row = dockTree->topLevelItem(0);
        QCOMPARE(row->checkState(Gui::ServerDock::ToolsColumn), Qt::Checked);
        row->setCheckState(Gui::ServerDock::ToolsColumn, Qt::Unchecked); // what a click does
        QTRY_VERIFY(!warning->isVisibleTo(setup->window.get()));

        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        send(*setup->window, QStringLiteral("which tools?"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        std::string tools = setup->model.requests().last()["tools"].dump();
        QVERIFY(tools.find("mcp__fix__") == std::string::npos);
        QVERIFY(tools.find("read_file") != std::string::npos); // the built-ins stay

        row->setCheckState(Gui::ServerDock::ToolsColumn, Qt::Checked);
        setup->window->openToolBrowser();
        auto *browser = setup->window->findChild<Gui::ToolBrowser *>();
        QVERIFY(browser);
        QVERIFY(browser->selectTool(QStringLiteral("mcp__fix__echo")));
        auto *toolTree = browser->findChild<QTreeWidget *>(QStringLiteral("toolTree"));
        QTreeWidgetItem *echo = toolTree->currentItem();
        QCOMPARE(echo->text(0), QStringLiteral("echo")); // its own name under its server
        QCOMPARE(echo->checkState(0), Qt::Checked);
        echo->setCheckState(0, Qt::Unchecked);
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("ok")));
        send(*setup->window, QStringLiteral("and now?"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 10000);
        tools = setup->model.requests().last()["tools"].dump();
        QVERIFY(tools.find("mcp__fix__echo\"") == std::string::npos);
        QVERIFY(tools.find("mcp__fix__add") != std::string::npos);

        // The choice is in the settings file, and the next window starts with it.
        const QSettings settings(options(*setup).settingsFile, QSettings::IniFormat);
        QCOMPARE(settings.value(QStringLiteral("offering/notOfferedTools")).toStringList(),
                 QStringList({QStringLiteral("mcp__fix__echo")}));
        setup->window.reset();
        Gui::MainWindow again(options(*setup));
        QVERIFY(again.registry()->isOffered(*again.registry()->find(QStringLiteral("read_file"))));
        QCOMPARE(again.registry()->notOfferedTools(),
                 QSet<QString>({QStringLiteral("mcp__fix__echo")}));
    }

    // Past the context window set in Settings, a request is compacted: the chat says so, and the
    // status bar counts the conversation's tokens.
    void compactionIsShownInTheChat()
    {
        auto setup = open();
        QVERIFY(setup);
        QAction *action = setup->window->findChild<QAction *>(QStringLiteral("settingsAction"));
        action->trigger();
        auto *dialog = setup->window->findChild<Gui::SettingsDialog *>();
        QTRY_VERIFY(dialog && dialog->isVisible());
        dialog->findChild<QSpinBox *>(QStringLiteral("contextTokensSpin"))->setValue(4096);
        QSignalSpy accepted(dialog, &QDialog::accepted);
        dialog->findChild<QPushButton *>(QStringLiteral("okButton"))->click();
        QTRY_COMPARE(accepted.count(), 1);
        QTRY_VERIFY(setup->window->agent());

        Gui::ChatView *chat = setup->window->chatView();
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("First answer.")));
        send(*setup->window, QStringLiteral("first ") + QString(20000, u'x'));
        QTRY_COMPARE_WITH_TIMEOUT(chat->lastAssistantText(), QStringLiteral("First answer."),
                                  10000);
        QTRY_VERIFY(!setup->window->agent()->isBusy());
        QVERIFY(!chat->document()->toPlainText().contains(QStringLiteral("Compacted")));
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("The user sent x's.")));
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Second answer.")));
        send(*setup->window, QStringLiteral("second question"));
        QTRY_COMPARE_WITH_TIMEOUT(chat->lastAssistantText(), QStringLiteral("Second answer."),
                                  10000);
        QVERIFY(chat->document()->toPlainText().contains(QStringLiteral("Compacted")));
        QVERIFY(chat->document()->toPlainText().contains(QStringLiteral("its own summary")));
        QVERIFY(setup->model.requests().last().dump().find("The user sent x's.")
                != std::string::npos);
        const std::string sent = setup->model.requests().last()["messages"].dump();
        QVERIFY(sent.find("first xxxx") == std::string::npos);
        QCOMPARE(setup->window->agent()->messages().size(), size_t(4)); // all kept
        auto *usage = setup->window->findChild<QLabel *>(QStringLiteral("usageLabel"));
        QVERIFY(usage);
        QVERIFY2(usage->text().contains(QStringLiteral("this conversation")),
                 qPrintable(usage->text()));
    }

    // With a price for the model (Settings → Prices), the status bar says what a turn and the
    // conversation cost.
    void costFollowsThePriceTable()
    {
        auto setup = open();
        QVERIFY(setup);
        QTRY_VERIFY(setup->window->agent());
        setup->window->findChild<QAction *>(QStringLiteral("settingsAction"))->trigger();
        auto *dialog = setup->window->findChild<Gui::SettingsDialog *>();
        QTRY_VERIFY(dialog && dialog->isVisible());
        auto *table = dialog->findChild<QTableWidget *>(QStringLiteral("pricesTable"));
        QVERIFY(table);
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(QStringLiteral("gpt-4o-mini"))); // in use
        table->setItem(row, 1, new QTableWidgetItem(QStringLiteral("1000")));
        table->setItem(row, 2, new QTableWidgetItem(QStringLiteral("2000")));
        QSignalSpy accepted(dialog, &QDialog::accepted);
        dialog->findChild<QPushButton *>(QStringLiteral("okButton"))->click();
        QTRY_COMPARE(accepted.count(), 1);
        QTRY_VERIFY(setup->window->agent());

        auto *usage = setup->window->findChild<QLabel *>(QStringLiteral("usageLabel"));
        for (int turn = 1; turn <= 2; ++turn) {
            setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Priced.")));
            QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
            send(*setup->window, QStringLiteral("how much?"));
            QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        }
        // The fake server reports 11 in / 7 out a turn: 0.011 + 0.014 = $0.025 each.
        QVERIFY2(usage->text().contains(QStringLiteral("7 out tokens ($0.0250)")),
                 qPrintable(usage->text()));
        QVERIFY2(usage->text().contains(QStringLiteral("22 / 14 ($0.0500)")),
                 qPrintable(usage->text()));
    }

    // What was typed and not sent stays with its conversation.
    void draftsStayWithTheirConversation()
    {
        QTemporaryDir workspace, data;
        const Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        ConversationStore store(options.conversationFolder);
        const QString a = store.create(QStringLiteral("A"), options.workspace);
        const QString b = store.create(QStringLiteral("B"), options.workspace);
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        Gui::MainWindow window(options);
        window.show();
        auto *list = window.findChild<QListWidget *>(QStringLiteral("conversationList"));
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QVERIFY(list && composer);
        QTRY_COMPARE(list->count(), 2);
        const auto open = [list](const QString &id) {
            for (int row = 0; row < list->count(); ++row) {
                if (list->item(row)->data(Qt::UserRole).toString() == id) {
                    QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                                      list->visualItemRect(list->item(row)).center());
                    return;
                }
            }
            QFAIL("no such conversation in the list");
        };
        composer->setPlainText(QStringLiteral("new one's draft"));
        open(a);
        QVERIFY(composer->toPlainText().isEmpty());
        composer->setPlainText(QStringLiteral("draft for A"));
        open(b);
        QVERIFY(composer->toPlainText().isEmpty());
        composer->setPlainText(QStringLiteral("draft for B"));
        open(a);
        QCOMPARE(composer->toPlainText(), QStringLiteral("draft for A"));
        window.findChild<QPushButton *>(QStringLiteral("newConversationButton"))->click();
        QCOMPARE(composer->toPlainText(), QStringLiteral("new one's draft"));
        open(b);
        QCOMPARE(composer->toPlainText(), QStringLiteral("draft for B"));
    }

    // Without Qt's SVG plugin the toolbar shows words, not blank buttons.
    void toolbarFallsBackToTextWithoutSvg()
    {
        QVERIFY(Gui::svgIconsAvailable()); // this machine has the plugin (bootstrap installs it)
        QTemporaryDir workspace, data;
        Gui::setSvgIconsAvailableForTesting(false);
        Gui::MainWindow window(testWindowOptions(workspace.path(), data.path()));
        Gui::setSvgIconsAvailableForTesting(std::nullopt);
        auto *toolbar = window.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(toolbar);
        QCOMPARE(toolbar->toolButtonStyle(), Qt::ToolButtonTextOnly);
        for (QAction *action : toolbar->actions()) {
            QVERIFY(action->icon().isNull());
            QVERIFY(!action->text().isEmpty());
        }
        Gui::MainWindow withIcons(testWindowOptions(workspace.path(), data.path()));
        auto *iconBar = withIcons.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(iconBar->toolButtonStyle() != Qt::ToolButtonTextOnly);
        QVERIFY(!iconBar->actions().first()->icon().isNull());
    }

    // The toolbar's and the buttons' icons take the palette's text colour: readable on a dark
    // palette (their lines were a fixed grey that vanished there), and following a change.
    void darkPaletteKeepsIconsVisible()
    {
        // The mean lightness of an icon's drawn lines (pixels more than half opaque, its
        // accents left out: those with a strong hue).
        const auto lineLightness = [](const QImage &image) {
            qint64 sum = 0, count = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    const QColor pixel = image.pixelColor(x, y);
                    if (pixel.alpha() > 128 && pixel.hsvSaturation() < 60) {
                        sum += pixel.lightness();
                        ++count;
                    }
                }
            }
            return count > 20 ? int(sum / count) : -1;
        };
        const QPalette dark = darkPalette();
        const QPalette before = QApplication::palette();
        const auto restore = qScopeGuard([&before] { QApplication::setPalette(before); });
        QTemporaryDir workspace, data;
        Gui::MainWindow window(testWindowOptions(workspace.path(), data.path()));
        window.resize(1100, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *toolbar = window.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(toolbar);
        const int lightWindow = QApplication::palette().color(QPalette::Window).lightness();
        for (QAction *action : toolbar->actions()) {
            if (action->icon().isNull())
                continue;
            const int light = lineLightness(action->icon().pixmap(32).toImage());
            QVERIFY2(light >= 0 && std::abs(light - lightWindow) >= 100,
                     qPrintable(action->text() + QStringLiteral(": ") + QString::number(light)));
        }

        QApplication::setPalette(dark);
        QVERIFY(deliverPostedEvents());
        int checked = 0;
        for (QAction *action : toolbar->actions()) {
            if (action->icon().isNull())
                continue;
            const int light = lineLightness(action->icon().pixmap(32).toImage());
            QVERIFY2(light >= 0
                             && std::abs(light - dark.color(QPalette::Window).lightness()) >= 100,
                     qPrintable(action->text() + QStringLiteral(": ") + QString::number(light)));
            // As the toolbar draws it, too.
            QWidget *button = toolbar->widgetForAction(action);
            QVERIFY(button);
            const QImage drawn = button->grab().toImage();
            int lit = 0;
            for (int y = 0; y < drawn.height(); ++y) {
                for (int x = 0; x < drawn.width(); ++x)
                    lit += drawn.pixelColor(x, y).lightness() > 160 ? 1 : 0;
            }
            QVERIFY2(lit >= 15,
                     qPrintable(action->text() + QStringLiteral(": ") + QString::number(lit)));
            ++checked;
        }
        QVERIFY(checked >= 4);
        auto *send = window.findChild<QPushButton *>(QStringLiteral("sendButton"));
        QVERIFY(send);
        QVERIFY(lineLightness(send->icon().pixmap(32).toImage()) > 150);
        const QString folder = QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots");
        QDir().mkpath(folder);
        QVERIFY(window.grab().save(QDir(folder).filePath(QStringLiteral("window-dark.png"))));
    }

    // Unsent text survives closing the window: the new conversation's and a saved one's.
    void draftsSurviveARestart()
    {
        QTemporaryDir workspace, data;
        const Gui::MainWindowOptions options = testWindowOptions(workspace.path(), data.path());
        ConversationStore store(options.conversationFolder);
        const QString a = store.create(QStringLiteral("A"), options.workspace);
        QVERIFY(!a.isEmpty());
        {
            Gui::MainWindowOptions first = options;
            first.conversationId = a;
            Gui::MainWindow window(first);
            auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
            composer->setPlainText(QStringLiteral("half a thought about A"));
            window.findChild<QPushButton *>(QStringLiteral("newConversationButton"))->click();
            QVERIFY(composer->toPlainText().isEmpty());
            composer->setPlainText(QStringLiteral("the start of something new"));
        } // closed without sending either
        const QString file
                = QDir(options.conversationFolder).filePath(QStringLiteral("drafts.json"));
        QVERIFY(QFileInfo::exists(file));
        QCOMPARE(QFileInfo(file).permissions() & (QFile::ReadOther | QFile::ReadGroup),
                 QFile::Permissions());
        Gui::MainWindow window(options);
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QCOMPARE(composer->toPlainText(), QStringLiteral("the start of something new"));
        Gui::MainWindowOptions reopen = options;
        reopen.conversationId = a;
        Gui::MainWindow again(reopen);
        QCOMPARE(again.findChild<QPlainTextEdit *>(QStringLiteral("composer"))->toPlainText(),
                 QStringLiteral("half a thought about A"));
    }

    // "Chat needs a model" is said while it is true, and goes when a model is set.
    // The composer's model picker: the current model at once, the provider's list when it
    // answers (its context window wins over the setting), and a pick is saved and used.
    void modelPickerListsAndSwitches()
    {
        auto setup = open();
        QVERIFY(setup);
        auto *picker = setup->window->findChild<QComboBox *>(QStringLiteral("modelPicker"));
        QVERIFY(picker);
        // This server has no list: the model in use stays the only choice, and says why.
        QTRY_VERIFY2(picker->toolTip().contains(QLatin1String("404")),
                     qPrintable(picker->toolTip()));
        QCOMPARE(picker->count(), 1);
        QVERIFY(picker->isEnabled());

        setup->model.setModelList(
                R"({"data":[{"id":"beta"},{"id":"alpha","context_length":50000}]})");
        saveSettings(*setup->window, setup->model.baseUrl(), QStringLiteral("alpha"), 60);
        QTRY_COMPARE(picker->count(), 2);
        QCOMPARE(picker->currentText(), QStringLiteral("alpha"));
        QTRY_VERIFY(setup->window->agent());
        QTRY_COMPARE(setup->window->agent()->contextTokens(), 50000);
        QVERIFY(picker->itemData(0, Qt::ToolTipRole).toString().contains(QLatin1String("50")));

        const int beta = picker->findText(QStringLiteral("beta"));
        QVERIFY(beta >= 0);
        picker->setCurrentIndex(beta);
        emit picker->activated(beta);
        QTRY_VERIFY(setup->window->agent());
        QTRY_COMPARE(picker->currentText(), QStringLiteral("beta"));
        QCOMPARE(Gui::AppSettings::load(options(*setup).settingsFile).active().model,
                 QStringLiteral("beta"));
        // beta's window is not listed: the setting's applies (once the new agent is made).
        QTRY_COMPARE(setup->window->agent() ? setup->window->agent()->contextTokens() : 0,
                     qint64(Gui::AppSettings::load(options(*setup).settingsFile).contextTokens));
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("from beta")));
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("who answers?"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QCOMPARE(setup->model.requests().last().value("model", ""), std::string("beta"));
    }

    void noModelNoticeGoesWhenAModelIsSet()
    {
        QTemporaryDir workspace, data;
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        Gui::MainWindow window(testWindowOptions(workspace.path(), data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.agent());
        auto *notice = window.findChild<QWidget *>(QStringLiteral("noModelNotice"));
        QVERIFY(notice);
        // Its button opens Settings.
        auto *setUp = notice->findChild<QPushButton *>(QStringLiteral("setUpModelButton"));
        QVERIFY(setUp);
        setUp->click();
        QTRY_VERIFY(window.findChild<Gui::SettingsDialog *>()
                    && window.findChild<Gui::SettingsDialog *>()->isVisible());
        window.findChild<Gui::SettingsDialog *>()->reject();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QTRY_VERIFY(!window.findChild<Gui::SettingsDialog *>());
        // A reason that ends its own sentence is not given a second full stop.
        const Gui::NoModelNotice ended(QStringLiteral("the keychain has no key for \"x\"."),
                                       QString());
        const QString said = ended.findChild<QLabel *>(QStringLiteral("noModelText"))->text();
        QVERIFY2(said.contains(QStringLiteral("&quot;x&quot;. Servers")), qPrintable(said));
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        saveSettings(window, model.baseUrl(), QStringLiteral("scripted"), 60);
        QTRY_VERIFY_WITH_TIMEOUT(window.agent(), 10000);
        QTRY_VERIFY(!window.findChild<QWidget *>(QStringLiteral("noModelNotice")));
    }

    void renameConversation()
    {
        auto setup = open();
        QVERIFY(setup);
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Hello.")));
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("first words"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        const QString id = setup->window->agent()->conversationId();
        auto *list = setup->window->findChild<QListWidget *>(QStringLiteral("conversationList"));
        QVERIFY(list);
        auto itemFor = [list, id]() -> QListWidgetItem * {
            for (int i = 0; i < list->count(); ++i) {
                if (list->item(i)->data(Qt::UserRole).toString() == id)
                    return list->item(i);
            }
            return nullptr;
        };
        QTRY_VERIFY(itemFor());
        QCOMPARE(itemFor()->text(), QStringLiteral("first words"));
        QCOMPARE(list->currentItem(), itemFor()); // the open conversation is the selected one

        // F2 edits in place, Enter records the new title (a "title" line in the JSONL file).
        list->setCurrentItem(itemFor());
        list->setFocus();
        QTest::keyClick(list, Qt::Key_F2);
        QLineEdit *editor = nullptr;
        QTRY_VERIFY((editor = list->findChild<QLineEdit *>()) && editor->isVisible());
        editor->setText(QStringLiteral("  Plan 计划  ")); // QTest::keyClicks is ASCII only
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(itemFor()->text(), QStringLiteral("Plan 计划"));
        ConversationStore reader(m_data.filePath(QStringLiteral("conversations")));
        auto conversation = reader.load(id);
        QVERIFY(conversation);
        QCOMPARE(conversation->title, QStringLiteral("Plan 计划"));
        QCOMPARE(conversation->messages.size(), size_t(2));

        // An empty title is not a rename: the stored one comes back.
        list->setCurrentItem(itemFor());
        QTest::keyClick(list, Qt::Key_F2);
        QTRY_VERIFY((editor = list->findChild<QLineEdit *>()) && editor->isVisible());
        editor->selectAll();
        QTest::keyClick(editor, Qt::Key_Delete);
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(itemFor()->text(), QStringLiteral("Plan 计划"));
        QCOMPARE(reader.load(id)->title, QStringLiteral("Plan 计划"));
    }

    // The Agents dock in the window: a workspace's agent is contacted only after Trust (which
    // the window records), and closing the window while an inbound task runs ends it cleanly.
    void agentsDockTrustsAndServes()
    {
        QTcpServer agent; // not an A2A agent: it only counts who knocks
        QVERIFY(agent.listen(QHostAddress::LocalHost));
        int knocks = 0;
        connect(&agent, &QTcpServer::newConnection, this, [&] {
            ++knocks;
            delete agent.nextPendingConnection();
        });
        // A second workspace agent, trusted first: its knock comes after any the window's
        // start could have made, so none by then shows "cloned" was not contacted.
        QTcpServer other;
        QVERIFY(other.listen(QHostAddress::LocalHost));
        int otherKnocks = 0;
        connect(&other, &QTcpServer::newConnection, this, [&] {
            ++otherKnocks;
            delete other.nextPendingConnection();
        });
        auto setup = open(0, [&](const QString &workspace) {
            QFile peers(workspace + QStringLiteral("/.a2a.json"));
            QVERIFY(peers.open(QIODevice::WriteOnly));
            peers.write(QStringLiteral("{\"agents\": {\"cloned\": {\"url\": "
                                       "\"http://127.0.0.1:%1/\"}, \"other\": {\"url\": "
                                       "\"http://127.0.0.1:%2/\"}}}")
                                .arg(agent.serverPort())
                                .arg(other.serverPort())
                                .toUtf8());
        });
        QVERIFY(setup);
        auto *dock = setup->window->findChild<Gui::AgentsDock *>(QStringLiteral("agentsDock"));
        QVERIFY(dock);
        const auto rowOf = [dock](const QString &name) -> QTreeWidgetItem * {
            for (int i = 0; i < dock->peerView()->topLevelItemCount(); ++i) {
                QTreeWidgetItem *item = dock->peerView()->topLevelItem(i);
                if (item->text(Gui::AgentsDock::PeerNameColumn) == name)
                    return item;
            }
            return nullptr;
        };
        QVERIFY(rowOf(QStringLiteral("cloned")) && rowOf(QStringLiteral("other")));
        QCOMPARE(rowOf(QStringLiteral("cloned"))->text(Gui::AgentsDock::PeerStateColumn),
                 QStringLiteral("not trusted yet"));
        auto *trustButton = dock->findChild<QPushButton *>(QStringLiteral("agentsTrustButton"));
        rowOf(QStringLiteral("other"))->setSelected(true);
        trustButton->click();
        QVERIFY(QTest::qWaitFor([&] { return otherKnocks > 0; }, 10000));
        QCOMPARE(knocks, 0);
        dock->peerView()->clearSelection();
        QTreeWidgetItem *row = rowOf(QStringLiteral("cloned"));
        QVERIFY(row);
        QCOMPARE(row->text(Gui::AgentsDock::PeerStateColumn), QStringLiteral("not trusted yet"));
        row->setSelected(true);
        trustButton->click();
        QVERIFY(QTest::qWaitFor([&] { return knocks > 0; }, 10000));
        QVERIFY(!setup->window->session()->peers().find(QStringLiteral("cloned"))->untrusted);
        QFile trust(options(*setup).trustFile);
        QVERIFY(trust.open(QIODevice::ReadOnly));
        QVERIFY(trust.readAll().contains("\"agents\""));

        FakeLlmServer::Reply slow = FakeLlmServer::openAiText(QStringLiteral("s l o w"), 20);
        slow.delayBetweenEventsMs = 500;
        setup->model.enqueue(slow);
        QVERIFY(dock->serveSwitch()->isEnabled());
        dock->serveSwitch()->click();
        QVERIFY(dock->isServing());
        QNetworkAccessManager network;
        QNetworkRequest request{QUrl(dock->address() + QStringLiteral("a2a/message"))};
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        std::unique_ptr<QNetworkReply> reply(network.post(request, "{\"message\": \"wait\"}"));
        QVERIFY(QTest::qWaitFor([&] { return setup->model.requests().size() == 1; }, 10000));
        QCOMPARE(dock->taskView()->topLevelItemCount(), 1);
        setup->window.reset(); // closed mid-task: the task and the server go first
        QVERIFY(QTest::qWaitFor([&] { return reply->isFinished(); }, 10000));
    }

    void closeStopsServersInOrder()
    {
        auto setup = open();
        QVERIFY(setup);
        Mcp::Manager *manager = setup->window->manager();
        Mcp::Client *client = manager->client(QStringLiteral("fix"));
        QVERIFY(client);
        QSignalSpy stderrLines(manager, &Mcp::Manager::serverStderr);
        const QString fix = QStringLiteral("fix");
        QSignalSpy stopped(manager, &Mcp::Manager::stopped);
        QVERIFY(!setup->window->close()); // not yet: the servers are stopping
        QVERIFY(!setup->window->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
        // An orderly stop: the fixture saw its stdin close (it was not killed first).
        bool sawEof = false;
        for (const auto &args : std::as_const(stderrLines))
            sawEof = sawEof
                     || (args.at(0).toString() == fix
                         && args.at(1).toString() == QLatin1String("stdin closed"));
        QVERIFY(sawEof);
        QTRY_VERIFY(!manager->client(QStringLiteral("fix")));
    }

    // File → Quit (Ctrl+Q) closes the window and, once the servers are gone, says so: the
    // application quits on closed().
    void quitActionCloses()
    {
        auto setup = open();
        QVERIFY(setup);
        auto *quit = setup->window->findChild<QAction *>(QStringLiteral("quitAction"));
        QVERIFY(quit);
        QVERIFY(quit->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Q)));
        QSignalSpy closed(setup->window.get(), &Gui::MainWindow::closed);
        QVERIFY(QTest::qWaitForWindowExposed(setup->window.get()));
        QTest::keyClick(setup->window.get(), Qt::Key_Q, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(closed.count(), 1, 10000);
        QVERIFY(!setup->window->manager()->client(QStringLiteral("fix")));
    }

    // Ctrl+Q in the middle of an answer: what the chat showed of it is kept, marked stopped,
    // and the conversation reopens that way with Retry (before, the question reopened with no
    // answer and no marker).
    void quitMidAnswerKeepsWhatWasShown()
    {
        auto setup = open();
        QVERIFY(setup);
        FakeLlmServer::Reply partial
                = FakeLlmServer::openAiText(QStringLiteral("First paragraph."), 1);
        partial.events = partial.events.mid(0, 2); // the role, then the one paragraph
        partial.holdOpenAfterEvents = true;        // ... and the model goes on "thinking"
        setup->model.enqueue(partial);
        send(*setup->window, QStringLiteral("write a lot"));
        QTRY_COMPARE_WITH_TIMEOUT(setup->window->chatView()->texts(Gui::ChatView::Kind::Assistant),
                                  QStringList({QStringLiteral("First paragraph.")}), 10000);
        QVERIFY(setup->window->agent()->isBusy());
        QSignalSpy closed(setup->window.get(), &Gui::MainWindow::closed);
        QVERIFY(QTest::qWaitForWindowExposed(setup->window.get()));
        QTest::keyClick(setup->window.get(), Qt::Key_Q, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(closed.count(), 1, 10000);

        QVERIFY(reopen(*setup));
        Gui::ChatView *chat = setup->window->chatView();
        QTRY_COMPARE(chat->texts(Gui::ChatView::Kind::User),
                     QStringList({QStringLiteral("write a lot")}));
        QCOMPARE(chat->texts(Gui::ChatView::Kind::Assistant),
                 QStringList({QStringLiteral("First paragraph.")}));
        const QStringList notices = chat->texts(Gui::ChatView::Kind::Notice);
        QVERIFY2(notices.contains(QStringLiteral("Stopped.")), qPrintable(notices.join(u'|')));
        QVERIFY2(!linkOf(*chat, QStringLiteral("retry")).isEmpty(), qPrintable(notices.join(u'|')));
    }

    // Esc stops a reply, as Stop does: in the composer, and in the chat; the conversation
    // says "Stopped." and keeps what was shown.
    void escapeStopsAReply()
    {
        auto setup = open();
        QVERIFY(setup);
        int stops = 0;
        for (const char *where : {"composer", "chatView"}) {
            FakeLlmServer::Reply partial
                    = FakeLlmServer::openAiText(QStringLiteral("Thinking."), 1);
            partial.events = partial.events.mid(0, 2);
            partial.holdOpenAfterEvents = true;
            setup->model.enqueue(partial);
            send(*setup->window, QStringLiteral("go on"));
            QTRY_VERIFY_WITH_TIMEOUT(setup->window->chatView()
                                             ->texts(Gui::ChatView::Kind::Assistant)
                                             .contains(QStringLiteral("Thinking.")),
                                     10000);
            QVERIFY(setup->window->agent()->isBusy());
            QTest::keyClick(setup->window->findChild<QWidget *>(QLatin1String(where)),
                            Qt::Key_Escape);
            QTRY_VERIFY_WITH_TIMEOUT(!setup->window->agent()->isBusy(), 10000);
            ++stops;
            QCOMPARE(setup->window->chatView()
                             ->texts(Gui::ChatView::Kind::Notice)
                             .count(QStringLiteral("Stopped.")),
                     stops);
        }
    }

    // A 3 MB result the model asked for: the model reads its share, and the reopened
    // conversation's card opens the whole result in the same viewer as live (before, it held
    // the model's 32,000 characters and a note claiming the UI had the rest).
    void reopenedBigResultOpensWhole()
    {
        constexpr int Bytes = 3000000;
        auto setup = open();
        QVERIFY(setup);
        setup->model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__fix__big"), Json{{"bytes", Bytes}}}}));
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("That was big.")));
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("make it big"));
        QTRY_VERIFY_WITH_TIMEOUT(dialogButton("allowOnceButton"), 10000);
        dialogButton("allowOnceButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 20000);
        QCOMPARE(setup->window->chatView()->cards().size(), 1);
        QVERIFY(setup->window->chatView()->cards().at(0).wholeResultAvailable);
        QVERIFY(setup->model.requests().last()["messages"].dump().size() < size_t(Bytes / 10));

        QVERIFY(reopen(*setup));
        Gui::ChatView *chat = setup->window->chatView();
        QTRY_COMPARE(chat->cards().size(), 1);
        QVERIFY(chat->cards().at(0).wholeResultAvailable);
        chat->activateLink(QUrl(linkOf(*chat, QStringLiteral("toggle")))); // open the card
        const QString whole = linkOf(*chat, QStringLiteral("whole"));
        QVERIFY2(!whole.isEmpty(), qPrintable(chat->document()->toPlainText().left(2000)));
        QVERIFY(!chat->document()->toPlainText().contains(QLatin1String("full output is in")));
        chat->activateLink(QUrl(whole));
        auto *viewer = setup->window->findChild<Gui::ResultViewer *>();
        QVERIFY(viewer);
        QCOMPARE(viewer->pageCount(),
                 int((Bytes + Gui::ResultViewer::PageBytes - 1) / Gui::ResultViewer::PageBytes));
        viewer->showPage(viewer->pageCount() - 1);
        QCOMPARE(viewer->pageText().size(), Bytes % Gui::ResultViewer::PageBytes);
        viewer->close();
    }

    // The real application: a termination signal (as at logout) closes it like Quit, the
    // process ends within 5 s and leaves no server behind.
    void quitEndsTheProcess()
    {
#ifndef Q_OS_UNIX
        QSKIP("POSIX signals");
#else
        QTemporaryDir home, workspace;
        const QString pidFile = QDir(workspace.path()).filePath(QStringLiteral("server.pid"));
        // What the server receives: its first line shows the window is connecting it.
        const QString logFile = QDir(workspace.path()).filePath(QStringLiteral("server.log"));
        const QString config = QDir(workspace.path()).filePath(QStringLiteral("given.json"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        // `exec` keeps the shell's pid: the file names the server process itself.
        file.write(QStringLiteral(R"({"mcpServers": {"fix": {"command": "sh",
            "args": ["-c", "echo $$ > server.pid; exec $0 --log-file server.log", "%1"]}}})")
                           .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                           .toUtf8());
        file.close();
        QProcess gui;
        gui.setProcessEnvironment(appEnvironment(home.path()));
        gui.start(QStringLiteral(SWITCHBOARD_GUI), {QStringLiteral("--workspace"), workspace.path(),
                                                    QStringLiteral("--config"), config});
        QVERIFY(gui.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(pidFile).size() > 0, 15000);
        QFile pid(pidFile);
        QVERIFY(pid.open(QIODevice::ReadOnly));
        const pid_t server = pid_t(pid.readAll().trimmed().toLongLong());
        QVERIFY(server > 0);
        QCOMPARE(::kill(server, 0), 0);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(logFile).size() > 0, 15000); // being connected
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(::kill(pid_t(gui.processId()), SIGTERM), 0);
        QVERIFY2(gui.waitForFinished(5000), "still running 5 s after the signal");
        QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
        QCOMPARE(gui.exitCode(), 0);
        QVERIFY(clock.elapsed() < 5000);
        // The server is gone (not a zombie either: it was the application's child).
        QTRY_VERIFY_WITH_TIMEOUT(::kill(server, 0) != 0 && errno == ESRCH, 2000);
#endif
    }

    // Disable in the dock lasts: "disabled": true goes into .mcp.json (the rest of the text
    // as it was) and the next window starts with the server disabled; Enable undoes it.
    void disableInTheDockIsKept()
    {
        auto setup = open();
        QVERIFY(setup);
        const QString path = QDir(setup->workspace.path()).filePath(QStringLiteral(".mcp.json"));
        auto readConfig = [&path] {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        auto *list = setup->window->findChild<QTreeWidget *>(QStringLiteral("serverList"));
        QVERIFY(list && list->topLevelItemCount() == 1);
        list->setCurrentItem(list->topLevelItem(0));
        auto *toggle = setup->window->findChild<QToolButton *>(QStringLiteral("toggleButton"));
        QVERIFY(toggle);
        toggle->click();
        QTRY_COMPARE(setup->window->manager()->status(QStringLiteral("fix")).state,
                     Mcp::ServerState::Disabled);
        const QByteArray disabled = readConfig();
        QVERIFY2(disabled.contains("\"disabled\": true"), disabled.constData());
        QVERIFY(disabled.startsWith("{\n  \"mcpServers\": {\n    \"fix\": {\n      \"command\": "));

        QSignalSpy stopped(setup->window->manager(), &Mcp::Manager::stopped);
        setup->window->close();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
        QVERIFY(trustWorkspace(options(*setup)));
        setup->window = std::make_unique<Gui::MainWindow>(options(*setup));
        setup->window->show();
        QTRY_COMPARE(setup->window->manager()->status(QStringLiteral("fix")).state,
                     Mcp::ServerState::Disabled);

        list = setup->window->findChild<QTreeWidget *>(QStringLiteral("serverList"));
        list->setCurrentItem(list->topLevelItem(0));
        setup->window->findChild<QToolButton *>(QStringLiteral("toggleButton"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->manager()->client(QStringLiteral("fix")), 10000);
        QVERIFY2(readConfig().contains("\"disabled\": false"), readConfig().constData());
    }

    // The window's size and its docks are where the user left them, next time.
    void windowStateIsRestored()
    {
        auto setup = open();
        QVERIFY(setup);
        auto *serverDock = setup->window->findChild<QDockWidget *>(QStringLiteral("serverDock"));
        QVERIFY(serverDock && serverDock->isVisible());
        serverDock->hide();
        setup->window->resize(900, 640);
        QSignalSpy stopped(setup->window->manager(), &Mcp::Manager::stopped);
        setup->window->close();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);

        QVERIFY(trustWorkspace(options(*setup)));
        setup->window = std::make_unique<Gui::MainWindow>(options(*setup));
        setup->window->show();
        serverDock = setup->window->findChild<QDockWidget *>(QStringLiteral("serverDock"));
        QVERIFY(serverDock);
        QVERIFY(!serverDock->isVisible());
        QCOMPARE(setup->window->size(), QSize(900, 640));
    }

    // The chat is the centre: on a first launch the side panels are narrow and the chat keeps
    // at least 60 % of a 1024×700 window; at 1600×1000 its text stays a readable column,
    // centred. Each side panel hides with its key, and the window remembers it.
    void layoutKeepsTheChatCentral()
    {
        QTemporaryDir workspace, data;
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            QFile::remove(QDir(data.path()).filePath(QStringLiteral("settings.ini")));
            Gui::MainWindow window(testWindowOptions(workspace.path(), data.path()));
            window.resize(size);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QTRY_COMPARE(window.size(), size);
            QCoreApplication::processEvents();
            auto *serverDock = window.findChild<QDockWidget *>(QStringLiteral("serverDock"));
            auto *pane = window.findChild<QWidget *>(QStringLiteral("conversationPane"));
            QVERIFY(serverDock && serverDock->isVisible() && pane && pane->isVisible());
            // The first layout is made once the docks have their places (queued after show).
            QTRY_VERIFY2(window.chatWidth() * 100 >= size.width() * 60,
                         qPrintable(QStringLiteral("the chat is %1 px of %2 (list %3, dock %4)")
                                            .arg(window.chatWidth())
                                            .arg(size.width())
                                            .arg(pane->width())
                                            .arg(serverDock->width())));
            window.grab().save(m_data.filePath(QStringLiteral("layout-%1.png").arg(size.width())));
            Gui::ChatView *view = window.chatView();
            const int readable
                    = view->fontMetrics().averageCharWidth() * Gui::ChatView::ReadableColumnChars;
            QVERIFY2(view->columnWidth() <= readable + 1,
                     qPrintable(QStringLiteral("%1 > %2").arg(view->columnWidth()).arg(readable)));
            if (size.width() == 1600) {
                // Wider than the column: centred, with the same room on each side.
                QVERIFY(view->columnWidth() > readable - 4);
                const int right
                        = view->viewport()->width() - view->columnLeft() - view->columnWidth();
                QVERIFY(std::abs(view->columnLeft() - right) <= 1);
                QVERIFY(view->columnLeft() > 50);
            }
            window.close();
        }

        // Ctrl+B hides the conversations, Ctrl+Shift+S the servers, Ctrl+Shift+A the agents; a
        // new window has them so.
        {
            Gui::MainWindow window(testWindowOptions(workspace.path(), data.path()));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(&window));
            auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
            QTest::keyClick(composer, Qt::Key_B, Qt::ControlModifier);
            QTest::keyClick(composer, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
            QTest::keyClick(composer, Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
            QTRY_VERIFY(
                    !window.findChild<QWidget *>(QStringLiteral("conversationPane"))->isVisible());
            QTRY_VERIFY(
                    !window.findChild<QDockWidget *>(QStringLiteral("serverDock"))->isVisible());
            QTRY_VERIFY(window.chatWidth() > window.width() * 9 / 10);
            window.close();
        }
        Gui::MainWindow window(testWindowOptions(workspace.path(), data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.findChild<QWidget *>(QStringLiteral("conversationPane"))->isVisible());
        QVERIFY(!window.findChild<QDockWidget *>(QStringLiteral("serverDock"))->isVisible());
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(window.findChild<QPlainTextEdit *>(QStringLiteral("composer")), Qt::Key_B,
                        Qt::ControlModifier);
        QTRY_VERIFY(window.findChild<QWidget *>(QStringLiteral("conversationPane"))->isVisible());
        window.close();
    }

    // Unsaved edits in the config editor are not lost to a close: a question first; Cancel
    // keeps the window, "Discard and close" closes it (and the file is untouched).
    void closeWithUnsavedConfigEditsAsks()
    {
        auto setup = open();
        QVERIFY(setup);
        const QString path = QDir(setup->workspace.path()).filePath(QStringLiteral(".mcp.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray before = file.readAll();
        file.close();
        setup->window->editConfiguration();
        QsciScintilla *editor = setup->window->configEditor()->editor();
        editor->append(QStringLiteral("\n// an edit\n"));
        QVERIFY(setup->window->configEditor()->isModified());

        QVERIFY(!setup->window->close());
        QMessageBox *box = nullptr;
        QTRY_VERIFY(box
                    = setup->window->findChild<QMessageBox *>(QStringLiteral("confirmCloseBox")));
        QVERIFY(setup->window->isVisible());
        box->button(QMessageBox::Cancel)->click();
        QVERIFY(deliverPostedEvents()); // a close would be posted from the answer
        QVERIFY(setup->window->isVisible());
        QCOMPARE(setup->window->manager()->status(QStringLiteral("fix")).state,
                 Mcp::ServerState::Connected);

        QSignalSpy stopped(setup->window->manager(), &Mcp::Manager::stopped);
        QVERIFY(!setup->window->close());
        QTRY_VERIFY(box
                    = setup->window->findChild<QMessageBox *>(QStringLiteral("confirmCloseBox")));
        box->findChild<QPushButton *>(QStringLiteral("discardAndCloseButton"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
        QTRY_VERIFY(!setup->window->isVisible());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), before);
    }

    // The window starts on model A (the environment); Settings point it at model B. The next
    // message goes to B, with the conversation so far, without restarting the window; the
    // tool timeout from Settings applies to the server's tools.
    // Settings → Language switches the open window at once: menus, buttons, the conversation
    // list, the docks and what the chat already shows; and back.
    void languageSwitchesLive()
    {
        Gui::installLanguage(QStringLiteral("en"));
        auto guard = qScopeGuard([] { Gui::installLanguage(QStringLiteral("en")); });
        auto setup = open();
        QVERIFY(setup);
        Gui::MainWindow &window = *setup->window;
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Hello.")));
        QSignalSpy turn(window.agent(), &Agent::turnFinished);
        send(window, QStringLiteral("hi"));
        QTRY_COMPARE_WITH_TIMEOUT(turn.count(), 1, 10000);

        const auto menuTitles = [&window] {
            QStringList titles;
            for (QAction *action : window.menuBar()->actions())
                titles << action->text();
            return titles;
        };
        auto *sendButton = window.findChild<QPushButton *>(QStringLiteral("sendButton"));
        auto *search = window.findChild<QLineEdit *>(QStringLiteral("conversationSearch"));
        auto *dock = window.findChild<Gui::ServerDock *>();
        QVERIFY(sendButton && search && dock);
        QCOMPARE(menuTitles(), QStringList({QStringLiteral("&File"), QStringLiteral("&View"),
                                            QStringLiteral("&Tools"), QStringLiteral("&Help")}));
        QCOMPARE(sendButton->text(), QStringLiteral("Send"));
        QVERIFY(window.chatView()->toPlainText().contains(QLatin1String("You")));

        const auto chooseLanguage = [&window](const char *language) {
            window.findChild<QAction *>(QStringLiteral("settingsAction"))->trigger();
            auto *dialog = window.findChild<Gui::SettingsDialog *>();
            QVERIFY(dialog);
            QTRY_VERIFY(dialog->isVisible());
            auto *combo = dialog->findChild<QComboBox *>(QStringLiteral("languageCombo"));
            combo->setCurrentIndex(combo->findData(QString::fromLatin1(language)));
            dialog->findChild<QPushButton *>(QStringLiteral("okButton"))->click();
        };
        chooseLanguage(Gui::AppSettings::ChineseLanguage);
        QTRY_COMPARE(sendButton->text(), QStringLiteral("\u53d1\u9001")); // 发送
        QCOMPARE(Gui::installedLanguage(), QStringLiteral("zh_CN"));
        // The windows retranslate on the LanguageChange event Qt posts them.
        QTRY_VERIFY2(menuTitles().first().startsWith(QStringLiteral("\u6587\u4ef6")), // 文件
                     qPrintable(menuTitles().join(QLatin1Char(','))));
        QCOMPARE(search->placeholderText(), QStringLiteral("\u641c\u7d22\u5bf9\u8bdd"));
        QVERIFY2(dock->windowTitle().startsWith(QStringLiteral("\u670d\u52a1\u5668")),
                 qPrintable(dock->windowTitle()));
        const QString chat = window.chatView()->toPlainText();
        QVERIFY2(chat.contains(QStringLiteral("\u4f60")) && !chat.contains(QLatin1String("You")),
                 qPrintable(chat));
        QVERIFY(chat.contains(QLatin1String("Hello."))); // what was said stays as it was
        // Saving the settings said the model in Chinese.
        QVERIFY2(chat.contains(QStringLiteral("\u6a21\u578b\uff1a")), qPrintable(chat)); // 模型：
        // A dialog opened now is Chinese, Qt's own buttons included (qt6-translations-l10n).
        window.findChild<QAction *>(QStringLiteral("shortcutsAction"))->trigger();
        QMessageBox *shortcuts = nullptr;
        QTRY_VERIFY(
                (shortcuts = window.findChild<QMessageBox *>(QStringLiteral("shortcutsDialog"))));
        QVERIFY2(!shortcuts->text().contains(QLatin1String("New conversation")),
                 qPrintable(shortcuts->text()));
        QCOMPARE(shortcuts->button(QMessageBox::Close)->text(),
                 QStringLiteral("\u5173\u95ed")); // 关闭, from qtbase_zh_CN
        shortcuts->close();

        chooseLanguage(Gui::AppSettings::EnglishLanguage);
        QTRY_COMPARE(menuTitles().first(), QStringLiteral("&File"));
        QCOMPARE(sendButton->text(), QStringLiteral("Send"));
        QCOMPARE(search->placeholderText(), QStringLiteral("Search conversations"));
        QVERIFY(window.chatView()->toPlainText().contains(QLatin1String("You")));
        // The notes already in the chat follow the language too: the Chinese one is English now.
        QTRY_VERIFY2(
                !window.chatView()->toPlainText().contains(QStringLiteral("\u6a21\u578b\uff1a")),
                qPrintable(window.chatView()->toPlainText()));
        QCOMPARE(window.chatView()->toPlainText().count(QLatin1String("Model: ")), 2);
    }

    // Help lists the keyboard shortcuts (the keys the actions really have) and says what
    // this is.
    void helpListsShortcutsAndAbout()
    {
        auto setup = open();
        QVERIFY(setup);
        Gui::MainWindow &window = *setup->window;
        auto *shortcutsAction = window.findChild<QAction *>(QStringLiteral("shortcutsAction"));
        auto *aboutAction = window.findChild<QAction *>(QStringLiteral("aboutAction"));
        QVERIFY(shortcutsAction && aboutAction);
        shortcutsAction->trigger();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(QStringLiteral("shortcutsDialog"))));
        const QString text = box->text();
        for (const char *action : {"settingsAction", "quitAction", "editConfigurationAction",
                                   "conversationsAction", "agentsDockAction"}) {
            const QString keys = window.findChild<QAction *>(QLatin1String(action))
                                         ->shortcut()
                                         .toString(QKeySequence::NativeText);
            QVERIFY2(!keys.isEmpty() && text.contains(keys.toHtmlEscaped()),
                     qPrintable(QStringLiteral("%1 (%2) missing in %3")
                                        .arg(QLatin1String(action), keys, text)));
        }
        QVERIFY(text.contains(QLatin1String("Shift+Enter")));
        box->close();
        aboutAction->trigger();
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(QStringLiteral("aboutDialog"))));
        QVERIFY2(box->text().contains(QCoreApplication::applicationVersion().isEmpty()
                                              ? QStringLiteral("Switchboard")
                                              : QCoreApplication::applicationVersion()),
                 qPrintable(box->text()));
        box->close();
        // View shows and hides the docks and the toolbar.
        auto *viewMenu = window.findChild<QMenu *>(QStringLiteral("viewMenu"));
        QVERIFY(viewMenu);
        // conversations, find, servers, agents, protocol log, toolbar
        QCOMPARE(viewMenu->actions().size(), 6);
        QVERIFY(viewMenu->actions().contains(
                window.findChild<QAction *>(QStringLiteral("agentsDockAction"))));
    }

    void savingSettingsRebuildsTheAgent()
    {
        auto setup = open();
        QVERIFY(setup);
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("From A.")));
        QSignalSpy firstTurn(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("first"));
        QTRY_COMPARE_WITH_TIMEOUT(firstTurn.count(), 1, 10000);
        QCOMPARE(setup->window->chatView()->lastAssistantText(), QStringLiteral("From A."));
        Agent *before = setup->window->agent();
        const QString conversation = before->conversationId();
        QVERIFY(!conversation.isEmpty());
        QSignalSpy replaced(before, &QObject::destroyed);

        FakeLlmServer other(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(other.listen());
        other.enqueue(FakeLlmServer::openAiText(QStringLiteral("From B.")));
        saveSettings(*setup->window, other.baseUrl(), QStringLiteral("model-b"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(replaced.count(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->agent(), 10000); // after the keychain answered
        QCOMPARE(setup->window->agent()->conversationId(), conversation);
        auto *status = setup->window->findChild<QLabel *>(QStringLiteral("modelLabel"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QLatin1String("model-b"))
                         && status->text().contains(other.baseUrl()),
                 qPrintable(status->text()));

        QSignalSpy secondTurn(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("second"));
        QTRY_COMPARE_WITH_TIMEOUT(secondTurn.count(), 1, 10000);
        QCOMPARE(setup->window->chatView()->lastAssistantText(), QStringLiteral("From B."));
        QCOMPARE(setup->model.requests().size(), 1);
        QCOMPARE(other.requests().size(), 1);
        const Json request = other.requests().first();
        QCOMPARE(request["model"].get<std::string>(), std::string("model-b"));
        const QString sent = QString::fromStdString(request["messages"].dump());
        QVERIFY2(sent.contains(QLatin1String("first")) && sent.contains(QLatin1String("From A."))
                         && sent.contains(QLatin1String("second")),
                 qPrintable(sent));
        // The system prompt still names the workspace.
        QVERIFY2(sent.contains(QDir(setup->workspace.path()).dirName()), qPrintable(sent));

        // Tool timeout 1 s: a tool that never answers times out after about that.
        int calls = 0;
        Engine::ToolRunResult result;
        QElapsedTimer clock;
        clock.start();
        Engine::ToolRunner::Callbacks callbacks;
        callbacks.onDone = [&](Engine::ToolRunResult r) {
            result = std::move(r);
            ++calls;
        };
        Engine::ToolCallRequest call;
        call.id = QStringLiteral("t1");
        call.name = QStringLiteral("mcp__fix__hang");
        call.arguments = Json::object();
        setup->window->runner()->run(call, conversation, this, callbacks);
        QTRY_VERIFY_WITH_TIMEOUT(dialogButton("allowOnceButton"), 10000);
        dialogButton("allowOnceButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(calls, 1, 10000);
        QVERIFY(result.timedOut);
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
    }

    // Saved settings name the provider: the window is up at once and the agent comes when the
    // keychain has answered; with no stored key the provider's variable gives it.
    void startsFromSavedSettings()
    {
        auto setup = std::make_unique<Setup>();
        QVERIFY(setup->model.listen());
        Gui::AppSettings saved;
        saved.active().provider = QString::fromLatin1(Gui::AppSettings::OpenAiProvider);
        saved.active().baseUrl = setup->model.baseUrl();
        saved.active().model = QStringLiteral("saved-model");
        QVERIFY(saved.save(options(*setup).settingsFile));
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        qputenv("OPENAI_API_KEY", "sk-env-fallback");
        const auto unset = qScopeGuard([] { qunsetenv("OPENAI_API_KEY"); });
        QVERIFY(trustWorkspace(options(*setup)));
        setup->window = std::make_unique<Gui::MainWindow>(options(*setup));
        setup->window->show();
        auto *status = setup->window->findChild<QLabel *>(QStringLiteral("modelLabel"));
        QVERIFY(status);
        QVERIFY(!setup->window->agent());
        QCOMPARE(status->text(), QStringLiteral("reading the API key…"));
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->agent(), 10000);
        QVERIFY2(status->text().contains(QLatin1String("saved-model")), qPrintable(status->text()));

        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Hello from the settings.")));
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("hi"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QCOMPARE(setup->window->chatView()->lastAssistantText(),
                 QStringLiteral("Hello from the settings."));
        QCOMPARE(setup->model.requests().size(), 1);
        QCOMPARE(setup->model.requests().first()["model"].get<std::string>(),
                 std::string("saved-model"));
        const QByteArray headers = setup->model.requestHeaders(0).join('\n').toLower();
        QVERIFY2(headers.contains("authorization: bearer sk-env-fallback"), headers.constData());
    }

    // Two profiles: the composer's picker lists both above the models, says which is in use,
    // and switches (saved for the next start); a refused key names the profile.
    void profilesSwitchFromThePicker()
    {
        auto setup = std::make_unique<Setup>();
        QVERIFY(setup->model.listen());
        FakeLlmServer local(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(local.listen());
        setup->model.setModelList(R"({"data":[{"id":"work-model"},{"id":"work-large"}]})");
        local.setModelList(R"({"data":[{"id":"local-model"}]})");
        Gui::AppSettings saved;
        saved.profiles.clear();
        Gui::AppSettings::ModelProfile work;
        work.id = QStringLiteral("openai");
        work.name = QStringLiteral("Work");
        work.provider = QString::fromLatin1(Gui::AppSettings::OpenAiProvider);
        work.baseUrl = setup->model.baseUrl();
        work.model = QStringLiteral("work-model");
        Gui::AppSettings::ModelProfile mine = work;
        mine.id = QStringLiteral("profile-2");
        mine.name = QStringLiteral("Local llama");
        mine.baseUrl = local.baseUrl();
        mine.model = QStringLiteral("local-model");
        saved.profiles = {work, mine};
        saved.activeProfile = work.id;
        const QString settingsFile = options(*setup).settingsFile;
        QVERIFY(saved.save(settingsFile));
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("ANTHROPIC_API_KEY");
        QVERIFY(trustWorkspace(options(*setup)));
        setup->window = std::make_unique<Gui::MainWindow>(options(*setup));
        setup->window->show();
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->agent(), 10000);
        auto *picker = setup->window->findChild<Gui::ModelPicker *>(QStringLiteral("modelPicker"));
        QVERIFY(picker);
        // The list came: the profiles, a separator, the models of the profile in use.
        QTRY_COMPARE_WITH_TIMEOUT(picker->count(), 5, 10000);
        QCOMPARE(picker->itemText(0), QStringLiteral("Work"));
        QCOMPARE(picker->itemData(0, Gui::ModelPicker::ProfileRole).toString(), work.id);
        QVERIFY(picker->itemData(0, Qt::FontRole).value<QFont>().bold()); // in use
        QCOMPARE(picker->itemText(1), QStringLiteral("Local llama"));
        QVERIFY(!picker->itemData(1, Qt::FontRole).value<QFont>().bold());
        QVERIFY(picker->findText(QStringLiteral("work-model")) > 2); // after the separator
        QCOMPARE(picker->currentText(), QStringLiteral("work-model"));
        QVERIFY(picker->isEnabled());
        // Closed, it says the profile before the model, with the room for both.
        QTRY_VERIFY2(picker->width() > picker->fontMetrics().horizontalAdvance(
                             QStringLiteral("Work \u00b7 work-model")),
                     qPrintable(QString::number(picker->width())));

        Agent *before = setup->window->agent();
        QSignalSpy replaced(before, &QObject::destroyed);
        emit picker->activated(1); // as a click on "Local llama" does
        QTRY_COMPARE_WITH_TIMEOUT(replaced.count(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->agent(), 10000);
        auto *status = setup->window->findChild<QLabel *>(QStringLiteral("modelLabel"));
        QVERIFY2(status->text().contains(local.baseUrl()), qPrintable(status->text()));
        QCOMPARE(Gui::AppSettings::load(settingsFile).activeProfile, mine.id);
        QTRY_COMPARE_WITH_TIMEOUT(picker->count(), 4, 10000);
        QVERIFY(picker->itemData(1, Qt::FontRole).value<QFont>().bold());
        QCOMPARE(picker->currentText(), QStringLiteral("local-model"));
        // Picking a model of this profile keeps the profile.
        QCOMPARE(Gui::AppSettings::load(settingsFile).profiles.size(), 2);

        // The local server refuses: the chat says which profile's key.
        FakeLlmServer::Reply refused;
        refused.status = 401;
        refused.body = R"({"error":{"message":"Invalid token"}})";
        local.enqueue(refused);
        QSignalSpy done(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("hi"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        const QString chat = setup->window->chatView()->toPlainText();
        QVERIFY2(chat.contains(QLatin1String("refused the API key of the profile \"Local llama\" "
                                             "(no key was sent)")),
                 qPrintable(chat));
        QVERIFY2(chat.contains(QLatin1String("Invalid token")), qPrintable(chat));
        QCOMPARE(setup->model.requests().size(), 0); // nothing went to the other profile
    }

    // Settings saved while the model is answering apply once the answer is done.
    void settingsSavedDuringATurnApplyAfterIt()
    {
        auto setup = open();
        QVERIFY(setup);
        FakeLlmServer::Reply slow = FakeLlmServer::openAiText(QStringLiteral("Slowly from A."), 6);
        slow.delayBetweenEventsMs = 250;
        setup->model.enqueue(slow);
        Agent *before = setup->window->agent();
        QSignalSpy replaced(before, &QObject::destroyed);
        send(*setup->window, QStringLiteral("take your time"));
        QVERIFY(before->isBusy());

        FakeLlmServer other(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(other.listen());
        other.enqueue(FakeLlmServer::openAiText(QStringLiteral("From B.")));
        QSignalSpy streamed(before, &Agent::textDelta);
        saveSettings(*setup->window, other.baseUrl(), QStringLiteral("model-b"), 60);
        // The running turn's next text comes (250 ms apart), and its agent is still there.
        QVERIFY(streamed.wait(5000));
        QCOMPARE(replaced.count(), 0); // not under the running turn
        QVERIFY(before->isBusy());
        QTRY_COMPARE_WITH_TIMEOUT(replaced.count(), 1, 15000);
        QCOMPARE(setup->window->chatView()->lastAssistantText(), QStringLiteral("Slowly from A."));
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->agent(), 10000);

        QSignalSpy next(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("and now?"));
        QTRY_COMPARE_WITH_TIMEOUT(next.count(), 1, 10000);
        QCOMPARE(setup->window->chatView()->lastAssistantText(), QStringLiteral("From B."));
        QCOMPARE(other.requests().size(), 1);
    }

    void screenshot()
    {
        auto setup = open();
        QVERIFY(setup);
        // The composer has the focus: a user types right away.
        QCOMPARE(setup->window->focusWidget(),
                 setup->window->findChild<QPlainTextEdit *>(QStringLiteral("composer")));
        const QString file = m_data.filePath(QStringLiteral("main.png"));
        QVERIFY(setup->window->grab().save(file));
        QVERIFY(QFileInfo(file).size() > 1000);
    }
};

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
