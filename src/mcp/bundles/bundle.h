#pragma once

#include <mcp/bundles/manifest.h>

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

// Reading an MCP Bundle file: its signature block (`mcpb sign`: PKCS#7 after the zip), its zip
// entries (QuaZip; every name, type and size checked before anything is written), its
// manifest; and extracting it into a folder of its own.
namespace Mcp::Bundles {

inline constexpr qint64 MaxBundleBytes = 256LL * 1024 * 1024; // the .mcpb file
inline constexpr qint64 MaxEntryBytes = 128LL * 1024 * 1024;  // one file, unpacked
inline constexpr qint64 MaxTotalBytes = 512LL * 1024 * 1024;  // all of them, unpacked
inline constexpr int MaxEntries = 20000;
inline constexpr qint64 MaxManifestBytes = 1024 * 1024;
// Unpacked over packed: a zip bomb inflates by thousands; real bundles by at most tens.
inline constexpr qint64 MaxRatio = 200;

// One zip entry as its central directory describes it.
struct EntryInfo
{
    QString name;
    quint16 versionMadeBy = 0;      // high byte 3: made on Unix, so the mode below means one
    quint32 externalAttributes = 0; // high 16 bits: the Unix mode (file type and permissions)
    qint64 size = 0;                // unpacked, as declared
    qint64 compressedSize = 0;

    bool isDirectory() const { return name.endsWith(u'/'); }
    bool isSymlink() const;
    bool isExecutable() const;
};

// The first reason the entries cannot be extracted safely, else empty: a name that is empty,
// absolute, leads out with "..", holds a backslash or a control character; a symbolic link or
// other special file; two entries that would land on the same file (also by case); one over
// MaxEntryBytes, all over MaxTotalBytes or MaxEntries, or inflating more than MaxRatio times.
QString entriesProblem(const QList<EntryInfo> &entries);

struct Signature
{
    enum class Status {
        Unsigned,   // no signature block
        Signed,     // valid, by a certificate the system trusts
        SelfSigned, // valid, by a certificate that signs itself
        Untrusted,  // valid, by a certificate the system does not trust
        Invalid,    // a block that does not verify: the file was changed after signing
    };
    Status status = Status::Unsigned;
    QString signer; // the certificate's common name
    QString issuer;
    QString fingerprint;       // SHA-256 of the certificate, hex
    QString problem;           // Invalid: why
    qsizetype contentSize = 0; // the bytes before the block (the zip)
};
// Finds and checks the block at the end of `file` (OpenSSL: PKCS#7, detached, SHA-256).
Signature readSignature(const QByteArray &file);

struct Bundle
{
    Manifest manifest;
    QList<EntryInfo> entries;
    Signature signature;
    QByteArray zip; // the file without its signature block
    QString sha256; // of the whole file, hex
};
struct OpenResult
{
    std::optional<Bundle> bundle;
    QString problem; // why it is refused, in a sentence
};
// Reads a .mcpb file (at most MaxBundleBytes) and checks it whole: the signature (one that
// does not verify refuses the file), the entries, the manifest, that the entry point and icon
// are files in it, and that this platform is not excluded.
OpenResult openBundle(const QString &path);
OpenResult readBundle(const QByteArray &file);

// One file of the bundle (its icon), at most `maxBytes`; empty when there is no such file.
QByteArray entryData(const Bundle &bundle, const QString &path, qint64 maxBytes);

// Unpacks `bundle` into `dir`, which must not exist: into a sibling folder first, renamed at
// the end, so a failure leaves nothing. Sizes are enforced on the bytes actually inflated, not
// only on what the zip declares.
bool extract(const Bundle &bundle, const QString &dir, QString *problem);

} // namespace Mcp::Bundles
