#pragma once

#include <engine/llm/providerconfig.h>
#include <engine/serverrequests/sampling.h>

#include <mcp/client/client.h>

#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

namespace Engine {

// What the face running a Session does for it: the window answers with dialogs, the CLI on
// the terminal (or from its flags). The Session builds everything else itself from these
// answers: the keychain and sign-in, the answerers of the servers' requests, and the client
// capabilities each server is told about (only what the face can answer is advertised).
// Every call is on the Session's thread; every `decide`/`reply` is called exactly once.
class Host
{
public:
    virtual ~Host() = default;

    // Opens a page in the person's browser (a sign-in, an elicitation's URL).
    virtual void openUrl(const QUrl &url) = 0;
    // What a server that needs a sign-in says when none was started: where to start one.
    virtual QString signInHint(const QString &server) const = 0;

    // A server asks the person's model for a completion (sampling/createMessage), with
    // the model samplingModel() names: the request to send (as it was or edited), or
    // nullopt for no. The request's `review` may be set to see the answer before it goes.
    virtual std::optional<ProviderConfig> samplingModel() const = 0;
    virtual void reviewSampling(const QString &server, const Sampling::Request &request,
                                std::function<void(std::optional<Sampling::Request>)> decide)
            = 0;

    // A server asks the person something (elicitation/create): the MCP reply. URL mode is
    // advertised only when canElicitUrl().
    virtual bool canElicitUrl() const = 0;
    virtual void elicit(const QString &server, const Mcp::Json &params, Mcp::Client::Reply reply)
            = 0;

    // Whether this face shows MCP Apps views (a tool's interactive HTML): then servers are
    // told so (capabilities.extensions "io.modelcontextprotocol/ui"). The window does; a
    // terminal and inbound A2A tasks do not.
    virtual bool showsAppViews() const { return false; }

    // Something the person should know that belongs to no request (the audit log could not
    // be written). Plain text.
    virtual void notice(const QString &text) = 0;
};

} // namespace Engine
