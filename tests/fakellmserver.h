#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

class QTcpServer;
class QTcpSocket;

// A scripted model server on 127.0.0.1 for provider and agent-loop tests: a minimal HTTP/1.1
// server (request line, headers, Content-Length body) that answers each completion request
// with the next scripted reply, as a chunked SSE stream or a plain body. Every connection is
// closed after its reply. All asynchronous on the event loop; never blocks.
class FakeLlmServer : public QObject
{
    Q_OBJECT
public:
    enum class Dialect { OpenAi, Anthropic };

    explicit FakeLlmServer(Dialect dialect, QObject *parent = nullptr);
    ~FakeLlmServer() override;

    bool listen(); // a random port on 127.0.0.1
    quint16 port() const;
    // OpenAi: "http://127.0.0.1:PORT/v1"; Anthropic: "http://127.0.0.1:PORT"
    QString baseUrl() const;

    struct Reply
    {
        int status = 200;
        QList<QByteArray> headers; // extra "Name: value"
        // Raw SSE event payloads: each becomes "data: ...\n\n" for OpenAi; for Anthropic give
        // complete "event: x\ndata: y" blocks (a blank line is appended).
        QList<QByteArray> events;
        QByteArray body; // non-SSE body (errors)
        int delayBetweenEventsMs = 0;
        bool dropConnectionAfterEvents = false; // broken stream
        // After the last event the stream neither ends nor breaks: the model is still
        // "thinking" until the client goes away (a turn stopped or a window closed mid-answer).
        bool holdOpenAfterEvents = false;
    };
    // Each incoming request takes the next reply in order; with none left: 500 and a JSON
    // error saying so.
    void enqueue(Reply reply);
    int pendingReplies() const { return int(m_script.size()); }

    static Reply openAiText(const QString &text, int chunks = 3);
    // Arguments split across several chunks, calls interleaved by index.
    static Reply openAiToolCalls(const QList<QPair<QString, nlohmann::json>> &calls);
    static Reply anthropicText(const QString &text, int chunks = 3);
    static Reply anthropicToolUse(const QList<QPair<QString, nlohmann::json>> &calls);

    // GET …/models is answered apart from the script: with this body (200) once set, else
    // 404. Those requests are not in requests() or requestPaths().
    void setModelList(QByteArray body, int status = 200)
    {
        m_modelList = std::move(body);
        m_modelListStatus = status;
    }
    int modelListRequests() const { return m_modelListRequests; }
    QList<QByteArray> modelListHeaders() const { return m_modelListHeaders; } // the last one's
    QByteArray modelListPath() const { return m_modelListPath; }              // the last one's

    // As OpenAI's server does: a request whose history gives two tool calls one id (or two
    // results one call's id) is answered 400, and takes no scripted reply.
    void setStrictToolCallIds(bool strict) { m_strictToolCallIds = strict; }
    // The id the last request repeated, empty when none did.
    static QString repeatedToolCallId(const nlohmann::json &request);

    QList<nlohmann::json> requests() const { return m_requests; } // bodies, parsed
    QList<QByteArray> requestHeaders(int index) const;            // "Name: value" as received
    QList<QByteArray> requestPaths() const { return m_paths; }

signals:
    void requestReceived(int index);
    // The connection that carried the reply to request `index` (-1: a model list) is closed:
    // `whole` when the reply was all written, false when the client went away first.
    void replyEnded(int index, bool whole);

private:
    struct Connection;
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void respond(QTcpSocket *socket, Reply reply);
    void writeNextEvent(QTcpSocket *socket, Reply reply, int next);

    Dialect m_dialect;
    QTcpServer *m_server;
    QList<Reply> m_script;
    bool m_strictToolCallIds = false;
    QList<nlohmann::json> m_requests;
    QList<QList<QByteArray>> m_headers;
    QList<QByteArray> m_paths;
    QByteArray m_modelList;
    int m_modelListStatus = 404;
    int m_modelListRequests = 0;
    QList<QByteArray> m_modelListHeaders;
    QByteArray m_modelListPath;
};
