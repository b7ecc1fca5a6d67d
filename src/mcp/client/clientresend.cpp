// Client: requests sent again under a new id (2026-07-28): in the modern version the server
// names, with the answers to its input requests (multi-round), or after their stream broke off.
#include "clientinternal.h"

#include <mcp/wire/jsonmember.h>
#include <mcp/wire/jsonparser.h>

#include <QPointer>

#include <memory>
#include <utility>
#include <vector>

namespace Mcp {

using namespace ClientInternal;

namespace {
// A request sent again after its stream broke off (2026-07-28, no resumption): this often.
constexpr int MaxReissues = 2;
} // namespace

bool Client::continueModern(RequestId id, Json &message)
{
    Pending &pending = m_pending.at(id);
    if (auto error = message.find("error"); error != message.end()) {
        const RpcError rpcError = RpcError::fromJson(*error);
        if (rpcError.code != UnsupportedProtocolVersion || pending.versionRetries > 0)
            return false;
        // The server speaks another modern version (data.supported): the request goes again
        // in that one, and so does every later request.
        const std::string version = pickModernVersion(jsonMember(rpcError.data, "supported"));
        if (version.empty())
            return false;
        ++pending.versionRetries;
        qCDebug(lcClient) << "retrying in version" << qs(version) << m_options.serverName;
        setModernVersion(version);
        m_transport->setProtocolVersion(version);
        Json params = parseJson(pending.params);
        if (!params.is_object())
            params = Json::object();
        params["_meta"][MetaProtocolVersion] = version;
        resend(id, std::move(params));
        return true;
    }
    Json &result = message["result"];
    const Json &type = jsonMember(result, "resultType");
    if (!type.is_string() || type.get_ref<const std::string &>() != "input_required")
        return false; // "complete", or absent (which means complete)
    answerInputRequests(id, std::move(result));
    return true;
}

// A multi-round request (2026-07-28, basic/patterns/mrtr): the server needs answers first.
// Each inputRequests entry goes to this client's handler for its method; with every answer in,
// the request goes again under a new id with inputResponses and the requestState untouched.
void Client::answerInputRequests(RequestId id, Json result)
{
    Pending &pending = m_pending.at(id);
    const int round = ++pending.inputRounds;
    if (round > m_options.maxInputRounds) {
        finishRequest(id,
                      Response::failure(ErrorCode::InvalidResult,
                                        where() + " asked for input " + std::to_string(round)
                                                + " times for '" + pending.method + "'; stopped"));
        return;
    }
    const Json &requests = jsonMember(result, "inputRequests");
    if (!requests.is_object() || requests.empty()) {
        finishRequest(id, Response::failure(ErrorCode::InvalidResult,
                                            where() + " asked for input for '" + pending.method
                                                    + "' without inputRequests"));
        return;
    }
    std::vector<std::pair<std::string, RequestHandler *>> handlers;
    for (const auto &[name, request] : requests.items()) {
        const Json &method = jsonMember(request, "method");
        auto handler = method.is_string() ? m_handlers.find(method.get<std::string>())
                                          : m_handlers.end();
        if (handler == m_handlers.end()) {
            finishRequest(
                    id, Response::failure(ErrorCode::MethodNotFound,
                                          where() + " asked for '"
                                                  + (method.is_string() ? method.get<std::string>()
                                                                        : std::string("?"))
                                                  + "' (input '" + name + "' for '" + pending.method
                                                  + "'), which this client does not offer"));
            return;
        }
        handlers.emplace_back(name, &handler->second);
    }
    struct Round
    {
        Json responses = Json::object();
        Json requestState;
        bool hasState = false;
        std::size_t left = 0;
        bool over = false;
    };
    auto state = std::make_shared<Round>();
    state->left = handlers.size();
    if (auto it = result.find("requestState"); it != result.end()) {
        state->requestState = std::move(*it);
        state->hasState = true;
    }
    QPointer<Client> self(this);
    for (const auto &entry : handlers) {
        // Named copies: a lambda may not capture a structured binding (clang).
        const std::string &name = entry.first;
        RequestHandler *handler = entry.second;
        Reply reply = [self, id, round, name, state](Response response) {
            if (!self || state->over)
                return;
            auto it = self->m_pending.find(id);
            if (it == self->m_pending.end() || it->second.inputRounds != round) {
                state->over = true;
                return;
            }
            if (!response.ok()) {
                state->over = true;
                self->finishRequest(id, Response{nullptr, response.error});
                return;
            }
            if (state->responses.contains(name))
                return; // one answer per input
            state->responses[name] = std::move(response.result);
            if (--state->left > 0)
                return;
            state->over = true;
            Json params = parseJson(it->second.params);
            if (!params.is_object())
                params = Json::object();
            params["inputResponses"] = std::move(state->responses);
            if (state->hasState)
                params["requestState"] = std::move(state->requestState);
            else
                params.erase("requestState");
            self->resend(id, std::move(params));
        };
        const Json &params = jsonMember(jsonMember(requests, name.c_str()), "params");
        (*handler)(params.is_object() ? params : Json::object(), std::move(reply));
    }
}

void Client::resend(RequestId id, Json params)
{
    Pending &pending = m_pending.at(id);
    if (pending.wireId != id)
        m_callerIds.erase(pending.wireId);
    const RequestId wire = m_nextId++;
    m_callerIds[wire] = id;
    pending.wireId = wire;
    pending.params = params.dump(-1, ' ', false, Json::error_handler_t::replace);
    // The time spent answering (a person filling a form) does not count against the request.
    restartDeadline(pending);
    m_transport->send(serializeRequest(wire, pending.method, pending.params));
}

// 2026-07-28 (no sessions, no resumption): a request whose answer stream broke off is sent
// again, whole, under a new id — a few times, then it fails.
bool Client::reissue(RequestId id)
{
    Pending &pending = m_pending.at(id);
    if (!m_sendMeta || pending.method == "subscriptions/listen" || pending.reissues >= MaxReissues
        || !m_transport->isOpen())
        return false;
    ++pending.reissues;
    qCDebug(lcClient) << "sending" << qs(pending.method) << "again (its stream broke off)"
                      << m_options.serverName;
    Json params = parseJson(pending.params);
    resend(id, params.is_object() ? std::move(params) : Json::object());
    return true;
}

} // namespace Mcp
