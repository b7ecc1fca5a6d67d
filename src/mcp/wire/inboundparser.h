#pragma once

#include "jsonrpc.h"

#include <QFutureWatcher>
#include <QObject>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace Mcp {

// Turns the lines a transport receives into JSON messages, handed on in the order the lines
// came. A line of OffThreadBytes or more is parsed on a worker thread: 20 MB of JSON takes
// tens of milliseconds, too long for the GUI thread. Lines after it wait their turn (copied
// then, which is cheap for the small lines that follow), and so does anything the owner wants
// to happen after the last message (see whenIdle).
class InboundParser : public QObject
{
    Q_OBJECT
public:
    static constexpr std::size_t OffThreadBytes = 1024 * 1024;

    // A parsed message. The handler may delete the parser's owner.
    using MessageHandler = std::function<void(Json &&message)>;
    // A line that is not JSON: its first bytes (at most 200).
    using BadLineHandler = std::function<void(std::string_view head)>;

    // For main(), before any thread starts: every thread then allocates from the process's
    // main heap. By glibc's default the parse worker gets an arena of its own, which grows a
    // page at a time (an mprotect per page: 5,500 for a 10,000-tool list) and which the GUI
    // thread must lock to free what the worker built. No effect on other C libraries.
    static void shareOneHeap();

    explicit InboundParser(QObject *parent = nullptr);
    ~InboundParser() override;

    void setMessageHandler(MessageHandler handler) { m_onMessage = std::move(handler); }
    void setBadLineHandler(BadLineHandler handler) { m_onBadLine = std::move(handler); }

    // A received line. Small lines with nothing queued before them are parsed and handed on
    // at once; `owned`, when given, holds the line's bytes and may be moved from (saves copying
    // a big line).
    void push(std::string_view line, std::string *owned = nullptr);
    // True when no line waits and no parse runs.
    bool isIdle() const { return m_queue.empty() && !m_parsing; }
    // Runs `then` once every line pushed so far has been handed on (at once when idle).
    void whenIdle(std::function<void()> then);

private:
    void drain();
    void startParse(std::string line);
    void parseFinished();
    void handle(std::string_view line);
    void handOn(Json &&message, std::string_view line);

    MessageHandler m_onMessage;
    BadLineHandler m_onBadLine;
    std::deque<std::string> m_queue;
    bool m_parsing = false;
    struct Job;
    std::shared_ptr<Job> m_job;
    QFutureWatcher<void> m_watcher{this}; // a child: it moves with the parser
    std::function<void()> m_whenIdle;
};

} // namespace Mcp
