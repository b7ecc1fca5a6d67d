#pragma once

#include "appsettings.h"

#include <QComboBox>
#include <QFrame>

#include <functional>

namespace Engine {
class LlmProvider;
}

namespace Gui {

// The composer's model picker: the model in use at once, then the provider's list when it
// comes (each model's name and context window in its tip). Picking another emits
// modelChosen(); the window saves it and makes the agent again. With more than one profile in
// Settings, the profiles come first (the one in use in bold, and its name before the model
// on the closed picker); picking one emits profileChosen().
class ModelPicker : public QComboBox
{
    Q_OBJECT
public:
    explicit ModelPicker(QWidget *parent = nullptr);

    // The profiles to offer, and the id of the one in use; shown from the next setProvider().
    void setProfiles(const QList<AppSettings::ModelProfile> &profiles, const QString &active);
    // The item's data under this role is a profile's id (empty for a model's item).
    static constexpr int ProfileRole = Qt::UserRole + 1;

    // Lists `provider`'s models (none: "no model"); a listing still under way is cancelled.
    // Call it with nullptr before the provider goes: the picker never cancels a listing of a
    // provider that is gone (its requests end with it).
    void setProvider(Engine::LlmProvider *provider);
    // The current model's context window per the provider's list (0: not listed, or not yet).
    qint64 listedContextTokens() const { return m_listedContextTokens; }
    void retranslateUi();
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void modelChosen(const QString &model);
    void profileChosen(const QString &id);
    // The provider's list came and gave the current model's window (listedContextTokens()).
    void listed();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void cancelListing();
    // Clears the list and puts the profiles (when there is a choice) and a separator first.
    void restart();
    // The current model's item.
    void addModel(const QString &model);
    // "Work · " before the model on the closed picker, when there is a choice of profiles.
    QString profilePrefix() const;

    QList<AppSettings::ModelProfile> m_profiles;
    QString m_activeProfile;

    Engine::LlmProvider *m_provider = nullptr;
    std::function<void()> m_cancelListing;
    qint64 m_listedContextTokens = 0;
};

// "Chat needs a model — why", above the chat while there is none (with what a missing keychain
// means, if it is missing), and a "Set up a model…" button that opens
// Settings.
class NoModelNotice : public QFrame
{
    Q_OBJECT
public:
    // `keychainNote`: SettingsDialog::keychainNote() when the keychain could not give the key.
    NoModelNotice(const QString &whyNot, const QString &keychainNote, QWidget *parent = nullptr);

signals:
    void setUpRequested();
};

} // namespace Gui
