#include "jsonrpc.h"

namespace Mcp {

RpcError RpcError::fromJson(const Json &error)
{
    RpcError e;
    if (!error.is_object()) {
        e.message = "malformed error object: " + error.dump();
        return e;
    }
    if (auto it = error.find("code"); it != error.end() && it->is_number_integer())
        e.code = it->get<int>();
    if (auto it = error.find("message"); it != error.end() && it->is_string())
        e.message = it->get<std::string>();
    else
        e.message = "error without message";
    if (auto it = error.find("data"); it != error.end())
        e.data = *it;
    return e;
}

Json RpcError::toJson() const
{
    Json j{{"code", code}, {"message", message}};
    if (!data.is_null())
        j["data"] = data;
    return j;
}

QString RpcError::toString() const
{
    return QStringLiteral("%1 (code %2)").arg(QString::fromStdString(message)).arg(code);
}

MessageKind classify(const Json &message)
{
    if (!message.is_object())
        return MessageKind::Invalid;
    const auto method = message.find("method");
    const auto id = message.find("id");
    const bool hasId = id != message.end();
    if (method != message.end()) {
        if (!method->is_string())
            return MessageKind::Invalid;
        if (!hasId)
            return MessageKind::Notification;
        return (id->is_string() || id->is_number()) ? MessageKind::Request : MessageKind::Invalid;
    }
    if (hasId && (message.contains("result") || message.contains("error")))
        return MessageKind::Response;
    return MessageKind::Invalid;
}

// Hand-assembled envelopes: the hot path of every call, and cheaper than building a
// temporary object only to dump it again.
void appendJsonString(std::string &out, std::string_view text)
{
    // Names are plain ASCII in practice; anything else goes through the serializer.
    for (char c : text) {
        if (c < 0x20 || c == '"' || c == '\\' || static_cast<unsigned char>(c) >= 0x80) {
            out += Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
            return;
        }
    }
    out += '"';
    out += text;
    out += '"';
}

std::string serializeRequest(std::int64_t id, std::string_view method, std::string_view paramsJson)
{
    std::string out;
    out.reserve(48 + method.size() + paramsJson.size());
    out += R"({"jsonrpc":"2.0","id":)";
    out += std::to_string(id);
    out += R"(,"method":)";
    appendJsonString(out, method);
    if (!paramsJson.empty()) {
        out += R"(,"params":)";
        out += paramsJson;
    }
    out += '}';
    return out;
}

std::string serializeNotification(std::string_view method, const Json &params)
{
    std::string out = R"({"jsonrpc":"2.0","method":)";
    appendJsonString(out, method);
    if (!params.is_null()) {
        out += R"(,"params":)";
        out += params.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    out += '}';
    return out;
}

std::string serializeResult(const Json &id, const Json &result)
{
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump(
            -1, ' ', false, Json::error_handler_t::replace);
}

std::string serializeError(const Json &id, const RpcError &error)
{
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", error.toJson()}}.dump(
            -1, ' ', false, Json::error_handler_t::replace);
}

std::optional<std::int64_t> integerId(const Json &id)
{
    if (id.is_number_integer())
        return id.get<std::int64_t>();
    if (id.is_number_unsigned()) {
        const auto v = id.get<std::uint64_t>();
        if (v <= static_cast<std::uint64_t>(INT64_MAX))
            return static_cast<std::int64_t>(v);
    }
    return std::nullopt;
}

QString stringMember(const Json &object, const char *key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

} // namespace Mcp
