#include "mcphttpserver.h"
#include "mcptest.h"
#include "windowtest.h"

#include <mcp/manager.h>
#include <ui/mainwindow.h>
#include <ui/protocollogdock.h>
#include <ui/serverdock.h>

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <optional>

using namespace Mcp;
using Gui::ProtocolLogDock;
using Gui::ProtocolLogEntry;
using Gui::ProtocolLogModel;

// The protocol-log dock over a real Manager and fixture servers: it records nothing until
// opened; then the handshake, calls and stderr appear with secrets redacted in the table,
// the detail pane and copied text (by key and by known configured value); filters by server,
// direction and text; a 1 MB reply is kept truncated; a flood is batched and bounded; the
// window opens it filtered to a server from the server dock.
class tst_ProtocolLog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // A secret sent as a tool argument under a secret-looking key, to a server that does not
    // know it: hidden by key.
    static constexpr const char *ArgumentSecret = "sk-secret-123";
    // A secret from alpha's configuration (env API_KEY), echoed back in a result under a
    // harmless key: hidden by value.
    static constexpr const char *ConfigSecret = "cfg-SECRET-0042";

    // JSON written with single quotes (no raw strings in this file), turned into real quotes.
    McpConfig parse(QByteArray json)
    {
        json.replace('\'', '"');
        QProcessEnvironment env;
        env.insert(QStringLiteral("FIXTURE"), QStringLiteral(SWITCHBOARD_FIXTURE_SERVER));
        env.insert(QStringLiteral("ALPHA_KEY"), QString::fromLatin1(ConfigSecret));
        McpConfig config = ConfigLoader::parse(json, QStringLiteral("test.json"), env);
        for (const ConfigError &e : config.errors)
            qWarning() << e.toString();
        return config;
    }

    McpConfig twoServers()
    {
        return parse("{'mcpServers': {"
                     "'alpha': {'command': '${FIXTURE}', 'args': ['--stderr-lines', '2'],"
                     "          'env': {'API_KEY': '${ALPHA_KEY}'}},"
                     "'beta':  {'command': '${FIXTURE}'}}}");
    }

    std::unique_ptr<Manager> makeManager()
    {
        ManagerOptions options;
        options.workspaceDir = m_dir.path();
        options.transports.stdio.shutdownStageMs = 300;
        return std::make_unique<Manager>(options);
    }

    static bool waitSettled(Manager &manager)
    {
        return QTest::qWaitFor([&] { return manager.isSettled(); }, 15000);
    }

    static std::optional<ToolResult> call(Manager &manager, const QString &server,
                                          const std::string &tool, Json args)
    {
        return callAndWait(manager.client(server), tool, std::move(args), 15000);
    }

    // Rows of the model whose summary starts with `summary` (and of `server`, if given).
    static QList<int> rowsOf(const ProtocolLogModel &model, const QString &summary,
                             const QString &server = QString())
    {
        QList<int> rows;
        for (int i = 0; i < model.size(); ++i) {
            const ProtocolLogEntry &e = model.entry(i);
            if (e.summary.startsWith(summary) && (server.isEmpty() || e.server == server))
                rows << i;
        }
        return rows;
    }

    static bool hasEntry(const ProtocolLogModel &model, ProtocolLogEntry::Kind kind,
                         const QString &server, const char *text)
    {
        for (int i = 0; i < model.size(); ++i) {
            const ProtocolLogEntry &e = model.entry(i);
            if (e.kind == kind && e.server == server && e.text.contains(text))
                return true;
        }
        return false;
    }

    static QString everythingShown(ProtocolLogDock &dock)
    {
        QString all;
        const ProtocolLogModel &model = *dock.model();
        for (int row = 0; row < model.size(); ++row) {
            for (int column = 0; column < ProtocolLogModel::ColumnCount; ++column) {
                all += model.data(model.index(row, column)).toString() + QLatin1Char('\t');
                all += model.data(model.index(row, column), Qt::ToolTipRole).toString();
            }
            all += QString::fromUtf8(model.entry(row).text) + QLatin1Char('\n');
        }
        return all;
    }

    static void selectSourceRow(ProtocolLogDock &dock, int sourceRow)
    {
        const QModelIndex proxy
                = dock.filterModel()->mapFromSource(dock.model()->index(sourceRow, 0));
        dock.view()->setCurrentIndex(proxy);
        dock.view()->selectionModel()->select(proxy, QItemSelectionModel::ClearAndSelect
                                                             | QItemSelectionModel::Rows);
    }

    static QString detailText(ProtocolLogDock &dock)
    {
        auto *detail = dock.findChild<QPlainTextEdit *>(QStringLiteral("protocolLogDetail"));
        return detail ? detail->toPlainText() : QStringLiteral("<no detail pane>");
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void recordsNothingUntilOpened()
    {
        auto manager = makeManager();
        ProtocolLogDock dock(manager.get());
        manager->start(twoServers());
        QVERIFY(waitSettled(*manager));
        QVERIFY(!dock.isRecording());
        QVERIFY(!manager->hasTrafficObserver());
        QVERIFY(!manager->client(QStringLiteral("beta"))->transport()->hasTrafficTap());
        QVERIFY(call(*manager, QStringLiteral("beta"), "echo", Json{{"text", "unseen"}}));
        dock.flush(); // what was buffered, if anything, is in the model now
        QCOMPARE(dock.model()->size(), 0);

        dock.show();
        QVERIFY(dock.isRecording());
        QVERIFY(manager->hasTrafficObserver());
        // Opened empty, it says why (it records from now on).
        auto *detail = dock.findChild<QPlainTextEdit *>(QStringLiteral("protocolLogDetail"));
        QVERIFY(detail);
        QVERIFY2(detail->placeholderText().contains(QStringLiteral("from the moment")),
                 qPrintable(detail->placeholderText()));
        QVERIFY(call(*manager, QStringLiteral("beta"), "echo", Json{{"text", "seen"}}));
        QTRY_COMPARE(dock.model()->size(), 2);

        dock.setPaused(true);
        QVERIFY(!manager->hasTrafficObserver());
        QVERIFY(call(*manager, QStringLiteral("beta"), "echo", Json{{"text", "paused"}}));
        dock.flush(); // what was buffered, if anything, is in the model now
        QCOMPARE(dock.model()->size(), 2);
        dock.setPaused(false);
        QVERIFY(manager->hasTrafficObserver());

        dock.hide();
        QVERIFY(!dock.isRecording());
        QVERIFY(!manager->hasTrafficObserver());
    }

    void recordsTrafficRedacted()
    {
        auto manager = makeManager();
        ProtocolLogDock dock(manager.get());
        dock.resize(1200, 420);
        dock.show();
        manager->start(twoServers());
        QVERIFY(waitSettled(*manager));
        auto r = call(*manager, QStringLiteral("beta"), "echo",
                      Json{{"text", "hello"}, {"api_key", ArgumentSecret}});
        QVERIFY(r && !r->failed());
        r = call(*manager, QStringLiteral("alpha"), "echo",
                 Json{{"text", std::string("the key is ") + ConfigSecret}});
        QVERIFY(r && !r->failed());
        QCOMPARE(r->text(), QStringLiteral("the key is ") + QLatin1String(ConfigSecret));
        const ProtocolLogModel &model = *dock.model();
        // Stderr comes through its own pipe, in its own time.
        QTRY_VERIFY(hasEntry(model, ProtocolLogEntry::Kind::Stderr, QStringLiteral("alpha"),
                             "startup stderr line 2"));
        dock.flush();

        // The handshake, both ways, for each server.
        for (const QString &server : {QStringLiteral("alpha"), QStringLiteral("beta")}) {
            const QList<int> init = rowsOf(model, QStringLiteral("initialize #"), server);
            QCOMPARE(init.size(), 1);
            QCOMPARE(model.entry(init[0]).kind, ProtocolLogEntry::Kind::Sent);
            const QString id = model.entry(init[0]).summary.section(QLatin1Char(' '), -1);
            const QList<int> reply = rowsOf(model, QStringLiteral("result ") + id, server);
            QVERIFY(!reply.isEmpty());
            QCOMPARE(model.entry(reply[0]).kind, ProtocolLogEntry::Kind::Received);
            QVERIFY(reply[0] > init[0]);
            QVERIFY(model.entry(reply[0]).text.contains("protocolVersion"));
            QCOMPARE(rowsOf(model, QStringLiteral("notifications/initialized"), server).size(), 1);
            QVERIFY(!rowsOf(model, QStringLiteral("tools/list"), server).isEmpty());
            QVERIFY(model.data(model.index(init[0], ProtocolLogModel::DirectionColumn))
                            .toString()
                            .contains(QStringLiteral("→")));
        }
        // State changes are there too.
        bool connectedSeen = false;
        for (int i = 0; i < model.size(); ++i) {
            const ProtocolLogEntry &e = model.entry(i);
            connectedSeen = connectedSeen
                            || (e.kind == ProtocolLogEntry::Kind::Event
                                && e.server == QStringLiteral("beta")
                                && e.summary == Gui::ServerDock::stateText(ServerState::Connected));
        }
        QVERIFY(connectedSeen);

        // The call with an api_key argument: hidden by key; the echo of alpha's configured key:
        // hidden by value, in the request and in the reply.
        const QList<int> betaCall
                = rowsOf(model, QStringLiteral("tools/call · echo"), QStringLiteral("beta"));
        QCOMPARE(betaCall.size(), 1);
        const QByteArray marker(Redactor::Marker.data(), qsizetype(Redactor::Marker.size()));
        QVERIFY(model.entry(betaCall[0]).text.contains("\"api_key\":\"" + marker + '"'));
        const QList<int> alphaCall
                = rowsOf(model, QStringLiteral("tools/call · echo"), QStringLiteral("alpha"));
        QCOMPARE(alphaCall.size(), 1);
        QVERIFY(model.entry(alphaCall[0]).text.contains("the key is " + marker));
        const QString alphaReplyId
                = model.entry(alphaCall[0]).summary.section(QLatin1Char(' '), -1);
        const QList<int> alphaReply
                = rowsOf(model, QStringLiteral("result ") + alphaReplyId, QStringLiteral("alpha"));
        QCOMPARE(alphaReply.size(), 1);
        QVERIFY(model.entry(alphaReply[0]).text.contains("the key is " + marker));

        const QString shown = everythingShown(dock);
        QVERIFY(!shown.contains(QLatin1String(ArgumentSecret)));
        QVERIFY(!shown.contains(QLatin1String(ConfigSecret)));

        // The detail pane, for every row: pretty-printed, redacted.
        for (int i = 0; i < model.size(); ++i) {
            selectSourceRow(dock, i);
            const QString detail = detailText(dock);
            QVERIFY2(!detail.contains(QLatin1String(ArgumentSecret)), qPrintable(detail));
            QVERIFY2(!detail.contains(QLatin1String(ConfigSecret)), qPrintable(detail));
        }
        selectSourceRow(dock, betaCall[0]);
        QVERIFY2(detailText(dock).contains(QStringLiteral("\"api_key\": \"«redacted»\"")),
                 qPrintable(detailText(dock)));
        QVERIFY(detailText(dock).contains(QStringLiteral("\n  \"method\": \"tools/call\"")));

        // Copy: everything, then the visible rows; both redacted.
        dock.view()->selectAll();
        dock.copySelection();
        const QString copied = QGuiApplication::clipboard()->text();
        QCOMPARE(copied.count(QLatin1Char('\n')), model.size() - 1);
        QVERIFY(copied.contains(QStringLiteral("\"method\":\"tools/call\"")));
        QVERIFY(!copied.contains(QLatin1String(ArgumentSecret)));
        QVERIFY(!copied.contains(QLatin1String(ConfigSecret)));
        dock.copyVisible();
        QCOMPARE(QGuiApplication::clipboard()->text(), copied);

        // Ctrl+C in the table copies the selection (here: one row).
        QGuiApplication::clipboard()->clear();
        selectSourceRow(dock, betaCall[0]);
        dock.activateWindow();
        dock.view()->setFocus();
        QTest::keyClick(dock.view(), Qt::Key_C, Qt::ControlModifier);
        const QString one = QGuiApplication::clipboard()->text();
        QVERIFY2(one.contains(QStringLiteral("\"api_key\":\"«redacted»\"")), qPrintable(one));
        QVERIFY(!one.contains(QLatin1Char('\n')));
        QVERIFY(one.contains(QStringLiteral("\tbeta\t")));

        // An opt-in picture for reviewers: SWITCHBOARD_SCREENSHOT_DIR=build.
        const QString shotDir = qEnvironmentVariable("SWITCHBOARD_SCREENSHOT_DIR");
        if (!shotDir.isEmpty()) {
            selectSourceRow(dock, betaCall[0]);
            QVERIFY(dock.grab().save(QDir(shotDir).filePath(QStringLiteral("protolog.png"))));
        }
    }

    // An HTTP server's requests appear as "http" events: method, URL, status, content type,
    // what the request was; header names with their values hidden.
    void httpRequestsAreLoggedWithoutHeaderValues()
    {
        McpHttpServer server;
        QVERIFY(server.listen());
        auto manager = makeManager();
        ProtocolLogDock dock(manager.get());
        dock.show(); // recording from the start
        McpConfig config;
        ServerConfig remote;
        remote.name = QStringLiteral("remote");
        remote.type = TransportType::Http;
        remote.url = server.url();
        remote.headers.insert(QStringLiteral("Authorization"),
                              QStringLiteral("Bearer hdr-SECRET-7"));
        config.servers << remote;
        manager->start(config);
        QVERIFY(waitSettled(*manager));
        QCOMPARE(manager->status(QStringLiteral("remote")).state, ServerState::Connected);
        QVERIFY(call(*manager, QStringLiteral("remote"), "echo", Json{{"text", "hi"}}));
        const QString post
                = QStringLiteral("POST %1 → 200 text/event-stream (tools/call)").arg(server.url());
        QTRY_VERIFY(hasEntry(*dock.model(), ProtocolLogEntry::Kind::Event, QStringLiteral("remote"),
                             post.toUtf8().constData()));
        // The header is named, its value never shown ("…", which the log's redaction then
        // marks as «redacted» for a secret-looking name).
        QVERIFY(hasEntry(*dock.model(), ProtocolLogEntry::Kind::Event, QStringLiteral("remote"),
                         "[Authorization: "));
        QVERIFY(hasEntry(*dock.model(), ProtocolLogEntry::Kind::Event, QStringLiteral("remote"),
                         "→ 405")); // the optional GET stream
        for (int i = 0; i < dock.model()->size(); ++i)
            QVERIFY(!dock.model()->entry(i).text.contains(QLatin1String("hdr-SECRET-7")));
    }

    void filters()
    {
        auto manager = makeManager();
        ProtocolLogDock dock(manager.get());
        dock.show();
        manager->start(twoServers());
        QVERIFY(waitSettled(*manager));
        QVERIFY(call(*manager, QStringLiteral("alpha"), "add", Json{{"a", 2}, {"b", 3}}));
        QVERIFY(call(*manager, QStringLiteral("beta"), "echo", Json{{"text", "needle-xyz"}}));
        dock.flush();
        QSortFilterProxyModel *view = dock.filterModel();
        const int total = dock.model()->size();
        QCOMPARE(view->rowCount(), total);

        auto *servers = dock.findChild<QComboBox *>(QStringLiteral("protocolLogServerFilter"));
        QVERIFY(servers);
        QCOMPARE(servers->count(), 3); // All, alpha, beta
        servers->setCurrentIndex(servers->findData(QStringLiteral("beta")));
        QCOMPARE(dock.serverFilter(), QStringLiteral("beta"));
        QVERIFY(view->rowCount() > 0 && view->rowCount() < total);
        for (int i = 0; i < view->rowCount(); ++i)
            QCOMPARE(view->index(i, ProtocolLogModel::ServerColumn).data().toString(),
                     QStringLiteral("beta"));

        auto *directions
                = dock.findChild<QComboBox *>(QStringLiteral("protocolLogDirectionFilter"));
        QVERIFY(directions);
        directions->setCurrentIndex(directions->findData(int(ProtocolLogEntry::Kind::Received)));
        QVERIFY(view->rowCount() > 0);
        for (int i = 0; i < view->rowCount(); ++i)
            QCOMPARE(view->index(i, ProtocolLogModel::DirectionColumn).data().toString(),
                     ProtocolLogModel::kindText(ProtocolLogEntry::Kind::Received));

        // Text: in the message body, case-insensitively; the typed text applies after a pause.
        directions->setCurrentIndex(0);
        dock.setServerFilter(QString());
        auto *text = dock.findChild<QLineEdit *>(QStringLiteral("protocolLogTextFilter"));
        QVERIFY(text);
        text->setText(QStringLiteral("NEEDLE-XYZ"));
        QTRY_COMPARE(view->rowCount(), 2); // the call and its result
        for (int i = 0; i < view->rowCount(); ++i)
            QCOMPARE(view->index(i, ProtocolLogModel::ServerColumn).data().toString(),
                     QStringLiteral("beta"));
        dock.setTextFilter(QStringLiteral("tools/call · add"));
        QCOMPARE(view->rowCount(), 1); // by summary
        dock.setTextFilter(QStringLiteral("no such text ✓"));
        QCOMPARE(view->rowCount(), 0);
        dock.setTextFilter(QString());
        QCOMPARE(view->rowCount(), total);

        // Copy two chosen rows: two lines, in log order.
        const QList<int> calls = rowsOf(*dock.model(), QStringLiteral("tools/call"));
        QCOMPARE(calls.size(), 2);
        dock.view()->clearSelection();
        for (int row : {calls[1], calls[0]}) {
            dock.view()->selectionModel()->select(
                    dock.filterModel()->mapFromSource(dock.model()->index(row, 0)),
                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
        dock.copySelection();
        const QStringList lines = QGuiApplication::clipboard()->text().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].contains(QStringLiteral("\"name\":\"add\"")));
        QVERIFY(lines[1].contains(QStringLiteral("needle-xyz")));

        dock.clear();
        QCOMPARE(dock.model()->size(), 0);
        QCOMPARE(view->rowCount(), 0);
    }

    void bigReplyIsTruncated()
    {
        auto manager = makeManager();
        ProtocolLogDock dock(manager.get());
        dock.show();
        manager->start(parse("{'mcpServers': {'big': {'command': '${FIXTURE}'}}}"));
        QVERIFY(waitSettled(*manager));
        auto r = call(*manager, QStringLiteral("big"), "big", Json{{"bytes", 1000000}});
        QVERIFY(r && !r->failed());
        QCOMPARE(r->text().size(), 1000000);
        dock.flush();
        const ProtocolLogModel &model = *dock.model();
        const QList<int> call = rowsOf(model, QStringLiteral("tools/call · big"));
        QCOMPARE(call.size(), 1);
        const QString id = model.entry(call[0]).summary.section(QLatin1Char(' '), -1);
        const QList<int> reply = rowsOf(model, QStringLiteral("result ") + id);
        QCOMPARE(reply.size(), 1); // the id is read from the head of the cut-off text
        const ProtocolLogEntry &e = model.entry(reply[0]);
        QVERIFY(e.truncated);
        QVERIFY(e.fullSize > 1000000);
        QVERIFY(e.text.size() <= ManagerOptions().maxTrafficRecordBytes);
        QVERIFY(e.text.size() > 60000);
        QVERIFY(model.data(model.index(reply[0], ProtocolLogModel::SizeColumn))
                        .toString()
                        .contains(QStringLiteral("truncated")));
        selectSourceRow(dock, reply[0]);
        QVERIFY(detailText(dock).contains(QStringLiteral("Only the start")));
        QVERIFY(!model.entry(call[0]).truncated);
    }

    // 20,000 stderr lines plus traffic: batched (few insertions), bounded (the capacity).
    void floodIsBatchedAndBounded()
    {
        auto manager = makeManager();
        ProtocolLogDock dock(manager.get());
        dock.model()->setCapacity(1000, ProtocolLogModel::DefaultByteBudget);
        dock.show();
        manager->start(parse("{'mcpServers': {'loud': {'command': '${FIXTURE}'}}}"));
        QVERIFY(waitSettled(*manager));
        dock.flush();
        QSignalSpy inserted(dock.model(), &QAbstractItemModel::rowsInserted);
        auto r = call(*manager, QStringLiteral("loud"), "stderr_flood", Json{{"lines", 20000}});
        QVERIFY(r && !r->failed());
        QTRY_VERIFY_WITH_TIMEOUT(hasEntry(*dock.model(), ProtocolLogEntry::Kind::Stderr,
                                          QStringLiteral("loud"), "flood line 20000 of 20000"),
                                 15000);
        QCOMPARE(dock.model()->size(), 1000);
        QCOMPARE(dock.model()->entry(0).kind, ProtocolLogEntry::Kind::Stderr); // the oldest went
        qInfo("%d insertions for 20,000 lines", int(inserted.count()));
        QVERIFY2(inserted.count() < 500, qPrintable(QString::number(inserted.count())));
        QScrollBar *scroll = dock.view()->verticalScrollBar();
        QVERIFY(scroll->maximum() > 0);
        QTRY_COMPARE(scroll->value(), scroll->maximum()); // followed the tail
    }

    // The window: the dock exists hidden (nothing recorded), is in the Tools menu, and the
    // server dock's "Open log" shows it filtered to that server.
    void mainWindowOpensItFromServerDock()
    {
        QTemporaryDir workspace;
        QFile config(QDir(workspace.path()).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("{\"mcpServers\": {\"fix\": {\"command\": \"%1\"}}}")
                             .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                             .toUtf8());
        config.close();
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("ANTHROPIC_API_KEY");
        const Gui::MainWindowOptions options = testWindowOptions(workspace.path(), m_dir.path());
        QVERIFY(trustWorkspace(options));
        Gui::MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitFor(
                [&] { return window.manager()->isSettled() && window.manager()->client("fix"); },
                15000));
        ProtocolLogDock *log = window.protocolLogDock();
        QVERIFY(log);
        QCOMPARE(log->objectName(), QStringLiteral("protocolLogDock"));
        QVERIFY(!log->isVisible());
        QVERIFY(!window.manager()->hasTrafficObserver());
        QCOMPARE(window.dockWidgetArea(log), Qt::BottomDockWidgetArea);
        bool inMenu = false;
        for (QAction *menu : window.menuBar()->actions()) {
            if (menu->menu() && menu->menu()->actions().contains(log->toggleViewAction()))
                inMenu = true;
        }
        QVERIFY(inMenu);

        auto *servers = window.findChild<Gui::ServerDock *>();
        QVERIFY(servers);
        servers->selectServer(QStringLiteral("fix"));
        auto *openLog = servers->findChild<QToolButton *>(QStringLiteral("logButton"));
        QVERIFY(openLog && openLog->isEnabled());
        openLog->click();
        QVERIFY(log->isVisible());
        QCOMPARE(log->serverFilter(), QStringLiteral("fix"));
        QVERIFY(log->isRecording());
        QVERIFY(window.manager()->hasTrafficObserver());
        QVERIFY(call(*window.manager(), QStringLiteral("fix"), "echo",
                     Json{{"text", "via window"}}));
        QTRY_COMPARE(log->filterModel()->rowCount(), 2);
        log->toggleViewAction()->trigger();
        QVERIFY(!log->isVisible());
        QVERIFY(!window.manager()->hasTrafficObserver());
    }
};

QTEST_MAIN(tst_ProtocolLog)
#include "tst_protocollog.moc"
