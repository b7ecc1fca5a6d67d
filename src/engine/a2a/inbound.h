#pragma once

#include "wire.h"

#include <QByteArray>
#include <QString>

#include <variant>

// What a remote client sends to the inbound server, read and checked before anything runs:
// the JSON-RPC requests of both A2A versions and the simple envelope. Pure functions of the
// bytes (the fuzz target drives them); every refusal names what was wrong.
namespace Engine::A2A::Inbound {

// JSON-RPC and A2A error codes.
enum ErrorCode {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
    ServerBusy = -32000,
    TaskNotFound = -32001,
    TaskNotCancelable = -32002,
    UnsupportedOperation = -32004,
    ContentTypeNotSupported = -32005,
    VersionNotSupported = -32009,
};

struct RpcError
{
    int code = InternalError;
    QString message;
    Json id; // the request's id when it could be read, else null
    int httpStatus = 200;
};

enum class Method { Send, Stream, Get, Cancel, List };

struct RpcCall
{
    Json id; // string, number or null (a notification is answered with null)
    Method method = Method::Send;
    Version version = Version::V1_0;
    Json params; // an object
};

// A JSON-RPC request to the A2A endpoint. `versionHeader` is the A2A-Version header (empty when
// absent: then the method's name says the version). A version this server does not speak is
// -32009; a method of the other version than the header's, or an unknown one, -32601.
std::variant<RpcCall, RpcError> parseRpc(const QByteArray &body, const QByteArray &versionHeader);

struct SendParams
{
    Message message;      // role user, at least one part; its text is what the agent is asked
    bool blocking = true; // wait for the task to end before answering (SendMessage)
};
// SendMessage / SendStreamingMessage params. An empty text is refused (HTTP 400).
std::variant<SendParams, RpcError> readSendParams(const RpcCall &call);

// GetTask / CancelTask params: the task's id.
std::variant<QString, RpcError> readTaskId(const RpcCall &call);

// ListTasks params: an optional contextId and page size (1..100, default 50), page token.
struct ListParams
{
    QString contextId;
    int pageSize = 50;
    int offset = 0; // from pageToken
};
std::variant<ListParams, RpcError> readListParams(const RpcCall &call);

// The simple envelope: `{"message": "..."}` (a `contextId` continues a conversation). The
// error is the answer's message (HTTP 400).
struct EnvelopeRequest
{
    QString message;
    QString contextId;
};
std::variant<EnvelopeRequest, QString> readEnvelope(const QByteArray &body);

// A JSON-RPC error response; `data` carries the 1.0 ErrorInfo reason when there is one.
Json errorResponse(const RpcError &error, Version version = Version::V1_0);

} // namespace Engine::A2A::Inbound
