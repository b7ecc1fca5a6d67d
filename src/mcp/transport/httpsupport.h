#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QByteArray>
#include <QNetworkRequest>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

class QNetworkReply;

namespace Mcp {

struct HttpOptions;
struct ParameterHeader;

// What the HTTP transports (Streamable HTTP, legacy HTTP+SSE) share.
namespace Http {

// What one outgoing message is, read once when it is sent.
struct Outgoing
{
    std::string text;
    Json id;            // null for a notification
    std::string method; // empty for a response
    Json cancelledId;   // notifications/cancelled: the request it cancels
    bool isRequest() const { return !id.is_null() && !method.empty(); }
    bool retried = false; // already sent again after a new session (never twice)
    int authAttempts = 0; // sent again this many times after the server asked for sign-in
    // The 2026-07-28 headers for this message (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
    // Mcp-Param-*), values ready to send.
    std::vector<std::pair<QByteArray, QByteArray>> headers;
};
// What the 2026-07-28 headers of a message are made from: the version the transport knows
// (a message's own _meta version wins) and the tools' x-mcp-header parameters.
struct ModernHeaders
{
    QByteArray version;
    const std::unordered_map<std::string, std::vector<ParameterHeader>> *parameters = nullptr;
};
// Reads the message once. With `modern`, or when the message carries a modern version in its
// _meta, fills in the headers too.
Outgoing readOutgoing(std::string text, const ModernHeaders *modern = nullptr);
// RFC 9110 token characters: what a header name may be made of.
bool isHeaderName(const QString &name);
// A header value as 2026-07-28 sends it: as is when it is visible ASCII without blanks at
// either end, else "=?base64?<UTF-8 in base64>?=".
QByteArray headerValue(std::string_view value);

inline const QByteArray AcceptBoth = QByteArrayLiteral("application/json, text/event-stream");
inline const QByteArray AcceptSse = QByteArrayLiteral("text/event-stream");

// Why these options cannot be used (not an http(s) URL, a header name that is not a token, a
// line break or NUL in a value), or empty. Names the header, never its value.
QString checkOptions(const HttpOptions &options);
// A request to `url` with the config's headers and `accept`; redirects only within the
// origin (the headers, a token among them, never go to another host), HTTP/2 allowed, no
// cookies kept or sent.
QNetworkRequest request(const HttpOptions &options, const QUrl &url, const QByteArray &accept);
// The URL's scheme, host and port (no user info, path, query or fragment).
QUrl origin(const QUrl &url);
// Whether two URLs share scheme, host and port (an absent port is the scheme's default).
bool sameOrigin(const QUrl &a, const QUrl &b);
// The path without a trailing slash ("" for the root).
QString trimmedPath(const QUrl &url);
// `path` at the origin of `base`.
QUrl withPath(const QUrl &base, const QString &path);
// The URL as shown to the user: no user info, no query (where some services put a key).
QString displayUrl(const QUrl &url);

int status(const QNetworkReply *reply); // 0 before the headers or without a response
bool isEventStream(const QNetworkReply *reply);
// Disconnects `receiver` from the reply, aborts it if it still runs, deletes it later.
void discard(QPointer<QNetworkReply> &reply, QObject *receiver);
// "server 'x' answered HTTP 500 Internal Server Error: <the start of the body>".
QString failure(const QString &where, const QNetworkReply *reply, const QByteArray &body);

// "server 'x' requires authentication: URL answered HTTP 401 to 'initialize'".
QString authenticationFailure(const QString &where, const QUrl &url, int status,
                              const QString &what);
// "could not reach server 'x' (URL): Connection refused".
QString unreachable(const QString &where, const QUrl &url, const QNetworkReply *reply);

// "server 'x' sent something that is not JSON: <its start, control characters escaped>".
QString notJson(const QString &where, std::string_view text);

// A protocol-log line for one HTTP exchange: "POST /mcp → 200 text/event-stream (what)", the
// request's header names (values shown as "…", never the value). `reply` may still run.
QString exchangeNote(const QNetworkReply *reply, const QString &what);

// How much of a failed answer's body is kept (the rest is read and dropped).
constexpr qsizetype FailureBodyBytes = 64 * 1024;

} // namespace Http
} // namespace Mcp
