#pragma once

#include <QMap>
#include <QPointer>
#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace Engine {
class ServerSecrets;
}

namespace Gui {

// The Settings dialog's "Server secrets" page: the secrets servers read from the keychain
// (`${secret:NAME}` in a definition's args, env or headers), by name only, each with the servers
// that use it; Add, Replace and Delete act on the keychain at once (not on OK), since a secret
// is never part of the settings file. A name a server uses that is not stored is listed too, so
// the user sees what is missing. Values are typed into a password field and never shown.
class ServerSecretsPage : public QWidget
{
    Q_OBJECT
public:
    // `usage`: by secret name, the servers whose definitions read it.
    ServerSecretsPage(Engine::ServerSecrets *secrets, QMap<QString, QStringList> usage,
                      QWidget *parent = nullptr);

    // The dialogs Add and Replace open, for tests to fill in.
    static constexpr const char *ValueDialogName = "secretValueDialog";

signals:
    // A secret was stored, replaced or deleted: the servers that read it should start again.
    void secretChanged(const QString &name);

private:
    void refresh();
    void updateButtons();
    QString selectedName() const;
    void askValue(const QString &name);
    void store(const QString &name, const QString &value);
    void deleteSelected();
    void showOutcome(const QString &text, bool error);

    QPointer<Engine::ServerSecrets> m_secrets;
    QMap<QString, QStringList> m_usage;
    QTreeWidget *m_list = nullptr;
    QPushButton *m_addButton = nullptr;
    QPushButton *m_replaceButton = nullptr;
    QPushButton *m_deleteButton = nullptr;
    QLabel *m_status = nullptr;
    bool m_busy = false;
};

} // namespace Gui
