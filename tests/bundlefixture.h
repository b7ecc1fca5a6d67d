#pragma once

#include "pinnednode.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>

// The test bundle: tests/fixtures/bundle (a dependency-free Node MCP server with a sensitive
// user_config field) copied into `dir`/key-echo and packed, as its author would, by the pinned
// @anthropic-ai/mcpb into `dir`/key-echo.mcpb. The file's path, or empty with mcpb's output in
// `output`.
inline QString packFixtureBundle(const QString &dir, QString *output = nullptr)
{
    const QString source = QDir(dir).filePath(QStringLiteral("key-echo"));
    if (!QDir().mkpath(source + QStringLiteral("/server")))
        return {};
    for (const char *file : {"manifest.json", "server/index.js"}) {
        if (!QFile::copy(QStringLiteral(SWITCHBOARD_SOURCE_DIR "/tests/fixtures/bundle/")
                                 + QLatin1String(file),
                         source + QLatin1Char('/') + QLatin1String(file)))
            return {};
    }
    const QString packed = QDir(dir).filePath(QStringLiteral("key-echo.mcpb"));
    QProcess mcpb;
    mcpb.setWorkingDirectory(dir);
    mcpb.setProcessChannelMode(QProcess::MergedChannels);
    mcpb.start(PinnedNode::program(),
               {QStringLiteral(SWITCHBOARD_SOURCE_DIR
                               "/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js"),
                QStringLiteral("pack"), source, packed});
    const bool done = mcpb.waitForFinished(120000) && mcpb.exitStatus() == QProcess::NormalExit
                      && mcpb.exitCode() == 0;
    if (output)
        *output = QString::fromUtf8(mcpb.readAll());
    return done ? packed : QString();
}
