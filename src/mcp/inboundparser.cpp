#include "inboundparser.h"

#include "jsonparser.h"

#include <QPointer>
#include <QPromise>
#include <QThreadPool>

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

} // namespace

// What a worker parses and leaves its result in. Shared: the parser may be gone before the
// worker finishes, and then the result is simply dropped.
struct InboundParser::Job
{
    std::string line;
    Json message;
};

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
