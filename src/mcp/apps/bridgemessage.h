#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QByteArrayView>
#include <QString>

#include <string>

namespace Mcp::Apps {

// A view may send a tool's arguments through the bridge; anything bigger than this is not a
// widget talking to its host (a tools/call request's arguments are rarely over a few KB, and
// the spec's own ui/update-model-context is a few blocks of text).
inline constexpr qsizetype MaxBridgeMessageBytes = 1024 * 1024;
// Method names of the bridge are short ("ui/notifications/size-changed" is 29); a request id a
// view makes up is a counter. Longer ones are refused rather than logged and echoed.
inline constexpr std::size_t MaxBridgeMethodLength = 128;
inline constexpr std::size_t MaxBridgeIdLength = 128;

// One message a view posted to its host, read and checked before anything acts on it: JSON-RPC
// 2.0, one object (no batches), a string method, an id that is an integer or a short string,
// params that are an object when present. A view is untrusted input: whatever it sends ends
// as one of these, never as an exception.
struct BridgeMessage
{
    enum class Kind {
        Invalid,      // see `problem`; a request's `id` is kept, to answer it with an error
        Request,      // method + id
        Notification, // method, no id
        Response,     // id + result or error: the answer to one of the host's requests
    };
    Kind kind = Kind::Invalid;
    Json id;            // integer or string (null when none or unusable)
    std::string method; // Request, Notification
    Json params;        // an object (empty when absent)
    Json result;        // Response
    Json error;         // Response: the error object, or null
    QString problem;    // Invalid: what was wrong, for the protocol log

    static BridgeMessage read(QByteArrayView text);
};

} // namespace Mcp::Apps
