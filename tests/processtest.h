#pragma once

#include <QProcess>
#include <QTest>
#include <QtGlobal>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/types.h>
#endif

// Whether a process id is still alive (POSIX; elsewhere always false, and the tests that
// need it are POSIX-only).
inline bool processAlive(qint64 pid)
{
#ifdef Q_OS_UNIX
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
#else
    Q_UNUSED(pid);
    return false;
#endif
}

// Waits for `process` to end with the event loop turning (a server on this thread keeps
// answering it); kills it after `timeoutMs`. True when it ended by itself.
inline bool finishWhileServing(QProcess &process, int timeoutMs = 30000)
{
    (void)QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, timeoutMs);
    if (process.state() == QProcess::NotRunning)
        return true;
    process.kill();
    process.waitForFinished();
    return false;
}

struct ProcessRun
{
    int code = -1; // -1: it crashed or was killed
    QString out, err;
};

// Runs `program` to its end with the event loop turning (see finishWhileServing()), stdin
// closed.
inline ProcessRun runWhileServing(const QString &program, const QStringList &args,
                                  const QProcessEnvironment &env
                                  = QProcessEnvironment::systemEnvironment(),
                                  int timeoutMs = 60000)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(program, args);
    process.closeWriteChannel();
    finishWhileServing(process, timeoutMs);
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}
