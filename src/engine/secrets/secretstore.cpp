#include "secretstore.h"

#include <qt6keychain/keychain.h>

#include <QLoggingCategory>
#include <QTimer>

Q_LOGGING_CATEGORY(lcSecrets, "switchboard.engine.secrets", QtWarningMsg)

namespace Engine {

namespace {

// Runs `done` with the job's outcome once it finishes; the job deletes itself afterwards
// (qtkeychain's autoDelete). Jobs have no parent: one in flight when the store dies still
// finishes and is dropped here if `context` is gone.
void startJob(QKeychain::Job *job, QObject *context, std::function<void(QKeychain::Job *)> finished)
{
    job->setAutoDelete(true);
    QObject::connect(job, &QKeychain::Job::finished, context, std::move(finished),
                     Qt::SingleShotConnection);
    job->start(); // qtkeychain queues the work: `finished` never fires inside start()
}

SecretStore::Result failure(QKeychain::Job *job)
{
    SecretStore::Result result;
    result.status = SecretStore::Result::Unavailable;
    result.error = SecretStore::describeError(job->error(), job->errorString());
    return result;
}

} // namespace

// What went wrong in words a user can act on: qtkeychain's own text is often just "Unknown
// error" (no Secret Service on the session bus).
QString SecretStore::describeError(int code, const QString &detail)
{
    QString text;
    switch (code) {
    case QKeychain::NoBackendAvailable:
        text = tr("no keychain service is running (such as GNOME Keyring or KWallet)");
        break;
    case QKeychain::AccessDeniedByUser:
        text = tr("access to the keychain was refused");
        break;
    case QKeychain::AccessDenied:
        text = tr("the keychain denied access (is it locked?)");
        break;
    case QKeychain::NotImplemented:
        text = tr("this system has no keychain Switchboard can use");
        break;
    case QKeychain::CouldNotDeleteEntry:
        text = tr("the keychain could not delete the key");
        break;
    default:
        text = tr("the keychain failed (error %1)").arg(code);
        break;
    }
    const QString trimmed = detail.trimmed();
    if (!trimmed.isEmpty() && trimmed.compare(QLatin1String("Unknown error"), Qt::CaseInsensitive))
        text += QStringLiteral(": ") + trimmed;
    return text;
}

SecretStore::SecretStore(QString service, QObject *parent)
    : QObject(parent)
    , m_service(std::move(service))
{
}

void SecretStore::read(const QString &key, QObject *context, Callback done)
{
    if (m_session.contains(key)) {
        Result result;
        result.secret = m_session.value(key);
        result.sessionOnly = true;
        QTimer::singleShot(0, context, [done = std::move(done), result] { done(result); });
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(m_service);
    job->setKey(key);
    startJob(job, context, [done = std::move(done), key](QKeychain::Job *finished) {
        Result result;
        switch (finished->error()) {
        case QKeychain::NoError:
            result.secret = static_cast<QKeychain::ReadPasswordJob *>(finished)->textData();
            break;
        case QKeychain::EntryNotFound:
            result.status = Result::NotFound;
            break;
        default:
            result = failure(finished);
            qCInfo(lcSecrets) << "reading" << key << "from the keychain failed:" << result.error;
            break;
        }
        done(result);
    });
}

void SecretStore::write(const QString &key, const QString &secret, QObject *context, Callback done)
{
    auto *job = new QKeychain::WritePasswordJob(m_service);
    job->setKey(key);
    job->setTextData(secret);
    // The session copy is kept (or dropped) even if `context` is gone by then.
    connect(job, &QKeychain::Job::finished, this, [this, key, secret](QKeychain::Job *finished) {
        if (finished->error() == QKeychain::NoError) {
            m_session.remove(key);
        } else {
            m_session.insert(key, secret);
            qCInfo(lcSecrets) << "writing" << key
                              << "to the keychain failed:" << failure(finished).error;
        }
    });
    startJob(job, context, [done = std::move(done)](QKeychain::Job *finished) {
        Result result;
        if (finished->error() != QKeychain::NoError) {
            result = failure(finished);
            result.sessionOnly = true;
        }
        done(result);
    });
}

void SecretStore::remove(const QString &key, QObject *context, Callback done)
{
    m_session.remove(key);
    auto *job = new QKeychain::DeletePasswordJob(m_service);
    job->setKey(key);
    startJob(job, context, [done = std::move(done), key](QKeychain::Job *finished) {
        Result result;
        if (finished->error() != QKeychain::NoError
            && finished->error() != QKeychain::EntryNotFound) {
            result = failure(finished);
            qCInfo(lcSecrets) << "deleting" << key << "from the keychain failed:" << result.error;
        }
        done(result);
    });
}

} // namespace Engine
