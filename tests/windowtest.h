#pragma once

#include <ui/mainwindow.h>

#include <QDir>
#include <QString>

// Options for a MainWindow under test: the workspace, and everything the window would
// otherwise keep in the user's own folders (conversations, settings, audit log, keychain entries)
// under `dataDir`, so a test never reads or changes them.
inline Ui::MainWindowOptions testWindowOptions(const QString &workspace, const QString &dataDir,
                                               const QString &conversations
                                               = QStringLiteral("conversations"))
{
    Ui::MainWindowOptions options;
    options.workspace = QDir(workspace).canonicalPath();
    options.conversationFolder = QDir(dataDir).filePath(conversations);
    options.settingsFile = QDir(dataDir).filePath(QStringLiteral("settings.ini"));
    options.auditLogFile = QDir(dataDir).filePath(QStringLiteral("audit.jsonl"));
    options.keychainService = QStringLiteral("switchboard-test");
    return options;
}
