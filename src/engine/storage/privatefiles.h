#pragma once

#include <QByteArray>
#include <QString>

// Files only the user may read: conversations, settings, trust decisions, approvals and the
// audit log hold what the user said, what tools returned and which servers may run. Each such
// file is 0600 inside a 0700 folder (on POSIX; elsewhere the OS's per-user folders already
// keep other users out). Free functions used by every store that writes one.
namespace Engine::PrivateFiles {

/// Creates `dir` (and missing parents) and makes `dir` itself 0700. False, with a message
/// naming the folder, when it cannot be created or its mode cannot be set.
bool ensureDir(const QString &dir, QString *error = nullptr);

/// Atomically replaces `path` with `data` (QSaveFile), mode 0600, creating its folder 0700.
bool write(const QString &path, const QByteArray &data, QString *error = nullptr);

/// Appends `data` to `path` in one write: an existing file is made 0600 first, a new one is
/// created 0600 (in a 0700 folder). For logs, whose records are only ever added: not atomic
/// like write(), but a record is never lost to a rewrite of the whole file.
bool append(const QString &path, const QByteArray &data, QString *error = nullptr);

/// Makes an existing file 0600 (a file written by an older version, or by another program).
bool restrict(const QString &path, QString *error = nullptr);

} // namespace Engine::PrivateFiles
