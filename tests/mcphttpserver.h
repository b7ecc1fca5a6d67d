#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <map>
#include <string>

class QTcpServer;
class QTcpSocket;

// A small MCP server over Streamable HTTP on 127.0.0.1 for transport tests: a minimal HTTP/1.1
// server (request line, headers, Content-Length body; every connection closed after its
// answer) that speaks MCP 2025-11-25 with one tool, "echo", and misbehaves on demand — it
// drops a stream mid-response, forgets the session, asks for credentials, fails with 500,
// sends garbage or truncated JSON, hangs, and mixes a ping and a stray response into a
// stream. Every request is recorded. Asynchronous on the event loop; never blocks.
class McpHttpServer : public QObject
{
    Q_OBJECT
public:
    explicit McpHttpServer(QObject *parent = nullptr);
    ~McpHttpServer() override;

    bool listen();
    quint16 port() const;
    QString url() const; // http://127.0.0.1:PORT/mcp

    struct Request
    {
        QByteArray method; // GET, POST, DELETE
        QByteArray path;
        QMap<QByteArray, QByteArray> headers; // names lower-cased
        nlohmann::json body;                  // POST bodies, parsed (null otherwise)
        QString rpcMethod() const;            // body["method"], empty for a response
    };
    QList<Request> requests() const { return m_requests; }
    // The recorded requests whose JSON-RPC method is `method` ("" for responses).
    QList<Request> requestsFor(const QString &method) const;
    int count(const QByteArray &httpMethod) const;

    // Misbehaviour, each until changed.
    bool jsonAnswers = false;        // answer requests with application/json, not SSE
    bool dropNextCallStream = false; // the next tools/call stream: a priming event, then closed
    bool expireSessionOnNextCall = false; // the next tools/call: 404, the session forgotten
    bool requireAuth = false;             // every POST: 401 with a WWW-Authenticate challenge
    // When set, a POST whose Authorization header this refuses gets a 401 whose challenge
    // names `resourceMetadata` (a sign-in fixture's protected resource metadata).
    std::function<bool(const QByteArray &authorization)> authorize;
    QByteArray resourceMetadata;
    bool failNextCall = false;       // the next tools/call: HTTP 500 with a text body
    bool garbageInNextCall = false;  // the next tools/call stream carries non-JSON data first
    bool truncateNextCall = false;   // the next tools/call: a JSON body cut short, then closed
    bool hangCalls = false;          // tools/call is never answered (the connection stays open)
    bool interleaveNextCall = false; // the next stream: a server ping and a stray id first
    bool offerGetStream = false;     // GET opens a server stream (else 405)
    int retryMs = 200;               // the `retry` the priming events carry
    // An old server (HTTP+SSE, 2024-11-05): POST /mcp is 405; GET /mcp opens the event stream
    // whose first event names `legacyEndpoint`; answers to what is POSTed there arrive on it.
    bool legacy = false;
    QByteArray legacyEndpoint = "/messages?sid=7";
    // A server of the 2026-07-28 era: server/discover answered (tools that can change), no
    // sessions, initialize refused; subscriptions/listen acknowledged on a stream that stays
    // open (see notifyToolsChanged, dropSubscriptions).
    bool modern = false;
    // Modern: resources with `subscribe` too; a listen is acknowledged with its whole filter.
    bool offerResourceUpdates = false;
    // Modern: tools/list_changed on every open subscription (with its id in _meta).
    void notifyToolsChanged();
    // Modern: notifications/resources/updated for `uri` on each open subscription naming it.
    void notifyResourceUpdated(const std::string &uri);
    // Modern: every open subscription's stream closed without a word (a broken stream), or
    // ended with the completion result (graceful).
    void dropSubscriptions(bool graceful = false);
    int openSubscriptions() const;
    // The filter each subscription asked for, by its subscription's id (dumped).
    std::map<std::string, nlohmann::json> subscriptionFilters;

    QString sessionId() const { return QString::fromLatin1(m_session); }
    int sessionsStarted() const { return m_sessions; }

signals:
    void requestReceived();

private:
    struct Connection
    {
        QByteArray buffer;
    };
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void handle(QTcpSocket *socket, Request request);
    void handlePost(QTcpSocket *socket, const Request &request);
    void handleLegacy(QTcpSocket *socket, const Request &request);
    void answer(QTcpSocket *socket, const nlohmann::json &message,
                const QList<QByteArray> &extraHeaders = {});
    void writeRaw(QTcpSocket *socket, int status, const QByteArray &contentType,
                  const QByteArray &body, const QList<QByteArray> &extraHeaders = {});
    void startSse(QTcpSocket *socket, const QList<QByteArray> &extraHeaders = {});
    void writeEvent(QTcpSocket *socket, const QByteArray &id, const QByteArray &data);
    nlohmann::json resultFor(const nlohmann::json &request);

    QTcpServer *m_server;
    QMap<QTcpSocket *, Connection> m_connections;
    QList<Request> m_requests;
    QByteArray m_session;
    int m_sessions = 0;
    int m_eventCounter = 0;
    // The answer kept back for a resumed stream: Last-Event-ID → the response.
    QMap<QByteArray, nlohmann::json> m_resumable;
    QPointer<QTcpSocket> m_legacyStream;
    QList<QPair<QPointer<QTcpSocket>, nlohmann::json>> m_subscriptions; // stream, listen id
};
