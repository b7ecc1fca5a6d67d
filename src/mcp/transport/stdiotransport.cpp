#include "stdiotransport.h"

#include <mcp/process/childenvironment.h>
#include <mcp/wire/jsonparser.h>

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QPointer>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSocketNotifier>
#include <QStandardPaths>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#endif
#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif

Q_LOGGING_CATEGORY(lcStdio, "switchboard.mcp.stdio", QtWarningMsg)

namespace Mcp {

namespace {
#ifdef Q_OS_UNIX
// One read() takes up to this much: a whole (enlarged) pipe, so a 5 MB tools/list arrives in
// a handful of reads. Allocated when the server starts.
constexpr std::size_t ReadChunkBytes = 1024 * 1024;
// Bytes read per notifier activation before yielding to the event loop, so one chatty
// server cannot starve the others.
constexpr std::size_t MaxReadPerActivation = 4 * 1024 * 1024;
// 1 MiB: Linux's default fs.pipe-max-size, the most an unprivileged process may ask for.
constexpr int PipeBytes = 1024 * 1024;

// A closed fd 0-2 in our process would let pipe() hand out a descriptor that the child's
// dup2() onto 0/1 then clobbers; keep our ends at 3 and above.
int raiseFd(int fd)
{
    if (fd > STDERR_FILENO)
        return fd;
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    ::close(fd);
    return moved;
}

bool makePipe(int fds[2])
{
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return false;
    fds[0] = raiseFd(fds[0]);
    fds[1] = raiseFd(fds[1]);
    return fds[0] >= 0 && fds[1] >= 0;
}

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

// Writing to a pipe whose reader died must give EPIPE, not kill the whole application.
void ignoreSigPipeOnce()
{
    static const bool done = [] {
        ::signal(SIGPIPE, SIG_IGN);
        return true;
    }();
    Q_UNUSED(done);
}
#endif

QString resolveProgram(const QString &program, const QProcessEnvironment &env)
{
    if (program.contains(QLatin1Char('/')) || program.contains(QLatin1Char('\\')))
        return program; // a path: the child resolves it against its working directory
    const QStringList path
            = env.value(QStringLiteral("PATH")).split(QDir::listSeparator(), Qt::SkipEmptyParts);
    return QStandardPaths::findExecutable(program, path);
}
} // namespace

StdioTransport::StdioTransport(StdioOptions options, QObject *parent)
    : Transport(parent)
    , m_options(std::move(options))
    , m_framer(m_options.maxMessageBytes)
{
    m_framer.setLineSink([this](std::string_view line) { onLine(line); });
    m_framer.setOversizeSink([this](const NdjsonFramer::Oversize &d) { onOversize(d); });
    m_inbound.setMessageHandler([this](Json &&message) { deliver(std::move(message)); });
    m_inbound.setBadLineHandler([this](std::string_view head) {
        emit warning(tr("skipped a line that is not JSON on stdout: %1")
                             .arg(QString::fromUtf8(head.data(), qsizetype(head.size()))));
    });
    m_shutdownTimer.setSingleShot(true);
    connect(&m_shutdownTimer, &QTimer::timeout, this, &StdioTransport::shutdownStage);
    connect(&m_process, &QProcess::errorOccurred, this, &StdioTransport::onProcessError);
    connect(&m_process, &QProcess::finished, this, &StdioTransport::onFinished);
    connect(&m_process, &QProcess::readyReadStandardError, this, &StdioTransport::readStderr);
#ifdef Q_OS_UNIX
    ignoreSigPipeOnce();
#else
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &StdioTransport::readStdout);
#endif
}

StdioTransport::~StdioTransport()
{
    m_process.disconnect(this);
    if (m_process.state() != QProcess::NotRunning) {
#ifdef Q_OS_UNIX
        signalGroup(SIGKILL);
#endif
        m_process.kill();
        // SIGKILL cannot be ignored: reap it now (milliseconds). QProcess's destructor would
        // wait for it anyway (up to 30 s), after warning that it was destroyed while the
        // process still ran; this is that same wait, bounded and without the warning. Only
        // reached when a transport dies with its process (application exit); an orderly
        // close (Manager::stop) waits for the exit from the event loop instead.
        m_process.waitForFinished(1000);
    }
#ifdef Q_OS_UNIX
    closePipes();
#endif
}

QString StdioTransport::describeProgram() const
{
    return m_options.program;
}

void StdioTransport::start()
{
    Q_ASSERT(m_state == State::Idle);
    m_state = State::Starting;

    QProcessEnvironment env
            = ChildEnvironment::build(QProcessEnvironment::systemEnvironment(),
                                      m_options.environment, m_options.inheritEnvironment);

    QString program = resolveProgram(m_options.program, env);
    QStringList arguments = m_options.arguments;
    auto failLater = [this](const QString &reason) {
        QMetaObject::invokeMethod(
                this, [this, reason] { finishClosed(reason); }, Qt::QueuedConnection);
    };
    if (program.isEmpty()) {
        failLater(tr("command '%1' was not found on PATH").arg(m_options.program));
        return;
    }
    if (!m_options.workingDirectory.isEmpty() && !QFileInfo(m_options.workingDirectory).isDir()) {
        failLater(tr("working directory '%1' does not exist").arg(m_options.workingDirectory));
        return;
    }
    if (m_options.sandbox.enabled) {
        // Inside, a relative command would be looked up from the sandbox's cwd (the
        // workspace) just as outside; bwrap needs it absolute to exec it by path.
        const QString workspace = m_options.workingDirectory.isEmpty() ? QDir::currentPath()
                                                                       : m_options.workingDirectory;
        if (QFileInfo(program).isRelative())
            program = QDir(workspace).absoluteFilePath(program);
        QString error;
        const auto command = Sandbox::wrap(m_options.sandbox, m_options.sandboxProgram, workspace,
                                           program, arguments, &env, &error);
        if (!command) {
            failLater(error);
            return;
        }
        program = command->program;
        arguments = command->arguments;
    }

    m_process.setProcessEnvironment(env);
    m_process.setWorkingDirectory(m_options.workingDirectory);

#ifdef Q_OS_UNIX
    int in[2] = {-1, -1};
    int out[2] = {-1, -1};
    if (!makePipe(in) || !makePipe(out)) {
        const int err = errno;
        closeFd(in[0]), closeFd(in[1]), closeFd(out[0]), closeFd(out[1]);
        failLater(tr("could not create pipes: %1").arg(QString::fromLocal8Bit(strerror(err))));
        return;
    }
    m_childStdin = in[0];
    m_stdinFd = in[1];
    m_stdoutFd = out[0];
    m_childStdout = out[1];
    ::fcntl(m_stdinFd, F_SETFL, ::fcntl(m_stdinFd, F_GETFL) | O_NONBLOCK);
    ::fcntl(m_stdoutFd, F_SETFL, ::fcntl(m_stdoutFd, F_GETFL) | O_NONBLOCK);
#ifdef F_SETPIPE_SZ
    // A larger pipe lets a server write a big reply in fewer, larger pieces (and wake us less
    // often). Best effort: the kernel may cap it (fs.pipe-max-size).
    ::fcntl(m_stdoutFd, F_SETPIPE_SZ, PipeBytes);
#endif

    // QProcess forwards stdin/stdout (so it creates no pipes for them); the modifier, which
    // runs in the child after fork, puts our pipes there and starts a new process group.
    // Only async-signal-safe calls are allowed in it.
    m_process.setInputChannelMode(QProcess::ForwardedInputChannel);
    m_process.setProcessChannelMode(QProcess::ForwardedOutputChannel);
    const int childIn = m_childStdin;
    const int childOut = m_childStdout;
    m_process.setChildProcessModifier([childIn, childOut] {
        ::dup2(childIn, STDIN_FILENO);
        ::dup2(childOut, STDOUT_FILENO);
        ::setpgid(0, 0);
#ifdef Q_OS_LINUX
        // If we die without a chance to shut down, the server learns at once.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
    });
#endif

    connect(&m_process, &QProcess::started, this, &StdioTransport::onStarted, Qt::UniqueConnection);
    m_process.start(program, arguments);

#ifdef Q_OS_UNIX
    // The child has its copies (or failed to start); ours would keep the pipes open forever.
    closeFd(m_childStdin);
    closeFd(m_childStdout);
#endif
}

void StdioTransport::onStarted()
{
    if (m_state != State::Starting)
        return;
    m_state = State::Running;
#ifdef Q_OS_UNIX
    m_processGroup = m_process.processId();
    m_readChunk.reset(new char[ReadChunkBytes]);
    m_readNotifier = new QSocketNotifier(m_stdoutFd, QSocketNotifier::Read, this);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &StdioTransport::readStdout);
    m_writeNotifier = new QSocketNotifier(m_stdinFd, QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &StdioTransport::flushWrites);
#endif
    qCDebug(lcStdio) << "started" << m_options.program << m_process.processId();
    emit started();
}

void StdioTransport::onProcessError(QProcess::ProcessError error)
{
    if (error == QProcess::FailedToStart) {
        finishClosed(
                tr("could not start '%1': %2").arg(describeProgram(), m_process.errorString()));
    }
}

void StdioTransport::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_processFinished = true; // the drain below may see EOF: that is this same ending
    readStdout();             // whatever the server wrote before it went is still in the pipe
    readStderr();
    m_framer.finish();
#ifdef Q_OS_UNIX
    signalGroup(SIGTERM); // children it left behind (a wrapper such as npx exits first)
#endif
    QString reason;
    if (!m_closeRequested) {
        reason = status == QProcess::CrashExit
                         ? tr("server process crashed (%1)").arg(m_process.errorString())
                         : tr("server process exited with code %1").arg(exitCode);
        if (m_shutdownStage > 0 && !m_pendingReason.isEmpty())
            reason = tr("%1 and had to be stopped").arg(m_pendingReason);
        const QString sandboxFailure = m_options.sandbox.enabled && !m_stderrTail.empty()
                                               ? Sandbox::failureReason(m_stderrTail.back())
                                               : QString();
        if (!sandboxFailure.isEmpty())
            reason = sandboxFailure;
        else if (!m_stderrTail.empty()) {
            // The line that explains, which is often not the last ("Node.js v20.20.2").
            const QString line = explainingLine(stderrTail());
            reason += line == m_stderrTail.back() ? tr("; last stderr line: %1").arg(line)
                                                  : tr("; stderr: %1").arg(line);
        }
    }
    finishClosed(reason);
}

QString StdioTransport::explainingLine(const QStringList &tail)
{
    static const QRegularExpression error(
            QStringLiteral("(error|exception)\\b|\\b(cannot|can't|could not|couldn't|unable to|"
                           "not found|no such|permission denied|denied|failed|fatal|panic|"
                           "missing|invalid|ENOENT|EACCES|EADDRINUSE)\\b"),
            QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression frame(QStringLiteral("^\\s+(at |File \")"));
    for (auto it = tail.crbegin(); it != tail.crend(); ++it) {
        if (error.match(*it).hasMatch() && !frame.match(*it).hasMatch())
            return it->trimmed();
    }
    for (auto it = tail.crbegin(); it != tail.crend(); ++it) {
        if (!it->trimmed().isEmpty())
            return it->trimmed();
    }
    return QString();
}

void StdioTransport::send(std::string message)
{
    if (m_state != State::Running)
        return;
    tap(TrafficDirection::Sent, message);
    message += '\n';
#ifdef Q_OS_UNIX
    if (m_corked) {
        // Replies to what we are reading right now: gathered, written in one go afterwards,
        // so the server reads them in one chunk too.
        m_writeBuffer.append(message);
        return;
    }
    if (m_writeBuffer.size() == m_writeOffset) {
        const char *data = message.data();
        std::size_t left = message.size();
        while (left > 0) {
            const ssize_t n = ::write(m_stdinFd, data, left);
            if (n > 0) {
                data += n;
                left -= std::size_t(n);
            } else if (n < 0 && errno == EINTR) {
                continue;
            } else {
                break;
            }
        }
        if (left == 0)
            return;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            emit warning(tr("writing to the server failed: %1")
                                 .arg(QString::fromLocal8Bit(strerror(errno))));
            return; // the process's end arrives through finished()
        }
        m_writeBuffer.assign(data, left);
        m_writeOffset = 0;
        m_writeNotifier->setEnabled(true);
        return;
    }
    m_writeBuffer.append(message);
#else
    m_process.write(message.data(), qint64(message.size()));
#endif
}

void StdioTransport::flushWrites()
{
#ifdef Q_OS_UNIX
    while (m_writeOffset < m_writeBuffer.size()) {
        const ssize_t n = ::write(m_stdinFd, m_writeBuffer.data() + m_writeOffset,
                                  m_writeBuffer.size() - m_writeOffset);
        if (n > 0) {
            m_writeOffset += std::size_t(n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            const bool wouldBlock = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
            if (m_writeNotifier)
                m_writeNotifier->setEnabled(wouldBlock);
            if (!wouldBlock) {
                m_writeBuffer.clear(); // the reader is gone; finished() follows
                m_writeOffset = 0;
                emit warning(tr("writing to the server failed: %1")
                                     .arg(QString::fromLocal8Bit(strerror(errno))));
            }
            return;
        }
    }
    m_writeBuffer.clear();
    m_writeOffset = 0;
    if (m_writeNotifier)
        m_writeNotifier->setEnabled(false);
#endif
}

void StdioTransport::readStdout()
{
    QPointer<StdioTransport> self(this);
#ifdef Q_OS_UNIX
    if (m_stdoutFd < 0)
        return;
    std::size_t total = 0;
    m_corked = true;
    bool ended = false;
    while (total < MaxReadPerActivation) {
        const ssize_t n = ::read(m_stdoutFd, m_readChunk.get(), ReadChunkBytes);
        if (n > 0) {
            total += std::size_t(n);
            m_framer.feed(m_readChunk.get(), std::size_t(n));
            if (!self)
                return;
            // A short read emptied the pipe: what the server writes next wakes the notifier
            // again. Not asking once more until EAGAIN saves a system call per reply, and it
            // stood between a reply and the request it let us send (sequential calls). Once
            // the server has gone, read on to the end.
            if (std::size_t(n) < ReadChunkBytes && !m_processFinished)
                break;
        } else if (n == 0) {
            ended = true;
            break;
        } else if (errno == EINTR) {
            continue;
        } else {
            ended = errno != EAGAIN && errno != EWOULDBLOCK;
            break;
        }
    }
    m_corked = false;
    if (m_writeOffset < m_writeBuffer.size() && m_stdinFd >= 0)
        flushWrites();
    if (ended)
        stdoutEnded();
#else
    const QByteArray data = m_process.readAllStandardOutput();
    m_framer.feed(data.constData(), std::size_t(data.size()));
#endif
}

void StdioTransport::stdoutEnded()
{
#ifdef Q_OS_UNIX
    if (m_readNotifier)
        m_readNotifier->setEnabled(false);
    closeFd(m_stdoutFd);
#endif
    m_framer.finish();
    if (m_state == State::Running
        && !m_processFinished) // it can no longer answer: make sure it is gone
        beginShutdown(tr("server closed its standard output"));
}

void StdioTransport::readStderr()
{
    m_stderrPartial += m_process.readAllStandardError();
    qsizetype start = 0;
    QPointer<StdioTransport> self(this);
    auto emitLine = [&](QByteArrayView bytes) {
        QString line = QString::fromUtf8(bytes.first(std::min<qsizetype>(
                                                 bytes.size(), m_options.maxStderrLineBytes)))
                               .trimmed();
        if (line.isEmpty())
            return;
        m_stderrTail.push_back(line);
        while (int(m_stderrTail.size()) > m_options.stderrTailLines)
            m_stderrTail.pop_front();
        emit stderrLine(line);
    };
    for (;;) {
        const qsizetype newline = m_stderrPartial.indexOf('\n', start);
        if (newline < 0)
            break;
        emitLine(QByteArrayView(m_stderrPartial).sliced(start, newline - start));
        if (!self)
            return;
        start = newline + 1;
    }
    m_stderrPartial.remove(0, start);
    if (m_stderrPartial.size() > m_options.maxStderrLineBytes) {
        // A "line" without end: show what we have rather than grow without bound.
        emitLine(m_stderrPartial);
        if (!self)
            return;
        m_stderrPartial.clear();
    }
}

void StdioTransport::onLine(std::string_view line)
{
    if (line.find_first_not_of(" \t\r") == std::string_view::npos)
        return; // blank lines carry nothing
    // The protocol log sees the bytes as they came, not a re-serialization of the parsed value.
    tap(TrafficDirection::Received, line);
    m_inbound.push(line, m_framer.lineOwner());
}

void StdioTransport::onOversize(const NdjsonFramer::Oversize &dropped)
{
    const Json id = guessMessageId(dropped.head, dropped.tail);
    emit warning(tr("dropped a %1-byte message over the %2-byte cap")
                         .arg(dropped.bytes)
                         .arg(m_framer.maxMessageBytes()));
    emit messageTooLarge(dropped.bytes, id);
}

void StdioTransport::close()
{
    m_closeRequested = true;
    beginShutdown(QString());
}

void StdioTransport::beginShutdown(const QString &reason)
{
    switch (m_state) {
    case State::Idle:
        finishClosed(reason);
        return;
    case State::Closing:
    case State::Closed:
        return;
    case State::Starting:
    case State::Running:
        break;
    }
    m_state = State::Closing;
    m_pendingReason = reason;
#ifdef Q_OS_UNIX
    flushWrites();
    if (m_writeNotifier)
        m_writeNotifier->setEnabled(false);
    closeFd(m_stdinFd); // stage 1: end of input, a well-behaved server exits now
#else
    m_process.closeWriteChannel();
#endif
    if (m_process.state() == QProcess::NotRunning) {
        finishClosed(reason);
        return;
    }
    m_shutdownStage = 0;
    m_shutdownTimer.start(m_options.shutdownStageMs);
}

void StdioTransport::shutdownStage()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    ++m_shutdownStage;
    if (m_shutdownStage == 1) {
        qCDebug(lcStdio) << "terminating" << m_options.program;
#ifdef Q_OS_UNIX
        signalGroup(SIGTERM);
#else
        m_process.terminate();
#endif
        m_shutdownTimer.start(m_options.shutdownStageMs);
    } else {
        qCDebug(lcStdio) << "killing" << m_options.program;
#ifdef Q_OS_UNIX
        signalGroup(SIGKILL);
#endif
        m_process.kill();
    }
}

void StdioTransport::signalGroup(int signal)
{
#ifdef Q_OS_UNIX
    if (m_processGroup > 0)
        ::kill(pid_t(-m_processGroup), signal);
#else
    Q_UNUSED(signal);
#endif
}

void StdioTransport::closePipes()
{
#ifdef Q_OS_UNIX
    delete m_readNotifier;
    m_readNotifier = nullptr;
    delete m_writeNotifier;
    m_writeNotifier = nullptr;
    closeFd(m_stdinFd);
    closeFd(m_stdoutFd);
    closeFd(m_childStdin);
    closeFd(m_childStdout);
#endif
}

void StdioTransport::finishClosed(const QString &reason)
{
    if (m_state == State::Closed || m_closingAfterInbound)
        return;
    if (!m_inbound.isIdle()) {
        // A big message still being parsed came before the end: it is handed on first.
        m_closingAfterInbound = true;
        m_inbound.whenIdle([this, reason] {
            m_closingAfterInbound = false;
            finishClosed(reason);
        });
        return;
    }
    m_state = State::Closed;
    m_shutdownTimer.stop();
    closePipes();
    qCDebug(lcStdio) << "closed" << m_options.program << reason;
    emit closed(reason);
}

} // namespace Mcp
