#pragma once

#include <QComboBox>
#include <QFrame>

#include <functional>

namespace Engine {
class LlmProvider;
}

namespace Gui {

// The composer's model picker: the model in use at once, then the provider's list when it
// comes (each model's name and context window in its tip). Picking another emits
// modelChosen(); the window saves it and makes the agent again.
class ModelPicker : public QComboBox
{
    Q_OBJECT
public:
    explicit ModelPicker(QWidget *parent = nullptr);

    // Lists `provider`'s models (none: "no model"); a listing still under way is cancelled.
    // Call it with nullptr before the provider goes: the picker never cancels a listing of a
    // provider that is gone (its requests end with it).
    void setProvider(Engine::LlmProvider *provider);
    // The current model's context window per the provider's list (0: not listed, or not yet).
    qint64 listedContextTokens() const { return m_listedContextTokens; }
    void retranslateUi();

signals:
    void modelChosen(const QString &model);
    // The provider's list came and gave the current model's window (listedContextTokens()).
    void listed();

private:
    void cancelListing();

    Engine::LlmProvider *m_provider = nullptr;
    std::function<void()> m_cancelListing;
    qint64 m_listedContextTokens = 0;
};

// "Chat needs a model — why", above the chat while there is none (with why the keychain
// could not give the key, if it could not), and a "Set up a model…" button that opens
// Settings.
class NoModelNotice : public QFrame
{
    Q_OBJECT
public:
    NoModelNotice(const QString &whyNot, const QString &keychainError, QWidget *parent = nullptr);

signals:
    void setUpRequested();
};

} // namespace Gui
