#include "inbound.h"

#include <mcp/wire/jsonparser.h>

#include <QCoreApplication>

#include <array>
#include <string_view>

namespace Engine::A2A::Inbound {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::A2A::Inbound", text);
}

struct MethodName
{
    Method method;
    const char *v1;
    const char *v03; // nullptr: none in 0.3
};
constexpr std::array<MethodName, 5> MethodNames{{
        {Method::Send, "SendMessage", "message/send"},
        {Method::Stream, "SendStreamingMessage", "message/stream"},
        {Method::Get, "GetTask", "tasks/get"},
        {Method::Cancel, "CancelTask", "tasks/cancel"},
        {Method::List, "ListTasks", nullptr},
}};

RpcError error(int code, QString message, Json id = nullptr, int httpStatus = 200)
{
    return RpcError{code, std::move(message), std::move(id), httpStatus};
}

// "1.0", "1", "1.0.2" → 1.0; "0.3", "0.3.0" → 0.3; anything else is not spoken here.
std::optional<Version> versionOf(const QByteArray &header)
{
    const QByteArray value = header.trimmed();
    if (value == "1" || value == "1.0" || value.startsWith("1.0."))
        return Version::V1_0;
    if (value == "0.3" || value.startsWith("0.3."))
        return Version::V0_3;
    return std::nullopt;
}

} // namespace

std::variant<RpcCall, RpcError> parseRpc(const QByteArray &body, const QByteArray &versionHeader)
{
    Mcp::JsonParseError parseError;
    const Json request
            = Mcp::parseJson(std::string_view(body.constData(), size_t(body.size())), &parseError);
    if (request.is_discarded())
        return error(ParseError, tr("The request is not valid JSON (at byte %1: %2).")
                                         .arg(parseError.offset)
                                         .arg(QString::fromStdString(parseError.message)));
    if (!request.is_object())
        return error(InvalidRequest, request.is_array()
                                             ? tr("Batch requests are not supported.")
                                             : tr("The request is not a JSON-RPC request object."));
    Json id = nullptr;
    if (const auto it = request.find("id"); it != request.end()) {
        if (!it->is_string() && !it->is_number_integer() && !it->is_number_unsigned()
            && !it->is_null())
            return error(InvalidRequest, tr("The request's id must be a string or an integer."));
        id = *it;
    }
    if (stringMember(request, "jsonrpc") != QLatin1String("2.0"))
        return error(InvalidRequest, tr("The request is not JSON-RPC 2.0 (\"jsonrpc\": \"2.0\")."),
                     id);
    const QString name = stringMember(request, "method");
    if (name.isEmpty())
        return error(InvalidRequest, tr("The request has no method."), id);

    std::optional<Version> headerVersion;
    if (!versionHeader.isEmpty()) {
        headerVersion = versionOf(versionHeader);
        if (!headerVersion)
            return error(VersionNotSupported,
                         tr("A2A version '%1' is not supported; this agent speaks 1.0 and 0.3.")
                                 .arg(QString::fromLatin1(versionHeader.left(32))),
                         id);
    }
    const MethodName *found = nullptr;
    Version version = Version::V1_0;
    for (const MethodName &entry : MethodNames) {
        if (name == QLatin1String(entry.v1)) {
            found = &entry;
            version = Version::V1_0;
        } else if (entry.v03 && name == QLatin1String(entry.v03)) {
            found = &entry;
            version = Version::V0_3;
        }
        if (found)
            break;
    }
    if (!found || (headerVersion && *headerVersion != version))
        return error(MethodNotFound,
                     tr("Method not found: %1 (A2A %2).")
                             .arg(name.left(100), headerVersion.value_or(version) == Version::V1_0
                                                          ? QStringLiteral("1.0")
                                                          : QStringLiteral("0.3")),
                     id);
    Json params = Json::object();
    if (const auto it = request.find("params"); it != request.end() && !it->is_null()) {
        if (!it->is_object())
            return error(InvalidParams, tr("The params of %1 must be an object.").arg(name), id);
        params = *it;
    }
    return RpcCall{std::move(id), found->method, version, std::move(params)};
}

std::variant<SendParams, RpcError> readSendParams(const RpcCall &call)
{
    const auto it = call.params.find("message");
    if (it == call.params.end())
        return error(InvalidParams, tr("params.message is required."), call.id);
    QString why;
    std::optional<Message> message = readMessage(*it, &why);
    if (!message)
        return error(InvalidParams, tr("params.message is not a message: %1").arg(why), call.id);
    if (message->role != Role::User)
        return error(InvalidParams, tr("params.message must come from the user (role user)."),
                     call.id);
    if (message->text().trimmed().isEmpty())
        return error(InvalidParams, tr("The message is empty: there is nothing to do."), call.id,
                     400);
    SendParams send{std::move(*message), true};
    if (const auto configuration = call.params.find("configuration");
        configuration != call.params.end() && configuration->is_object()) {
        if (call.version == Version::V1_0) {
            const auto immediate = configuration->find("returnImmediately");
            send.blocking = !(immediate != configuration->end() && immediate->is_boolean()
                              && immediate->get<bool>());
        } else if (const auto blocking = configuration->find("blocking");
                   blocking != configuration->end() && blocking->is_boolean()) {
            send.blocking = blocking->get<bool>();
        }
    }
    return send;
}

std::variant<QString, RpcError> readTaskId(const RpcCall &call)
{
    const QString id = stringMember(call.params, "id");
    if (id.isEmpty())
        return error(InvalidParams, tr("params.id (the task's id) is required."), call.id);
    return id;
}

std::variant<ListParams, RpcError> readListParams(const RpcCall &call)
{
    ListParams list;
    list.contextId = stringMember(call.params, "contextId");
    if (const auto size = call.params.find("pageSize"); size != call.params.end()) {
        if (!size->is_number_integer() && !size->is_number_unsigned())
            return error(InvalidParams, tr("params.pageSize must be an integer."), call.id);
        const qint64 value = size->get<qint64>();
        if (value < 1 || value > 100)
            return error(InvalidParams, tr("params.pageSize must be between 1 and 100."), call.id);
        list.pageSize = int(value);
    }
    if (const QString token = stringMember(call.params, "pageToken"); !token.isEmpty()) {
        bool ok = false;
        list.offset = QByteArray::fromBase64(token.toLatin1()).toInt(&ok);
        if (!ok || list.offset < 0)
            return error(InvalidParams, tr("params.pageToken is not one this agent gave."),
                         call.id);
    }
    return list;
}

std::variant<EnvelopeRequest, QString> readEnvelope(const QByteArray &body)
{
    const Json request = Mcp::parseJson(std::string_view(body.constData(), size_t(body.size())));
    if (request.is_discarded())
        return tr("The request is not valid JSON.");
    if (!request.is_object())
        return tr("The request must be a JSON object: {\"message\": \"...\"}.");
    const auto it = request.find("message");
    if (it == request.end() || !it->is_string())
        return tr("The request has no \"message\" string.");
    EnvelopeRequest envelope{QString::fromStdString(it->get<std::string>()),
                             stringMember(request, "contextId")};
    if (envelope.message.trimmed().isEmpty())
        return tr("The message is empty: there is nothing to do.");
    return envelope;
}

Json errorResponse(const RpcError &rpcError, Version version)
{
    Json body = {{"code", rpcError.code}, {"message", rpcError.message.toStdString()}};
    const char *reason = nullptr;
    switch (rpcError.code) {
    case TaskNotFound:
        reason = "TASK_NOT_FOUND";
        break;
    case TaskNotCancelable:
        reason = "TASK_NOT_CANCELABLE";
        break;
    case UnsupportedOperation:
        reason = "UNSUPPORTED_OPERATION";
        break;
    case ContentTypeNotSupported:
        reason = "CONTENT_TYPE_NOT_SUPPORTED";
        break;
    case VersionNotSupported:
        reason = "VERSION_NOT_SUPPORTED";
        break;
    default:
        break;
    }
    if (reason && version == Version::V1_0)
        body["data"] = Json::array({{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                                     {"reason", reason},
                                     {"domain", "a2a-protocol.org"}}});
    return {{"jsonrpc", "2.0"}, {"id", rpcError.id}, {"error", body}};
}

} // namespace Engine::A2A::Inbound
