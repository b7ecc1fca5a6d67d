// The MCP Apps benchmark (issue 32, deliverable 11): the model calls get-time of the official
// example server (@modelcontextprotocol/server-basic-vanillajs, pinned) in the real main
// window, and its view is shown in the card. Measures:
//   - first view, cold: from the tool's result reaching the chat to the view's handshake done
//     (its page loaded and its script running: ui/notifications/initialized), the first view
//     of the process (Qt WebEngine not yet started);
//   - first view, warm: the same for a view of a second answer;
//   - proportional memory (PSS, /proc/PID/smaps_rollup: shared pages counted once) of the
//     window and its WebEngine processes together, with 1 view and with 20 views in one
//     conversation (the chat at its end, as after the answer).
// Prints one line per figure. Targets: cold <= 1.5 s, warm <= 300 ms, PSS <= 350 / 600 MB.
//
//   xvfb-run -a build/bench/appviews/bench_appviews [RUNS]

#include "../../tests/fakellmserver.h"
#include "../../tests/pinnednode.h"
#include "../../tests/windowtest.h"

#include <engine/apps/appbridge.h>
#include <ui/appcards.h>
#include <ui/chatview.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace {

const QString ToolName = QStringLiteral("mcp__apps__get_time");

QString servers()
{
    return QStringLiteral("\"apps\": {\"command\": \"%1\", \"args\": [\"%2\", \"--stdio\"], "
                          "\"autoApprove\": [\"get-time\"]}")
            .arg(PinnedNode::program(),
                 QStringLiteral(SWITCHBOARD_SOURCE_DIR "/node_modules/@modelcontextprotocol/"
                                                       "server-basic-vanillajs/dist/index.js"));
}

// kB of PSS of `pid` (smaps_rollup), 0 when unreadable.
qint64 pssKb(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/smaps_rollup").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.startsWith("Pss:"))
            return line.mid(4).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

// This process and its WebEngine processes (QtWebEngineProcess, our descendants), in MB.
// The MCP server (node) is not counted: it is the server's, not the view's.
double windowPssMb()
{
    const qint64 self = QCoreApplication::applicationPid();
    qint64 kb = pssKb(self);
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &pid : pids) {
        bool ok = false;
        const qint64 id = pid.toLongLong(&ok);
        if (!ok || id == self)
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(id));
        if (!cmdline.open(QIODevice::ReadOnly) || !cmdline.readAll().contains("QtWebEngineProcess"))
            continue;
        // A descendant of ours: walk up the parents.
        qint64 up = id;
        for (int hops = 0; hops < 8 && up > 1 && up != self; ++hops) {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(up));
            if (!stat.open(QIODevice::ReadOnly))
                break;
            const QByteArray text = stat.readAll();
            up = text.mid(text.lastIndexOf(')') + 2).split(' ').value(1).toLongLong();
        }
        if (up == self)
            kb += pssKb(id);
    }
    return kb / 1024.0;
}

// Sends `calls` calls of get-time in one answer; the ms from each result to its view's
// handshake, for the views that went live (in sight).
std::vector<double> answer(Gui::MainWindow &window, FakeLlmServer &llm, int calls)
{
    QList<QPair<QString, nlohmann::json>> list;
    for (int i = 0; i < calls; ++i)
        list.append({ToolName, nlohmann::json::object()});
    llm.enqueue(FakeLlmServer::openAiToolCalls(list));
    llm.enqueue(FakeLlmServer::openAiText(QStringLiteral("Done.")));
    Gui::AppCards *cards = window.appCards();
    QHash<QString, QElapsedTimer> since;
    QObject context;
    QObject::connect(window.chatView(), &Gui::ChatView::toolCardFinished, &context,
                     [&](const QString &id) { since[id].start(); });
    std::vector<double> shown;
    QSet<QString> done;
    QTimer poll;
    poll.setTimerType(Qt::PreciseTimer);
    QObject::connect(&poll, &QTimer::timeout, &context, [&] {
        for (auto it = since.begin(); it != since.end(); ++it) {
            Engine::AppBridge *bridge = cards->bridge(it.key());
            if (!done.contains(it.key()) && bridge && bridge->isInitialized()) {
                done.insert(it.key());
                shown.push_back(double(it.value().nsecsElapsed()) / 1e6);
            }
        }
    });
    poll.start(10);
    auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
    composer->setPlainText(QStringLiteral("What time is it?"));
    window.submit();
    // Until the answer is over and the views in sight are up.
    (void)waitUntil(
            [&] {
                return since.size() == calls && !done.isEmpty()
                       && int(done.size()) >= std::min(calls, cards->liveViewCount())
                       && !window.agent()->isBusy();
            },
            60000);
    pause(300);
    return shown;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 3;
    std::vector<double> cold, warm, pss1, pss20;
    int liveAt20 = 0;
    for (int run = 0; run < runs; ++run) {
        // A fresh process would be a truer cold start; WebEngine cannot be started twice in
        // one, so only the first run's first view is cold.
        QTemporaryDir workspace, data;
        FakeLlmServer llm(FakeLlmServer::Dialect::OpenAi);
        if (!llm.listen())
            return 1;
        auto window = openTestWindow(workspace.path(), data.path(), QStringLiteral("c"), servers(),
                                     llm.baseUrl(), QStringLiteral("apps"));
        if (!window) {
            std::fprintf(stderr, "bench_appviews: the window or the server did not start\n");
            return 1;
        }
        window->activateWindow();
        (void)waitUntil([&] { return window->isActiveWindow(); }, 5000);
        const std::vector<double> first = answer(*window, llm, 1);
        if (first.empty()) {
            std::fprintf(stderr, "bench_appviews: the view was never shown\n");
            return 1;
        }
        (run == 0 ? cold : warm).push_back(first.front());
        pause(1000);
        pss1.push_back(windowPssMb());
        const std::vector<double> second = answer(*window, llm, 1);
        if (!second.empty())
            warm.push_back(second.front());
        answer(*window, llm, 18); // 20 views in the conversation
        pause(Gui::AppCards::OutOfSightMs * 2);
        liveAt20 = window->appCards()->liveViewCount();
        pss20.push_back(windowPssMb());
        std::printf("run %d: first view %.1f ms (%s), next %.1f ms; PSS %.1f MB with 1 view, "
                    "%.1f MB with 20 (%d live)\n",
                    run + 1, first.front(), run == 0 ? "cold" : "warm",
                    second.empty() ? -1.0 : second.front(), pss1.back(), pss20.back(), liveAt20);
        std::fflush(stdout);
        window->close();
        waitUntil([&] { return !window->isVisible(); }, 10000);
        window.reset();
    }
    std::printf("first view cold: %.1f ms (target <= 1500)\n", cold.front());
    std::printf("first view warm: median %.1f ms of %zu (target <= 300)\n", median(warm),
                warm.size());
    std::printf("PSS with 1 view: median %.1f MB (target <= 350)\n", median(pss1));
    std::printf("PSS with 20 views: median %.1f MB, %d live (target <= 600)\n", median(pss20),
                liveAt20);
    return 0;
}
