#include "privatefiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace Engine::PrivateFiles {

namespace {
constexpr QFileDevice::Permissions OwnerFile = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions OwnerDir = OwnerFile | QFileDevice::ExeOwner;

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::PrivateFiles", text);
}

void setError(QString *error, const QString &text)
{
    if (error)
        *error = text;
}
} // namespace

bool ensureDir(const QString &dir, QString *error)
{
    if (!QDir().mkpath(dir)) {
        setError(error, tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(dir)));
        return false;
    }
    if (!QFile::setPermissions(dir, OwnerDir)) {
        setError(error, tr("Cannot make the folder %1 private to its owner.")
                                .arg(QDir::toNativeSeparators(dir)));
        return false;
    }
    return true;
}

bool write(const QString &path, const QByteArray &data, QString *error)
{
    if (!ensureDir(QFileInfo(path).absolutePath(), error))
        return false;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        setError(error,
                 tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    // Before the first byte: the temporary file must never be readable by others.
    file.setPermissions(OwnerFile);
    if (file.write(data) != data.size() || !file.commit()) {
        setError(error,
                 tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    return true;
}

bool append(const QString &path, const QByteArray &data, QString *error)
{
    if (!ensureDir(QFileInfo(path).absolutePath(), error) || !restrict(path, error))
        return false;
    QFile file(path);
    // The permissions apply when the file is created: it is never readable by others.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append, OwnerFile)
        || file.write(data) != data.size() || !file.flush()) {
        setError(error,
                 tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    return true;
}

bool restrict(const QString &path, QString *error)
{
    if (!QFile::exists(path))
        return true;
    if (!QFile::setPermissions(path, OwnerFile)) {
        setError(error,
                 tr("Cannot make %1 private to its owner.").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    return true;
}

} // namespace Engine::PrivateFiles
