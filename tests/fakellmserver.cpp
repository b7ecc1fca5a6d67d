#include "fakellmserver.h"

#include <QSet>

#include <mcp/wire/jsonparser.h>

#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

using Json = nlohmann::json;

namespace {

// A request larger than this is a test bug; the connection is dropped.
constexpr qsizetype MaxRequestBytes = 16 * 1024 * 1024;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 529:
        return "Overloaded";
    default:
        return "Status";
    }
}

QByteArray chunk(const QByteArray &data)
{
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

// Splits text into about `parts` pieces at character boundaries (never inside a surrogate
// pair), so each piece is valid UTF-8 on its own.
QStringList splitText(const QString &text, int parts)
{
    QStringList pieces;
    parts = std::max(1, parts);
    const int step = std::max<int>(1, int((text.size() + parts - 1) / parts));
    int start = 0;
    while (start < text.size()) {
        int end = std::min<int>(int(text.size()), start + step);
        if (end < text.size() && text.at(end - 1).isHighSurrogate())
            ++end;
        pieces << text.mid(start, end - start);
        start = end;
    }
    if (pieces.isEmpty())
        pieces << QString();
    return pieces;
}

QByteArray dump(const Json &json)
{
    return QByteArray::fromStdString(json.dump());
}

QByteArray anthropicEvent(const char *type, const Json &data)
{
    return QByteArray("event: ") + type + "\ndata: " + dump(data);
}

Json openAiChunk(const Json &delta, const Json &finishReason = nullptr)
{
    return {{"id", "chatcmpl-fake"},
            {"object", "chat.completion.chunk"},
            {"model", "fake-model"},
            {"choices",
             Json::array({{{"index", 0}, {"delta", delta}, {"finish_reason", finishReason}}})}};
}

Json openAiUsage()
{
    return {{"id", "chatcmpl-fake"},
            {"object", "chat.completion.chunk"},
            {"choices", Json::array()},
            {"usage", {{"prompt_tokens", 11}, {"completion_tokens", 7}, {"total_tokens", 18}}}};
}

QByteArray anthropicMessageStart()
{
    return anthropicEvent("message_start",
                          {{"type", "message_start"},
                           {"message",
                            {{"id", "msg_fake"},
                             {"type", "message"},
                             {"role", "assistant"},
                             {"model", "fake-model"},
                             {"content", Json::array()},
                             {"stop_reason", nullptr},
                             {"usage", {{"input_tokens", 11}, {"output_tokens", 1}}}}}});
}

QByteArray anthropicMessageEnd(const char *stopReason)
{
    return anthropicEvent("message_delta", {{"type", "message_delta"},
                                            {"delta", {{"stop_reason", stopReason}}},
                                            {"usage", {{"output_tokens", 7}}}})
           + "\n\n" + anthropicEvent("message_stop", {{"type", "message_stop"}});
}

} // namespace

FakeLlmServer::FakeLlmServer(Dialect dialect, QObject *parent)
    : QObject(parent)
    , m_dialect(dialect)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeLlmServer::onNewConnection);
}

FakeLlmServer::~FakeLlmServer() = default;

bool FakeLlmServer::listen()
{
    return m_server->listen(QHostAddress::LocalHost, 0);
}

quint16 FakeLlmServer::port() const
{
    return m_server->serverPort();
}

QString FakeLlmServer::baseUrl() const
{
    const QString root = QStringLiteral("http://127.0.0.1:%1").arg(port());
    return m_dialect == Dialect::OpenAi ? root + QStringLiteral("/v1") : root;
}

void FakeLlmServer::enqueue(Reply reply)
{
    m_script.append(std::move(reply));
}

QList<QByteArray> FakeLlmServer::requestHeaders(int index) const
{
    return m_headers.value(index);
}

void FakeLlmServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        socket->setParent(this);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            if (socket->property("answered").toBool())
                emit replyEnded(socket->property("request").toInt(),
                                socket->property("replied").toBool());
            socket->deleteLater();
        });
    }
}

void FakeLlmServer::onReadyRead(QTcpSocket *socket)
{
    // The request accumulates in a dynamic property: one buffer per connection.
    if (socket->property("answered").toBool()) {
        socket->readAll();
        return;
    }
    QByteArray buffer = socket->property("buffer").toByteArray() + socket->readAll();
    if (buffer.size() > MaxRequestBytes) {
        socket->abort();
        return;
    }
    socket->setProperty("buffer", buffer);
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return;
    const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
    qsizetype contentLength = 0;
    QList<QByteArray> headers;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        headers << line;
        if (line.toLower().startsWith("content-length:"))
            contentLength = line.mid(15).trimmed().toLongLong();
    }
    if (buffer.size() < headerEnd + 4 + contentLength)
        return;
    socket->setProperty("answered", true);

    const QByteArray body = buffer.mid(headerEnd + 4, contentLength);
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.value(0) == "GET"
        && requestLine.value(1).split('?').value(0).endsWith("/models")) {
        ++m_modelListRequests;
        m_modelListHeaders = headers;
        m_modelListPath = requestLine.value(1);
        socket->setProperty("request", -1);
        Reply reply;
        reply.status = m_modelList.isEmpty() ? 404 : m_modelListStatus;
        reply.body = m_modelList.isEmpty()
                             ? QByteArray(R"({"error":{"message":"no model list here"}})")
                             : m_modelList;
        respond(socket, std::move(reply));
        return;
    }
    m_paths << requestLine.value(1);
    m_requests << Mcp::parseJson(std::string_view(body.constData(), body.size()));
    m_headers << headers;
    const int index = int(m_requests.size()) - 1;
    socket->setProperty("request", index);

    Reply reply;
    if (const QString repeated
        = m_strictToolCallIds ? repeatedToolCallId(m_requests.last()) : QString();
        !repeated.isEmpty()) {
        reply.status = 400;
        reply.body = QByteArray(R"({"error":{"message":"Duplicate value for 'tool_call_id' of )")
                     + repeated.toUtf8() + R"( in message[1]","type":"invalid_request_error"}})";
    } else if (m_script.isEmpty()) {
        reply.status = 500;
        reply.body
                = R"({"error":{"message":"FakeLlmServer: no scripted reply left","type":"server_error"}})";
    } else {
        reply = m_script.takeFirst();
    }
    emit requestReceived(index);
    respond(socket, std::move(reply));
}

void FakeLlmServer::respond(QTcpSocket *socket, Reply reply)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(reply.status) + ' '
                      + reasonPhrase(reply.status) + "\r\n";
    const bool sse = !reply.events.isEmpty() || (reply.body.isEmpty() && reply.status < 300);
    if (sse) {
        head += "Content-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                "Transfer-Encoding: chunked\r\n";
    } else {
        head += "Content-Type: application/json\r\nContent-Length: "
                + QByteArray::number(reply.body.size()) + "\r\n";
    }
    head += "Connection: close\r\n";
    for (const QByteArray &header : reply.headers)
        head += header + "\r\n";
    head += "\r\n";
    socket->write(head);
    if (!sse) {
        socket->write(reply.body);
        socket->setProperty("replied", true);
        socket->disconnectFromHost();
        return;
    }
    writeNextEvent(socket, std::move(reply), 0);
}

void FakeLlmServer::writeNextEvent(QTcpSocket *socket, Reply reply, int next)
{
    if (next >= reply.events.size()) {
        if (reply.holdOpenAfterEvents) {
            socket->flush();
            return;
        }
        socket->setProperty("replied", true);
        if (reply.dropConnectionAfterEvents) {
            socket->flush();
            socket->abort(); // no terminating chunk: the client sees a broken stream
        } else {
            socket->write("0\r\n\r\n");
            socket->disconnectFromHost();
        }
        return;
    }
    const QByteArray &event = reply.events.at(next);
    socket->write(chunk(m_dialect == Dialect::OpenAi ? "data: " + event + "\n\n" : event + "\n\n"));
    socket->flush();
    if (reply.delayBetweenEventsMs <= 0 && next + 1 < reply.events.size()) {
        writeNextEvent(socket, std::move(reply), next + 1);
        return;
    }
    QPointer<QTcpSocket> guard(socket);
    const int delay = std::max(0, reply.delayBetweenEventsMs);
    QTimer::singleShot(delay, this, [this, guard, reply = std::move(reply), next]() mutable {
        if (guard && guard->state() == QAbstractSocket::ConnectedState)
            writeNextEvent(guard, std::move(reply), next + 1);
    });
}

FakeLlmServer::Reply FakeLlmServer::openAiText(const QString &text, int chunks)
{
    Reply reply;
    reply.events << dump(openAiChunk({{"role", "assistant"}, {"content", ""}}));
    for (const QString &piece : splitText(text, chunks))
        reply.events << dump(openAiChunk({{"content", piece.toStdString()}}));
    reply.events << dump(openAiChunk(Json::object(), "stop")) << dump(openAiUsage()) << "[DONE]";
    return reply;
}

FakeLlmServer::Reply FakeLlmServer::openAiToolCalls(const QList<QPair<QString, Json>> &calls)
{
    constexpr int Pieces = 3;
    Reply reply;
    reply.events << dump(openAiChunk({{"role", "assistant"}, {"content", nullptr}}));
    QList<QStringList> arguments;
    for (int i = 0; i < calls.size(); ++i) {
        arguments << splitText(QString::fromStdString(calls.at(i).second.dump()), Pieces);
        reply.events << dump(openAiChunk(
                {{"tool_calls",
                  Json::array(
                          {{{"index", i},
                            {"id", QStringLiteral("call_fake_%1").arg(i).toStdString()},
                            {"type", "function"},
                            {"function",
                             {{"name", calls.at(i).first.toStdString()}, {"arguments", ""}}}}})}}));
    }
    for (int piece = 0; piece < Pieces; ++piece) {
        for (int i = 0; i < calls.size(); ++i) {
            if (piece >= arguments.at(i).size())
                continue;
            reply.events << dump(openAiChunk(
                    {{"tool_calls",
                      Json::array(
                              {{{"index", i},
                                {"function",
                                 {{"arguments", arguments.at(i).at(piece).toStdString()}}}}})}}));
        }
    }
    reply.events << dump(openAiChunk(Json::object(), "tool_calls")) << dump(openAiUsage())
                 << "[DONE]";
    return reply;
}

FakeLlmServer::Reply FakeLlmServer::anthropicText(const QString &text, int chunks)
{
    Reply reply;
    reply.events << anthropicMessageStart()
                 << anthropicEvent("content_block_start",
                                   {{"type", "content_block_start"},
                                    {"index", 0},
                                    {"content_block", {{"type", "text"}, {"text", ""}}}})
                 << anthropicEvent("ping", {{"type", "ping"}});
    for (const QString &piece : splitText(text, chunks)) {
        reply.events << anthropicEvent(
                "content_block_delta",
                {{"type", "content_block_delta"},
                 {"index", 0},
                 {"delta", {{"type", "text_delta"}, {"text", piece.toStdString()}}}});
    }
    reply.events << anthropicEvent("content_block_stop",
                                   {{"type", "content_block_stop"}, {"index", 0}})
                 << anthropicMessageEnd("end_turn");
    return reply;
}

FakeLlmServer::Reply FakeLlmServer::anthropicToolUse(const QList<QPair<QString, Json>> &calls)
{
    Reply reply;
    reply.events << anthropicMessageStart();
    for (int i = 0; i < calls.size(); ++i) {
        reply.events << anthropicEvent(
                "content_block_start",
                {{"type", "content_block_start"},
                 {"index", i},
                 {"content_block",
                  {{"type", "tool_use"},
                   {"id", QStringLiteral("toolu_fake_%1").arg(i).toStdString()},
                   {"name", calls.at(i).first.toStdString()},
                   {"input", Json::object()}}}});
        for (const QString &piece :
             splitText(QString::fromStdString(calls.at(i).second.dump()), 3)) {
            reply.events << anthropicEvent(
                    "content_block_delta",
                    {{"type", "content_block_delta"},
                     {"index", i},
                     {"delta",
                      {{"type", "input_json_delta"}, {"partial_json", piece.toStdString()}}}});
        }
        reply.events << anthropicEvent("content_block_stop",
                                       {{"type", "content_block_stop"}, {"index", i}});
    }
    reply.events << anthropicMessageEnd("tool_use");
    return reply;
}

QString FakeLlmServer::repeatedToolCallId(const nlohmann::json &request)
{
    QSet<QString> calls, results;
    const auto seen = [](QSet<QString> &set, const nlohmann::json &id) {
        const QString text
                = id.is_string() ? QString::fromStdString(id.get<std::string>()) : QString();
        if (set.contains(text))
            return true;
        set.insert(text);
        return false;
    };
    if (!request.is_object() || !request.contains("messages") || !request["messages"].is_array())
        return {};
    for (const nlohmann::json &message : request["messages"]) {
        if (!message.is_object())
            continue;
        // Chat Completions: assistant tool_calls and tool messages.
        if (message.contains("tool_calls") && message["tool_calls"].is_array()) {
            for (const nlohmann::json &call : message["tool_calls"]) {
                if (call.is_object() && seen(calls, call.value("id", nlohmann::json())))
                    return QString::fromStdString(call.value("id", std::string()));
            }
        }
        if (message.value("role", "") == "tool"
            && seen(results, message.value("tool_call_id", nlohmann::json())))
            return QString::fromStdString(message.value("tool_call_id", std::string()));
        // Messages API: tool_use and tool_result blocks.
        if (message.contains("content") && message["content"].is_array()) {
            for (const nlohmann::json &block : message["content"]) {
                if (!block.is_object())
                    continue;
                if (block.value("type", "") == "tool_use"
                    && seen(calls, block.value("id", nlohmann::json())))
                    return QString::fromStdString(block.value("id", std::string()));
                if (block.value("type", "") == "tool_result"
                    && seen(results, block.value("tool_use_id", nlohmann::json())))
                    return QString::fromStdString(block.value("tool_use_id", std::string()));
            }
        }
    }
    return {};
}
