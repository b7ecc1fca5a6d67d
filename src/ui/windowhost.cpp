#include "windowhost.h"

#include "appviewfactory.h"
#include "serverrequestdialogs.h"

#include <engine/session.h>

#include <QDesktopServices>
#include <QUrl>

namespace Gui {

WindowHost::WindowHost(QWidget *window, std::function<void(const QUrl &)> openUrl)
    : QObject(window)
    , m_window(window)
    , m_openUrl(std::move(openUrl))
{
    if (!m_openUrl)
        m_openUrl = [](const QUrl &url) {
            QDesktopServices::openUrl(url);
        };
}

void WindowHost::openUrl(const QUrl &url)
{
    m_openUrl(url);
}

QString WindowHost::signInHint(const QString &) const
{
    return tr("sign-in needed: select the server in the Servers dock and press Sign in");
}

std::optional<Engine::ProviderConfig> WindowHost::samplingModel() const
{
    return m_session ? m_session->model() : std::nullopt;
}

void WindowHost::reviewSampling(
        const QString &server, const Engine::Sampling::Request &request,
        std::function<void(std::optional<Engine::Sampling::Request>)> decide)
{
    if (!m_window)
        return decide(std::nullopt);
    auto *dialog = new SamplingDialog(server, request, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    struct State
    {
        bool answered = false;
        std::function<void(std::optional<QString>)> back;
    };
    auto state = std::make_shared<State>();
    QPointer<SamplingDialog> guard(dialog);
    connect(dialog, &SamplingDialog::requestDecided, this,
            [decide, guard, state](std::optional<Engine::Sampling::Request> edited) {
                if (!edited)
                    return decide(std::nullopt);
                edited->review = [guard, state](const QString &answer,
                                                std::function<void(std::optional<QString>)> back) {
                    if (!guard || state->answered)
                        return back(std::nullopt);
                    state->back = std::move(back);
                    guard->setAnswer(answer);
                };
                edited->failed = [guard](const QString &why) {
                    if (guard)
                        guard->setFailure(why);
                };
                decide(std::move(edited));
            });
    connect(dialog, &SamplingDialog::answerDecided, this, [state](std::optional<QString> answer) {
        state->answered = true;
        if (auto back = std::exchange(state->back, nullptr))
            back(std::move(answer));
    });
    dialog->open();
}

void WindowHost::elicit(const QString &server, const Mcp::Json &params, Mcp::Client::Reply reply)
{
    if (!m_window)
        return reply(Mcp::Response::success({{"action", "cancel"}}));
    auto *dialog = new ElicitationDialog(server, params, m_openUrl, m_window);
    if (!dialog->isValid()) {
        const Mcp::Response invalid = dialog->invalidResponse();
        delete dialog;
        return reply(invalid);
    }
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ElicitationDialog::answered, this,
            [reply](const Mcp::Response &response) { reply(response); });
    dialog->open();
}

bool WindowHost::showsAppViews() const
{
    return appViewsInstalled();
}

} // namespace Gui
