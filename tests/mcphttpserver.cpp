#include "mcphttpserver.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <utility>

using nlohmann::json;

QString McpHttpServer::Request::rpcMethod() const
{
    return body.is_object() && body.contains("method") && body["method"].is_string()
                   ? QString::fromStdString(body["method"].get<std::string>())
                   : QString();
}

McpHttpServer::McpHttpServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &McpHttpServer::onNewConnection);
}

McpHttpServer::~McpHttpServer() = default;

bool McpHttpServer::listen()
{
    return m_server->listen(QHostAddress::LocalHost, 0);
}

quint16 McpHttpServer::port() const
{
    return m_server->serverPort();
}

QString McpHttpServer::url() const
{
    return QStringLiteral("http://127.0.0.1:%1/mcp").arg(port());
}

QList<McpHttpServer::Request> McpHttpServer::requestsFor(const QString &method) const
{
    QList<Request> found;
    for (const Request &request : m_requests) {
        if (request.method == "POST" && request.rpcMethod() == method)
            found << request;
    }
    return found;
}

int McpHttpServer::count(const QByteArray &httpMethod) const
{
    int n = 0;
    for (const Request &request : m_requests)
        n += request.method == httpMethod ? 1 : 0;
    return n;
}

void McpHttpServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        m_connections.insert(socket, {});
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_connections.remove(socket);
            socket->deleteLater();
        });
    }
}

void McpHttpServer::onReadyRead(QTcpSocket *socket)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->buffer += socket->readAll();
    const qsizetype end = it->buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return;
    Request request;
    const QList<QByteArray> lines = it->buffer.left(end).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    request.method = requestLine.value(0);
    request.path = requestLine.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            request.headers.insert(lines[i].left(colon).trimmed().toLower(),
                                   lines[i].mid(colon + 1).trimmed());
    }
    const qsizetype length = request.headers.value("content-length", "0").toLongLong();
    if (it->buffer.size() < end + 4 + length)
        return;
    const QByteArray body = it->buffer.mid(end + 4, length);
    it->buffer.clear();
    if (!body.isEmpty())
        request.body = json::parse(body.toStdString(), nullptr, false);
    handle(socket, std::move(request));
}

void McpHttpServer::writeRaw(QTcpSocket *socket, int status, const QByteArray &contentType,
                             const QByteArray &body, const QList<QByteArray> &extraHeaders)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + " Status\r\n";
    if (!contentType.isEmpty())
        head += "Content-Type: " + contentType + "\r\n";
    for (const QByteArray &header : extraHeaders)
        head += header + "\r\n";
    head += "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n";
    socket->write(head + body);
    socket->disconnectFromHost();
}

void McpHttpServer::startSse(QTcpSocket *socket, const QList<QByteArray> &extraHeaders)
{
    QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                      "Cache-Control: no-cache\r\nConnection: close\r\n";
    for (const QByteArray &header : extraHeaders)
        head += header + "\r\n";
    socket->write(head + "\r\n");
}

void McpHttpServer::writeEvent(QTcpSocket *socket, const QByteArray &id, const QByteArray &data)
{
    QByteArray event;
    if (!id.isEmpty())
        event += "id: " + id + "\n";
    event += "data: " + data + "\n\n";
    socket->write(event);
}

void McpHttpServer::answer(QTcpSocket *socket, const json &message,
                           const QList<QByteArray> &extraHeaders)
{
    const QByteArray text = QByteArray::fromStdString(message.dump());
    if (jsonAnswers) {
        writeRaw(socket, 200, "application/json", text, extraHeaders);
        return;
    }
    startSse(socket, extraHeaders);
    writeEvent(socket, "p" + QByteArray::number(++m_eventCounter), QByteArray());
    writeEvent(socket, "e" + QByteArray::number(++m_eventCounter), text);
    socket->disconnectFromHost();
}

void McpHttpServer::notifyToolsChanged()
{
    for (const auto &[socket, id] : std::as_const(m_subscriptions)) {
        if (socket)
            writeEvent(socket, QByteArray(),
                       QByteArray::fromStdString(
                               json{{"jsonrpc", "2.0"},
                                    {"method", "notifications/tools/list_changed"},
                                    {"params",
                                     {{"_meta", {{"io.modelcontextprotocol/subscriptionId", id}}}}}}
                                       .dump()));
    }
}

void McpHttpServer::notifyResourceUpdated(const std::string &uri)
{
    for (const auto &[socket, id] : std::as_const(m_subscriptions)) {
        const json &uris = subscriptionFilters[id.dump()].value("resourceSubscriptions", json());
        if (!socket || !uris.is_array() || std::find(uris.begin(), uris.end(), uri) == uris.end())
            continue;
        writeEvent(socket, QByteArray(),
                   QByteArray::fromStdString(json{
                           {"jsonrpc", "2.0"},
                           {"method", "notifications/resources/updated"},
                           {"params",
                            {{"_meta", {{"io.modelcontextprotocol/subscriptionId", id}}},
                             {"uri", uri}}}}.dump()));
    }
}

void McpHttpServer::dropSubscriptions(bool graceful)
{
    const auto subscriptions = std::exchange(m_subscriptions, {});
    for (const auto &[socket, id] : subscriptions) {
        if (!socket)
            continue;
        if (graceful)
            writeEvent(socket, QByteArray(),
                       QByteArray::fromStdString(
                               json{{"jsonrpc", "2.0"},
                                    {"id", id},
                                    {"result",
                                     {{"resultType", "complete"},
                                      {"_meta", {{"io.modelcontextprotocol/subscriptionId", id}}}}}}
                                       .dump()));
        socket->disconnectFromHost();
    }
}

int McpHttpServer::openSubscriptions() const
{
    int open = 0;
    for (const auto &subscription : m_subscriptions)
        open += subscription.first
                && subscription.first->state() == QAbstractSocket::ConnectedState;
    return open;
}

json McpHttpServer::resultFor(const json &request)
{
    const std::string method = request.value("method", "");
    if (method == "server/discover" && modern) {
        return {{"resultType", "complete"},
                {"supportedVersions", {"2026-07-28"}},
                {"capabilities", offerResourceUpdates ? json{{"tools", {{"listChanged", true}}},
                                                             {"resources", {{"subscribe", true}}}}
                                                      : json{{"tools", {{"listChanged", true}}}}},
                {"_meta",
                 {{"io.modelcontextprotocol/serverInfo",
                   {{"name", "mcp-http-modern"}, {"version", "1"}}}}}};
    }
    if (method == "initialize") {
        return {{"protocolVersion", "2025-11-25"},
                {"capabilities", {{"tools", json::object()}}},
                {"serverInfo", {{"name", "mcp-http-test"}, {"version", "1"}}}};
    }
    if (method == "tools/list") {
        return {{"tools",
                 {{{"name", "echo"},
                   {"description", "Echoes 'text'."},
                   {"inputSchema",
                    {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}}}}}};
    }
    if (method == "tools/call") {
        const json arguments = request["params"].value("arguments", json::object());
        return {{"content", {{{"type", "text"}, {"text", arguments.value("text", "")}}}}};
    }
    if (method == "ping")
        return json::object();
    return nullptr;
}

void McpHttpServer::handle(QTcpSocket *socket, Request request)
{
    m_requests << request;
    emit requestReceived();
    if (request.method == "DELETE") {
        m_session.clear();
        writeRaw(socket, 200, QByteArray(), QByteArray());
        return;
    }
    if (legacy) {
        handleLegacy(socket, request);
        return;
    }
    if (request.method == "GET") {
        const QByteArray resumeFrom = request.headers.value("last-event-id");
        if (!resumeFrom.isEmpty() && m_resumable.contains(resumeFrom)) {
            startSse(socket);
            writeEvent(socket, "e" + QByteArray::number(++m_eventCounter),
                       QByteArray::fromStdString(m_resumable.take(resumeFrom).dump()));
            socket->disconnectFromHost();
            return;
        }
        if (!offerGetStream) {
            writeRaw(socket, 405, QByteArray(), QByteArray());
            return;
        }
        startSse(socket); // stays open; nothing to say
        return;
    }
    if (request.method != "POST" || request.path != "/mcp") {
        writeRaw(socket, 404, "text/plain", "not here");
        return;
    }
    handlePost(socket, request);
}

void McpHttpServer::handleLegacy(QTcpSocket *socket, const Request &request)
{
    if (request.method == "GET" && request.path == "/mcp") {
        m_legacyStream = socket;
        startSse(socket);
        socket->write("event: endpoint\ndata: " + legacyEndpoint + "\n\n");
        return;
    }
    if (request.method != "POST" || request.path != legacyEndpoint) {
        writeRaw(socket, 405, "text/plain", "Method Not Allowed");
        return;
    }
    writeRaw(socket, 202, "text/plain", "Accepted");
    const json &body = request.body;
    if (!m_legacyStream || !body.is_object() || !body.contains("id") || !body.contains("method"))
        return;
    const json response{{"jsonrpc", "2.0"}, {"id", body["id"]}, {"result", resultFor(body)}};
    m_legacyStream->write("event: message\ndata: " + QByteArray::fromStdString(response.dump())
                          + "\n\n");
}

void McpHttpServer::handlePost(QTcpSocket *socket, const Request &request)
{
    if (requireAuth) {
        writeRaw(socket, 401, "application/json", R"({"error":"invalid_token"})",
                 {"WWW-Authenticate: Bearer resource_metadata=\"" + url().toUtf8()
                  + "/.well-known/oauth-protected-resource\""});
        return;
    }
    if (authorize && !authorize(request.headers.value("authorization"))) {
        writeRaw(socket, 401, "application/json", R"({"error":"invalid_token"})",
                 {"WWW-Authenticate: Bearer resource_metadata=\"" + resourceMetadata + "\""});
        return;
    }
    const json &body = request.body;
    if (!body.is_object()) {
        writeRaw(socket, 400, "text/plain", "not JSON");
        return;
    }
    const std::string method = body.value("method", "");
    const QByteArray session = request.headers.value("mcp-session-id");
    if (modern && body.contains("id") && body.contains("method")) {
        if (method == "server/discover" || method == "initialize") {
            if (method == "initialize") {
                writeRaw(socket, 400, "application/json",
                         QByteArray::fromStdString(json{
                                 {"jsonrpc", "2.0"},
                                 {"id", body["id"]},
                                 {"error", {{"code", -32601}, {"message", "Method not found"}}}}
                                                           .dump()));
                return;
            }
            answer(socket, {{"jsonrpc", "2.0"}, {"id", body["id"]}, {"result", resultFor(body)}});
            return;
        }
        if (method == "subscriptions/listen") {
            const json filter = body["params"].value("notifications", json::object());
            subscriptionFilters[body["id"].dump()] = filter;
            startSse(socket);
            writeEvent(
                    socket, QByteArray(),
                    QByteArray::fromStdString(json{
                            {"jsonrpc", "2.0"},
                            {"method", "notifications/subscriptions/acknowledged"},
                            {"params",
                             {{"_meta", {{"io.modelcontextprotocol/subscriptionId", body["id"]}}},
                              {"notifications",
                               offerResourceUpdates ? filter : json{{"toolsListChanged", true}}}}}}
                                                      .dump()));
            m_subscriptions.append({QPointer<QTcpSocket>(socket), body["id"]});
            return;
        }
    }
    if (method == "initialize") {
        m_session = "session-" + QByteArray::number(++m_sessions);
        // A cookie as well: a client must not send it back (see tst_httptransport).
        answer(socket, {{"jsonrpc", "2.0"}, {"id", body["id"]}, {"result", resultFor(body)}},
               {"Mcp-Session-Id: " + m_session, "Set-Cookie: tracker=" + m_session + "; Path=/"});
        return;
    }
    if (!modern && (session != m_session || m_session.isEmpty())) { // no sessions when modern
        writeRaw(socket, 404, "text/plain", "unknown session");
        return;
    }
    if (!body.contains("id") || !body.contains("method")) { // a notification or a response
        writeRaw(socket, 202, QByteArray(), QByteArray());
        return;
    }
    const json response{{"jsonrpc", "2.0"}, {"id", body["id"]}, {"result", resultFor(body)}};
    if (method != "tools/call") {
        answer(socket, response);
        return;
    }
    if (std::exchange(expireSessionOnNextCall, false)) {
        m_session.clear();
        writeRaw(socket, 404, "text/plain", "session expired");
        return;
    }
    if (std::exchange(failNextCall, false)) {
        writeRaw(socket, 500, "text/plain", "database on fire");
        return;
    }
    if (std::exchange(truncateNextCall, false)) {
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: "
                      "close\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":");
        socket->disconnectFromHost();
        return;
    }
    if (hangCalls) {
        startSse(socket); // and never a word more
        return;
    }
    if (std::exchange(dropNextCallStream, false)) {
        const QByteArray id = "p" + QByteArray::number(++m_eventCounter);
        m_resumable.insert(id, response);
        startSse(socket);
        socket->write("retry: " + QByteArray::number(retryMs) + "\n");
        writeEvent(socket, id, QByteArray());
        socket->disconnectFromHost();
        return;
    }
    startSse(socket);
    if (std::exchange(garbageInNextCall, false))
        writeEvent(socket, QByteArray(), "{this is not json");
    if (std::exchange(interleaveNextCall, false)) {
        writeEvent(socket, QByteArray(), R"({"jsonrpc":"2.0","id":"srv-1","method":"ping"})");
        writeEvent(socket, QByteArray(), R"({"jsonrpc":"2.0","id":999,"result":{}})");
        writeEvent(
                socket, QByteArray(),
                R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}})");
    }
    writeEvent(socket, "e" + QByteArray::number(++m_eventCounter),
               QByteArray::fromStdString(response.dump()));
    socket->disconnectFromHost();
}
