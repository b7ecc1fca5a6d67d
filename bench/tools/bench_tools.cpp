// The many-tools benchmark (issue 9, deliverable 6): one server with 10,000 tools (the
// fixture server's --tools 10000, one 3.6 MB tools/list).
//
//   A: `switchboard-cli servers` (connect, list, print the count, exit): whole process.
//   B: `switchboard --report-tools`: from QProcess::start() to the line the window prints once
//      the server settled with its tools in the dock and the registry. Then the window opens
//      the tool browser and prints how long it took to its first paint, and its peak RSS.
//
// Targets: B within 1.25x A (median of pairs), the tool browser under 500 ms, RSS under 120 MB.
//
//   xvfb-run -a build/bench/tools/bench_tools [RUNS]
//
// A and B alternate (AB, BA) after one warm-up pair.

#include "../lib/windowlaunch.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cstdio>
#include <vector>

namespace {

constexpr int ToolCount = 10000;

double runCli(const QString &workspace, const QString &home)
{
    QProcess process;
    process.setProcessEnvironment(Bench::windowEnvironment(home));
    QElapsedTimer timer;
    timer.start();
    process.start(QStringLiteral(SWITCHBOARD_CLI),
                  {QStringLiteral("--workspace"), workspace, QStringLiteral("servers")});
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return -1;
    const double ms = timer.nsecsElapsed() / 1e6;
    return process.readAllStandardOutput().contains("connected") ? ms : -1;
}

struct Window
{
    double settledMs = -1;
    double browserMs = -1;
    double peakMb = -1;
    long tools = -1;
};

Window runWindow(const QString &workspace, const QString &home)
{
    const Bench::WindowRun run = Bench::runWindow(
            QStringLiteral(SWITCHBOARD_GUI),
            {QStringLiteral("--workspace"), workspace, QStringLiteral("--report-tools")}, home,
            "tools\n", "peak RSS", 60000);
    Window result;
    result.settledMs = run.ms;
    const QString text = QString::fromLatin1(run.output);
    const auto number = [&text](const char *pattern) {
        const QRegularExpressionMatch match
                = QRegularExpression(QString::fromLatin1(pattern)).match(text);
        return match.hasMatch() ? match.captured(1).toDouble() : -1.0;
    };
    result.tools = long(number("ms after main\\(\\), (\\d+) tools"));
    result.browserMs = number("tool browser shown (\\d+) ms");
    const double kb = number("peak RSS (\\d+) kB");
    result.peakMb = kb < 0 ? -1 : kb / 1024;
    return result;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 7;
    QTemporaryDir workspace, home;
    {
        QFile config(QDir(workspace.path()).filePath(QStringLiteral(".mcp.json")));
        const QByteArray text = QStringLiteral("{\"mcpServers\": {\"big\": {\"command\": \"%1\", "
                                               "\"args\": [\"--tools\", \"%2\"]}}}\n")
                                        .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                                        .arg(ToolCount)
                                        .toUtf8();
        if (!config.open(QIODevice::WriteOnly) || config.write(text) != text.size())
            return 1;
    }
    {
        QProcess trust; // the user trusts the folder's server, as the window would ask
        trust.setProcessEnvironment(Bench::windowEnvironment(home.path()));
        trust.start(QStringLiteral(SWITCHBOARD_CLI),
                    {QStringLiteral("--workspace"), workspace.path(), QStringLiteral("trust")});
        if (!trust.waitForFinished(30000) || trust.exitCode() != 0) {
            std::fprintf(stderr, "bench_tools: trust failed\n");
            return 1;
        }
    }

    runCli(workspace.path(), home.path()); // warm-up pair
    runWindow(workspace.path(), home.path());
    std::vector<double> cli, settled, ratio, browser, peak;
    for (int i = 0; i < runs; ++i) {
        double a = -1;
        Window b;
        if (i % 2 == 0) {
            a = runCli(workspace.path(), home.path());
            b = runWindow(workspace.path(), home.path());
        } else {
            b = runWindow(workspace.path(), home.path());
            a = runCli(workspace.path(), home.path());
        }
        if (a < 0 || b.settledMs < 0 || b.browserMs < 0 || b.tools < ToolCount) {
            std::fprintf(stderr,
                         "bench_tools: run %d failed (cli %.0f ms, window %.0f ms, %ld "
                         "tools)\n",
                         i + 1, a, b.settledMs, b.tools);
            return 1;
        }
        cli.push_back(a);
        settled.push_back(b.settledMs);
        ratio.push_back(b.settledMs / a);
        browser.push_back(b.browserMs);
        peak.push_back(b.peakMb);
        std::printf("run %2d  cli servers %7.1f ms   window listed %7.1f ms (x%.2f)   tool "
                    "browser %6.1f ms   peak RSS %6.1f MB\n",
                    i + 1, a, b.settledMs, b.settledMs / a, b.browserMs, b.peakMb);
        std::fflush(stdout);
    }
    std::printf("median: cli %.1f ms, window %.1f ms, ratio %.2f (target <= 1.25: %s); tool "
                "browser %.1f ms (target < 500: %s); peak RSS %.1f MB (target < 120: %s)\n",
                Bench::median(cli), Bench::median(settled), Bench::median(ratio),
                Bench::median(ratio) <= 1.25 ? "met" : "NOT met", Bench::median(browser),
                Bench::median(browser) < 500 ? "met" : "NOT met", Bench::median(peak),
                Bench::median(peak) < 120 ? "met" : "NOT met");
    return 0;
}
