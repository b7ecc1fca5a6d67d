#include "postedevents.h"
#include "processtest.h"
#include "windowtest.h"

#include <mcp/transport/stdiotransport.h>
#include <ui/chatview.h>
#include <ui/configeditorpane.h>
#include <ui/mainwindow.h>
#include <ui/trustbanner.h>

#include <Qsci/qscilexerjson.h>
#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTranslator>
#include <QTreeWidget>

#include <atomic>
#include <chrono>
#include <thread>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using Gui::ConfigEditorPane;

// The config editor pane on a real temporary workspace: problems are marked at the loader's
// line and column (squiggle, margin dot, list entry that jumps there), also after Chinese and
// emoji text; Save never replaces a valid file with broken text unasked; Apply saves, reloads
// the merged configuration into a real Manager running the fixture server and restarts only
// what changed; Revert, the file watcher and the external editor ($VISUAL/$EDITOR) keep the
// text and the file in step; the main window opens the pane and applies through it.
// A server name as the pane quotes it (the locale's quotation marks).
QString quoted(const char *name)
{
    return QLocale().quoteString(QLatin1String(name));
}

class tst_ConfigEditorPane : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home; // XDG_CONFIG_HOME: holds the user configuration
    QTemporaryDir m_data;

    static QString fixture() { return QStringLiteral(SWITCHBOARD_FIXTURE_SERVER); }

    // Two servers, both the fixture; beta with one filler tool.
    static QByteArray baseText()
    {
        return "{\n"
               "  \"mcpServers\": {\n"
               "    \"alpha\": {\n"
               "      \"command\": \"${FIXTURE}\"\n"
               "    },\n"
               "    \"beta\": {\n"
               "      \"command\": \"${FIXTURE}\",\n"
               "      \"args\": [\"--tools\", \"1\"]\n"
               "    }\n"
               "  }\n"
               "}\n";
    }

    static QProcessEnvironment environment()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("VISUAL"));
        env.remove(QStringLiteral("EDITOR"));
        return env;
    }

    static bool writeFile(const QString &path, const QByteArray &bytes)
    {
        QSaveFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size()
               && file.commit();
    }

    static QByteArray readFile(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
    }

    static QByteArray editorBytes(ConfigEditorPane &pane) { return pane.editor()->text().toUtf8(); }

    static long sci(ConfigEditorPane &pane, unsigned int message, unsigned long w = 0, long l = 0)
    {
        return pane.editor()->SendScintilla(message, w, l);
    }

    // The indicators (a bit each) at a byte position of the editor.
    static long indicatorsAt(ConfigEditorPane &pane, long position)
    {
        return sci(pane, QsciScintillaBase::SCI_INDICATORALLONFOR, position);
    }

    static std::unique_ptr<ConfigEditorPane> makePane(const QString &workspace)
    {
        auto pane = std::make_unique<ConfigEditorPane>(workspace, QString());
        pane->setEnvironment(environment());
        pane->resize(900, 560);
        pane->show();
        return pane;
    }

    static QString workspaceFile(const QTemporaryDir &workspace)
    {
        return QDir(workspace.path()).filePath(QStringLiteral(".mcp.json"));
    }

    template<typename T>
    static T *child(QObject &parent, const char *name)
    {
        return parent.findChild<T *>(QLatin1String(name));
    }

    // The 1-based line and code-point column of byte `offset` in `text`, computed here
    // independently of the loader and of the pane.
    static std::pair<int, int> lineAndColumn(const QByteArray &text, qsizetype offset)
    {
        const qsizetype lineStart = text.lastIndexOf('\n', offset - 1) + 1;
        const int line = int(text.left(offset).count('\n')) + 1;
        const int column
                = int(QString::fromUtf8(text.mid(lineStart, offset - lineStart)).toUcs4().size())
                  + 1;
        return {line, column};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(m_data.isValid());
        qputenv("XDG_CONFIG_HOME", m_home.path().toUtf8());
        qputenv("FIXTURE", fixture().toUtf8());
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        // A server in the user configuration: Apply must keep it (the workspace file is
        // merged over it), not stop it.
        QVERIFY(QDir(m_home.path()).mkpath(QStringLiteral("switchboard")));
        QVERIFY(writeFile(Mcp::ConfigLoader::userConfigPath(),
                          "{\"mcpServers\": {\"user\": {\"command\": \"${FIXTURE}\"}}}\n"));
    }

    void typingInvalidJsonMarksTheError()
    {
        QTemporaryDir workspace;
        QVERIFY(writeFile(workspaceFile(workspace), baseText()));
        auto pane = makePane(workspace.path());
        QVERIFY(QTest::qWaitForWindowExposed(pane.get()));
        QCOMPARE(editorBytes(*pane), baseText());
        QVERIFY(pane->problems().isEmpty());
        QVERIFY(!pane->isModified());

        // Type a stray character in front of alpha's command value.
        const qsizetype at = baseText().indexOf("\"${FIXTURE}\"");
        sci(*pane, QsciScintillaBase::SCI_GOTOPOS, at);
        pane->editor()->setFocus();
        QTest::keyClicks(pane->editor(), QStringLiteral("@"));
        const QByteArray typed = editorBytes(*pane);
        QCOMPARE(typed.indexOf('@'), at);
        QVERIFY(pane->isModified());
        QVERIFY(pane->problems().isEmpty()); // not yet: the check waits for a typing pause
        QTRY_VERIFY(!pane->problems().isEmpty());

        const auto [line, column] = lineAndColumn(typed, at);
        QCOMPARE(line, 4);
        QCOMPARE(column, 18);
        const Mcp::ConfigError &problem = pane->problems().constFirst();
        QCOMPARE(problem.line, line);
        QCOMPARE(problem.column, column);
        auto *list = child<QListWidget>(*pane, "problemList");
        QVERIFY(list);
        QCOMPARE(list->count(), int(pane->problems().size()));
        QVERIFY2(list->item(0)->text().startsWith(QStringLiteral("Line 4, column 18: ")),
                 qPrintable(list->item(0)->text()));
        QCOMPARE(pane->positionOf(problem), int(at));
        QVERIFY(indicatorsAt(*pane, at) != 0);
        QCOMPARE(indicatorsAt(*pane, at - 1), 0L);
        QVERIFY(pane->editor()->markersAtLine(line - 1) != 0);
        QCOMPARE(pane->editor()->markersAtLine(line - 2), 0u);
        QVERIFY(!child<QPushButton>(*pane, "applyButton")->isEnabled());

        // A click on the entry puts the cursor on the problem.
        sci(*pane, QsciScintillaBase::SCI_GOTOPOS, 0);
        const QRect rect = list->visualItemRect(list->item(0));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(sci(*pane, QsciScintillaBase::SCI_GETCURRENTPOS), long(at));

        // Deleting the character again clears every mark.
        QTest::keyClick(pane->editor(), Qt::Key_Delete);
        QCOMPARE(editorBytes(*pane), baseText());
        QTRY_VERIFY(pane->problems().isEmpty());
        QCOMPARE(list->count(), 0);
        QCOMPARE(indicatorsAt(*pane, at), 0L);
        QCOMPARE(pane->editor()->markersAtLine(line - 1), 0u);
    }

    void problemIsMarkedWhereTheLoaderSays_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("token"); // the problem is at its first occurrence
        QTest::addColumn<QString>("message");

        const QByteArray head = "{\n  \"mcpServers\": {\n    ";
        const QByteArray tail = "\n  }\n}\n";
        QTest::newRow("command is a number")
                << head + "\"alpha\": {\n      \"command\": 42\n    }" + tail << QByteArray("42")
                << QStringLiteral("server 'alpha': 'command' must be a string, not a number");
        QTest::newRow("command missing")
                << head + "\"alpha\": {\"command\": \"${FIXTURE}\"},\n    \"beta\": {\"args\": []}"
                           + tail
                << QByteArray("{\"args\"")
                << QStringLiteral("server 'beta': needs 'command' (a program to start) or 'url' "
                                  "(an HTTP endpoint)");
        QTest::newRow("timeout is a string")
                << head + "\"alpha\": {\"command\": \"${FIXTURE}\", \"timeout\": \"ten\"}" + tail
                << QByteArray("\"ten\"")
                << QStringLiteral("server 'alpha': 'timeout' must be a number of seconds, not a "
                                  "string");
        // Multi-byte text before the problem: 3-byte Chinese characters and a 4-byte emoji
        // (one code point, two UTF-16 units) make bytes, UTF-16 units and code points differ.
        QTest::newRow("syntax after Chinese and emoji")
                << head + "\"中文😀服务\": {\"command\": \"${FIXTURE}\", \"args\": [\"参数\", @]}"
                           + tail
                << QByteArray("@") << QString();
        QTest::newRow("semantic after Chinese and emoji")
                << head + "\"名字😀\": {\"command\": \"${FIXTURE}\", \"timeout\": \"长时间\"}" + tail
                << QByteArray("\"长时间\"")
                << QStringLiteral("server '名字😀': 'timeout' must be a number of seconds, not a "
                                  "string");
        QTest::newRow("inside a string after Chinese")
                << head
                           + "\"alpha\": {\"command\": \"${FIXTURE}\", \"args\": [\"中文${BAD "
                             "NAME}\"]}"
                           + tail
                << QByteArray("${BAD")
                << QStringLiteral("server 'alpha': in 'args[0]': '${BAD NAME}' is not a variable "
                                  "reference; use ${NAME} or ${NAME:-default} (letters, digits, "
                                  "'_')");
    }

    void problemIsMarkedWhereTheLoaderSays()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, token);
        QFETCH(QString, message);

        QTemporaryDir workspace;
        auto pane = makePane(workspace.path());
        pane->editor()->setText(QString::fromUtf8(text));
        pane->validate();
        QCOMPARE(editorBytes(*pane), text);

        const qsizetype at = text.indexOf(token);
        QVERIFY(at >= 0);
        const auto [line, column] = lineAndColumn(text, at);
        qsizetype row = -1;
        for (qsizetype i = 0; i < pane->problems().size(); ++i) {
            const Mcp::ConfigError &problem = pane->problems().at(i);
            if (problem.line == line && problem.column == column
                && (message.isEmpty() || problem.message == message))
                row = i;
        }
        QVERIFY2(row >= 0,
                 qPrintable(pane->problems().isEmpty() ? QStringLiteral("no problem")
                                                       : pane->problems().constFirst().toString()));
        const Mcp::ConfigError &problem = pane->problems().at(row);

        auto *list = child<QListWidget>(*pane, "problemList");
        QCOMPARE(list->item(int(row))->text(), QStringLiteral("Line %1, column %2: %3")
                                                       .arg(line)
                                                       .arg(column)
                                                       .arg(problem.message));
        QCOMPARE(pane->positionOf(problem), int(at));
        // The squiggle starts at the token's first byte and, for a string, covers it whole.
        QVERIFY(indicatorsAt(*pane, at) != 0);
        QCOMPARE(indicatorsAt(*pane, at - 1), 0L);
        if (token.startsWith('"')) {
            QVERIFY(indicatorsAt(*pane, at + token.size() - 1) != 0);
            QCOMPARE(indicatorsAt(*pane, at + token.size()), 0L);
        }
        QVERIFY(pane->editor()->markersAtLine(line - 1) != 0);

        pane->jumpToProblem(int(row));
        QCOMPARE(sci(*pane, QsciScintillaBase::SCI_GETCURRENTPOS), long(at));
    }

    void saveAsksBeforeReplacingAValidFile()
    {
        QTemporaryDir workspace;
        const QString path = workspaceFile(workspace);
        QVERIFY(writeFile(path, baseText()));
        auto pane = makePane(workspace.path());
        QSignalSpy saved(pane.get(), &ConfigEditorPane::saved);

        QByteArray broken = baseText();
        broken.replace("\"--tools\", \"1\"", "\"--tools\" \"1\"");
        pane->editor()->setText(QString::fromUtf8(broken));
        pane->save();
        auto *box = child<QMessageBox>(*pane, "confirmSaveBox");
        QVERIFY(box);
        QVERIFY(box->isVisible());
        QVERIFY2(box->informativeText().contains(QStringLiteral("not valid JSON")),
                 qPrintable(box->informativeText()));
        QCOMPARE(readFile(path), baseText());

        // Cancel: nothing written, the text stays.
        child<QPushButton>(*box, "cancelSaveButton")->click();
        QTRY_VERIFY(!child<QMessageBox>(*pane, "confirmSaveBox"));
        QCOMPARE(readFile(path), baseText());
        QCOMPARE(editorBytes(*pane), broken);
        QVERIFY(pane->isModified());
        QCOMPARE(saved.count(), 0);

        // Confirmed: written as it is.
        pane->save();
        box = child<QMessageBox>(*pane, "confirmSaveBox");
        QVERIFY(box);
        child<QPushButton>(*box, "saveAnywayButton")->click();
        QTRY_VERIFY(!child<QMessageBox>(*pane, "confirmSaveBox"));
        QCOMPARE(readFile(path), broken);
        QVERIFY(!pane->isModified());
        QCOMPARE(saved.count(), 1);
        QCOMPARE(pane->statusText(),
                 QStringLiteral("Saved %1.").arg(QDir::toNativeSeparators(path)));

        // Valid text over a broken file needs no question; neither does valid over valid.
        pane->editor()->setText(QString::fromUtf8(baseText()));
        pane->save();
        QVERIFY(!child<QMessageBox>(*pane, "confirmSaveBox"));
        QCOMPARE(readFile(path), baseText());
        QByteArray edited = baseText();
        edited.replace("\"1\"", "\"2\"");
        pane->editor()->setText(QString::fromUtf8(edited));
        pane->save();
        QVERIFY(!child<QMessageBox>(*pane, "confirmSaveBox"));
        QCOMPARE(readFile(path), edited);

        // Ctrl+S in the editor saves.
        pane->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(pane.get()));
        pane->editor()->setFocus();
        edited.replace("\"2\"", "\"3\"");
        pane->editor()->setText(QString::fromUtf8(edited));
        QTest::keyClick(pane->editor(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(readFile(path), edited);
        QVERIFY(!pane->isModified());

        // A semantic problem over a valid file asks too.
        QByteArray semantic = baseText();
        semantic.replace("\"command\": \"${FIXTURE}\",", "\"command\": 7,");
        pane->editor()->setText(QString::fromUtf8(semantic));
        pane->save();
        box = child<QMessageBox>(*pane, "confirmSaveBox");
        QVERIFY(box);
        QVERIFY2(box->informativeText().contains(QStringLiteral("1 problem")),
                 qPrintable(box->informativeText()));
        child<QPushButton>(*box, "cancelSaveButton")->click();
        QCOMPARE(readFile(path), edited);
    }

    void newFileStartsFromTheTemplateAndSaveCreatesIt()
    {
        QTemporaryDir workspace;
        const QString path = workspaceFile(workspace);
        auto pane = makePane(workspace.path());
        QCOMPARE(editorBytes(*pane), QByteArray("{\n  \"mcpServers\": {\n  }\n}\n"));
        QVERIFY(pane->problems().isEmpty());
        QVERIFY(!QFile::exists(path));
        pane->save();
        QCOMPARE(readFile(path), QByteArray("{\n  \"mcpServers\": {\n  }\n}\n"));
    }

    void writeErrorNamesTheFileAndKeepsTheText()
    {
        QTemporaryDir workspace;
        // The folder does not exist, so no one (not even root) can create the file.
        const QString path = QDir(workspace.path()).filePath(QStringLiteral("missing/config.json"));
        ConfigEditorPane pane(workspace.path(), path);
        pane.editor()->setText(QString::fromUtf8(baseText()));
        pane.save();
        QVERIFY2(pane.statusText().startsWith(
                         QStringLiteral("Could not save %1: ").arg(QDir::toNativeSeparators(path))),
                 qPrintable(pane.statusText()));
        QVERIFY(pane.isModified());
        QCOMPARE(editorBytes(pane), baseText());
        QVERIFY(!QFile::exists(path));
    }

    void applyRestartsOnlyWhatChanged()
    {
        QTemporaryDir workspace;
        const QString path = workspaceFile(workspace);
        QVERIFY(writeFile(path, baseText()));
        const QProcessEnvironment env = environment();
        const Mcp::McpConfig initial = Mcp::ConfigLoader::load(workspace.path(), QString(), env);
        QVERIFY(initial.errors.isEmpty());
        QCOMPARE(initial.servers.size(), 3); // alpha, beta and the user's

        Mcp::ManagerOptions options;
        options.workspaceDir = workspace.path();
        options.transports.stdio.shutdownStageMs = 300;
        Mcp::Manager manager(options);
        manager.start(initial);
        QTRY_VERIFY_WITH_TIMEOUT(manager.isSettled() && manager.client(QStringLiteral("alpha"))
                                         && manager.client(QStringLiteral("beta"))
                                         && manager.client(QStringLiteral("user")),
                                 15000);
        const auto pidOf = [&manager](const QString &name) -> qint64 {
            Mcp::Client *client = manager.client(name);
            return client ? static_cast<Mcp::StdioTransport *>(client->transport())->processId()
                          : -1;
        };
        Mcp::Client *alpha = manager.client(QStringLiteral("alpha"));
        Mcp::Client *user = manager.client(QStringLiteral("user"));
        const qint64 alphaPid = pidOf(QStringLiteral("alpha"));
        const qint64 userPid = pidOf(QStringLiteral("user"));
        const qint64 betaPid = pidOf(QStringLiteral("beta"));
        QCOMPARE(manager.status(QStringLiteral("beta")).toolCount, 17);

        auto pane = makePane(workspace.path());
        pane->setAppliedConfig(initial);
        pane->setApplyHandler(
                [&manager](const Mcp::McpConfig &config) { return manager.reload(config); });
        auto *planLabel = child<QLabel>(*pane, "planLabel");
        QCOMPARE(planLabel->text(), QStringLiteral("Apply changes no server."));

        // beta gets one more tool, gamma is new, alpha (and the user's server) stay.
        QByteArray edited = baseText();
        edited.replace("\"--tools\", \"1\"]\n    }",
                       "\"--tools\", \"2\"]\n    },\n"
                       "    \"gamma\": {\n      \"command\": \"${FIXTURE}\"\n    }");
        pane->editor()->setText(QString::fromUtf8(edited));
        pane->validate();
        QVERIFY(pane->problems().isEmpty());
        QCOMPARE(pane->plan().changed, QStringList{QStringLiteral("beta")});
        QCOMPARE(pane->plan().added, QStringList{QStringLiteral("gamma")});
        QVERIFY(pane->plan().removed.isEmpty());
        QCOMPARE(planLabel->text(), QStringLiteral("Apply will restart %1; start %2.")
                                            .arg(quoted("beta"), quoted("gamma")));

        QSignalSpy applied(pane.get(), &ConfigEditorPane::applied);
        pane->apply();
        QCOMPARE(applied.count(), 1);
        const auto plan = applied.at(0).at(0).value<Mcp::ReloadPlan>();
        QCOMPARE(plan.changed, QStringList{QStringLiteral("beta")});
        QCOMPARE(plan.added, QStringList{QStringLiteral("gamma")});
        QVERIFY(plan.removed.isEmpty());
        QCOMPARE(plan.unchanged, (QStringList{QStringLiteral("alpha"), QStringLiteral("user")}));
        QCOMPARE(pane->statusText(), QStringLiteral("Saved and applied: restarted %1; started %2.")
                                             .arg(quoted("beta"), quoted("gamma")));
        QCOMPARE(readFile(path), edited);
        QVERIFY(!pane->isModified());
        QCOMPARE(planLabel->text(), QStringLiteral("Apply changes no server."));

        QTRY_VERIFY_WITH_TIMEOUT(manager.isSettled() && manager.client(QStringLiteral("beta"))
                                         && manager.client(QStringLiteral("gamma")),
                                 15000);
        QCOMPARE(manager.serverNames(),
                 (QStringList{QStringLiteral("alpha"), QStringLiteral("beta"),
                              QStringLiteral("gamma"), QStringLiteral("user")}));
        QCOMPARE(manager.client(QStringLiteral("alpha")), alpha);
        QCOMPARE(pidOf(QStringLiteral("alpha")), alphaPid);
        QCOMPARE(manager.client(QStringLiteral("user")), user);
        QCOMPARE(pidOf(QStringLiteral("user")), userPid);
        QVERIFY(pidOf(QStringLiteral("beta")) != betaPid);
        QCOMPARE(manager.status(QStringLiteral("beta")).toolCount, 18);
        QCOMPARE(manager.status(QStringLiteral("gamma")).state, Mcp::ServerState::Connected);

        // With a problem in the text, Apply neither saves nor reloads.
        QByteArray broken = edited;
        broken.replace("\"gamma\": {", "\"gamma\": {\"url\": 5, ");
        pane->editor()->setText(QString::fromUtf8(broken));
        pane->apply();
        QCOMPARE(applied.count(), 1);
        QCOMPARE(readFile(path), edited);
        QVERIFY(pane->statusText().startsWith(QStringLiteral("Not applied")));
        QVERIFY(!child<QMessageBox>(*pane, "confirmSaveBox"));

        QSignalSpy stopped(&manager, &Mcp::Manager::stopped);
        manager.stop();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
        QVERIFY(!processAlive(alphaPid));
    }

    // A FIFO in place of .mcp.json (nobody writes to it) is refused at once: reading it on the
    // GUI thread would freeze the window.
    void fifoIsRefusedWithoutBlocking()
    {
#ifdef Q_OS_UNIX
        QTemporaryDir workspace;
        const QString path = workspaceFile(workspace);
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        std::atomic<bool> done = false;
        std::atomic<bool> released = false;
        // Should the pane block, release it after 10 s (a writer that opens and closes gives
        // the reader its end of file) so that the test fails instead of hanging.
        std::thread watchdog([&] {
            for (int i = 0; i < 100 && !done; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            while (!done) {
                const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK);
                if (fd >= 0) {
                    released = true;
                    ::close(fd);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        });
        auto pane = makePane(workspace.path());
        done = true;
        watchdog.join();
        QVERIFY(!released);
        QVERIFY2(pane->statusText().contains(QStringLiteral("is not a regular file")),
                 qPrintable(pane->statusText()));
#else
        QSKIP("FIFOs are POSIX");
#endif
    }

    void unreadableFileIsNotReplacedUnasked()
    {
        QTemporaryDir workspace;
        const QString path = workspaceFile(workspace);
        // Over the loader's limit: not loaded, and not silently replaced by the empty editor.
        const QByteArray big(Mcp::ConfigLoader::kMaxConfigBytes + 10, ' ');
        QVERIFY(writeFile(path, big));
        auto pane = makePane(workspace.path());
        QVERIFY2(pane->statusText().startsWith(
                         QStringLiteral("Could not read %1: ").arg(QDir::toNativeSeparators(path))),
                 qPrintable(pane->statusText()));
        pane->save();
        auto *box = child<QMessageBox>(*pane, "confirmSaveBox");
        QVERIFY(box);
        QVERIFY2(box->informativeText().contains(QStringLiteral("could not be read")),
                 qPrintable(box->informativeText()));
        child<QPushButton>(*box, "cancelSaveButton")->click();
        QCOMPARE(readFile(path), big);
    }

    void planNamesServersThatCannotStart()
    {
        QTemporaryDir workspace;
        auto pane = makePane(workspace.path());
        pane->editor()->setText(QStringLiteral(
                "{\"mcpServers\": {\"gamma\": {\"command\": \"${SB_UNSET_EDITOR_TEST}\"}}}"));
        pane->validate();
        QVERIFY(pane->problems().isEmpty());
        QCOMPARE(child<QLabel>(*pane, "planLabel")->text(),
                 QStringLiteral("Apply will start %1, %2.\ngamma will fail: environment "
                                "variable SB_UNSET_EDITOR_TEST is not set (used in command)")
                         .arg(quoted("gamma"), quoted("user")));
    }

    void revertRestoresTheDiskText()
    {
        QTemporaryDir workspace;
        QVERIFY(writeFile(workspaceFile(workspace), baseText()));
        auto pane = makePane(workspace.path());
        const QByteArray edited = "{\"mcpServers\": {}}\n";
        pane->editor()->setText(QString::fromUtf8(edited));
        QVERIFY(pane->isModified());

        pane->revert();
        auto *box = child<QMessageBox>(*pane, "confirmRevertBox");
        QVERIFY(box);
        child<QPushButton>(*box, "cancelRevertButton")->click();
        QTRY_VERIFY(!child<QMessageBox>(*pane, "confirmRevertBox"));
        QCOMPARE(editorBytes(*pane), edited);

        pane->revert();
        box = child<QMessageBox>(*pane, "confirmRevertBox");
        QVERIFY(box);
        child<QPushButton>(*box, "discardButton")->click();
        QTRY_VERIFY(!child<QMessageBox>(*pane, "confirmRevertBox"));
        QCOMPARE(editorBytes(*pane), baseText());
        QVERIFY(!pane->isModified());
        QVERIFY(pane->problems().isEmpty());
        // The reload is one undo step: the edits are not lost.
        pane->editor()->undo();
        QCOMPARE(editorBytes(*pane), edited);

        // Nothing to discard: no question.
        pane->editor()->redo();
        pane->editor()->setModified(false);
        pane->revert();
        QVERIFY(!child<QMessageBox>(*pane, "confirmRevertBox"));
        QCOMPARE(editorBytes(*pane), baseText());
    }

    void followsTheFileOnDisk()
    {
        QTemporaryDir workspace;
        const QString path = workspaceFile(workspace);
        QVERIFY(writeFile(path, baseText()));
        auto pane = makePane(workspace.path());
        auto *note = child<QWidget>(*pane, "diskNote");

        // No unsaved edits: the new text is loaded.
        const QByteArray outside = "{\n  \"mcpServers\": {\n    \"x\": {\"command\": 3}\n  }\n}\n";
        QVERIFY(writeFile(path, outside));
        QTRY_COMPARE(editorBytes(*pane), outside);
        QVERIFY(!pane->isModified());
        QTRY_COMPARE(pane->problems().size(), qsizetype(1));
        QVERIFY(note->isHidden());

        // Unsaved edits: they are kept, a note says what happened, Save asks.
        const QByteArray mine = "{\"mcpServers\": {}}\n";
        pane->editor()->setText(QString::fromUtf8(mine));
        QVERIFY(writeFile(path, baseText()));
        QTRY_VERIFY(!note->isHidden());
        QCOMPARE(editorBytes(*pane), mine);
        QVERIFY(child<QLabel>(*note, nullptr)->text().contains(QStringLiteral("changed on disk")));
        pane->save();
        auto *box = child<QMessageBox>(*pane, "confirmSaveBox");
        QVERIFY(box);
        QVERIFY2(box->informativeText().contains(QStringLiteral("changed on disk")),
                 qPrintable(box->informativeText()));
        // The pane looks at the disk DiskSettleMs after its watcher reports a change. A timer
        // restarted by the same reports (connected after the pane's) and twice as long fires
        // after that look, which must not take our own save for an outside change.
        auto *watcher = pane->findChild<QFileSystemWatcher *>();
        QVERIFY(watcher);
        QTimer afterLook;
        afterLook.setSingleShot(true);
        afterLook.setTimerType(Qt::PreciseTimer);
        afterLook.setInterval(2 * ConfigEditorPane::DiskSettleMs);
        connect(watcher, &QFileSystemWatcher::fileChanged, &afterLook, qOverload<>(&QTimer::start));
        connect(watcher, &QFileSystemWatcher::directoryChanged, &afterLook,
                qOverload<>(&QTimer::start));
        QSignalSpy looked(&afterLook, &QTimer::timeout);
        child<QPushButton>(*box, "saveAnywayButton")->click();
        QCOMPARE(readFile(path), mine);
        QVERIFY(note->isHidden());

        // Our own save is not taken for an outside change.
        QVERIFY(looked.wait(5000));
        QCOMPARE(editorBytes(*pane), mine);
        QVERIFY(note->isHidden());
    }

    void externalEditorChangesAreLoaded()
    {
        QTemporaryDir workspace;
        const QString path = workspaceFile(workspace);
        // Stands in for an editor: writes the file it is given, as a person would.
        const QString script = QDir(workspace.path()).filePath(QStringLiteral("editor.sh"));
        QVERIFY(writeFile(script, "printf '%s\\n' \"{\\\"mcpServers\\\": {\\\"$1\\\": "
                                  "{\\\"command\\\": \\\"x\\\"}}}\" > \"$2\"\n"));
        auto pane = makePane(workspace.path()); // no file yet
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("VISUAL"), QStringLiteral("/bin/sh \"%1\" visual").arg(script));
        pane->setEnvironment(env);
        pane->openInExternalEditor();
        QVERIFY2(pane->statusText().startsWith(QStringLiteral("Opened ")),
                 qPrintable(pane->statusText()));
        QTRY_COMPARE(editorBytes(*pane),
                     QByteArray("{\"mcpServers\": {\"visual\": {\"command\": \"x\"}}}\n"));

        // $VISUAL that cannot start: $EDITOR is next.
        env.insert(QStringLiteral("VISUAL"), QStringLiteral("/nonexistent/switchboard-editor"));
        env.insert(QStringLiteral("EDITOR"), QStringLiteral("/bin/sh \"%1\" editor").arg(script));
        pane->setEnvironment(env);
        pane->openInExternalEditor();
        QTRY_COMPARE(editorBytes(*pane),
                     QByteArray("{\"mcpServers\": {\"editor\": {\"command\": \"x\"}}}\n"));
        QVERIFY(!pane->isModified());

        // A terminal editor ($EDITOR=nano) runs inside x-terminal-emulator, given `-e nano FILE`.
        const QString bin = QDir(workspace.path()).filePath(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin));
        const QString terminal = QDir(bin).filePath(QStringLiteral("x-terminal-emulator"));
        QVERIFY(writeFile(terminal, "#!/bin/sh\n[ \"$1\" = -e ] || exit 3\n"
                                    "printf '%s\\n' \"{\\\"mcpServers\\\": {\\\"in-$2\\\": "
                                    "{\\\"command\\\": \\\"x\\\"}}}\" > \"$3\"\n"));
        QVERIFY(QFile::setPermissions(terminal,
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        env.remove(QStringLiteral("VISUAL"));
        env.insert(QStringLiteral("EDITOR"), QStringLiteral("nano"));
        env.remove(QStringLiteral("TERMINAL"));
        env.insert(QStringLiteral("PATH"), bin + QStringLiteral(":/usr/bin:/bin"));
        pane->setEnvironment(env);
        pane->openInExternalEditor();
        QTRY_COMPARE(editorBytes(*pane),
                     QByteArray("{\"mcpServers\": {\"in-nano\": {\"command\": \"x\"}}}\n"));
    }

    void mainWindowOpensThePaneAndApplies()
    {
        QTemporaryDir workspace;
        const QString path = workspaceFile(workspace);
        const QByteArray text = "{\n  \"mcpServers\": {\n    \"alpha\": {\"command\": "
                                "\"${FIXTURE}\"}\n  }\n}\n";
        QVERIFY(writeFile(path, text));
        const Gui::MainWindowOptions options = testWindowOptions(workspace.path(), m_data.path());
        QVERIFY(trustWorkspace(options));
        Gui::MainWindow window(options);
        window.show();
        Mcp::Manager *manager = window.manager();
        QTRY_VERIFY_WITH_TIMEOUT(manager->isSettled() && manager->client(QStringLiteral("alpha")),
                                 15000);
        Mcp::Client *alpha = manager->client(QStringLiteral("alpha"));
        QVERIFY(!window.configEditor());

        auto *action = window.findChild<QAction *>(QStringLiteral("editConfigurationAction"));
        QVERIFY(action);
        action->trigger();
        ConfigEditorPane *pane = window.configEditor();
        QVERIFY(pane);
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("configDock"));
        QVERIFY(dock);
        QVERIFY(dock->isVisible());
        // The first time it opens as a window of its own: the chat keeps its height.
        QVERIFY(dock->isFloating());
        QVERIFY(dock->height() >= 500);
        QVERIFY(deliverPostedEvents()); // the window's layout settles (LayoutRequest is posted)
        QVERIFY2(window.chatView()->height() > 300,
                 qPrintable(QString::number(window.chatView()->height())));
        QCOMPARE(pane->filePath(), QDir(options.workspace).filePath(QStringLiteral(".mcp.json")));
        QCOMPARE(editorBytes(*pane), text);
        QCOMPARE(child<QLabel>(*pane, "planLabel")->text(),
                 QStringLiteral("Apply changes no server."));

        QByteArray edited = text;
        edited.replace("}\n  }", "},\n    \"delta\": {\"command\": \"${FIXTURE}\", \"timeout\": 1, "
                                 "\"risk\": \"read\"}\n  }");
        pane->editor()->setText(QString::fromUtf8(edited));
        pane->apply();
        // Not "started": a workspace server added in the editor waits for the user's trust.
        QCOMPARE(pane->statusText(),
                 QStringLiteral("Saved and applied: %1 waiting for your trust (see the banner "
                                "in the Servers dock).")
                         .arg(quoted("delta")));
        QVERIFY(child<QLabel>(*pane, "planLabel")->isHidden());
        QCOMPARE(readFile(path), edited);
        // A server added to the workspace's file waits for the user's trust like any other.
        QTRY_COMPARE(manager->status(QStringLiteral("delta")).state, Mcp::ServerState::Untrusted);
        auto *banner = window.findChild<Gui::TrustBanner *>(QStringLiteral("trustBanner"));
        QVERIFY(banner && banner->isVisible());
        QCOMPARE(banner->serverNames(), QStringList({QStringLiteral("delta")}));
        banner->findChild<QPushButton *>(QStringLiteral("trustAllButton"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(manager->isSettled() && manager->client(QStringLiteral("delta")),
                                 15000);
        QCOMPARE(manager->client(QStringLiteral("alpha")), alpha);
        // The window's runner took delta's 1 s timeout from the applied config.
        QTRY_VERIFY(window.registry()->find(QStringLiteral("mcp__delta__slow")));
        std::optional<Engine::ToolRunResult> result;
        QObject context;
        Engine::ToolRunner::Callbacks callbacks;
        callbacks.onDone = [&result](Engine::ToolRunResult r) {
            result = std::move(r);
        };
        window.runner()->run({QStringLiteral("call-1"), QStringLiteral("mcp__delta__slow"),
                              Engine::Json{{"ms", 20000}}, QString()},
                             QString(), &context, callbacks);
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 5000);
        QVERIFY(result->timedOut);

        // Removing a server stops it; the server dock follows.
        pane->editor()->setText(QString::fromUtf8(text));
        pane->apply();
        QCOMPARE(pane->statusText(),
                 QStringLiteral("Saved and applied: stopped %1.").arg(quoted("delta")));
        QCOMPARE(manager->serverNames(),
                 (QStringList{QStringLiteral("alpha"), QStringLiteral("user")}));
        auto *rows = window.findChild<QTreeWidget *>(QStringLiteral("serverList"));
        QVERIFY(rows);
        QTRY_COMPARE(rows->topLevelItemCount(), 2);
        QCOMPARE(manager->client(QStringLiteral("alpha")), alpha);

        // Closing and reopening keeps the pane and its text.
        dock->close();
        action->trigger();
        QCOMPARE(window.configEditor(), pane);
        QVERIFY(dock->isVisible());

        QSignalSpy stopped(manager, &Mcp::Manager::stopped);
        manager->stop();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 10000);
    }

    // JSON syntax errors (worded by nlohmann_json) read in the UI's language like the rest.
    void syntaxErrorsAreTranslated_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("chinese");
        QTest::newRow("trailing comma")
                << QByteArray("{\"mcpServers\": {\"a\": {\"command\": \"x\",}}}")
                << QStringLiteral("syntax error while parsing object key - unexpected '}'; "
                                  "expected string literal")
                << QStringLiteral("解析对象键时出现语法错误 - 意外的'}'；应为字符串");
        QTest::newRow("bad literal")
                << QByteArray("{\"mcpServers\": {\"a\": {\"disabled\": tru}}}")
                << QStringLiteral("syntax error while parsing value - invalid literal")
                << QStringLiteral("解析值时出现语法错误 - 无效的字面量");
        QTest::newRow("control character")
                << QByteArray("{\"mcpServers\": {\"a\n\": {}}}")
                << QStringLiteral("syntax error while parsing object key - invalid string: "
                                  "control character U+000A (LF) must be escaped to \\u000A or "
                                  "\\n; expected string literal")
                << QStringLiteral("解析对象键时出现语法错误 - 无效字符串：控制字符 U+000A（LF）"
                                  "必须转义为 \\u000A 或 \\n；应为字符串");
    }

    void syntaxErrorsAreTranslated()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, english);
        QFETCH(QString, chinese);
        QTemporaryDir workspace;
        QVERIFY(writeFile(workspaceFile(workspace), baseText()));
        auto pane = makePane(workspace.path());
        pane->editor()->setText(QString::fromUtf8(text));
        pane->validate();
        QCOMPARE(pane->problems().size(), qsizetype(1));
        QCOMPARE(pane->problems().at(0).message, english);

        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/switchboard_zh_CN.qm")));
        QCoreApplication::installTranslator(&translator);
        pane->validate();
        QCoreApplication::removeTranslator(&translator);
        QCOMPARE(pane->problems().size(), qsizetype(1));
        QCOMPARE(pane->problems().at(0).message, chinese);
    }

    // A dark desktop theme: the editor follows the palette (dark paper, light text) and
    // goes back when the palette does.
    void followsADarkPalette()
    {
        QTemporaryDir workspace;
        QVERIFY(writeFile(workspaceFile(workspace), baseText()));
        auto pane = makePane(workspace.path());
        pane->resize(600, 300);
        auto *lexer = pane->editor()->lexer();
        QVERIFY(lexer);
        QVERIFY(lexer->paper(QsciLexerJSON::Default).lightness() > 200);
        QVERIFY(lexer->color(QsciLexerJSON::Property).lightness() < 160);

        QPalette dark = pane->palette();
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Text, QColor(0xd4, 0xd4, 0xd4));
        dark.setColor(QPalette::Window, QColor(0x25, 0x25, 0x26));
        dark.setColor(QPalette::WindowText, QColor(0xcc, 0xcc, 0xcc));
        const QPalette light = pane->palette();
        pane->setPalette(dark);
        QCOMPARE(lexer->paper(QsciLexerJSON::Default), QColor(0x1e, 0x1e, 0x1e));
        QCOMPARE(lexer->paper(QsciLexerJSON::Property), QColor(0x1e, 0x1e, 0x1e));
        for (int style :
             {int(QsciLexerJSON::Default), int(QsciLexerJSON::Property), int(QsciLexerJSON::String),
              int(QsciLexerJSON::Number), int(QsciLexerJSON::Operator)})
            QVERIFY2(lexer->color(style).lightness() > 120, qPrintable(QString::number(style)));
        // What is drawn: mostly dark.
        const QImage image = pane->editor()->grab().toImage();
        // An opt-in picture for reviewers: SWITCHBOARD_SCREENSHOT_DIR=build.
        if (const QString dir = qEnvironmentVariable("SWITCHBOARD_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(pane->grab().save(QDir(dir).filePath(QStringLiteral("configpane-dark.png"))));
        qint64 lightness = 0;
        for (int y = 0; y < image.height(); y += 4) {
            for (int x = 0; x < image.width(); x += 4)
                lightness += QColor(image.pixel(x, y)).lightness();
        }
        const qint64 samples = ((image.height() + 3) / 4) * ((image.width() + 3) / 4);
        QVERIFY2(lightness / samples < 100, qPrintable(QString::number(lightness / samples)));

        pane->setPalette(light);
        QVERIFY(lexer->paper(QsciLexerJSON::Default).lightness() > 200);
        QCOMPARE(lexer->color(QsciLexerJSON::Property),
                 QsciLexerJSON().color(QsciLexerJSON::Property));
    }

    void screenshot()
    {
        QTemporaryDir workspace;
        QVERIFY(writeFile(workspaceFile(workspace), baseText()));
        auto pane = makePane(workspace.path());
        QByteArray text = baseText();
        text.replace("\"alpha\": {", "\"alpha\": {\"timeout\": \"中文😀\",");
        text.replace("\"1\"]", "1]");
        pane->editor()->setText(QString::fromUtf8(text));
        pane->validate();
        QCOMPARE(pane->problems().size(), qsizetype(2));
        pane->jumpToProblem(1);
        const QString file = QDir(QCoreApplication::applicationDirPath())
                                     .filePath(QStringLiteral("../configpane.png"));
        QVERIFY(pane->grab().save(file));
        QVERIFY(QFileInfo(file).size() > 1000);
    }
};

QTEST_MAIN(tst_ConfigEditorPane)
#include "tst_configeditorpane.moc"
