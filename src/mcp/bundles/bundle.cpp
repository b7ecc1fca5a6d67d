#include "bundle.h"

#include <mcp/wire/jsonparser.h>
#include <mcp/wire/opensslhandle.h>

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>

#include <QBuffer>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <memory>

namespace Mcp::Bundles {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Bundles", text);
}

constexpr QByteArrayView SignatureHeader("MCPB_SIG_V1");
constexpr QByteArrayView SignatureFooter("MCPB_SIG_END");
constexpr quint32 UnixTypeMask = 0170000;
constexpr quint32 UnixRegular = 0100000;
constexpr quint32 UnixDirectory = 0040000;
constexpr quint32 UnixSymlink = 0120000;

using BioPtr = OpenSslHandle<BIO, BIO_free_all>;
using CmsPtr = OpenSslHandle<CMS_ContentInfo, CMS_ContentInfo_free>;
using StorePtr = OpenSslHandle<X509_STORE, X509_STORE_free>;
using StoreCtxPtr = OpenSslHandle<X509_STORE_CTX, X509_STORE_CTX_free>;

QString nameField(X509_NAME *name)
{
    char buffer[256] = {};
    if (!name || X509_NAME_get_text_by_NID(name, NID_commonName, buffer, sizeof buffer) < 0)
        return {};
    return QString::fromUtf8(buffer).left(200);
}

} // namespace

bool EntryInfo::isSymlink() const
{
    return (versionMadeBy >> 8) == 3 && ((externalAttributes >> 16) & UnixTypeMask) == UnixSymlink;
}

bool EntryInfo::isExecutable() const
{
    return (versionMadeBy >> 8) == 3 && ((externalAttributes >> 16) & 0111) != 0;
}

QString entriesProblem(const QList<EntryInfo> &entries)
{
    if (entries.size() > MaxEntries)
        return tr("it holds more than %1 files").arg(MaxEntries);
    QSet<QString> seen;
    qint64 total = 0;
    qint64 packed = 0;
    for (const EntryInfo &entry : entries) {
        QString name = entry.name;
        if (entry.isDirectory())
            name.chop(1);
        if (const QString why = pathProblem(name); !why.isEmpty())
            return tr("the entry '%1': %2").arg(entry.name.left(200), why);
        for (const QStringView part : QStringView(name).split(u'/')) {
            if (part.isEmpty() || part == QLatin1String("."))
                return tr("the entry '%1' has an empty or '.' part").arg(entry.name.left(200));
        }
        if (entry.isSymlink())
            return tr("the entry '%1' is a symbolic link").arg(name);
        if ((entry.versionMadeBy >> 8) == 3) {
            const quint32 type = (entry.externalAttributes >> 16) & UnixTypeMask;
            if (type != 0 && type != UnixRegular && type != UnixDirectory)
                return tr("the entry '%1' is not a file or a folder").arg(name);
        }
        if (entry.size < 0 || entry.compressedSize < 0)
            return tr("the entry '%1' declares a negative size").arg(name);
        if (entry.size > MaxEntryBytes)
            return tr("the entry '%1' unpacks to more than %2 MiB")
                    .arg(name)
                    .arg(MaxEntryBytes / (1024 * 1024));
        total += entry.size;
        packed += entry.compressedSize;
        if (total > MaxTotalBytes)
            return tr("it unpacks to more than %1 MiB").arg(MaxTotalBytes / (1024 * 1024));
        // The folder an entry lands in, case folded: two that differ only by case would
        // overwrite each other on macOS and Windows.
        const QString key = name.toLower();
        if (seen.contains(key))
            return tr("the entry '%1' is in it twice").arg(name);
        seen.insert(key);
    }
    if (total > 1024 * 1024 && total > MaxRatio * std::max<qint64>(packed, 1))
        return tr("it inflates %1 times (a zip bomb?)").arg(total / std::max<qint64>(packed, 1));
    return {};
}

Signature readSignature(const QByteArray &file)
{
    Signature signature;
    signature.contentSize = file.size();
    const qsizetype footer = file.lastIndexOf(SignatureFooter);
    if (footer < 0 || footer + SignatureFooter.size() != file.size())
        return signature;
    const qsizetype header = file.lastIndexOf(SignatureHeader, footer);
    if (header < 0)
        return signature;
    signature.contentSize = header;
    const auto invalid = [&signature](const QString &why) {
        signature.status = Signature::Status::Invalid;
        signature.problem = why;
        return signature;
    };
    const qsizetype lengthAt = header + SignatureHeader.size();
    if (lengthAt + 4 > footer)
        return invalid(tr("its signature block is cut short"));
    const auto *bytes = reinterpret_cast<const unsigned char *>(file.constData());
    const quint32 length = quint32(bytes[lengthAt]) | (quint32(bytes[lengthAt + 1]) << 8)
                           | (quint32(bytes[lengthAt + 2]) << 16)
                           | (quint32(bytes[lengthAt + 3]) << 24);
    if (qsizetype(length) != footer - lengthAt - 4)
        return invalid(tr("its signature block's length is wrong"));
    const unsigned char *der = bytes + lengthAt + 4;
    // PKCS#7 signed data read as CMS, its successor (the same DER).
    CmsPtr cms(d2i_CMS_ContentInfo(nullptr, &der, long(length)));
    if (!cms || OBJ_obj2nid(CMS_get0_type(cms.get())) != NID_pkcs7_signed)
        return invalid(tr("its signature is not a PKCS#7 signature"));
    // `mcpb sign` signs the bytes before the block, detached.
    if (CMS_is_detached(cms.get()) != 1)
        return invalid(tr("its signature is not a detached PKCS#7 signature"));
    // The content behind a buffering filter: CMS_verify copies a bare memory BIO first and, in
    // OpenSSL 3.0, loses that copy when the signature is damaged.
    BioPtr content(BIO_new(BIO_f_buffer()));
    if (!content)
        return invalid(tr("its signature cannot be checked (out of memory)"));
    BIO_push(content.get(), BIO_new_mem_buf(file.constData(), int(header)));
    // The signature over the bytes before the block; the certificate is judged after.
    if (CMS_verify(cms.get(), nullptr, nullptr, content.get(), nullptr,
                   CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)
        != 1) {
        ERR_clear_error();
        return invalid(tr("its signature does not match its contents: it was changed after it "
                          "was signed"));
    }
    STACK_OF(X509) *signers = CMS_get0_signers(cms.get());
    X509 *signer = signers && sk_X509_num(signers) > 0 ? sk_X509_value(signers, 0) : nullptr;
    if (!signer) {
        sk_X509_free(signers);
        return invalid(tr("its signature names no certificate"));
    }
    signature.signer = nameField(X509_get_subject_name(signer));
    signature.issuer = nameField(X509_get_issuer_name(signer));
    unsigned char digest[EVP_MAX_MD_SIZE] = {};
    unsigned int digestLength = 0;
    if (X509_digest(signer, EVP_sha256(), digest, &digestLength) == 1)
        signature.fingerprint = QString::fromLatin1(
                QByteArray(reinterpret_cast<const char *>(digest), int(digestLength)).toHex());
    StorePtr store(X509_STORE_new());
    StoreCtxPtr context(X509_STORE_CTX_new());
    STACK_OF(X509) *certificates = CMS_get1_certs(cms.get());
    bool trusted = false;
    if (store && context && X509_STORE_set_default_paths(store.get()) == 1
        && X509_STORE_CTX_init(context.get(), store.get(), signer, certificates) == 1)
        trusted = X509_verify_cert(context.get()) == 1;
    context.reset();
    sk_X509_pop_free(certificates, X509_free);
    ERR_clear_error();
    if (trusted)
        signature.status = Signature::Status::Signed;
    else if (X509_check_issued(signer, signer) == X509_V_OK)
        signature.status = Signature::Status::SelfSigned;
    else
        signature.status = Signature::Status::Untrusted;
    sk_X509_free(signers);
    return signature;
}

OpenResult openBundle(const QString &path)
{
    QFile file(path);
    if (!QFileInfo(path).isFile())
        return {std::nullopt, tr("%1 is not a file").arg(QDir::toNativeSeparators(path))};
    if (file.size() > MaxBundleBytes)
        return {std::nullopt, tr("%1 is larger than %2 MiB")
                                      .arg(QDir::toNativeSeparators(path))
                                      .arg(MaxBundleBytes / (1024 * 1024))};
    if (!file.open(QIODevice::ReadOnly))
        return {std::nullopt, tr("%1 cannot be read: %2")
                                      .arg(QDir::toNativeSeparators(path), file.errorString())};
    const QByteArray bytes = file.read(MaxBundleBytes + 1);
    if (bytes.size() > MaxBundleBytes)
        return {std::nullopt, tr("%1 is larger than %2 MiB")
                                      .arg(QDir::toNativeSeparators(path))
                                      .arg(MaxBundleBytes / (1024 * 1024))};
    return readBundle(bytes);
}

OpenResult readBundle(const QByteArray &file)
{
    OpenResult result;
    Bundle bundle;
    bundle.sha256 = QString::fromLatin1(
            QCryptographicHash::hash(file, QCryptographicHash::Sha256).toHex());
    bundle.signature = readSignature(file);
    if (bundle.signature.status == Signature::Status::Invalid) {
        result.problem = tr("The bundle is refused: %1.").arg(bundle.signature.problem);
        return result;
    }
    bundle.zip = file.left(bundle.signature.contentSize);
    QBuffer buffer(&bundle.zip);
    QuaZip zip(&buffer);
    if (!zip.open(QuaZip::mdUnzip)) {
        result.problem = tr("The bundle is refused: it is not a zip file.");
        return result;
    }
    const QList<QuaZipFileInfo64> infos = zip.getFileInfoList64();
    if (zip.getZipError() != UNZ_OK) {
        result.problem = tr("The bundle is refused: its zip directory cannot be read.");
        return result;
    }
    for (const QuaZipFileInfo64 &info : infos) {
        EntryInfo entry;
        entry.name = info.name;
        entry.versionMadeBy = info.versionCreated;
        entry.externalAttributes = info.externalAttr;
        entry.size = qint64(info.uncompressedSize);
        entry.compressedSize = qint64(info.compressedSize);
        bundle.entries << entry;
    }
    if (const QString why = entriesProblem(bundle.entries); !why.isEmpty()) {
        result.problem = tr("The bundle is refused: %1.").arg(why);
        return result;
    }
    QByteArray manifestText;
    if (!zip.setCurrentFile(QStringLiteral("manifest.json"))) {
        result.problem = tr("The bundle is refused: it has no manifest.json at its top.");
        return result;
    }
    {
        QuaZipFile entry(&zip);
        if (!entry.open(QIODevice::ReadOnly)) {
            result.problem = tr("The bundle is refused: its manifest.json cannot be read.");
            return result;
        }
        manifestText = entry.read(MaxManifestBytes + 1);
        if (manifestText.size() > MaxManifestBytes) {
            result.problem = tr("The bundle is refused: its manifest.json is larger than 1 MiB.");
            return result;
        }
    }
    JsonParseError parseError;
    const Json document = parseJson(
            std::string_view(manifestText.constData(), std::size_t(manifestText.size())),
            &parseError);
    if (document.is_discarded()) {
        result.problem = tr("The bundle is refused: its manifest.json is not JSON (%1).")
                                 .arg(QString::fromStdString(parseError.message));
        return result;
    }
    ManifestResult manifest = readManifest(document);
    if (!manifest.manifest) {
        result.problem = tr("The bundle is refused: manifest.json: %1.").arg(manifest.problem);
        return result;
    }
    bundle.manifest = std::move(*manifest.manifest);
    const auto holds = [&bundle](const QString &path) {
        return std::any_of(bundle.entries.cbegin(), bundle.entries.cend(),
                           [&path](const EntryInfo &e) { return e.name == path; });
    };
    if (!holds(bundle.manifest.entryPoint)) {
        result.problem = tr("The bundle is refused: its entry point %1 is not a file in it.")
                                 .arg(bundle.manifest.entryPoint);
        return result;
    }
    if (!bundle.manifest.icon.isEmpty() && !holds(bundle.manifest.icon))
        bundle.manifest.icon.clear(); // a missing icon is no reason to refuse it
    if (const QString why = compatibilityProblem(bundle.manifest); !why.isEmpty()) {
        result.problem = tr("The bundle is refused: %1.").arg(why);
        return result;
    }
    result.bundle = std::move(bundle);
    return result;
}

QByteArray entryData(const Bundle &bundle, const QString &path, qint64 maxBytes)
{
    const bool listed = std::any_of(bundle.entries.cbegin(), bundle.entries.cend(),
                                    [&path](const EntryInfo &e) { return e.name == path; });
    if (!listed)
        return {};
    QByteArray zipBytes = bundle.zip;
    QBuffer buffer(&zipBytes);
    QuaZip zip(&buffer);
    if (!zip.open(QuaZip::mdUnzip) || !zip.setCurrentFile(path))
        return {};
    QuaZipFile file(&zip);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(maxBytes);
}

bool extract(const Bundle &bundle, const QString &dir, QString *problem)
{
    const auto fail = [problem](const QString &why) {
        if (problem)
            *problem = why;
        return false;
    };
    if (QFileInfo::exists(dir))
        return fail(tr("%1 exists already").arg(QDir::toNativeSeparators(dir)));
    if (const QString why = entriesProblem(bundle.entries); !why.isEmpty())
        return fail(why);
    const QString partial = dir + QStringLiteral(".partial");
    QDir(partial).removeRecursively();
    if (!QDir().mkpath(partial))
        return fail(tr("%1 cannot be created").arg(QDir::toNativeSeparators(partial)));
    QByteArray zipBytes = bundle.zip;
    QBuffer buffer(&zipBytes);
    QuaZip zip(&buffer);
    if (!zip.open(QuaZip::mdUnzip))
        return fail(tr("the bundle is not a zip file"));
    qint64 total = 0;
    const auto abandon = [&](const QString &why) {
        QDir(partial).removeRecursively();
        return fail(why);
    };
    for (const EntryInfo &entry : bundle.entries) {
        const QString target = partial + QLatin1Char('/') + entry.name;
        if (entry.isDirectory()) {
            if (!QDir().mkpath(target))
                return abandon(tr("%1 cannot be created").arg(entry.name));
            continue;
        }
        if (!QDir().mkpath(QFileInfo(target).path()))
            return abandon(tr("the folder of %1 cannot be created").arg(entry.name));
        if (!zip.setCurrentFile(entry.name))
            return abandon(tr("%1 cannot be found in the zip").arg(entry.name));
        QuaZipFile in(&zip);
        if (!in.open(QIODevice::ReadOnly))
            return abandon(tr("%1 cannot be read from the zip").arg(entry.name));
        QFile out(target);
        if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly))
            return abandon(tr("%1 cannot be written").arg(entry.name));
        qint64 written = 0;
        while (true) {
            const QByteArray chunk = in.read(64 * 1024);
            if (chunk.isEmpty())
                break;
            written += chunk.size();
            total += chunk.size();
            // What it inflates to, not what it declared.
            if (written > entry.size || written > MaxEntryBytes || total > MaxTotalBytes)
                return abandon(tr("%1 unpacks to more than it declares").arg(entry.name));
            if (out.write(chunk) != chunk.size())
                return abandon(tr("%1 cannot be written: %2").arg(entry.name, out.errorString()));
        }
        in.close();
        if (in.getZipError() != UNZ_OK)
            return abandon(
                    tr("%1 is damaged in the zip (its checksum does not match)").arg(entry.name));
        out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                           | QFileDevice::ReadOther
                           | (entry.isExecutable() ? QFileDevice::ExeOwner | QFileDevice::ExeGroup
                                                             | QFileDevice::ExeOther
                                                   : QFileDevice::Permissions()));
    }
    if (!QDir().rename(partial, dir))
        return abandon(tr("%1 cannot be moved into place").arg(QDir::toNativeSeparators(dir)));
    return true;
}

} // namespace Mcp::Bundles
