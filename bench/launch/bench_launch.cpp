// The launch benchmark (issue 4): how long from starting `switchboard` until its window is
// first painted, when a configured server never answers `initialize`, against the same
// launch with no server at all. Runs alternate A (no server) and B (a dead server) so drift
// on a noisy machine hits both alike; prints each run, the medians and B's worst case.
//
//   xvfb-run -a build/bench/launch/bench_launch [RUNS]      (or QT_QPA_PLATFORM=offscreen)
//
// The time is wall clock from QProcess::start() to the line `switchboard --report-startup`
// prints after the first paint, so it includes exec, dynamic linking and Qt's start-up.

#include "../lib/windowlaunch.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

bool writeConfig(const QString &workspace, const QByteArray &text)
{
    QFile file(QDir(workspace).filePath(QStringLiteral(".mcp.json")));
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

// The dead server must really be started: trust the workspace as its user would.
bool trust(const QString &workspace, const QString &dataHome)
{
    QProcess process;
    process.setProcessEnvironment(Bench::windowEnvironment(dataHome));
    process.start(QStringLiteral(SWITCHBOARD_CLI),
                  {QStringLiteral("--workspace"), workspace, QStringLiteral("trust")});
    return process.waitForFinished(30000) && process.exitStatus() == QProcess::NormalExit
           && process.exitCode() == 0;
}

// Milliseconds to the "shown" line, or -1.
double launchOnce(const QString &workspace, const QString &dataHome)
{
    return Bench::runWindow(
                   QStringLiteral(SWITCHBOARD_GUI),
                   {QStringLiteral("--workspace"), workspace, QStringLiteral("--report-startup")},
                   dataHome, "shown", "shown", 10000)
            .ms;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 11;

    QTemporaryDir none, dead, data;
    const QByteArray deadConfig
            = QStringLiteral("{\"mcpServers\": {\"dead\": {\"command\": \"%1\", "
                             "\"args\": [\"--no-init-reply\"]}}}\n")
                      .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER))
                      .toUtf8();
    if (!writeConfig(none.path(), "{\"mcpServers\": {}}\n") || !writeConfig(dead.path(), deadConfig)
        || !trust(dead.path(), data.path())) {
        std::fprintf(stderr, "bench_launch: cannot write the workspaces\n");
        return 1;
    }

    launchOnce(none.path(), data.path()); // warm the page cache and the font cache
    std::vector<double> a, b;
    for (int i = 0; i < runs; ++i) {
        const double msA = launchOnce(none.path(), data.path());
        const double msB = launchOnce(dead.path(), data.path());
        if (msA < 0 || msB < 0) {
            std::fprintf(stderr, "bench_launch: run %d: the window never reported its paint\n",
                         i + 1);
            return 1;
        }
        a.push_back(msA);
        b.push_back(msB);
        std::printf("run %2d  no server %7.1f ms   dead server %7.1f ms\n", i + 1, msA, msB);
    }
    const double worst = *std::max_element(b.begin(), b.end());
    std::printf("median: no server %.1f ms, dead server %.1f ms (ratio %.2f); dead server worst "
                "%.1f ms; target < 1000 ms: %s\n",
                Bench::median(a), Bench::median(b), Bench::median(b) / Bench::median(a), worst,
                worst < 1000 ? "met" : "NOT met");
    return worst < 1000 ? 0 : 2;
}
