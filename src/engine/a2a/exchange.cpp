#include "exchange.h"

#include "client.h"

#include <mcp/transport/httpsupport.h>

#include <QNetworkReply>

namespace Engine::A2A {

Exchange::Exchange(QNetworkReply *reply, QString where, EventSink events, Finished finished,
                   QObject *parent)
    : QObject(parent)
    , m_reply(reply)
    , m_where(std::move(where))
    , m_events(std::move(events))
    , m_finished(std::move(finished))
    , m_parser(Client::MaxAnswerBytes)
{
    m_parser.setEventSink([this](const Mcp::SseEvent &event) {
        if (m_events)
            m_events(event);
    });
    m_parser.setErrorSink([this](const QString &message) { m_streamError = message; });
    connect(reply, &QNetworkReply::readyRead, this, &Exchange::read);
    connect(reply, &QNetworkReply::finished, this, &Exchange::done);
}

Exchange::~Exchange()
{
    Mcp::Http::discard(m_reply, this);
}

void Exchange::read()
{
    if (!m_reply)
        return;
    const QByteArray chunk = m_reply->readAll();
    if (Mcp::Http::isEventStream(m_reply) && Mcp::Http::status(m_reply) / 100 == 2) {
        m_stream = true;
        m_parser.feed(chunk);
        return;
    }
    if (m_body.size() + chunk.size() > Client::MaxAnswerBytes) {
        // The agent answered (its status is known): not "unreachable".
        const int status = Mcp::Http::status(m_reply);
        Mcp::Http::discard(m_reply, this);
        finish(status, {},
               tr("%1 sent an answer larger than %2 MiB")
                       .arg(m_where)
                       .arg(Client::MaxAnswerBytes / (1024 * 1024)));
        return;
    }
    m_body += chunk;
}

void Exchange::done()
{
    if (!m_reply)
        return;
    read();
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    const int status = Mcp::Http::status(reply);
    QString error;
    if (status == 0)
        error = Mcp::Http::unreachable(m_where, reply->url(), reply);
    else if (m_stream && !m_streamError.isEmpty())
        error = tr("%1: %2").arg(m_where, m_streamError);
    Mcp::Http::discard(m_reply, this);
    finish(status, m_body, error);
}

void Exchange::finish(int status, const QByteArray &body, const QString &error)
{
    if (auto finished = std::exchange(m_finished, nullptr))
        finished(status, body, error);
}

void Exchange::cancel()
{
    m_events = nullptr;
    m_finished = nullptr;
    Mcp::Http::discard(m_reply, this);
}

} // namespace Engine::A2A
