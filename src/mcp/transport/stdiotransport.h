#pragma once

#include "transport.h"

#include <mcp/process/sandbox.h>
#include <mcp/wire/inboundparser.h>
#include <mcp/wire/ndjsonframer.h>

#include <QMap>
#include <QProcess>
#include <QStringList>
#include <QTimer>

#include <deque>
#include <memory>

class QSocketNotifier;

namespace Mcp {

struct StdioOptions
{
    QString program; // run as given: never split on spaces
    QStringList arguments;
    QString workingDirectory; // the workspace
    // Set over an allow-list of the app's environment (ChildEnvironment::build), or over all of
    // it but the provider keys with inheritEnvironment.
    QMap<QString, QString> environment;
    bool inheritEnvironment = false;
    SandboxPolicy sandbox; // enabled: run under bwrap
    QString sandboxProgram = QString::fromLatin1(Sandbox::DefaultProgram); // a path or a name
    std::int64_t maxMessageBytes = NdjsonFramer::DefaultMaxMessageBytes;
    // Staged shutdown: after closing stdin, wait this long before SIGTERM, then as long
    // again before SIGKILL. 2 s lets a server flush; the spec leaves the value to clients.
    int shutdownStageMs = 2000;
    // Lines of stderr kept for the UI (a "tail"), and the longest line kept whole.
    int stderrTailLines = 200;
    int maxStderrLineBytes = 4096;
};

// Runs an MCP server as a child process and speaks newline-delimited JSON-RPC over its
// stdin/stdout; stderr lines go to a ring buffer and a signal, never counted as failure.
// On POSIX the child gets its own process group (so shutdown reaches its children too) and
// the JSON pipes are our own non-blocking file descriptors: a message is written straight
// away and read in large chunks, without QProcess's extra buffer hop. Elsewhere QProcess's
// channels carry the messages. Owned by a Client.
class StdioTransport : public Transport
{
    Q_OBJECT
public:
    explicit StdioTransport(StdioOptions options, QObject *parent = nullptr);
    ~StdioTransport() override;

    void start() override;
    void send(std::string message) override;
    void close() override;
    bool isOpen() const override { return m_state == State::Running; }
    bool isFinished() const override { return m_state == State::Closed; }
    QString describe() const override { return describeProgram(); }

    QStringList stderrTail() const { return {m_stderrTail.begin(), m_stderrTail.end()}; }
    // The line of a stderr tail that most likely says why the process ended: the last one
    // that reads like an error ("Error: Cannot find module …", "ModuleNotFoundError: …"),
    // not a stack frame; else the last line. Empty for an empty tail.
    static QString explainingLine(const QStringList &tail);
    qint64 processId() const { return m_process.processId(); }

signals:
    // One line the server wrote to stderr: its log, never a failure.
    void stderrLine(const QString &line);

private:
    enum class State { Idle, Starting, Running, Closing, Closed };

    void onStarted();
    void onProcessError(QProcess::ProcessError error);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onLine(std::string_view line);
    void onOversize(const NdjsonFramer::Oversize &dropped);
    void readStdout();
    void readStderr();
    void flushWrites();
    void stdoutEnded();
    void beginShutdown(const QString &reason);
    void shutdownStage();
    void signalGroup(int signal);
    void finishClosed(const QString &reason);
    void closePipes();
    QString describeProgram() const;

    StdioOptions m_options;
    // Children, so that they move with the transport to another thread (Manager).
    QProcess m_process{this};
    NdjsonFramer m_framer;
    InboundParser m_inbound{this};
    bool m_closingAfterInbound = false;
    State m_state = State::Idle;
    int m_shutdownStage = 0;
    QTimer m_shutdownTimer{this};
    QString m_pendingReason;       // why we are closing without being asked to
    bool m_closeRequested = false; // close() was called: the end is orderly
    bool m_processFinished = false;
    std::deque<QString> m_stderrTail;
    QByteArray m_stderrPartial;

#ifdef Q_OS_UNIX
    int m_stdinFd = -1;  // our write end
    int m_stdoutFd = -1; // our read end
    int m_childStdin = -1;
    int m_childStdout = -1;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    std::string m_writeBuffer;
    std::size_t m_writeOffset = 0;
    bool m_corked = false; // inside readStdout(): sends are gathered
    std::unique_ptr<char[]> m_readChunk;
    qint64 m_processGroup = 0;
#endif
};

} // namespace Mcp
