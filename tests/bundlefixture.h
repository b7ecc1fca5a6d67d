#pragma once

#include "pinnednode.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>

// The test bundle: tests/fixtures/bundle (a dependency-free Node MCP server with a sensitive
// user_config field) copied into `dir`/key-echo and packed, as its author would, by the pinned
// @anthropic-ai/mcpb into `dir`/key-echo.mcpb. The file's path, or empty with mcpb's output in
// `output`. Another `version` than the fixture's 1.0.0 is written into its manifest and packed
// as key-echo-VERSION.mcpb (an update).
inline QString packFixtureBundle(const QString &dir, QString *output = nullptr,
                                 const QString &version = QStringLiteral("1.0.0"))
{
    const bool fixture = version == QLatin1String("1.0.0");
    const QString base
            = fixture ? QStringLiteral("key-echo") : QStringLiteral("key-echo-") + version;
    const QString source = QDir(dir).filePath(base);
    if (!QDir().mkpath(source + QStringLiteral("/server")))
        return {};
    for (const char *file : {"manifest.json", "server/index.js"}) {
        if (!QFile::copy(QStringLiteral(SWITCHBOARD_SOURCE_DIR "/tests/fixtures/bundle/")
                                 + QLatin1String(file),
                         source + QLatin1Char('/') + QLatin1String(file)))
            return {};
    }
    if (!fixture) {
        QFile manifest(source + QStringLiteral("/manifest.json"));
        if (!manifest.open(QIODevice::ReadOnly))
            return {};
        QByteArray text = manifest.readAll();
        manifest.close();
        text.replace("\"version\": \"1.0.0\"", "\"version\": \"" + version.toUtf8() + '"');
        if (!manifest.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || manifest.write(text) != text.size())
            return {};
    }
    const QString packed = QDir(dir).filePath(base + QStringLiteral(".mcpb"));
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
