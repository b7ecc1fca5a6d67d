#include "serversecrets.h"

#include "secretstore.h"

#include <engine/storage/privatefiles.h>

#include <mcp/config/config.h>

#include <QFile>
#include <QPointer>
#include <QStandardPaths>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

namespace Engine {

namespace {

using Json = nlohmann::json;

struct IndexContents
{
    QSet<QString> names;
    QString error;
};

IndexContents readIndex(const QString &path)
{
    IndexContents contents;
    QFile file(path);
    if (!file.exists())
        return contents;
    if (!file.open(QIODevice::ReadOnly)) {
        contents.error = ServerSecrets::tr("%1 cannot be read: %2").arg(path, file.errorString());
        return contents;
    }
    const QByteArray bytes = file.read(ServerSecrets::MaxIndexBytes + 1);
    if (bytes.size() > ServerSecrets::MaxIndexBytes) {
        contents.error = ServerSecrets::tr("%1 is larger than a list of names can be").arg(path);
        return contents;
    }
    const Json root
            = Json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    const auto names = root.is_object() ? root.find("names") : root.end();
    if (!root.is_object() || names == root.end() || !names->is_array()) {
        contents.error = ServerSecrets::tr("%1 is not a list of secret names "
                                           "({\"names\": [...]})")
                                 .arg(path);
        return contents;
    }
    for (const Json &name : *names) {
        if (contents.names.size() >= ServerSecrets::MaxNames)
            break;
        if (name.is_string()) {
            const QString text = QString::fromStdString(name.get<std::string>());
            if (Mcp::ConfigLoader::isSecretName(text))
                contents.names.insert(text);
        }
    }
    return contents;
}

} // namespace

ServerSecrets::ServerSecrets(SecretStore *store, QString indexFile, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_indexFile(indexFile.isEmpty() ? defaultIndexFile() : std::move(indexFile))
{
    loadIndex();
}

QString ServerSecrets::defaultIndexFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QStringLiteral("/server-secrets.json");
}

QString ServerSecrets::nameProblem(const QString &name)
{
    if (Mcp::ConfigLoader::isSecretName(name))
        return {};
    return tr("'%1' cannot name a secret: use a letter or '_' first, then letters, digits, '_', "
              "'-' or '.' (at most %2 characters)")
            .arg(Mcp::ConfigLoader::quotedValue(name))
            .arg(Mcp::ConfigLoader::kMaxSecretNameLength);
}

void ServerSecrets::loadIndex()
{
    // Read again each time: another window or the CLI may have stored a secret meanwhile.
    IndexContents contents = readIndex(m_indexFile);
    m_stored = std::move(contents.names);
    m_indexError = std::move(contents.error);
}

QStringList ServerSecrets::names() const
{
    QSet<QString> all = readIndex(m_indexFile).names;
    all.unite(m_stored);
    all.unite(m_sessionOnly);
    QStringList sorted(all.begin(), all.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

bool ServerSecrets::saveIndex(QString *error)
{
    QStringList sorted(m_stored.begin(), m_stored.end());
    std::sort(sorted.begin(), sorted.end());
    Json names = Json::array();
    for (const QString &name : sorted)
        names.push_back(name.toStdString());
    const Json root{{"names", names}};
    return PrivateFiles::write(m_indexFile, QByteArray::fromStdString(root.dump(2) + '\n'), error);
}

void ServerSecrets::finishLater(QObject *context, Done done, Outcome outcome)
{
    QTimer::singleShot(0, context,
                       [done = std::move(done), outcome = std::move(outcome)] { done(outcome); });
}

void ServerSecrets::set(const QString &name, const QString &value, QObject *context, Done done)
{
    QString problem = nameProblem(name);
    if (problem.isEmpty() && value.isEmpty())
        problem = tr("the secret %1 would be empty").arg(name);
    if (problem.isEmpty() && value.size() > MaxValueChars)
        problem = tr("the secret %1 is longer than %2 characters").arg(name).arg(MaxValueChars);
    if (problem.isEmpty() && value.contains(QChar(0)))
        problem = tr("the secret %1 holds a NUL character, which no program can be given")
                          .arg(name);
    if (!problem.isEmpty()) {
        finishLater(context, std::move(done), Outcome{false, false, problem});
        return;
    }
    m_store->write(keychainKey(name), value, this,
                   [this, name, context = QPointer<QObject>(context),
                    done = std::move(done)](const SecretStore::Result &result) {
                       Outcome outcome;
                       if (result.sessionOnly) {
                           m_sessionOnly.insert(name);
                           outcome.sessionOnly = true;
                           outcome.error = result.error;
                       } else {
                           m_sessionOnly.remove(name);
                           loadIndex();
                           m_stored.insert(name);
                           QString error;
                           if (!saveIndex(&error))
                               outcome.error = tr("%1 is in the keychain, but its name could not "
                                                  "be listed: %2")
                                                       .arg(name, error);
                       }
                       emit changed();
                       if (context)
                           done(outcome);
                   });
}

void ServerSecrets::remove(const QString &name, QObject *context, Done done)
{
    if (const QString problem = nameProblem(name); !problem.isEmpty()) {
        finishLater(context, std::move(done), Outcome{false, false, problem});
        return;
    }
    m_store->remove(keychainKey(name), this,
                    [this, name, context = QPointer<QObject>(context),
                     done = std::move(done)](const SecretStore::Result &result) {
                        Outcome outcome;
                        m_sessionOnly.remove(name);
                        if (result.status == SecretStore::Result::Unavailable) {
                            outcome.ok = false;
                            outcome.error = result.error;
                        } else {
                            loadIndex();
                            QString error;
                            if (m_stored.remove(name) && !saveIndex(&error))
                                outcome.error = error;
                        }
                        emit changed();
                        if (context)
                            done(outcome);
                    });
}

void ServerSecrets::read(const QStringList &names, QObject *context, ReadDone done)
{
    QStringList unique = names;
    unique.removeDuplicates();
    struct Pending
    {
        QHash<QString, QString> values;
        QString error;
        qsizetype left = 0;
        ReadDone done;
    };
    auto pending = std::make_shared<Pending>();
    pending->left = unique.size();
    pending->done = std::move(done);
    if (unique.isEmpty()) {
        QTimer::singleShot(0, context, [pending] { pending->done({}, {}); });
        return;
    }
    for (const QString &name : std::as_const(unique)) {
        m_store->read(
                keychainKey(name), context, [name, pending](const SecretStore::Result &result) {
                    if (result.status == SecretStore::Result::Ok)
                        pending->values.insert(name, result.secret);
                    else if (result.status == SecretStore::Result::Unavailable
                             && pending->error.isEmpty())
                        pending->error = tr("the secret %1 could not be read from the keychain: %2")
                                                 .arg(name, result.error);
                    if (--pending->left == 0)
                        pending->done(pending->values, pending->error);
                });
    }
}

} // namespace Engine
