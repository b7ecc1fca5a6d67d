// The big-result benchmark (issue 9, deliverables 1 and 9): the model asks for a tool whose
// result is 20 MB (the fixture server's `big` tool), in the real main window. Measures, from
// the request to the end of the turn: the longest event-loop stall (a 2 ms timer records the
// gaps between its ticks), the process's CPU seconds, and how much its peak resident memory
// rose. Then the card is opened and its whole result shown in the viewer, each timed; then the
// same tool is run by hand in the tool browser (its longest stall) and its viewer opened.
// Prints one line per figure. Targets: CPU under 1.5 s, peak under 250 MB, stall under 100 ms.
//
//   xvfb-run -a build/bench/bigresult/bench_bigresult     (or QT_QPA_PLATFORM=offscreen)

#include "../../tests/fakellmserver.h"
#include "../lib/stallsampler.h"

#include <ui/chatview.h>
#include <ui/mainwindow.h>
#include <ui/resultviewer.h>
#include <ui/schemaform.h>
#include <ui/toolbrowser.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>

#include <sys/resource.h>

namespace {

constexpr qint64 ResultBytes = 20 * 1024 * 1024;

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// VmHWM or VmRSS of this process, in MB.
double memoryMb(const char *key)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(key))
            return line.mid(qstrlen(key)).trimmed().split(' ').value(0).toDouble() / 1024;
    }
    return -1;
}

} // namespace

int main(int argc, char *argv[])
{
    QTemporaryDir home, workspace;
    // The window and the CLI that trusts the workspace share these folders.
    qputenv("XDG_CONFIG_HOME", home.path().toUtf8());
    qputenv("XDG_DATA_HOME", home.path().toUtf8());
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("switchboard")); // the CLI's trust file

    FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
    if (!model.listen())
        return 2;
    model.enqueue(FakeLlmServer::openAiToolCalls(
            {{QStringLiteral("mcp__fix__big"), nlohmann::json{{"bytes", ResultBytes}}}}));
    model.enqueue(FakeLlmServer::openAiText(QStringLiteral("It is big.")));
    qputenv("OPENAI_BASE_URL", model.baseUrl().toUtf8());
    qunsetenv("OPENAI_API_KEY");
    qunsetenv("ANTHROPIC_API_KEY");

    QFile config(QDir(workspace.path()).filePath(QStringLiteral(".mcp.json")));
    if (!config.open(QIODevice::WriteOnly)
        || config.write(QStringLiteral("{\"mcpServers\": {\"fix\": {\"command\": \"%1\", "
                                       "\"risk\": \"read\"}}}\n")
                                .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                                .toUtf8())
                   < 0)
        return 2;
    config.close();
    QProcess trust;
    trust.start(QStringLiteral(SWITCHBOARD_CLI),
                {QStringLiteral("--workspace"), workspace.path(), QStringLiteral("trust")});
    if (!trust.waitForFinished(30000) || trust.exitCode() != 0) {
        std::fprintf(stderr, "bench_bigresult: trust failed\n");
        return 2;
    }

    Gui::MainWindowOptions options;
    options.workspace = QDir(workspace.path()).canonicalPath();
    Gui::MainWindow window(options);
    window.show();

    Bench::StallSampler sampler;
    QElapsedTimer clock;
    double cpuBefore = 0;
    double rssBefore = 0;

    // The same result run by hand from the tool browser: the stall while it arrives and is
    // shown, then its viewer opened.
    const auto runInToolBrowser = [&] {
        window.openToolBrowser();
        auto *browser = window.findChild<Gui::ToolBrowser *>();
        if (!browser || !browser->selectTool(QStringLiteral("mcp__fix__big"))) {
            std::fprintf(stderr, "bench_bigresult: no tool browser or no big tool\n");
            QApplication::exit(1);
            return;
        }
        auto *form = browser->findChild<Gui::SchemaForm *>(QStringLiteral("schemaForm"));
        auto *bytes
                = form ? qobject_cast<QLineEdit *>(form->editor(QStringLiteral("bytes"))) : nullptr;
        auto *run = browser->findChild<QPushButton *>(QStringLiteral("runButton"));
        if (!bytes || !run) {
            std::fprintf(stderr, "bench_bigresult: the tool browser's form is not as expected\n");
            QApplication::exit(1);
            return;
        }
        bytes->setText(QString::number(ResultBytes));
        QObject::connect(browser, &Gui::ToolBrowser::runFinished, &app, [&, browser] {
            sampler.stop();
            const qint64 runMs = clock.elapsed();
            QElapsedTimer opening;
            opening.start();
            const auto buttons
                    = browser->findChildren<QPushButton *>(QStringLiteral("openWholeResult"));
            if (buttons.isEmpty()) {
                std::fprintf(stderr, "bench_bigresult: the tool browser shows no big result\n");
                QApplication::exit(1);
                return;
            }
            buttons.first()->click();
            std::printf("browser_run_ms=%lld browser_max_stall_ms=%lld browser_viewer_open_ms=%lld "
                        "rss_after_mb=%.1f\n",
                        runMs, sampler.stallMs(), opening.elapsed(), memoryMb("VmRSS:"));
            QApplication::quit();
        });
        QTimer::singleShot(300, browser, [&, run] {
            clock.restart();
            sampler.start();
            run->click();
        });
    };

    const auto start = [&] {
        if (!window.agent()) {
            std::fprintf(stderr, "bench_bigresult: no agent\n");
            QApplication::exit(1);
            return;
        }
        QObject::connect(window.agent(), &Engine::Agent::turnFinished, &app, [&] {
            sampler.stop();
            std::printf("result=%lld bytes turn_seconds=%.2f cpu_seconds=%.2f "
                        "peak_rss_rise_mb=%.1f peak_rss_mb=%.1f max_stall_ms=%lld\n",
                        ResultBytes, clock.nsecsElapsed() / 1e9, cpuSeconds() - cpuBefore,
                        memoryMb("VmHWM:") - rssBefore, memoryMb("VmHWM:"), sampler.stallMs());
            std::fflush(stdout);
            // The card opened, then its whole result in the viewer.
            Gui::ChatView *chat = window.chatView();
            int card = -1;
            for (int i = 0; i < 100 && card < 0; ++i) {
                const QString links = chat->document()->toHtml();
                if (links.contains(QStringLiteral("sb:toggle:%1").arg(i)))
                    card = i;
            }
            QElapsedTimer opening;
            opening.start();
            chat->activateLink(QUrl(QStringLiteral("sb:toggle:%1").arg(card)));
            const qint64 toggleMs = opening.elapsed();
            opening.restart();
            chat->activateLink(QUrl(QStringLiteral("sb:whole:%1").arg(card)));
            const qint64 viewerMs = opening.elapsed();
            std::printf("card_open_ms=%lld viewer_open_ms=%lld rss_after_mb=%.1f\n", toggleMs,
                        viewerMs, memoryMb("VmRSS:"));
            std::fflush(stdout);
            for (auto *viewer : window.findChildren<Gui::ResultViewer *>())
                viewer->close();
            runInToolBrowser();
        });
        cpuBefore = cpuSeconds();
        rssBefore = memoryMb("VmHWM:");
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        composer->setPlainText(QStringLiteral("show me the big one"));
        clock.start();
        sampler.start();
        window.submit();
    };
    // The server connected and the window idle.
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (window.manager()->isSettled() && window.manager()->client(QStringLiteral("fix"))) {
            poll.stop();
            QTimer::singleShot(300, &window, start);
        }
    });
    poll.start(20);
    QTimer::singleShot(120000, &app, [&window] {
        std::fprintf(stderr, "bench_bigresult: no answer within 120 s; the chat says: %s\n",
                     qPrintable(window.chatView()->document()->toPlainText().right(600)));
        QApplication::exit(1);
    });
    return app.exec();
}
