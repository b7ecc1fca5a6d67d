// libFuzzer target for what an MCP Apps view posts to its host (Mcp::Apps::BridgeMessage):
// any bytes. Invariants: no crash; a refusal says why; a request or notification has a short
// method and object params, a request an integer or short-string id; a response exactly one of
// result and error; and an accepted message, written back as JSON, reads as the same message.
#include "fuzzcheck.h"

#include <mcp/apps/bridgemessage.h>

#include <cstdint>

using namespace Mcp;
using namespace Mcp::Apps;

namespace {

Json written(const BridgeMessage &message)
{
    Json out{{"jsonrpc", "2.0"}};
    if (!message.id.is_null())
        out["id"] = message.id;
    if (!message.method.empty()) {
        out["method"] = message.method;
        out["params"] = message.params;
    } else if (!message.error.is_null()) {
        out["error"] = message.error;
    } else {
        out["result"] = message.result;
    }
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    const BridgeMessage message = BridgeMessage::read(text);
    using Kind = BridgeMessage::Kind;
    switch (message.kind) {
    case Kind::Invalid:
        check(!message.problem.isEmpty());
        return 0;
    case Kind::Request:
        check(message.id.is_number_integer() || message.id.is_string());
        [[fallthrough]];
    case Kind::Notification:
        check(!message.method.empty() && message.method.size() <= MaxBridgeMethodLength);
        check(message.params.is_object());
        break;
    case Kind::Response:
        check(!message.id.is_null());
        check(message.method.empty());
        check(message.error.is_null() || message.error.is_object());
        break;
    }
    check(message.problem.isEmpty());
    const std::string again = written(message).dump(-1, ' ', false, Json::error_handler_t::replace);
    if (qsizetype(again.size()) > MaxBridgeMessageBytes)
        return 0; // escaping made it longer than a view may send
    const BridgeMessage reread = BridgeMessage::read(QByteArrayView(again.data(), again.size()));
    check(reread.kind == message.kind);
    check(reread.id == message.id);
    check(reread.method == message.method);
    return 0;
}
