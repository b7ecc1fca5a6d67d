#include "bridgemessage.h"

#include <mcp/wire/jsonparser.h>

#include <QCoreApplication>

namespace Mcp::Apps {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Apps::BridgeMessage", text);
}

BridgeMessage invalid(QString problem, Json id = nullptr)
{
    BridgeMessage out;
    out.problem = std::move(problem);
    out.id = std::move(id);
    return out;
}

bool usableId(const Json &id)
{
    if (id.is_number_integer() || id.is_number_unsigned())
        return true;
    return id.is_string() && id.get_ref<const std::string &>().size() <= MaxBridgeIdLength;
}

} // namespace

BridgeMessage BridgeMessage::read(QByteArrayView text)
{
    if (text.size() > MaxBridgeMessageBytes)
        return invalid(tr("a message of %1 bytes, more than the %2 a view may send")
                               .arg(text.size())
                               .arg(MaxBridgeMessageBytes));
    JsonParseError parseError;
    Json message = parseJson(std::string_view(text.data(), std::size_t(text.size())), &parseError);
    if (message.is_discarded())
        return invalid(tr("not JSON"));
    if (!message.is_object())
        return invalid(tr("not a JSON-RPC message (an object is expected)"));
    const auto version = message.find("jsonrpc");
    if (version == message.end() || *version != "2.0")
        return invalid(tr("not a JSON-RPC 2.0 message"));
    Json id = nullptr;
    const auto idIt = message.find("id");
    const bool hasId = idIt != message.end() && !idIt->is_null();
    if (hasId) {
        if (!usableId(*idIt))
            return invalid(tr("the id is neither an integer nor a short string"));
        id = *idIt;
    }
    const auto method = message.find("method");
    if (method != message.end()) {
        if (!method->is_string() || method->get_ref<const std::string &>().empty())
            return invalid(tr("the method is not a string"), id);
        if (method->get_ref<const std::string &>().size() > MaxBridgeMethodLength)
            return invalid(
                    tr("the method name is longer than %1 characters").arg(MaxBridgeMethodLength),
                    id);
        BridgeMessage out;
        out.kind = hasId ? Kind::Request : Kind::Notification;
        out.id = std::move(id);
        out.method = method->get<std::string>();
        const auto params = message.find("params");
        if (params == message.end() || params->is_null()) {
            out.params = Json::object();
        } else if (params->is_object()) {
            out.params = std::move(*params);
        } else {
            return invalid(tr("the params of %1 are not an object")
                                   .arg(QString::fromStdString(out.method)),
                           out.id);
        }
        return out;
    }
    if (!hasId)
        return invalid(tr("neither a request, a notification nor a response"));
    const auto result = message.find("result");
    const auto error = message.find("error");
    if ((result == message.end()) == (error == message.end()))
        return invalid(tr("a response needs exactly one of result and error"));
    BridgeMessage out;
    out.kind = Kind::Response;
    out.id = std::move(id);
    if (result != message.end()) {
        out.result = std::move(*result);
    } else {
        if (!error->is_object())
            return invalid(tr("the error of a response is not an object"));
        out.error = std::move(*error);
    }
    return out;
}

} // namespace Mcp::Apps
