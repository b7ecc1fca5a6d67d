#include "inboundparser.h"

#include "jsonparser.h"

#include <QPointer>
#include <QPromise>
#include <QThreadPool>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace Mcp {

namespace {

constexpr std::size_t BadLineHeadBytes = 200;

// The parses of every transport share one worker: a big line is rare, and two at a time
// would only double the memory peak.
QThreadPool &parsePool()
{
    static QThreadPool *pool = [] {
        auto *created = new QThreadPool;
        created->setMaxThreadCount(1);
        created->setObjectName(QStringLiteral("Mcp::InboundParser"));
        return created;
    }();
    return *pool;
}

// Before a big parse: 64 MiB of room at the top of the heap, advised to be backed by huge
// pages. A 5 MB tools/list becomes some 25 MB of small DOM nodes, and on a virtual machine
// the page faults of 4 KiB pages cost more than the parse itself (measured: the 10,000-tool
// list took 85 ms on the worker, most of it in the kernel). The room is kept (the trim
// threshold) for the next big line. Only with glibc on Linux; where the kernel has no
// transparent huge pages, madvise fails and nothing changes.
void prepareHeapForBigParse()
{
#if defined(__GLIBC__) && defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
    // glibc serves at most 32 MiB from the heap (M_MMAP_THRESHOLD's ceiling): two blocks.
    constexpr int Threshold = 32 * 1024 * 1024;
    constexpr std::size_t Block = Threshold - 4096;
    constexpr std::uintptr_t HugePage = 2 * 1024 * 1024;
    if (mallinfo2().keepcost >= 2 * Block) // the room is still there from a previous line
        return;
    mallopt(M_TRIM_THRESHOLD, 4 * Threshold);
    mallopt(M_MMAP_THRESHOLD, Threshold);
    void *blocks[2] = {malloc(Block), malloc(Block)};
    for (void *block : blocks) {
        if (!block)
            continue;
        const auto at = reinterpret_cast<std::uintptr_t>(block);
        const std::uintptr_t begin = (at + HugePage - 1) & ~(HugePage - 1);
        const std::uintptr_t end = (at + Block) & ~(HugePage - 1);
        if (end > begin)
            madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
    }
    free(blocks[1]);
    free(blocks[0]);
    mallopt(M_MMAP_THRESHOLD, 128 * 1024); // glibc's default
#endif
}

} // namespace

// What a worker parses and leaves its result in. Shared: the parser may be gone before the
// worker finishes, and then the result is simply dropped.
struct InboundParser::Job
{
    std::string line;
    Json message;
};

void InboundParser::shareOneHeap()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
#endif
}

InboundParser::InboundParser(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<void>::finished, this, &InboundParser::parseFinished);
}

InboundParser::~InboundParser() = default;

void InboundParser::push(std::string_view line, std::string *owned)
{
    if (isIdle() && line.size() < OffThreadBytes) {
        handle(line);
        return;
    }
    if (owned && owned->data() == line.data()) {
        owned->resize(line.size());
        m_queue.push_back(std::move(*owned));
    } else {
        m_queue.emplace_back(line);
    }
    if (!m_parsing)
        drain();
}

void InboundParser::whenIdle(std::function<void()> then)
{
    if (isIdle()) {
        then();
        return;
    }
    m_whenIdle = std::move(then);
}

void InboundParser::drain()
{
    QPointer<InboundParser> self(this);
    while (!m_queue.empty()) {
        std::string line = std::move(m_queue.front());
        m_queue.pop_front();
        if (line.size() >= OffThreadBytes) {
            startParse(std::move(line));
            return;
        }
        handle(line);
        if (!self)
            return;
    }
    if (m_whenIdle) {
        auto then = std::move(m_whenIdle);
        m_whenIdle = nullptr;
        then();
    }
}

void InboundParser::startParse(std::string line)
{
    m_parsing = true;
    prepareHeapForBigParse();
    m_job = std::make_shared<Job>();
    m_job->line = std::move(line);
    auto promise = std::make_shared<QPromise<void>>();
    m_watcher.setFuture(promise->future());
    parsePool().start([promise, job = m_job] {
        promise->start();
        job->message = parseJson(job->line);
        if (!job->message.is_discarded())
            std::string().swap(job->line); // only a bad line is still needed (for its head)
        promise->finish();
    });
}

void InboundParser::parseFinished()
{
    std::shared_ptr<Job> job = std::move(m_job);
    m_parsing = false;
    if (!job)
        return;
    QPointer<InboundParser> self(this);
    handOn(std::move(job->message), job->line);
    job.reset();
    if (self)
        drain();
}

void InboundParser::handle(std::string_view line)
{
    handOn(parseJson(line), line);
}

void InboundParser::handOn(Json &&message, std::string_view line)
{
    if (message.is_discarded()) {
        if (m_onBadLine)
            m_onBadLine(line.substr(0, BadLineHeadBytes));
        return;
    }
    if (m_onMessage)
        m_onMessage(std::move(message));
}

} // namespace Mcp
