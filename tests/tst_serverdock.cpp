#include <mcp/manager.h>
#include <mcp/transport/stdiotransport.h>
#include <ui/serverdock.h>
#include <ui/trustbanner.h>

#include <QClipboard>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QPlainTextDocumentLayout>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include <QToolButton>
#include <QTreeWidget>
#include <algorithm>

#include <optional>

using namespace Mcp;
using Gui::ServerDock;

// The server dock driven by a real Manager with fixture server processes: rows follow
// connect, fail, crash-and-restart, disable/enable; the buttons reach the Manager; the stderr
// view shows the tail, follows live lines and survives a 100,000-line flood without freezing.
class tst_ServerDock : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // JSON written with single quotes (no raw strings in this file), turned into real quotes.
    McpConfig parse(QByteArray json)
    {
        json.replace('\'', '"');
        QProcessEnvironment env;
        env.insert(QStringLiteral("FIXTURE"), QStringLiteral(SWITCHBOARD_FIXTURE_SERVER));
        McpConfig config = ConfigLoader::parse(json, QStringLiteral("test.json"), env);
        for (const ConfigError &e : config.errors)
            qWarning() << e.toString();
        return config;
    }

    std::unique_ptr<Manager> makeManager()
    {
        ManagerOptions options;
        options.workspaceDir = m_dir.path();
        // Long enough that the dock shows "restarting" for several event-loop turns.
        options.restartDelayMs = 300;
        options.transports.stdio.shutdownStageMs = 300;
        return std::make_unique<Manager>(options);
    }

    static QTreeWidget *list(ServerDock &dock)
    {
        return dock.findChild<QTreeWidget *>(QStringLiteral("serverList"));
    }
    static QToolButton *button(ServerDock &dock, const char *name)
    {
        return dock.findChild<QToolButton *>(QLatin1String(name));
    }
    static QTreeWidgetItem *row(ServerDock &dock, const QString &name)
    {
        return list(dock)->findItems(name, Qt::MatchExactly, ServerDock::NameColumn).value(0);
    }
    static QString text(ServerDock &dock, const QString &name, int column)
    {
        QTreeWidgetItem *item = row(dock, name);
        return item ? item->text(column) : QStringLiteral("<no row>");
    }
    static QString stateText(ServerDock &dock, const QString &name)
    {
        return text(dock, name, ServerDock::StateColumn);
    }
    // The dot's colour, read from the centre of the icon the row really shows.
    static QColor dotColor(ServerDock &dock, const QString &name)
    {
        QTreeWidgetItem *item = row(dock, name);
        if (!item)
            return QColor();
        return item->icon(ServerDock::NameColumn).pixmap(16, 16).toImage().pixelColor(8, 8);
    }
    static qint64 pidOf(Manager &manager, const QString &name)
    {
        Client *client = manager.client(name);
        return client ? static_cast<StdioTransport *>(client->transport())->processId() : -1;
    }
    // An orderly stop, so no test leaves a fixture process for QProcess's destructor to kill.
    static bool shutdown(Manager &manager)
    {
        QSignalSpy stopped(&manager, &Manager::stopped);
        manager.stop();
        return stopped.count() > 0 || stopped.wait(5000);
    }
    static bool waitSettled(Manager &manager)
    {
        return QTest::qWaitFor([&] { return manager.isSettled(); }, 15000);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The trust banner's command lines wrap where words may break: at any width, no line starts
    // with what closes a word (a lone ")" of "true)") unless that word is wider than a line.
    void trustDetailsWrapBetweenWords()
    {
        const Mcp::McpConfig config = Mcp::ConfigLoader::parse(
                R"json({"mcpServers": {
                    "docs": {"command": "npx", "args": ["-y", "@acme/docs-mcp@2.1.0", "."],
                             "risk": "read", "inheritEnv": true,
                             "sandbox": {"write": ["/tmp/docs-cache"], "network": true}},
                    "long": {"command": "/opt/a-very-long-folder-name-wider-than-a-line/bin/srv",
                             "args": ["--flag=(value)"]}}})json",
                QStringLiteral(".mcp.json"), QProcessEnvironment());
        QCOMPARE(config.servers.size(), 2);
        Gui::TrustBanner banner;
        banner.setServers(config.servers);
        banner.show();
        auto *details = banner.findChild<QPlainTextEdit *>(QStringLiteral("trustDetails"));
        QVERIFY(details);
        auto *layout
                = qobject_cast<QPlainTextDocumentLayout *>(details->document()->documentLayout());
        QVERIFY(layout);
        int breaks = 0;
        for (int width = 160; width <= 520; width += 6) {
            details->setFixedWidth(width);
            QCoreApplication::processEvents();
            const qreal room
                    = details->viewport()->width() - 2 * details->document()->documentMargin();
            for (QTextBlock block = details->document()->begin(); block.isValid();
                 block = block.next()) {
                layout->ensureBlockLayout(block);
                const QString text = block.text();
                QTextLayout *lines = block.layout();
                for (int i = 1; i < lines->lineCount(); ++i) {
                    ++breaks;
                    const int at = lines->lineAt(i).textStart();
                    // A line may start with what closes a word (a lone ")") only where a word
                    // wider than the line had to be cut anywhere.
                    if (at <= 0 || text.at(at - 1).isSpace()
                        || !QStringLiteral(")]},.;:").contains(text.at(at)))
                        continue;
                    qsizetype from = text.lastIndexOf(u' ', at - 1) + 1;
                    qsizetype to = text.indexOf(u' ', at);
                    if (to < 0)
                        to = text.size();
                    const QString word = text.mid(from, to - from);
                    QVERIFY2(details->fontMetrics().horizontalAdvance(word) > room,
                             qPrintable(QStringLiteral("at %1 px \"%2\" is cut: %3")
                                                .arg(width)
                                                .arg(word, text)));
                }
            }
        }
        QVERIFY(breaks > 50); // the widths did make lines wrap
    }

    void followsConnectFailDisabled()
    {
        auto manager = makeManager();
        ServerDock dock(manager.get());
        QCOMPARE(list(dock)->topLevelItemCount(), 0);
        QCOMPARE(dock.windowTitle(), QStringLiteral("Servers — no servers configured"));

        manager->start(
                parse("{'mcpServers': {"
                      "'good': {'command': '${FIXTURE}', 'args': ['--init-delay-ms', '200']},"
                      "'dies': {'command': '${FIXTURE}', 'args': ['--exit-at-startup', '5']},"
                      "'off':  {'command': '${FIXTURE}', 'disabled': true}}}"));
        QCOMPARE(list(dock)->topLevelItemCount(), 3);
        QCOMPARE(stateText(dock, "good"), QStringLiteral("starting"));
        QCOMPARE(dotColor(dock, "good"), ServerDock::stateColor(ServerState::Pending));

        QTRY_COMPARE(stateText(dock, "good"), QStringLiteral("connected"));
        QCOMPARE(text(dock, "good", ServerDock::ToolsColumn), QStringLiteral("16"));
        QCOMPARE(dotColor(dock, "good"), ServerDock::stateColor(ServerState::Connected));
        QCOMPARE(dotColor(dock, "good"), QColor(0x2e, 0x9d, 0x4f)); // green, not just "some"
        // The tooltip says what runs and which protocol version was agreed.
        const QString tip = row(dock, "good")->toolTip(ServerDock::StateColumn);
        QVERIFY2(tip.contains(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                         && tip.contains(QStringLiteral("MCP 2025-11-25")),
                 qPrintable(tip));

        QTRY_COMPARE(stateText(dock, "dies"), QStringLiteral("failed"));
        QTreeWidgetItem *dies = row(dock, "dies");
        QVERIFY2(dies->text(ServerDock::ReasonColumn).contains(QStringLiteral("code 5")),
                 qPrintable(dies->text(ServerDock::ReasonColumn)));
        QCOMPARE(dies->toolTip(ServerDock::ReasonColumn), manager->status("dies").reason);
        QCOMPARE(dies->foreground(ServerDock::StateColumn).color(),
                 ServerDock::stateColor(ServerState::Failed));
        QCOMPARE(dotColor(dock, "dies"), QColor(0xd0, 0x34, 0x2c)); // red
        QCOMPARE(text(dock, "dies", ServerDock::ToolsColumn), QString());

        QCOMPARE(stateText(dock, "off"), QStringLiteral("disabled"));
        QCOMPARE(dotColor(dock, "off"), ServerDock::stateColor(ServerState::Disabled));

        QVERIFY(waitSettled(*manager));
        QCOMPARE(dock.windowTitle(), QStringLiteral("Servers — 1 connected, 1 failed, 1 disabled"));
        // A narrow dock wraps its title instead of cutting it ("1 disab…").
        auto *title = dock.findChild<QLabel *>(QStringLiteral("serverDockTitleLabel"));
        QVERIFY(title);
        QVERIFY(title->wordWrap());
        QVERIFY(title->text().contains(QStringLiteral("1 connected, 1 failed, 1 disabled")));
        QCOMPARE(dock.titleBarWidget(), title->parentWidget());

        const QString shots = qEnvironmentVariable("SWITCHBOARD_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            dock.resize(720, 180);
            dock.show();
            QVERIFY(dock.grab().save(shots + QStringLiteral("/dock.png")));
        }
        QVERIFY(shutdown(*manager));
    }

    void followsCrashAndRestart()
    {
        auto manager = makeManager();
        ServerDock dock(manager.get());
        manager->start(parse("{'mcpServers': {'crashy': {'command': '${FIXTURE}'}}}"));
        QTRY_COMPARE(stateText(dock, "crashy"), QStringLiteral("connected"));
        const qint64 before = pidOf(*manager, "crashy");

        // Connected after the dock, so each entry is what the dock shows after that change.
        QStringList seen, titles;
        connect(manager.get(), &Manager::serverStatusChanged, this, [&] {
            seen << stateText(dock, "crashy");
            titles << dock.windowTitle();
        });
        QObject context;
        manager->client("crashy")->callTool("crash", Json::object(), &context, [](ToolResult) {});

        QTRY_COMPARE_WITH_TIMEOUT(stateText(dock, "crashy"), QStringLiteral("restarting"), 5000);
        QCOMPARE(dotColor(dock, "crashy"), ServerDock::stateColor(ServerState::Restarting));
        QCOMPARE(dotColor(dock, "crashy"), QColor(0xe0, 0xa0, 0x20)); // amber
        QTRY_COMPARE_WITH_TIMEOUT(stateText(dock, "crashy"), QStringLiteral("connected"), 10000);
        QVERIFY(pidOf(*manager, "crashy") != before);
        QCOMPARE(seen.first(), QStringLiteral("restarting"));
        QCOMPARE(seen.last(), QStringLiteral("connected"));
        QVERIFY2(titles.contains(QStringLiteral("Servers — 0 connected, 1 starting")),
                 qPrintable(titles.join(QLatin1Char('|'))));
        QVERIFY(row(dock, "crashy")->toolTip(ServerDock::StateColumn).contains("restarted 1 time"));
        QVERIFY(shutdown(*manager));
    }

    void buttonsRestartDisableEnableAndOpenLog()
    {
        auto manager = makeManager();
        ServerDock dock(manager.get());
        manager->start(parse("{'mcpServers': {'a': {'command': '${FIXTURE}'},"
                             "'b': {'command': '${FIXTURE}'}}}"));
        QVERIFY(waitSettled(*manager));
        QTRY_COMPARE(stateText(dock, "b"), QStringLiteral("connected"));

        QToolButton *restart = button(dock, "restartButton");
        QToolButton *toggle = button(dock, "toggleButton");
        QToolButton *log = button(dock, "logButton");
        QVERIFY(restart && toggle && button(dock, "stderrButton") && log);
        QVERIFY(!restart->isEnabled()); // nothing selected yet
        // The same commands as a context menu (Sign in / Sign out only where they apply), and
        // Log level, Use its instructions, Update… and Uninstall….
        const QList<QAction *> menu = list(dock)->actions();
        QCOMPARE(std::count_if(menu.cbegin(), menu.cend(),
                               [](const QAction *action) { return action->isVisible(); }),
                 8);
        // Neither server was installed: nothing to update them from.
        QVERIFY(!button(dock, "updateServerButton")->isEnabled());
        QVERIFY(std::any_of(menu.cbegin(), menu.cend(), [](const QAction *action) {
            return action->objectName() == QLatin1String("logLevelAction") && action->menu();
        }));

        dock.selectServer("b");
        QCOMPARE(dock.selectedServer(), QStringLiteral("b"));
        QVERIFY(restart->isEnabled());
        const qint64 pidA = pidOf(*manager, "a");
        const qint64 pidB = pidOf(*manager, "b");
        QVERIFY(pidB > 0);
        restart->click();
        QTRY_VERIFY(pidOf(*manager, "b") > 0 && pidOf(*manager, "b") != pidB);
        QTRY_COMPARE(stateText(dock, "b"), QStringLiteral("connected"));
        QCOMPARE(pidOf(*manager, "a"), pidA); // only the selected one

        QCOMPARE(toggle->text(), QStringLiteral("Disable"));
        toggle->click();
        QTRY_COMPARE(stateText(dock, "b"), QStringLiteral("disabled"));
        QCOMPARE(dotColor(dock, "b"), QColor(0x9a, 0x9a, 0x9a)); // grey
        QCOMPARE(toggle->text(), QStringLiteral("Enable"));
        QVERIFY(!restart->isEnabled());
        QVERIFY(!manager->client("b"));
        QCOMPARE(stateText(dock, "a"), QStringLiteral("connected"));
        toggle->click();
        QTRY_COMPARE(stateText(dock, "b"), QStringLiteral("connected"));
        QCOMPARE(text(dock, "b", ServerDock::ToolsColumn), QStringLiteral("16"));
        QCOMPARE(toggle->text(), QStringLiteral("Disable"));
        QVERIFY(restart->isEnabled());

        QSignalSpy openLog(&dock, &ServerDock::openLogRequested);
        log->click();
        QCOMPARE(openLog.count(), 1);
        QCOMPARE(openLog.at(0).at(0).toString(), QStringLiteral("b"));
        QVERIFY(shutdown(*manager));
    }

    void stderrViewTailLiveAndFlood()
    {
        auto manager = makeManager();
        ServerDock dock(manager.get());
        manager->start(parse("{'mcpServers': {'noisy': {'command': '${FIXTURE}',"
                             "'args': ['--stderr-lines', '3']}}}"));
        QTRY_COMPARE(stateText(dock, "noisy"), QStringLiteral("connected"));
        QTRY_COMPARE(manager->stderrTail("noisy").size(), 3);

        dock.selectServer("noisy");
        button(dock, "stderrButton")->click();
        auto *view = dock.findChild<QPlainTextEdit *>(QStringLiteral("stderrView"));
        QVERIFY(view);
        QVERIFY(view->isVisible());
        QVERIFY(view->isReadOnly());
        QVERIFY(view->toPlainText().contains(QStringLiteral("startup stderr line 3 of 3")));

        // A flood: the GUI thread must keep turning and the view must be updated in batches.
        int updates = 0;
        connect(view, &QPlainTextEdit::textChanged, this, [&] { ++updates; });
        QElapsedTimer clock;
        qint64 last = 0, worstGap = 0;
        QTimer ticker;
        ticker.setInterval(10);
        connect(&ticker, &QTimer::timeout, this, [&] {
            worstGap = std::max(worstGap, clock.elapsed() - last);
            last = clock.elapsed();
        });
        clock.start();
        ticker.start();
        std::optional<ToolResult> result;
        QObject context;
        manager->client("noisy")->callTool("stderr_flood", Json{{"lines", 100000}}, &context,
                                           [&](ToolResult r) { result = std::move(r); });
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 30000);
        QVERIFY(!result->failed());
        QTRY_VERIFY_WITH_TIMEOUT(
                view->toPlainText().endsWith(QStringLiteral("flood line 100000 of 100000")), 10000);
        ticker.stop();
        QVERIFY2(worstGap < 1000, qPrintable(QString::number(worstGap)));
        QVERIFY2(updates < 2000, qPrintable(QString::number(updates)));
        QVERIFY(view->blockCount() <= 5000);
        qDebug() << "flood: view updates" << updates << "worst event-loop gap ms" << worstGap;

        // Copyable: the whole view goes to the clipboard.
        auto *copy = dock.findChild<QPushButton *>(QStringLiteral("copyStderrButton"));
        QVERIFY(copy);
        copy->click();
        QVERIFY(QGuiApplication::clipboard()->text().endsWith(
                QStringLiteral("flood line 100000 of 100000")));
        QVERIFY(shutdown(*manager));
    }

    // A connected server's row shows a log line only when it needs attention (a warning or
    // worse): "[info] Roots updated" is the protocol log's, not the row's.
    void rowShowsWarningsNotChatter()
    {
        auto manager = makeManager();
        ServerDock dock(manager.get());
        manager->start(parse("{'mcpServers': {'good': {'command': '${FIXTURE}'}}}"));
        QTRY_COMPARE(stateText(dock, "good"), QStringLiteral("connected"));
        const auto logs = [&](const char *level, const char *text) {
            emit manager->serverNotification(QStringLiteral("good"),
                                             QStringLiteral("notifications/message"),
                                             Json{{"level", level}, {"data", text}});
        };
        logs("info", "Roots updated");
        logs("debug", "tick");
        QCOMPARE(text(dock, "good", ServerDock::ReasonColumn), QString());
        logs("warning", "disk almost full");
        QCOMPARE(text(dock, "good", ServerDock::ReasonColumn),
                 QStringLiteral("[warning] disk almost full"));
        logs("info", "Roots updated");
        QCOMPARE(text(dock, "good", ServerDock::ReasonColumn),
                 QStringLiteral("[warning] disk almost full"));
        QVERIFY(shutdown(*manager));
    }

    void forgetsADestroyedManager()
    {
        auto manager = makeManager();
        ServerDock dock(manager.get());
        manager->start(parse("{'mcpServers': {'x': {'command': '${FIXTURE}'}}}"));
        QCOMPARE(list(dock)->topLevelItemCount(), 1);
        QVERIFY(shutdown(*manager)); // rows stay: stopping is not forgetting
        QCOMPARE(list(dock)->topLevelItemCount(), 1);
        manager.reset();
        QCOMPARE(dock.manager(), nullptr);
        QCOMPARE(list(dock)->topLevelItemCount(), 0);
    }
};

QTEST_MAIN(tst_ServerDock)
#include "tst_serverdock.moc"
