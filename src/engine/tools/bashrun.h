#pragma once

#include "builtintool.h"

namespace Engine::Builtin {

// Cuts long command output for the model: its head and its larger tail (bashrun.cpp).
QString headAndTail(const QString &text, int maxChars);

// One bash execution: the process, its timer and its output. It owns itself: the
// connections on its QProcess keep it alive until the process ends, then the process is
// deleted and the last reference goes. The cancel handle holds it weakly.
class BashRun : public std::enable_shared_from_this<BashRun>
{
public:
    QString command;
    QString workingDirectory;
    int timeoutMs = 0;
    std::function<void(ToolOutput)> done;

    // `sandboxProgram` non-empty: run under bubblewrap (that program).
    void start(const QString &sandboxProgram)
    {
        if (!done)
            return; // cancelled while the sandbox probe ran
#ifdef Q_OS_WIN
        // Git for Windows' bash, from PATH.
        QString program = QStringLiteral("bash");
#else
        QString program = QStringLiteral("/bin/bash");
#endif
        QStringList arguments{QStringLiteral("-c"), command};
        // The allow-list of the environment (no provider keys). Pagers would wait for a key
        // press that never comes.
        QProcessEnvironment env = Mcp::ChildEnvironment::build(
                QProcessEnvironment::systemEnvironment(),
                {{QStringLiteral("PAGER"), QStringLiteral("cat")},
                 {QStringLiteral("GIT_PAGER"), QStringLiteral("cat")}},
                false);
        if (!sandboxProgram.isEmpty()) {
            QString error;
            const auto wrapped
                    = Mcp::Sandbox::wrap(Mcp::SandboxPolicy{true, true, {}}, sandboxProgram,
                                         workingDirectory, program, arguments, &env, &error);
            if (!wrapped) {
                std::exchange(done, nullptr)(
                        ToolOutput::error(Text::tr("bash was not run: %1").arg(error)));
                return;
            }
            program = wrapped->program;
            arguments = wrapped->arguments;
            m_sandboxed = true;
        }
        m_process = new QProcess;
        m_process->setProgram(program);
        m_process->setArguments(arguments);
        m_process->setWorkingDirectory(workingDirectory);
        m_process->setProcessChannelMode(QProcess::MergedChannels);
        // No one can type into it: a command that reads stdin gets end-of-file, not a hang.
        m_process->setStandardInputFile(QProcess::nullDevice());
        m_process->setProcessEnvironment(env);
#ifdef Q_OS_UNIX
        // Its own process group, so that a timeout or cancel ends the children too
        // (`make` spawns compilers, `sh -c 'sleep 100 & wait'` a sleep).
        m_process->setChildProcessModifier([] { ::setpgid(0, 0); });
#endif
        auto self = shared_from_this();
        QObject::connect(m_process, &QProcess::started, m_process,
                         [self] { self->m_pid = self->m_process->processId(); });
        QObject::connect(m_process, &QProcess::readyReadStandardOutput, m_process,
                         [self] { self->readOutput(); });
        QObject::connect(m_process, &QProcess::finished, m_process,
                         [self](int exitCode, QProcess::ExitStatus status) {
                             self->finished(exitCode, status);
                         });
        QObject::connect(m_process, &QProcess::errorOccurred, m_process,
                         [self](QProcess::ProcessError error) {
                             if (error == QProcess::FailedToStart)
                                 self->failedToStart();
                         });
        m_timer = new QTimer(m_process);
        m_timer->setSingleShot(true);
        QObject::connect(m_timer, &QTimer::timeout, m_process, [self] {
            self->m_timedOut = true;
            self->killGroup();
        });
        m_timer->start(timeoutMs);
        m_process->start();
    }

    void cancel()
    {
        if (!done)
            return;
        m_cancelled = true;
        if (m_process)
            killGroup();
        else // still waiting for the sandbox probe: nothing runs yet
            std::exchange(done, nullptr)(
                    ToolOutput::error(Text::tr("[cancelled before the command started]")));
    }

private:
    void readOutput()
    {
        const QByteArray chunk = m_process->readAllStandardOutput();
        const qint64 room = MaxBashKeptBytes - m_output.size();
        if (chunk.size() <= room) {
            m_output += chunk;
        } else {
            m_output += chunk.left(room);
            m_dropped += chunk.size() - room;
        }
    }

    void killGroup()
    {
#ifdef Q_OS_UNIX
        if (m_pid > 0)
            ::kill(-pid_t(m_pid), SIGKILL);
#endif
        if (m_process->state() != QProcess::NotRunning)
            m_process->kill();
    }

    void failedToStart()
    {
        deliver(ToolOutput::error(
                Text::tr("bash could not be started: %1").arg(m_process->errorString())));
    }

    void finished(int exitCode, QProcess::ExitStatus status)
    {
        readOutput();
        // Background jobs the command left behind would outlive the call, unseen; they end
        // with it (the group outlives its leader).
        killGroup();
        const QString output = QString::fromUtf8(m_output);
        QString tail;
        bool isError = true;
        Json exitCodeJson = nullptr;
        if (m_cancelled) {
            tail = Text::tr("[cancelled; the command and its child processes were killed]");
        } else if (m_timedOut) {
            tail = Text::tr("[timed out after %1 ms; the command and its child processes were "
                            "killed]")
                           .arg(timeoutMs);
        } else if (status == QProcess::CrashExit) {
            tail = Text::tr("[the command was killed by a signal]");
        } else {
            exitCodeJson = exitCode;
            isError = exitCode != 0;
            tail = Text::tr("[exit code %1]").arg(exitCode);
            // bwrap itself failed (no user namespaces): say so, not only "exit code 1".
            const QString sandboxFailure
                    = m_sandboxed && isError
                              ? Mcp::Sandbox::failureReason(output.section(QLatin1Char('\n'), 0, 0))
                              : QString();
            if (!sandboxFailure.isEmpty())
                tail += QLatin1Char('\n') + sandboxFailure;
        }
        QString modelText = output.isEmpty() ? Text::tr("(no output)")
                                             : headAndTail(output, BashModelOutputChars);
        if (!modelText.endsWith(QLatin1Char('\n')))
            modelText += QLatin1Char('\n');
        if (m_dropped > 0)
            modelText += Text::tr("[%1 of output beyond the first %2 was dropped]\n")
                                 .arg(sizeText(m_dropped), sizeText(MaxBashKeptBytes));
        ToolOutput result = ToolOutput::text(modelText + tail, isError);
        // The whole output for the UI; the model reads only the text block above.
        result.structuredContent = {{"output", output.toStdString()},
                                    {"exitCode", exitCodeJson},
                                    {"timedOut", m_timedOut},
                                    {"cancelled", m_cancelled},
                                    {"droppedBytes", m_dropped}};
        deliver(std::move(result));
    }

    void deliver(ToolOutput output)
    {
        auto callback = std::exchange(done, nullptr);
        m_timer->stop(); // the group may be gone and its id reused: no late kill
        // Deleting the process drops its connections, and with them the last references
        // to this run (after this function returns: `self` copies live in the slot).
        m_process->deleteLater();
        if (callback)
            callback(std::move(output));
    }

    QProcess *m_process = nullptr;
    QTimer *m_timer = nullptr;
    qint64 m_pid = 0;
    QByteArray m_output;
    qint64 m_dropped = 0;
    bool m_timedOut = false;
    bool m_cancelled = false;
    bool m_sandboxed = false;
};

} // namespace Engine::Builtin
