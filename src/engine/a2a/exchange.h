#pragma once

// Internal to src/engine/a2a: the HTTP exchange under every request the client makes
// (client.cpp, clienttask.cpp, clienttaskfollow.cpp).

#include <mcp/wire/sseparser.h>

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QNetworkReply;

namespace Engine::A2A {

// One HTTP exchange with an agent: a GET or a POST whose answer is JSON (read whole, capped)
// or an event stream (each event handed on as it comes). Calls `finished` exactly once,
// unless destroyed first.
class Exchange : public QObject
{
public:
    using EventSink = std::function<void(const Mcp::SseEvent &)>;
    // `error` empty: `status` and `body` (JSON answers) or the events (streams) are the answer.
    using Finished = std::function<void(int status, const QByteArray &body, const QString &error)>;

    Exchange(QNetworkReply *reply, QString where, EventSink events, Finished finished,
             QObject *parent);
    ~Exchange() override;

    // Nothing more is reported (the owner is done with this exchange, maybe from inside one
    // of its callbacks); the request is aborted.
    void cancel();

private:
    void read();
    void done();
    void finish(int status, const QByteArray &body, const QString &error);

    QPointer<QNetworkReply> m_reply;
    QString m_where;
    EventSink m_events;
    Finished m_finished;
    Mcp::SseParser m_parser;
    QByteArray m_body;
    QString m_streamError;
    bool m_stream = false;
};

} // namespace Engine::A2A
