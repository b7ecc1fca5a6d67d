#pragma once

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
