#pragma once

#include <QFileInfo>
#include <QString>

// A file's POSIX permission bits as `ls -l` and chmod write them (0600, 0700), from Qt's
// permission flags (whose "User" bits are the current user's view, left out here).
inline int posixMode(const QString &path)
{
    const int p = int(QFileInfo(path).permissions());
    return (((p >> 12) & 7) << 6) | (((p >> 4) & 7) << 3) | (p & 7);
}
