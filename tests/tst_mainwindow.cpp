#include "fakellmserver.h"

#include <ui/chatview.h>
#include <ui/mainwindow.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;

// The window with a scripted model (a fake OpenAI-compatible server on 127.0.0.1) and the
// fixture MCP server: a dangerous call raises the modal approval dialog; Deny keeps the tool
// from running and the chat shows it; Always allow is saved in .mcp.json and not asked again.
class tst_MainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

    struct Setup
    {
        QTemporaryDir workspace;
        FakeLlmServer model{FakeLlmServer::Dialect::OpenAi};
        std::unique_ptr<Ui::MainWindow> window;
    };

    std::unique_ptr<Setup> open()
    {
        auto setup = std::make_unique<Setup>();
        if (!setup->model.listen())
            return nullptr;
        QFile config(QDir(setup->workspace.path()).filePath(QStringLiteral(".mcp.json")));
        if (!config.open(QIODevice::WriteOnly))
            return nullptr;
        config.write(QStringLiteral("{\n  \"mcpServers\": {\n    \"fix\": {\n      \"command\": "
                                    "\"%1\"\n    }\n  }\n}\n")
                             .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                             .toUtf8());
        config.close();
        qputenv("OPENAI_BASE_URL", setup->model.baseUrl().toUtf8());
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("ANTHROPIC_API_KEY");
        Ui::MainWindowOptions options;
        options.workspace = QDir(setup->workspace.path()).canonicalPath();
        options.conversationFolder = m_data.filePath(QStringLiteral("conversations"));
        setup->window = std::make_unique<Ui::MainWindow>(options);
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

    static QPushButton *dialogButton(const char *name)
    {
        QWidget *modal = QApplication::activeModalWidget();
        return modal ? modal->findChild<QPushButton *>(QString::fromLatin1(name)) : nullptr;
    }

    static void send(Ui::MainWindow &window, const QString &text)
    {
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QVERIFY(composer);
        composer->setPlainText(text);
        window.submit();
    }

private slots:
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
        auto *state = setup->window->chatView()->findChild<QLabel *>(QStringLiteral("toolState"));
        QVERIFY(state);
        QCOMPARE(state->text(), QStringLiteral("denied"));
        QCOMPARE(setup->window->chatView()->lastAssistantText(), QStringLiteral("OK, I will not."));
    }

    void alwaysAllowIsSavedAndNotAskedAgain()
    {
        auto setup = open();
        QVERIFY(setup);
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
        QFile config(QDir(setup->workspace.path()).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QByteArray text = config.readAll();
        QVERIFY2(text.contains("\"autoApprove\": [\"write_file\"]"), text.constData());
        QVERIFY(text.startsWith("{\n  \"mcpServers\": {\n    \"fix\": {\n      \"command\": "));

        // A fresh window reads the saved config: no dialog this time.
        setup->window.reset();
        setup->model.enqueue(call);
        setup->model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Again.")));
        Ui::MainWindowOptions options;
        options.workspace = QDir(setup->workspace.path()).canonicalPath();
        options.conversationFolder = m_data.filePath(QStringLiteral("conversations"));
        setup->window = std::make_unique<Ui::MainWindow>(options);
        setup->window->show();
        QTRY_VERIFY_WITH_TIMEOUT(setup->window->manager()->client("fix"), 10000);
        QSignalSpy again(setup->window->agent(), &Agent::turnFinished);
        send(*setup->window, QStringLiteral("again"));
        QTRY_COMPARE_WITH_TIMEOUT(again.count(), 1, 10000);
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(setup->window->chatView()->lastAssistantText(), QStringLiteral("Again."));
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

    void closeStopsServersInOrder()
    {
        auto setup = open();
        QVERIFY(setup);
        Mcp::Manager *manager = setup->window->manager();
        Mcp::Client *client = manager->client(QStringLiteral("fix"));
        QVERIFY(client);
        QSignalSpy stderrLines(client, &Mcp::Client::stderrLine);
        QSignalSpy stopped(manager, &Mcp::Manager::stopped);
        QVERIFY(!setup->window->close()); // not yet: the servers are stopping
        QVERIFY(!setup->window->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
        // An orderly stop: the fixture saw its stdin close (it was not killed first).
        bool sawEof = false;
        for (const auto &args : std::as_const(stderrLines))
            sawEof = sawEof || args.at(0).toString() == QLatin1String("stdin closed");
        QVERIFY(sawEof);
        QTRY_VERIFY(!manager->client(QStringLiteral("fix")));
    }

    void screenshot()
    {
        auto setup = open();
        QVERIFY(setup);
        const QString file = m_data.filePath(QStringLiteral("main.png"));
        QVERIFY(setup->window->grab().save(file));
        QVERIFY(QFileInfo(file).size() > 1000);
    }
};

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
