#pragma once

#include <mcp/registry/serverjson.h>

#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>

#include <functional>

namespace Engine {

// Fetches a registry package of type "mcpb": the bundle at its address (https, or http on this
// machine's loopback), at most MaxBytes, each read within TimeoutMs, its SHA-256 checked against
// the entry's fileSha256 as it arrives. Only a file whose digest matches is kept: in `dir`, as
// "<sha256>.mcpb", written atomically, and found there the next time (offline). A package
// without fileSha256 is refused: nothing is run that cannot be checked.
class BundleDownload : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 MaxBytes = 256 * 1024 * 1024;
    static constexpr int TimeoutMs = 30000;

    explicit BundleDownload(QObject *parent = nullptr);

    // QStandardPaths::CacheLocation + "/bundles".
    static QString defaultDir();
    // Why `package` cannot be downloaded (not an mcpb, no fileSha256, a bad address), or empty.
    static QString problem(const Mcp::Registry::Package &package);

    struct Result
    {
        QString file;  // the checked bundle, or empty
        QString error; // why not: which address, what went wrong
    };
    // `done` once, from the event loop, unless `context` is gone.
    void fetch(const Mcp::Registry::Package &package, const QString &dir, QObject *context,
               std::function<void(const Result &)> done);

signals:
    void progress(qint64 received, qint64 total);

private:
    QNetworkAccessManager m_network;
};

} // namespace Engine
