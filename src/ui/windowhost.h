#pragma once

#include <engine/host.h>

#include <QObject>
#include <QPointer>
#include <QWidget>

#include <functional>

namespace Engine {
class Session;
}

namespace Gui {

// The window's side of the engine (Engine::Host): what servers may ask of the person at the
// window — a completion of their model (sampling: the request and the answer are shown, and
// may be edited, before either goes) and answers to a question (elicitation: a form, or a
// page to open) — each in its own dialog over the window; sign-in pages in the system browser
// (or `openUrl` when given); notices for the chat.
class WindowHost : public QObject, public Engine::Host
{
    Q_OBJECT
public:
    WindowHost(QWidget *window, std::function<void(const QUrl &)> openUrl);
    // The session whose model answers sampling requests (set once it exists).
    void setSession(Engine::Session *session) { m_session = session; }

    void openUrl(const QUrl &url) override;
    QString signInHint(const QString &server) const override;
    std::optional<Engine::ProviderConfig> samplingModel() const override;
    void
    reviewSampling(const QString &server, const Engine::Sampling::Request &request,
                   std::function<void(std::optional<Engine::Sampling::Request>)> decide) override;
    bool canElicitUrl() const override { return true; }
    // MCP Apps views show in the chat's tool cards where this build has its view plugin
    // (Qt WebEngine); elsewhere servers give their text as to any client.
    bool showsAppViews() const override;
    void elicit(const QString &server, const Mcp::Json &params, Mcp::Client::Reply reply) override;
    void notice(const QString &text) override { emit noticed(text); }

signals:
    void noticed(const QString &text); // plain text, for the chat

private:
    QPointer<QWidget> m_window;
    std::function<void(const QUrl &)> m_openUrl;
    QPointer<Engine::Session> m_session;
};

} // namespace Gui
