#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <functional>
#include <utility>
#include <vector>

namespace Mcp {

// Sign-in for one HTTP server, as its transport sees it: what every request carries, and
// what happens when the server refuses one. The OAuth authorizer (oauthclient.h) is one;
// the transport knows nothing of how credentials are obtained.
class RequestAuthorizer
{
public:
    using Headers = std::vector<std::pair<QByteArray, QByteArray>>;
    // ok: new credentials are in place and the request may be sent again; else `why`, in
    // words for the user (never a credential).
    using Done = std::function<void(bool ok, const QString &why)>;

    virtual ~RequestAuthorizer() = default;

    // The headers for one request (Authorization; DPoP's proof): `method` is the HTTP
    // method, `url` where it goes.
    virtual Headers headersFor(const QByteArray &method, const QUrl &url) = 0;

    // What the server said when it refused a request.
    struct Refusal
    {
        int status = 0;       // 401, or 403
        QByteArray challenge; // its WWW-Authenticate header
        QByteArray dpopNonce; // its DPoP-Nonce header (RFC 9449 9), if any
    };

    // The server refused a request; `protocolVersion` is what the transport speaks (sent
    // with the server's own metadata requests). `done` is called exactly once, unless the
    // authorizer is destroyed first.
    virtual void refused(const Refusal &refusal, const QByteArray &protocolVersion, Done done) = 0;
};

} // namespace Mcp
