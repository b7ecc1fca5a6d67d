#pragma once

#include <engine/host.h>

// A face that answers nothing: no browser, no model, every question declined. What a Session
// needs to have a keychain, when a test does not look at the face.
class QuietHost : public Engine::Host
{
public:
    explicit QuietHost(bool views = false)
        : m_views(views)
    {
    }
    void openUrl(const QUrl &) override {}
    QString signInHint(const QString &) const override { return {}; }
    std::optional<Engine::ProviderConfig> samplingModel() const override { return {}; }
    void
    reviewSampling(const QString &, const Engine::Sampling::Request &,
                   std::function<void(std::optional<Engine::Sampling::Request>)> decide) override
    {
        decide(std::nullopt);
    }
    bool canElicitUrl() const override { return false; }
    void elicit(const QString &, const Mcp::Json &, Mcp::Client::Reply reply) override
    {
        reply(Mcp::Response::success({{"action", "decline"}}));
    }
    void notice(const QString &) override {}
    bool showsAppViews() const override { return m_views; }

private:
    bool m_views;
};
