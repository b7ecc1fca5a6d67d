#include "fakellmserver.h"
#include "pinnednode.h"
#include "providertest.h"
#include "windowtest.h"

#include <engine/apps/appbridge.h>
#include <ui/appcards.h>
#include <ui/appviewfactory.h>
#include <ui/chatview.h>

#include <ui/conversationlist.h>
#include <ui/language.h>
#include <ui/toolbrowser.h>

#include <mcp/apps/contentpolicy.h>

#include <QApplication>
#include <QClipboard>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

namespace {

#define WAIT_VERIFY(expr, ms) QVERIFY2(waitUntil([&] { return bool(expr); }, ms), #expr)
#define WAIT_COMPARE(actual, expected, ms)                                                         \
    do {                                                                                           \
        waitUntil([&] { return (actual) == (expected); }, ms);                                     \
        QCOMPARE(actual, expected);                                                                \
    } while (false)

const QString ToolName = QStringLiteral("mcp__apps__get_time");

// The official example as server "apps"; `more` adds members to its entry.
QString vanillaServer(const QString &more = QString())
{
    return QStringLiteral("\"apps\": {\"command\": \"%1\", \"args\": [\"%2\", \"--stdio\"]%3}")
            .arg(PinnedNode::program(),
                 QStringLiteral(SWITCHBOARD_SOURCE_DIR "/node_modules/@modelcontextprotocol/"
                                                       "server-basic-vanillajs/dist/index.js"),
                 more);
}

QPushButton *dialogButton(const char *name)
{
    QWidget *modal = QApplication::activeModalWidget();
    return modal ? modal->findChild<QPushButton *>(QString::fromLatin1(name)) : nullptr;
}

// The page's own widget (keys and clicks go there): the focus proxy of the web view in ours.
QWidget *pageWidget(Gui::AppView *view)
{
    QWidget *target = view;
    for (QWidget *widget : view->findChildren<QWidget *>()) {
        if (widget->focusProxy())
            target = widget->focusProxy();
    }
    return target;
}

// What the view shows, as the person would copy it: click into it, select all, copy.
QString viewText(Gui::AppView *view)
{
    QGuiApplication::clipboard()->clear();
    QWidget *target = pageWidget(view);
    QTest::mouseClick(target, Qt::LeftButton, {}, QPoint(target->width() - 8, 6));
    pause(100);
    QTest::keyClick(target, Qt::Key_A, Qt::ControlModifier);
    pause(50);
    QTest::keyClick(target, Qt::Key_C, Qt::ControlModifier);
    QString text;
    const bool copied = waitUntil(
            [&] {
                text = QGuiApplication::clipboard()->text();
                return !text.isEmpty();
            },
            3000);
    return copied ? text : QString();
}

// A port on 127.0.0.1 that counts who connects: what the sandbox refuses must never get here.
class Listener : public QTcpServer
{
public:
    Listener()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection()) {
                ++connections;
                socket->close();
                socket->deleteLater();
            }
        });
    }
    int connections = 0;
};

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

// MCP Apps views in the window's chat, against the official example server
// (@modelcontextprotocol/server-basic-vanillajs, pinned): the model's call of get-time shows
// its view in the tool card, the view shows the time of the result, and its button's call
// goes through the approval gate into the audit log as the view's. Needs a real display
// (Xvfb): Qt WebEngine does not draw offscreen. A build without the view plugin checks
// instead that the card says why it shows text only.
class tst_AppViews : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    struct Setup
    {
        QTemporaryDir workspace;
        QTemporaryDir data;
        FakeLlmServer llm{FakeLlmServer::Dialect::OpenAi};
        std::unique_ptr<Gui::MainWindow> window;
    };

    // The window with `servers` ("apps" among them), its model ours, active.
    static std::unique_ptr<Setup> open(const QString &servers = vanillaServer())
    {
        auto setup = std::make_unique<Setup>();
        if (!setup->llm.listen())
            return nullptr;
        setup->window = openTestWindow(setup->workspace.path(), setup->data.path(),
                                       QStringLiteral("conversations"), servers,
                                       setup->llm.baseUrl(), QStringLiteral("apps"));
        if (!setup->window)
            return nullptr;
        // Keys go to the active window (Xvfb has no window manager to make it so).
        setup->window->activateWindow();
        if (!QTest::qWaitForWindowActive(setup->window.get()))
            return nullptr;
        return setup;
    }

    // The fixture's probe view (tests/fixtures/appprobe.html) in `mode`, reaching for `port`;
    // its server "probe", and "other" (whose echo the view must not reach).
    static QString probeServers(const QString &folder, const QString &mode, quint16 port)
    {
        QFile source(QStringLiteral(SWITCHBOARD_SOURCE_DIR "/tests/fixtures/appprobe.html"));
        if (!source.open(QIODevice::ReadOnly))
            return {};
        QByteArray html = source.readAll();
        html.replace("@PORT@", QByteArray::number(port)).replace("@MODE@", mode.toUtf8());
        const QString path = QDir(folder).filePath(QStringLiteral("probe.html"));
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly) || probe.write(html) != html.size())
            return {};
        // What the view may call runs without asking (the gate's own test is the first one).
        return QStringLiteral(
                       "\"probe\": {\"command\": \"%1\", \"args\": [\"--app-view\", \"%2\"], "
                       "\"autoApprove\": [\"probe_view\", \"app_only\", \"report\"]}, "
                       "\"other\": {\"command\": \"%1\", \"args\": [\"--env-tool\"]}")
                .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER), path);
    }

    struct Probe
    {
        std::unique_ptr<Setup> setup;
        QString callId;
        QJsonObject report;
    };

    // The model shows the probe view in `mode` (its call as `call`, by default one without
    // arguments); its report once it made it.
    static Probe runProbe(const QString &mode, quint16 port,
                          std::optional<FakeLlmServer::Reply> call = std::nullopt)
    {
        Probe probe;
        auto setup = std::make_unique<Setup>();
        if (!setup->llm.listen())
            return probe;
        const QString servers = probeServers(setup->data.path(), mode, port);
        setup->window = openTestWindow(setup->workspace.path(), setup->data.path(),
                                       QStringLiteral("conversations"), servers,
                                       setup->llm.baseUrl(), QStringLiteral("probe"));
        if (!setup->window
            || !waitUntil([&] { return setup->window->manager()->client("other"); }, 20000))
            return probe;
        setup->llm.enqueue(
                call ? *call
                     : FakeLlmServer::openAiToolCalls({{QStringLiteral("mcp__probe__probe_view"),
                                                        nlohmann::json::object()}}));
        setup->llm.enqueue(FakeLlmServer::openAiText(QStringLiteral("Shown.")));
        send(*setup->window, QStringLiteral("Show the probe."));
        const QString reportFile
                = QDir(setup->data.path()).filePath(QStringLiteral("probe.html.report"));
        // The fixture writes the report as one line: whole once its newline is there.
        if (waitUntil([&] { return readAll(reportFile).contains('\n'); }, 30000)) {
            probe.report
                    = QJsonDocument::fromJson(readAll(reportFile).split('\n').value(0)).object();
        }
        probe.callId = setup->window->appCards()->callIds().value(0);
        probe.setup = std::move(setup);
        return probe;
    }

    static void send(Gui::MainWindow &window, const QString &text)
    {
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QVERIFY(composer);
        composer->setPlainText(text);
        window.submit();
    }

private slots:
    void modelCallShowsTheViewAndItsCallGoesThroughTheGate()
    {
        auto setup = open();
        QVERIFY(setup);
        Gui::MainWindow &window = *setup->window;
        FakeLlmServer::Reply call
                = FakeLlmServer::openAiToolCalls({{ToolName, nlohmann::json::object()}});
        call.delayBetweenEventsMs = 150;
        setup->llm.enqueue(call);
        setup->llm.enqueue(FakeLlmServer::openAiText(QStringLiteral("That is the time.")));
        QSignalSpy finished(window.chatView(), &Gui::ChatView::toolCardFinished);
        QSignalSpy writing(window.chatView(), &Gui::ChatView::toolCardWriting);
        send(window, QStringLiteral("What time is it?"));
        // While the model writes the call, its card says so; a call that asks first shows no
        // view (nor its arguments to one) before it is allowed.
        WAIT_VERIFY(writing.count() > 0, 15000);
        QCOMPARE(window.chatView()->cards().value(0).state, Gui::ChatView::tr("writing…"));
        QCOMPARE(window.appCards()->cardCount(), 0);
        // The model's call is approved like any other.
        WAIT_VERIFY(dialogButton("allowOnceButton") || finished.count() > 0, 15000);
        if (finished.count() == 0)
            dialogButton("allowOnceButton")->click();
        WAIT_COMPARE(finished.count(), 1, 15000);
        const auto result = finished.at(0).at(1).value<Engine::SharedToolRunResult>();
        QVERIFY(result);
        QVERIFY2(!result->output.isError && !result->denied,
                 qPrintable(result->output.modelText()));
        const QString time = QString::fromStdString(
                result->output.structuredContent.value("time", std::string()));
        QVERIFY(!time.isEmpty());

        Gui::AppCards *cards = window.appCards();
        QCOMPARE(cards->cardCount(), 1);
        const QString callId = cards->callIds().value(0);
#ifndef SWITCHBOARD_APPVIEW_BUILT
        QVERIFY2(cards->cardMessage(callId).contains(QLatin1String("cannot show")),
                 qPrintable(cards->cardMessage(callId)));
        QCOMPARE(cards->liveViewCount(), 0);
        return;
#endif
        WAIT_VERIFY(cards->bridge(callId) && cards->bridge(callId)->isInitialized(), 30000);
        Gui::AppView *view = cards->liveView(callId);
        QVERIFY(view);
        QVERIFY(view->isVisible());
        QVERIFY(window.chatView()->viewRect(callId).height() >= Gui::AppCards::MinHeight);

        // The view shows the time of the result.
        QString shown;
        WAIT_VERIFY((shown = viewText(view)).contains(time), 15000);
        QVERIFY2(shown.contains(QLatin1String("Get Server Time")), qPrintable(shown));
        if (qEnvironmentVariableIsSet("SB_SHOT"))
            window.grab().save(qEnvironmentVariable("SB_SHOT"));

        // Its button: a call of get-time by the view, through the gate (asked again: a call
        // the view makes is the view's, and says so), into the audit log as the view's.
        QTest::keyClick(pageWidget(view), Qt::Key_Tab);
        pause(100);
        QTest::keyClick(pageWidget(view), Qt::Key_Space);
        WAIT_VERIFY(dialogButton("allowOnceButton"), 15000);
        auto *askedBy = QApplication::activeModalWidget()->findChild<QLabel *>(
                QStringLiteral("askedByLabel"));
        QVERIFY(askedBy);
        QVERIFY2(askedBy->text().contains(QLatin1String("apps")), qPrintable(askedBy->text()));
        dialogButton("allowOnceButton")->click();
        const QString audit = QDir(setup->data.path()).filePath(QStringLiteral("audit.jsonl"));
        WAIT_VERIFY(readAll(audit).contains("\"origin\":\"app\""), 15000);
        QString after;
        WAIT_VERIFY(!(after = viewText(view)).contains(time)
                            && after.contains(QLatin1String("Server Time")),
                    15000);

        // A new conversation takes the view down; the saved one shows it again, with the
        // saved result sent again.
        QSignalSpy retired(cards, &Gui::AppCards::viewRetired);
        window.findChild<QPushButton *>(QStringLiteral("newConversationButton"))->click();
        QCOMPARE(retired.count(), 1);
        QCOMPARE(cards->cardCount(), 0);
        auto *list = window.findChild<Gui::ConversationList *>();
        QVERIFY(list);
        WAIT_VERIFY(list->view()->count() >= 1, 5000);
        emit list->openRequested(
                list->view()->item(0)->data(Gui::ConversationList::IdRole).toString());
        WAIT_COMPARE(cards->cardCount(), 1, 5000);
        const QString reopened = cards->callIds().value(0);
        WAIT_VERIFY(cards->bridge(reopened) && cards->bridge(reopened)->isInitialized(), 30000);
        WAIT_VERIFY(viewText(cards->liveView(reopened)).contains(time), 15000);
    }

#ifdef SWITCHBOARD_APPVIEW_BUILT // what a build without the view plugin cannot show
    // A tool run by hand in the tool browser shows its view in the result; a second run
    // replaces it (the first is told it goes).
    void toolBrowserRunShowsTheView()
    {
        auto setup = open(vanillaServer(QStringLiteral(", \"autoApprove\": [\"get-time\"]")));
        QVERIFY(setup);
        Gui::MainWindow &window = *setup->window;
        window.openToolBrowser();
        auto *browser = window.findChild<Gui::ToolBrowser *>();
        QVERIFY(browser);
        QVERIFY(browser->selectTool(ToolName));
        QSignalSpy finished(browser, &Gui::ToolBrowser::runFinished);
        Gui::AppCards *cards = window.appCards();
        QSignalSpy retired(cards, &Gui::AppCards::viewRetired);
        for (int run = 1; run <= 2; ++run) {
            browser->findChild<QPushButton *>(QStringLiteral("runButton"))->click();
            WAIT_COMPARE(finished.count(), run, 15000);
            const QString id = QStringLiteral("panel-%1").arg(run);
            WAIT_VERIFY(cards->bridge(id) && cards->bridge(id)->isInitialized(), 30000);
            Gui::AppView *view = cards->liveView(id);
            QVERIFY(view);
            QCOMPARE(view->window(), static_cast<QWidget *>(browser));
            static const QRegularExpression time(QStringLiteral("Server Time:\\s+20\\d\\d-"));
            QString shown;
            QVERIFY2(
                    waitUntil([&] { return time.match(shown = viewText(view)).hasMatch(); }, 15000),
                    qPrintable(shown));
        }
        QCOMPARE(retired.count(), 1); // the first run's view, when the second replaced it
        QCOMPARE(cards->cardCount(), 1);
    }

    // Ten views in one answer: only those in sight go live, never more than MaxLiveViews at
    // once; one scrolled out of sight is torn down and leaves a still image, and comes back
    // live when scrolled to again.
    void viewsOutOfSightAreTornDown()
    {
        auto setup = open(vanillaServer(QStringLiteral(", \"autoApprove\": [\"get-time\"]")));
        QVERIFY(setup);
        Gui::MainWindow &window = *setup->window;
        Gui::AppCards *cards = window.appCards();
        int live = 0, mostLive = 0;
        connect(cards, &Gui::AppCards::viewLive, this,
                [&] { mostLive = std::max(mostLive, ++live); });
        connect(cards, &Gui::AppCards::viewRetired, this, [&] { --live; });
        constexpr int Views = 10;
        QList<QPair<QString, nlohmann::json>> calls;
        for (int i = 0; i < Views; ++i)
            calls.append({ToolName, nlohmann::json::object()});
        setup->llm.enqueue(FakeLlmServer::openAiToolCalls(calls));
        setup->llm.enqueue(FakeLlmServer::openAiText(QStringLiteral("Ten times.")));
        QSignalSpy finished(window.chatView(), &Gui::ChatView::toolCardFinished);
        send(window, QStringLiteral("What time is it, ten times?"));
        WAIT_COMPARE(finished.count(), Views, 30000);
        QCOMPARE(cards->cardCount(), Views);
        const QStringList ids = cards->callIds();
        // The chat followed the answer to its end: the last card is in sight and live.
        QString last;
        WAIT_VERIFY(
                [&] {
                    for (const QString &id : ids) {
                        if (cards->liveView(id))
                            last = id;
                    }
                    return !last.isEmpty() && cards->bridge(last)->isInitialized();
                }(),
                30000);
        QVERIFY(mostLive <= Gui::AppCards::MaxLiveViews);
        QVERIFY2(cards->liveViewCount() < Views,
                 qPrintable(QString::number(cards->liveViewCount())));

        // Back to the top: the first view comes (back) to life; the last goes out of sight,
        // is torn down, and shows what it showed.
        const QRect before = window.chatView()->viewRect(ids.first());
        QVERIFY(!before.intersects(window.chatView()->viewport()->rect()));
        // As the person would: the chat stops following its end.
        window.chatView()->verticalScrollBar()->triggerAction(QAbstractSlider::SliderToMinimum);
        QVERIFY(!window.chatView()->followsEnd());
        WAIT_VERIFY(cards->liveView(ids.first()) && cards->bridge(ids.first())->isInitialized(),
                    30000);
        WAIT_VERIFY(!cards->liveView(last), Gui::AppCards::OutOfSightMs * 4);
        QVERIFY(cards->showsStill(last));
        QVERIFY(mostLive <= Gui::AppCards::MaxLiveViews);
    }

    // The fixture's view tries what the sandbox and the bridge must refuse; each refusal is
    // reported by the view itself, and the listener it reached for heard nothing.
    void probeViewIsRefusedWhatItDidNotDeclare()
    {
        Listener listener;
        QVERIFY(listener.listen(QHostAddress::LocalHost));
        Probe probe = runProbe(QStringLiteral("probe"), listener.serverPort());
        QVERIFY(probe.setup);
        const QJsonObject &r = probe.report;
        QVERIFY2(!r.isEmpty(), "the probe view never reported");
        QCOMPARE(r.value("fetch").toString(), QStringLiteral("refused"));
        QCOMPARE(r.value("image").toString(), QStringLiteral("refused"));
        QCOMPARE(r.value("open").toString(), QStringLiteral("refused"));
        QCOMPARE(r.value("modelOnly").toString(), QStringLiteral("refused"));
        QCOMPARE(r.value("otherServer").toString(), QStringLiteral("refused"));
        QCOMPARE(r.value("javascriptLink").toString(), QStringLiteral("refused"));
        QCOMPARE(r.value("fileLink").toString(), QStringLiteral("refused"));
        // What it may do, it can.
        QCOMPARE(r.value("appOnly").toString(), QStringLiteral("allowed"));
        QCOMPARE(r.value("ownResource").toString(), QStringLiteral("allowed"));
        QCOMPARE(r.value("message").toString(), QStringLiteral("allowed"));
        QCOMPARE(r.value("context").toString(), QStringLiteral("allowed"));
        QCOMPARE(r.value("seen").toObject().value("toolInput").toInt(), 1);
        Gui::MainWindow &window = *probe.setup->window;
        Gui::AppCards *cards = window.appCards();
        // It is still there (top navigation did not take it away) and no bigger than a card
        // may be, though it asked for 10^9 px.
        QVERIFY(cards->liveView(probe.callId));
        WAIT_COMPARE(window.chatView()->viewRect(probe.callId).height(),
                     Gui::AppCards::MaxInlineHeight, 5000);
        // The view reported after its fetch and image had failed: a connection they made
        // would have been counted by then.
        QCOMPARE(listener.connections, 0);

        // ui/message: in the message box, not sent. ui/update-model-context: a chip, and the
        // context rides on the next request to the model; removed, it does not.
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QCOMPARE(composer->toPlainText(), QStringLiteral("from the probe view"));
        QCOMPARE(window.viewContexts().value(QStringLiteral("probe")),
                 QStringLiteral("the probe saw <b>42</b> things"));
        auto *chip = window.findChild<QToolButton *>(QStringLiteral("viewContextChip"));
        QVERIFY(chip && chip->isVisible());
        // The view's words are text in the tooltip, never markup.
        QVERIFY2(chip->toolTip().contains(QLatin1String("&lt;b&gt;42&lt;/b&gt;")),
                 qPrintable(chip->toolTip()));
        FakeLlmServer &llm = probe.setup->llm;
        const auto lastSystem = [&llm] {
            return QString::fromStdString(llm.requests().constLast().dump());
        };
        llm.enqueue(FakeLlmServer::openAiText(QStringLiteral("Noted.")));
        const int before = int(llm.requests().size());
        window.submit();
        WAIT_COMPARE(int(llm.requests().size()), before + 1, 15000);
        QVERIFY(lastSystem().contains(QLatin1String("the probe saw <b>42</b> things")));
        WAIT_VERIFY(!window.agent()->isBusy(), 5000);
        chip->click();
        QVERIFY(window.viewContexts().isEmpty());
        llm.enqueue(FakeLlmServer::openAiText(QStringLiteral("Fine.")));
        send(window, QStringLiteral("And now?"));
        WAIT_COMPARE(int(llm.requests().size()), before + 2, 15000);
        QVERIFY(!lastSystem().contains(QLatin1String("the probe saw <b>42</b> things")));
    }

    // While the model writes a call that runs without asking, its view is there already and
    // gets what there is of the arguments (ui/notifications/tool-input-partial), each a
    // prefix of the next, then the whole input once, then the result.
    void viewSeesTheCallWhileTheModelWritesIt()
    {
        QString text;
        for (int i = 0; i < 40; ++i)
            text += QStringLiteral("word%1 ").arg(i);
        const nlohmann::json arguments{{"text", text.toStdString()}, {"n", 7}};
        // One piece of the arguments each 100 ms: about four seconds of writing.
        const QString whole = QString::fromStdString(arguments.dump());
        FakeLlmServer::Reply call;
        call.events << openAiChunk(
                {{"tool_calls", nlohmann::json::array({{{"index", 0},
                                                        {"id", "call_slow"},
                                                        {"type", "function"},
                                                        {"function",
                                                         {{"name", "mcp__probe__probe_view"},
                                                          {"arguments", ""}}}}})}});
        for (int at = 0; at < whole.size(); at += 8)
            call.events << openAiChunk(
                    {{"tool_calls",
                      nlohmann::json::array(
                              {{{"index", 0},
                                {"function", {{"arguments", whole.mid(at, 8).toStdString()}}}}})}});
        call.events << openAiChunk(nlohmann::json::object(), "tool_calls") << "[DONE]";
        call.delayBetweenEventsMs = 100;
        Probe probe = runProbe(QStringLiteral("partial"), 9, call);
        QVERIFY(probe.setup);
        const QJsonObject &r = probe.report;
        QVERIFY2(!r.isEmpty(), "the probe view never reported");
        const QJsonArray partials = r.value("partials").toArray();
        QVERIFY2(partials.size() >= 3, QJsonDocument(r).toJson().constData());
        QString previous;
        for (const QJsonValue &partial : partials) {
            const QString shown = partial.toObject().value("text").toString();
            QVERIFY2(text.startsWith(shown) && shown.size() >= previous.size(), qPrintable(shown));
            previous = shown;
        }
        QVERIFY(previous.size() < text.size() || partials.size() > 1);
        QCOMPARE(r.value("input").toObject().value("text").toString(), text);
        QCOMPARE(r.value("input").toObject().value("n").toInt(), 7);
        QStringList order;
        for (const QJsonValue &step : r.value("order").toArray())
            order << step.toString();
        QCOMPARE(order.count(QStringLiteral("input")), 1);
        QCOMPARE(order.count(QStringLiteral("result")), 1);
        QCOMPARE(order.lastIndexOf(QStringLiteral("partial")) + 1,
                 order.indexOf(QStringLiteral("input")));
        QCOMPARE(order.constLast(), QStringLiteral("result"));
    }

    // 10,000 messages in a burst: throttled, the window stays usable, and the view is heard
    // again once it calms down.
    void floodingViewIsThrottled()
    {
        // The window's event loop is never held up long (it is how the person stops a view).
        QElapsedTimer clock;
        clock.start();
        qint64 last = 0, longest = 0;
        QTimer tick;
        connect(&tick, &QTimer::timeout, this, [&] {
            longest = std::max(longest, clock.elapsed() - last);
            last = clock.elapsed();
        });
        tick.start(20);
        Probe probe = runProbe(QStringLiteral("flood"), 9);
        tick.stop();
        QVERIFY(probe.setup);
        QVERIFY2(longest < 1000, qPrintable(QString::number(longest)));
        QCOMPARE(probe.report.value("flood").toString(), QStringLiteral("done"));
        QCOMPARE(probe.report.value("ping").toString(), QStringLiteral("allowed"));
        QVERIFY(probe.setup->window->appCards()->liveView(probe.callId));
    }

    // ui/request-display-mode fullscreen: the view in a window of its own; closing it brings
    // the view back into its card.
    void fullscreenIsAWindowOfItsOwn()
    {
        Probe probe = runProbe(QStringLiteral("fullscreen"), 9);
        QVERIFY(probe.setup);
        QCOMPARE(probe.report.value("mode").toString(), QStringLiteral("fullscreen"));
        Gui::AppCards *cards = probe.setup->window->appCards();
        QCOMPARE(cards->displayMode(probe.callId), QStringLiteral("fullscreen"));
        Gui::AppView *view = cards->liveView(probe.callId);
        QVERIFY(view);
        QWidget *own = view->window();
        QVERIFY(own != probe.setup->window.get());
        QVERIFY(own->isVisible());
        if (qEnvironmentVariableIsSet("SB_SHOT"))
            own->grab().save(qEnvironmentVariable("SB_SHOT") + QStringLiteral(".full.png"));
        own->close();
        WAIT_COMPARE(cards->displayMode(probe.callId), QStringLiteral("inline"), 5000);
        QCOMPARE(view->window(), probe.setup->window.get());
    }

    // The pictures for docs/ (build/tests/screenshots, or SWITCHBOARD_SCREENSHOT_DIR), in
    // both languages: a view in the chat, the approval of a call its button made, and a view
    // in a window of its own.
    // ui/request-display-mode pip: a small window that stays on top, the card saying where the
    // view went; ui/open-link asks first, with the whole address and its site, and opens
    // nothing on Cancel; back inline, the view is in its card again.
    void pipAndLinksAsk()
    {
        openedUrls().clear();
        // The probe waits on each question; the answers are given as a person would, while
        // runProbe waits for its report.
        QStringList asked;
        QSize pipWindow; // the size of the window on top that held the view, when seen
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String("appViewOpenLink"))
                return;
            if (pipWindow.isEmpty()) {
                for (QWidget *top : QApplication::topLevelWidgets()) {
                    auto *window = qobject_cast<Gui::MainWindow *>(top);
                    if (!window || window->appCards()->callIds().isEmpty())
                        continue;
                    const QString id = window->appCards()->callIds().constFirst();
                    Gui::AppView *view = window->appCards()->liveView(id);
                    QWidget *own = view ? view->window() : nullptr;
                    if (own && own != window && own->isVisible()
                        && own->windowFlags().testFlag(Qt::WindowStaysOnTopHint))
                        pipWindow = own->size();
                }
            }
            asked << box->text();
            box->button(asked.size() == 1 ? QMessageBox::Cancel : QMessageBox::Open)->click();
        });
        answer.start(50);
        Probe probe = runProbe(QStringLiteral("modes"), 9);
        answer.stop();
        QVERIFY(probe.setup);
        const QJsonObject &r = probe.report;
        QVERIFY2(!r.isEmpty(), "the probe view never reported");
        QCOMPARE(r.value("pip").toString(), QStringLiteral("pip"));
        QVERIFY2(!pipWindow.isEmpty(), "no window on top held the view in pip");
        QVERIFY(pipWindow.width() <= 480 && pipWindow.height() <= 360);
        QCOMPARE(asked.size(), 2);
        QVERIFY2(asked.at(0).contains(QLatin1String("https://example.com/first?q=1"))
                         && asked.at(0).contains(QLatin1String("example.com")),
                 qPrintable(asked.at(0)));
        QCOMPARE(r.value("first").toString(), QStringLiteral("refused"));
        QCOMPARE(r.value("second").toString(), QStringLiteral("allowed"));
        QCOMPARE(openedUrls(), QList<QUrl>{QUrl(QStringLiteral("https://example.com/second"))});
        QCOMPARE(r.value("inline").toString(), QStringLiteral("inline"));
        Gui::AppCards *cards = probe.setup->window->appCards();
        QCOMPARE(cards->displayMode(probe.callId), QStringLiteral("inline"));
        QCOMPARE(cards->liveView(probe.callId)->window(),
                 static_cast<QWidget *>(probe.setup->window.get()));
    }

    void screenshots_data()
    {
        addLanguageRows();
    }
    void screenshots()
    {
        QFETCH(QString, lang);
        Gui::installLanguage(lang);
        const QString folder = qEnvironmentVariable("SWITCHBOARD_SCREENSHOT_DIR",
                                                    QStringLiteral(SWITCHBOARD_SCREENSHOT_DIR));
        QVERIFY(QDir().mkpath(folder));
        const auto save = [&](QWidget *widget, const QString &name) {
            pause(300); // the page's last frame
            const QPixmap shot = widget->screen()->grabWindow(widget->winId());
            const QString file = QDir(folder).filePath(name + QLatin1Char('-') + lang
                                                       + QStringLiteral(".png"));
            QVERIFY2(shot.save(file, "PNG"), qPrintable(file));
            qInfo("saved %s", qPrintable(file));
        };
        {
            auto setup = open();
            QVERIFY(setup);
            Gui::MainWindow &window = *setup->window;
            window.resize(1100, 900); // the whole view in sight
            setup->llm.enqueue(
                    FakeLlmServer::openAiToolCalls({{ToolName, nlohmann::json::object()}}));
            setup->llm.enqueue(FakeLlmServer::openAiText(
                    lang == QLatin1String("en") ? QStringLiteral("It is shown above.")
                                                : QString::fromUtf8("时间见上方视图。")));
            send(window, lang == QLatin1String("en") ? QStringLiteral("What time is it?")
                                                     : QString::fromUtf8("现在几点？"));
            WAIT_VERIFY(dialogButton("allowOnceButton"), 15000);
            dialogButton("allowOnceButton")->click();
            Gui::AppCards *cards = window.appCards();
            WAIT_COMPARE(cards->cardCount(), 1, 15000);
            const QString callId = cards->callIds().value(0);
            WAIT_VERIFY(cards->bridge(callId) && cards->bridge(callId)->isInitialized(), 30000);
            WAIT_VERIFY(!window.agent()->isBusy(), 15000);
            window.chatView()->verticalScrollBar()->triggerAction(QAbstractSlider::SliderToMinimum);
            save(&window, QStringLiteral("appview-inline"));
            Gui::AppView *view = cards->liveView(callId);
            QTest::mouseClick(pageWidget(view), Qt::LeftButton, {},
                              QPoint(pageWidget(view)->width() - 8, 6));
            QTest::keyClick(pageWidget(view), Qt::Key_Tab);
            QTest::keyClick(pageWidget(view), Qt::Key_Space);
            WAIT_VERIFY(dialogButton("allowOnceButton"), 15000);
            save(QApplication::activeModalWidget(), QStringLiteral("appview-approval"));
            dialogButton("denyButton")->click();
        }
        Probe probe = runProbe(QStringLiteral("fullscreen"), 9);
        QVERIFY(probe.setup);
        Gui::AppView *view = probe.setup->window->appCards()->liveView(probe.callId);
        QVERIFY(view && view->window() != probe.setup->window.get());
        view->window()->resize(900, 600);
        save(view->window(), QStringLiteral("appview-fullscreen"));
        Gui::installLanguage(QStringLiteral("en"));
    }

    // Each of the two walls alone keeps the view in: the CSP without the request filter, and
    // the request filter without the CSP; and with neither, the listener hears the view (so
    // the two checks above could fail).
    void eachWallHoldsAlone_data()
    {
        QTest::addColumn<bool>("csp");
        QTest::addColumn<bool>("filter");
        QTest::addColumn<bool>("reaches");
        QTest::newRow("csp only") << true << false << false;
        QTest::newRow("filter only") << false << true << false;
        QTest::newRow("neither") << false << false << true;
    }
    void eachWallHoldsAlone()
    {
        QFETCH(bool, csp);
        QFETCH(bool, filter);
        QFETCH(bool, reaches);
        Listener listener;
        QVERIFY(listener.listen(QHostAddress::LocalHost));
        const QString target = QStringLiteral("http://127.0.0.1:%1").arg(listener.serverPort());
        const Mcp::Apps::ContentPolicy policy{Mcp::Apps::ViewMeta{}};
        Gui::AppViewSpec spec;
        spec.html = QStringLiteral("<!DOCTYPE html><html><body><img src=\"%1/image.png\">"
                                   "<script>fetch('%1/fetch', {mode: 'no-cors'}).catch(() => {});"
                                   "</script></body></html>")
                            .arg(target)
                            .toUtf8();
        spec.csp = csp ? policy.csp() : QString();
        spec.allows = [policy, filter](const QUrl &url, Mcp::Apps::ContentPolicy::Use use) {
            return !filter || policy.allows(url, use, QUrl());
        };
        Gui::AppViewFactory *factory = Gui::appViewFactory();
        QVERIFY(factory);
        QWidget host;
        host.resize(400, 300);
        host.show();
        QStringList blocked;
        std::unique_ptr<Gui::AppView> view(factory->create(spec, &host));
        view->onBlocked = [&](const QUrl &url, const QString &what) {
            blocked << what + QLatin1Char(' ') + url.toString();
        };
        view->resize(400, 300);
        view->show();
        if (reaches) {
            WAIT_VERIFY(listener.connections > 0, 15000);
        } else {
            pause(2000);
            QCOMPARE(listener.connections, 0);
        }
        if (filter)
            QVERIFY2(blocked.join('\n').contains(
                             QStringLiteral("resource %1/image.png").arg(target)),
                     qPrintable(blocked.join('\n')));
    }
#endif
};

QTEST_MAIN(tst_AppViews)

#include "tst_appviews.moc"
