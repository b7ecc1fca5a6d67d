#include "terminalhost.h"

#include "cliinternal.h"
#include "terminalelicitation.h"
#include "terminalgate.h"

#include <engine/approval/approval.h>
#include <engine/secrets/processenvironment.h>

#include <QProcess>
#include <QUrl>

namespace Cli {

using Internal::err;

TerminalHost::TerminalHost(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
}

void TerminalHost::openUrl(const QUrl &url)
{
    err(tr("Open this address in a browser to sign in (waiting up to 5 minutes):\n%1")
                .arg(url.toString(QUrl::FullyEncoded)));
    if (!qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        QProcess::startDetached(QStringLiteral("xdg-open"), {url.toString(QUrl::FullyEncoded)});
}

QString TerminalHost::signInHint(const QString &server) const
{
    return tr("sign-in needed: run 'switchboard-cli --workspace %1 auth login %2'")
            .arg(m_options.workspace, server);
}

std::optional<Engine::ProviderConfig> TerminalHost::samplingModel() const
{
    return Engine::ProviderConfig::fromEnvironment(Engine::ProcessEnvironment::original());
}

void TerminalHost::reviewSampling(
        const QString &server, const Engine::Sampling::Request &request,
        std::function<void(std::optional<Engine::Sampling::Request>)> decide)
{
    Engine::ApprovalRequest question;
    question.toolName = QStringLiteral("sampling/createMessage");
    question.source = server;
    question.originalName = QStringLiteral("sampling");
    question.risk = Engine::Risk::Dangerous;
    question.arguments = request.shown;
    question.reason = tr("%1 asks your model for a completion").arg(server);
    err(tr("[sampling] %1 asks your model (%2 messages, at most %3 tokens)")
                .arg(server)
                .arg(request.messages.size())
                .arg(request.maxTokens));
    m_options.gate()->requestApproval(question,
                                      [decide, request](const Engine::ApprovalDecision &decision) {
                                          if (decision.choice == Engine::ApprovalChoice::Deny)
                                              decide(std::nullopt);
                                          else
                                              decide(request);
                                      });
}

void TerminalHost::elicit(const QString &server, const Mcp::Json &params, Mcp::Client::Reply reply)
{
    if (m_options.askTerminal)
        return askElicitationOnTerminal(m_options.gate(), server, params, std::move(reply));
    QString note;
    Mcp::Response response = Engine::Elicitation::answer(params, m_options.policy, &note);
    const QString message = Mcp::stringMember(params, "message");
    err(tr("[elicitation] %1 asks: %2 (%3)").arg(server, message.left(500), note));
    reply(std::move(response));
}

void TerminalHost::notice(const QString &text)
{
    err(text);
}

} // namespace Cli
