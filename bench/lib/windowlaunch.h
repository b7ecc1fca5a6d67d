#pragma once

// Shared by the window benchmarks (bench/launch, bench/conversations).

#include <QByteArray>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <vector>

namespace Bench {

// The window's environment for a run: its settings and data under `home`, and no provider
// key (so no keychain or network is touched).
inline QProcessEnvironment windowEnvironment(const QString &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home);
    env.remove(QStringLiteral("OPENAI_API_KEY"));
    env.remove(QStringLiteral("OPENAI_BASE_URL"));
    env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
    return env;
}

struct WindowRun
{
    double ms = -1;    // from start to the first output containing `timed`; -1 if never
    QByteArray output; // everything it printed until `last` (or it ended)
};

// Runs `program` (the window) with `args` and its data under `home`; times the moment its
// output first contains `timed`, reads on until it contains `last`, then lets it exit.
inline WindowRun runWindow(const QString &program, const QStringList &args, const QString &home,
                           const QByteArray &timed, const QByteArray &last, int timeoutMs = 30000)
{
    QProcess process;
    process.setProcessEnvironment(windowEnvironment(home));
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer timer;
    timer.start();
    process.start(program, args);
    WindowRun run;
    while (process.waitForReadyRead(timeoutMs)) {
        run.output += process.readAll();
        if (run.ms < 0 && run.output.contains(timed))
            run.ms = timer.nsecsElapsed() / 1e6;
        if (run.output.contains(last) && run.output.endsWith('\n'))
            break;
    }
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    return run;
}

inline double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace Bench
