#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

namespace Engine {

// The API keys: reads, writes and deletes entries of the OS keychain (Secret Service, KWallet,
// macOS Keychain, Windows Credential Store) through qtkeychain's asynchronous jobs, under one
// service name. Where no keychain answers (a headless session without D-Bus), nothing is
// written anywhere else: a key given to write() is kept in memory for this session only and
// read() answers it from there. Owned by the main window (and lent to the Settings dialog) or the
// CLI.
class SecretStore : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *DefaultService = "switchboard";

    // A keychain failure in words a user can act on (`code`: QKeychain::Error; `detail`:
    // the job's own text, left out when it says nothing, as "Unknown error" does).
    static QString describeError(int code, const QString &detail);

    struct Result
    {
        enum Status {
            Ok,          // read: found; write/remove: done
            NotFound,    // read: no such entry
            Unavailable, // the keychain failed; `error` says why
        };
        Status status = Ok;
        QString secret;           // read: the value (also from session memory)
        QString error;            // Unavailable: qtkeychain's reason
        bool sessionOnly = false; // the value lives in memory only (not in the keychain)
    };
    // Called exactly once, from the event loop (never inside the call that started the job),
    // unless `context` is destroyed first.
    using Callback = std::function<void(const Result &)>;

    explicit SecretStore(QString service = QString::fromLatin1(DefaultService),
                         QObject *parent = nullptr);

    QString service() const { return m_service; }
    void read(const QString &key, QObject *context, Callback done);
    // Unavailable: the secret is kept in memory for this session (and sessionOnly set).
    void write(const QString &key, const QString &secret, QObject *context, Callback done);
    // Forgets the session copy and deletes the keychain entry (a missing one is Ok).
    void remove(const QString &key, QObject *context, Callback done);

    bool hasSessionSecret(const QString &key) const { return m_session.contains(key); }

private:
    QString m_service;
    QHash<QString, QString> m_session; // keys the keychain could not keep
};

} // namespace Engine
