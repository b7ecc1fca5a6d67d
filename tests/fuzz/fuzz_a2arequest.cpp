// libFuzzer target for what a remote client sends the inbound A2A server: the first byte picks
// the A2A-Version header, the rest is the body, read as a JSON-RPC request (and, when it is
// one, as each method's params) and as the simple envelope. Invariants: no crash, every
// refusal says why, an accepted message has text, and a message read back from its own 1.0
// and 0.3 JSON is the same message.
#include "fuzzcheck.h"

#include <engine/a2a/inbound.h>

#include <cstdint>

using namespace Engine::A2A;

namespace {

void roundTrip(const Message &message)
{
    for (Version version : {Version::V1_0, Version::V0_3}) {
        const std::optional<Message> again = readMessage(toJson(message, version));
        check(again.has_value());
        check(again->text() == message.text());
        check(again->parts.size() == message.parts.size());
        check(again->role == message.role);
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const char *const versions[] = {"", "1.0", "0.3", "2.0", "1", "0.3.0"};
    const QByteArray header(versions[data[0] % 6]);
    const QByteArray body(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));

    const auto parsed = Inbound::parseRpc(body, header);
    if (const auto *error = std::get_if<Inbound::RpcError>(&parsed)) {
        check(!error->message.isEmpty());
        check(!Inbound::errorResponse(*error).dump().empty());
    } else {
        const Inbound::RpcCall &call = std::get<Inbound::RpcCall>(parsed);
        check(call.params.is_object());
        const auto send = Inbound::readSendParams(call);
        if (const auto *params = std::get_if<Inbound::SendParams>(&send)) {
            check(!params->message.text().trimmed().isEmpty());
            roundTrip(params->message);
        } else {
            check(!std::get<Inbound::RpcError>(send).message.isEmpty());
        }
        (void)Inbound::readTaskId(call);
        (void)Inbound::readListParams(call);
    }
    const auto envelope = Inbound::readEnvelope(body);
    if (const auto *request = std::get_if<Inbound::EnvelopeRequest>(&envelope))
        check(!request->message.trimmed().isEmpty());
    else
        check(!std::get<QString>(envelope).isEmpty());
    return 0;
}
