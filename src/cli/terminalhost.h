#pragma once

#include <engine/host.h>
#include <engine/serverrequests/elicitation.h>

#include <QObject>

#include <functional>

namespace Cli {

class TerminalApprovalGate;

// switchboard-cli's side of the engine (Engine::Host). A server asking for a completion of the
// model in the environment: --approve (or the terminal) decides. A server asking the user
// something: asked on the terminal when there is one and --elicit was not given; otherwise
// --elicit answers (decline unless told otherwise) and stderr says what was asked. Sign-in
// pages: the address printed (and opened with xdg-open where there is a display).
class TerminalHost : public QObject, public Engine::Host
{
    Q_OBJECT
public:
    struct Options
    {
        QString workspace;                            // for the hints it prints
        std::function<TerminalApprovalGate *()> gate; // made when first needed
        bool askTerminal = false; // elicitation on the terminal (else `policy` answers)
        Engine::Elicitation::Policy policy = Engine::Elicitation::Policy::Decline;
    };
    explicit TerminalHost(Options options, QObject *parent = nullptr);

    void openUrl(const QUrl &url) override;
    QString signInHint(const QString &server) const override;
    std::optional<Engine::ProviderConfig> samplingModel() const override;
    void
    reviewSampling(const QString &server, const Engine::Sampling::Request &request,
                   std::function<void(std::optional<Engine::Sampling::Request>)> decide) override;
    bool canElicitUrl() const override { return m_options.askTerminal; }
    void elicit(const QString &server, const Mcp::Json &params, Mcp::Client::Reply reply) override;
    void notice(const QString &text) override;

private:
    Options m_options;
};

} // namespace Cli
