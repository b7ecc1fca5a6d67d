#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// JSON-RPC 2.0 vocabulary shared by the MCP layer: the JSON type, error codes, message
// classification and serialization of the messages the client sends. Pure functions and
// value types; no I/O.
namespace Mcp {

using Json = nlohmann::json;

namespace ErrorCode {
// JSON-RPC 2.0 standard codes.
constexpr int ParseError = -32700;
constexpr int InvalidRequest = -32600;
constexpr int MethodNotFound = -32601;
constexpr int InvalidParams = -32602;
constexpr int InternalError = -32603;
// Client-side outcomes (never sent on the wire); the values follow the official TypeScript
// SDK (ConnectionClosed, RequestTimeout) so logs read the same across clients.
constexpr int ConnectionClosed = -32000;
constexpr int RequestTimeout = -32001;
// LSP's RequestCancelled code, used when the user or the engine cancels a request.
constexpr int RequestCancelled = -32800;
// A reply larger than the transport's message cap.
constexpr int MessageTooLarge = -32801;
// A reply that is valid JSON-RPC but not a valid MCP result.
constexpr int InvalidResult = -32802;
// The transport could not carry one request (an HTTP error status, a stream that ended
// before the response); the connection itself stays up.
constexpr int TransportError = -32803;
// The server refused the request for want of credentials (HTTP 401 or 403).
constexpr int AuthenticationRequired = -32804;
// A 2026-07-28 answer stream broke off before the response (there is no resumption): the
// request may be sent again under a new id.
constexpr int StreamBroken = -32805;
} // namespace ErrorCode

struct RpcError
{
    int code = ErrorCode::InternalError;
    std::string message;
    Json data; // null when absent
    // Raised by this client (timeout, cancel, connection lost, ...), not sent by the server.
    // Servers may use any code, -32000 included, so the code alone cannot tell.
    bool local = false;

    bool is(int localCode) const { return local && code == localCode; }

    static RpcError fromJson(const Json &error);
    Json toJson() const;
    QString toString() const; // "message (code -32601)"
};

// The outcome of one request: a result or an error, never both.
struct Response
{
    Json result;
    std::optional<RpcError> error;

    bool ok() const { return !error.has_value(); }
    static Response success(Json result) { return {std::move(result), std::nullopt}; }
    static Response failure(int code, std::string message, Json data = nullptr)
    {
        return {nullptr, RpcError{code, std::move(message), std::move(data), true}};
    }
};

enum class MessageKind { Request, Notification, Response, Invalid };

// Classifies a decoded JSON value. Batches (arrays) are Invalid: MCP forbids them since
// 2025-06-18 and older servers never send them unasked.
MessageKind classify(const Json &message);

// Appends `text` as a JSON string (quoted; escaped, invalid UTF-8 replaced, as dump() would).
void appendJsonString(std::string &out, std::string_view text);

// How many bytes value.dump(-1, ' ', false, Json::error_handler_t::replace) would give,
// counted without building that string (a 20 MB result is measured, not copied).
std::size_t dumpedSize(const Json &value);

// Serialized messages, without the trailing newline. The request id is an integer because
// the client only ever issues integer ids.
// `paramsJson` is serialized JSON (empty: no params).
std::string serializeRequest(std::int64_t id, std::string_view method, std::string_view paramsJson);
std::string serializeNotification(std::string_view method, const Json &params);
std::string serializeResult(const Json &id, const Json &result);
std::string serializeError(const Json &id, const RpcError &error);

// A string member of a JSON object; empty when `object` is not one, or the member is absent or
// not a string (what servers and peers send is read without throwing).
QString stringMember(const Json &object, const char *key);

// The integer id of a response we issued, if it has one.
std::optional<std::int64_t> integerId(const Json &id);

} // namespace Mcp
