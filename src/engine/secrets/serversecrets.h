#pragma once

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>

namespace Engine {

class SecretStore;

// The secrets servers read from the keychain: a definition's `${secret:NAME}` (in args, env
// or headers) is the keychain entry "server-secret/NAME" of the SecretStore, read when the
// server starts and never written to any file. A keychain cannot be asked what it holds, so the
// names (never the values) are kept in an index file beside the trust decisions, for the
// Settings page and `switchboard-cli secret list`. Where no keychain answers, a value set is
// kept in memory for this session only (and said so); nothing secret is ever written to disk.
// Owned by the Session.
class ServerSecrets : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *KeyPrefix = "server-secret/";
    // A secret is a token, a password or a key file's text; more is not a secret.
    static constexpr qsizetype MaxValueChars = 64 * 1024;
    // The index is a list of names: a larger file is not ours.
    static constexpr qsizetype MaxIndexBytes = 256 * 1024;
    static constexpr qsizetype MaxNames = 1000;

    // `indexFile` empty: defaultIndexFile().
    explicit ServerSecrets(SecretStore *store, QString indexFile = {}, QObject *parent = nullptr);
    // QStandardPaths::AppDataLocation + "/server-secrets.json".
    static QString defaultIndexFile();
    static QString keychainKey(const QString &name) { return QLatin1String(KeyPrefix) + name; }

    // Every name stored: the index file's and this session's, sorted.
    QStringList names() const;
    // Set when the index file could not be read (or was not ours); names() is then only what
    // this session stored.
    QString indexError() const { return m_indexError; }
    bool isSessionOnly(const QString &name) const { return m_sessionOnly.contains(name); }

    struct Outcome
    {
        bool ok = true;
        // set(): the keychain did not answer, so the value lives in memory until the app quits.
        bool sessionOnly = false;
        QString error; // !ok, or sessionOnly: why, in words a user can act on
    };
    using Done = std::function<void(const Outcome &)>;
    // Stores (or replaces) a secret. `done` once, from the event loop, unless `context` is gone.
    // A bad name or value is refused at once (still through the event loop).
    void set(const QString &name, const QString &value, QObject *context, Done done);
    // Deletes the entry and its name (a missing one is not an error).
    void remove(const QString &name, QObject *context, Done done);

    // Reads every name: `done(values, error)` once, values by name (a secret not stored is
    // left out), error non-empty when the keychain failed for one of them.
    using ReadDone
            = std::function<void(const QHash<QString, QString> &values, const QString &error)>;
    void read(const QStringList &names, QObject *context, ReadDone done);

    // A name's problem, or empty: ConfigLoader::isSecretName() in words.
    static QString nameProblem(const QString &name);

signals:
    void changed();

private:
    void loadIndex();
    bool saveIndex(QString *error);
    void finishLater(QObject *context, Done done, Outcome outcome);

    SecretStore *m_store;
    QString m_indexFile;
    QString m_indexError;
    QSet<QString> m_stored;      // in the keychain, by the index
    QSet<QString> m_sessionOnly; // in memory (no keychain answered)
};

} // namespace Engine
