#pragma once

#include "appsettings.h"

#include <engine/secrets/secretstore.h>

#include <QDialog>
#include <QHash>
#include <QMap>
#include <QSet>

#include <functional>
#include <memory>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QToolButton;

namespace Engine {
class LlmProvider;
class ServerSecrets;
} // namespace Engine

namespace Gui {

// Edits the settings file and the API keys: the model profiles (each a name, a provider — the
// environment variables as before, an OpenAI-compatible server or Anthropic —, its base URL,
// model and key; the one shown when OK is pressed is the one the chat uses), "Test connection"
// (the provider's model list, or its exact error), the request and tool timeouts, whether bash
// runs in a sandbox, and the interface language. Keys go to the OS keychain through the
// Engine::SecretStore, never into the settings file; where the keychain does not work the
// dialog says once that a key lasts until Switchboard quits and which variable keeps it. OK
// writes the file and the keys (the dialog closes when the keychain has answered); Cancel changes
// nothing. The pages scroll, so the dialog fits a 1366×768 screen. Opened with open() by the main
// window, which applies settings() when it is accepted.
class SettingsForm;

class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    // `serverSecrets` (optional): the "Server secrets" page's store, and `secretUsage` by name
    // the servers that read each.
    SettingsDialog(QString settingsFile, Engine::SecretStore *secrets, QWidget *parent = nullptr,
                   Engine::ServerSecrets *serverSecrets = nullptr,
                   QMap<QString, QStringList> secretUsage = {});

    // What the form holds now.
    AppSettings settings() const;
    // After OK: why the keychain did not take the key (empty if it did, or none was typed).
    QString keychainError() const { return m_keychainError; }

    // "No keychain answers here (<reason>), so a key typed here lasts only until Switchboard
    // quits. To keep one, set <variable> …", as the dialog and the window say it.
    static QString keychainNote(const QString &reason, const QString &variable);
    // The most the dialog is tall at first (less on a smaller screen): its pages scroll.
    static constexpr int MaxHeight = 680;

signals:
    // A server secret was stored, replaced or deleted on the "Server secrets" page (at once,
    // not on OK): the servers that read it should start again.
    void serverSecretChanged(const QString &name);

public slots:
    void accept() override;
    void reject() override;

private:
    struct KeyState
    {
        enum State { Unknown, Reading, Stored, SessionOnly, NotStored, Unavailable };
        State state = Unknown;
        QString error;
    };

    void setUpProfileRow(const AppSettings &current, SettingsForm &form);
    void setUpModelForm(const AppSettings &current, SettingsForm &form);
    QLayout *setUpPrices(const AppSettings &current);
    void setUpToolsForm(const AppSettings &current, SettingsForm &form);
    QString currentProvider() const;
    QString currentProfileId() const;
    // The profile in the form, as it is now (its name, provider, base URL and model).
    AppSettings::ModelProfile formProfile() const;
    // Keeps the form's profile and typed key, then shows profile `index`.
    void showProfile(int index);
    void addProfile();
    void removeProfile();
    void testConnection();
    void showTestResult(const QString &text, bool failed);
    void providerChanged();
    void readKeyState(const QString &profileId);
    void showKeyState();
    bool validate();
    void growToFit();
    void forgetKey();
    void jobDone();

    QString m_file;
    Engine::SecretStore *m_secrets;
    QList<AppSettings::ModelProfile> m_profiles; // as edited; the form holds m_profileIndex's
    int m_profileIndex = 0;
    QStringList m_savedProfileIds;        // as read: a key of one removed goes on OK
    QHash<QString, QString> m_typedKeys;  // by profile id: typed, written on OK
    QHash<QString, KeyState> m_keyStates; // by profile id
    QSet<QString> m_forget;               // profiles whose key goes when OK is pressed
    std::unique_ptr<Engine::LlmProvider> m_testProvider; // Test connection's, while it asks
    std::function<void()> m_cancelTest;
    int m_testGeneration = 0;
    int m_pendingJobs = 0; // keychain writes/deletes after OK
    QString m_keychainError;

    QComboBox *m_profileCombo = nullptr;
    QToolButton *m_addProfileButton = nullptr;
    QToolButton *m_removeProfileButton = nullptr;
    QLineEdit *m_profileNameEdit = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testResult = nullptr;
    QComboBox *m_providerCombo = nullptr;
    QLabel *m_environmentNote = nullptr;
    QLineEdit *m_baseUrlEdit = nullptr;
    QLabel *m_baseUrlError = nullptr;
    QLineEdit *m_modelEdit = nullptr;
    QLineEdit *m_keyEdit = nullptr;
    QToolButton *m_showKeyButton = nullptr;
    QPushButton *m_forgetKeyButton = nullptr;
    QLabel *m_keyStateLabel = nullptr;
    QLabel *m_keychainNote = nullptr;
    QSpinBox *m_requestTimeoutSpin = nullptr;
    QSpinBox *m_toolTimeoutSpin = nullptr;
    QSpinBox *m_startsSpin = nullptr;
    QSpinBox *m_inboundSpin = nullptr;
    QSpinBox *m_observationSpin = nullptr;
    QSpinBox *m_keepResultSpin = nullptr;
    QSpinBox *m_keepConversationSpin = nullptr;
    QSpinBox *m_contextSpin = nullptr;
    QCheckBox *m_seesImagesCheck = nullptr;
    QSpinBox *m_toolSearchSpin = nullptr;
    QLineEdit *m_pinnedEdit = nullptr;
    QTableWidget *m_pricesTable = nullptr;
    QToolButton *m_addPriceButton = nullptr;
    QToolButton *m_removePriceButton = nullptr;
    QComboBox *m_bashSandboxCombo = nullptr;
    QLineEdit *m_sensitiveFilesEdit = nullptr;
    QLineEdit *m_registryEdit = nullptr;
    QLabel *m_registryError = nullptr;
    QComboBox *m_languageCombo = nullptr;
    QLabel *m_saveError = nullptr;
    QTabWidget *m_pages = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace Gui
