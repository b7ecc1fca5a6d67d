#include "bundledownload.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>

#include <memory>

namespace Engine {

BundleDownload::BundleDownload(QObject *parent)
    : QObject(parent)
{
}

QString BundleDownload::defaultDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation)
           + QStringLiteral("/bundles");
}

QString BundleDownload::problem(const Mcp::Registry::Package &package)
{
    if (package.registryType != QLatin1String("mcpb"))
        return tr("%1 is not an MCP Bundle").arg(package.identifier);
    if (const QString bad
        = Mcp::Registry::checkPackageIdentity(package.registryType, package.identifier, {});
        !bad.isEmpty())
        return bad;
    static const QRegularExpression digest(QStringLiteral("^[0-9a-f]{64}$"));
    if (!digest.match(package.fileSha256).hasMatch())
        return tr("%1 names no SHA-256 of the file: Switchboard installs a download only when it "
                  "can check it")
                .arg(package.identifier);
    return {};
}

void BundleDownload::fetch(const Mcp::Registry::Package &package, const QString &dir,
                           QObject *context, std::function<void(const Result &)> done)
{
    struct Job
    {
        QPointer<QObject> context;
        std::function<void(const Result &)> done;
        QCryptographicHash hash{QCryptographicHash::Sha256};
        std::unique_ptr<QSaveFile> file;
        QString url; // as messages name it: at most 200 characters
        QString failure;
        qint64 received = 0;
    };
    auto job = std::make_shared<Job>();
    job->context = context;
    job->done = std::move(done);
    job->url = package.identifier.size() > 200 ? package.identifier.left(199) + QChar(0x2026)
                                               : package.identifier;
    const auto finish = [job](const QString &file, const QString &error) {
        if (job->context)
            job->done(Result{file, error});
    };
    const QString target = QDir(dir).filePath(package.fileSha256 + QStringLiteral(".mcpb"));
    QString refused = problem(package);
    if (refused.isEmpty() && QFileInfo(target).isFile()) {
        // Fetched before: kept only if it still is what the entry names.
        QFile kept(target);
        QCryptographicHash hash(QCryptographicHash::Sha256);
        if (kept.open(QIODevice::ReadOnly) && hash.addData(&kept)
            && hash.result().toHex() == package.fileSha256.toLatin1()) {
            QTimer::singleShot(0, this, [finish, target] { finish(target, {}); });
            return;
        }
        kept.close();
        QFile::remove(target);
    }
    if (refused.isEmpty() && !QDir().mkpath(dir))
        refused = tr("%1 cannot be created").arg(QDir::toNativeSeparators(dir));
    if (refused.isEmpty()) {
        job->file = std::make_unique<QSaveFile>(target);
        if (!job->file->open(QIODevice::WriteOnly))
            refused = tr("%1 cannot be written: %2")
                              .arg(QDir::toNativeSeparators(target), job->file->errorString());
    }
    if (!refused.isEmpty()) {
        QTimer::singleShot(0, this, [finish, refused] { finish({}, refused); });
        return;
    }
    QNetworkRequest request{QUrl(package.identifier)};
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setMaximumRedirectsAllowed(5);
    request.setTransferTimeout(TimeoutMs);
    QNetworkReply *reply = m_network.get(request);
    // Each piece is hashed and written as it comes; past the bound the reply is dropped.
    connect(reply, &QNetworkReply::readyRead, this, [this, reply, job] {
        const QByteArray piece = reply->readAll();
        job->received += piece.size();
        if (job->received > MaxBytes) {
            job->failure = tr("%1 is larger than %2 MiB").arg(job->url).arg(MaxBytes >> 20);
            reply->abort();
            return;
        }
        job->hash.addData(piece);
        if (job->file->write(piece) != piece.size()) {
            job->failure = tr("%1 cannot be written: %2")
                                   .arg(QDir::toNativeSeparators(job->file->fileName()),
                                        job->file->errorString());
            reply->abort();
            return;
        }
        emit progress(job->received,
                      reply->header(QNetworkRequest::ContentLengthHeader).toLongLong());
    });
    connect(reply, &QNetworkReply::finished, this,
            [reply, job, finish, expected = package.fileSha256] {
                reply->deleteLater();
                const int status
                        = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                QString error = job->failure;
                if (error.isEmpty() && reply->error() == QNetworkReply::OperationCanceledError)
                    error = tr("%1 did not answer within %2 s").arg(job->url).arg(TimeoutMs / 1000);
                else if (error.isEmpty() && reply->error() != QNetworkReply::NoError)
                    error = status ? tr("%1 answered HTTP %2").arg(job->url).arg(status)
                                   : tr("%1 cannot be fetched: %2")
                                             .arg(job->url, reply->errorString());
                else if (error.isEmpty() && job->hash.result().toHex() != expected.toLatin1())
                    error = tr("%1 is not the file the registry names: its SHA-256 is %2, not %3")
                                    .arg(job->url, QString::fromLatin1(job->hash.result().toHex()),
                                         expected);
                if (!error.isEmpty()) {
                    job->file->cancelWriting();
                    job->file->commit();
                    finish({}, error);
                    return;
                }
                if (!job->file->commit()) {
                    finish({}, tr("%1 cannot be written: %2")
                                       .arg(QDir::toNativeSeparators(job->file->fileName()),
                                            job->file->errorString()));
                    return;
                }
                finish(job->file->fileName(), {});
            });
}

} // namespace Engine
