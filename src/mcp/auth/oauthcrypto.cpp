#include "oauthcrypto.h"

#include <mcp/wire/opensslhandle.h>

#include <QCoreApplication>
#include <QCryptographicHash>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

namespace Mcp::OAuth {

namespace {

constexpr int Es256Half = 32; // bytes of R and of S in an ES256 signature

using Key = OpenSslHandle<EVP_PKEY, EVP_PKEY_free>;
using Bio = OpenSslHandle<BIO, BIO_free_all>;
using Bignum = OpenSslHandle<BIGNUM, BN_free>;
using DigestContext = OpenSslHandle<EVP_MD_CTX, EVP_MD_CTX_free>;
using EcdsaSignature = OpenSslHandle<ECDSA_SIG, ECDSA_SIG_free>;

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::OAuth::SigningKey", text);
}

QByteArray bignumParam(const EVP_PKEY *key, const char *name, int width = 0)
{
    BIGNUM *raw = nullptr;
    if (!EVP_PKEY_get_bn_param(key, name, &raw))
        return {};
    Bignum number(raw);
    const int size = width > 0 ? width : BN_num_bytes(number.get());
    QByteArray bytes(size, Qt::Uninitialized);
    if (BN_bn2binpad(number.get(), reinterpret_cast<unsigned char *>(bytes.data()), size) != size)
        return {};
    return bytes;
}

QString groupName(const EVP_PKEY *key)
{
    char name[64] = {};
    size_t length = 0;
    if (!EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name,
                                        &length))
        return {};
    return QString::fromLatin1(name, qsizetype(length));
}

} // namespace

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

struct SigningKey::Private
{
    Key key;
    bool ec = false;
};

SigningKey::SigningKey(std::unique_ptr<Private> d)
    : d(std::move(d))
{
}
SigningKey::SigningKey(SigningKey &&) noexcept = default;
SigningKey &SigningKey::operator=(SigningKey &&) noexcept = default;
SigningKey::~SigningKey() = default;

std::optional<SigningKey> SigningKey::fromPem(const QByteArray &pem, const QString &algorithm,
                                              QString *error)
{
    const auto refuse = [error](const QString &why) -> std::optional<SigningKey> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    Key key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    ERR_clear_error(); // nothing of a failed parse may linger for the next caller
    if (!key)
        return refuse(tr("the private key is not a PEM private key"));
    auto d = std::make_unique<Private>();
    if (EVP_PKEY_is_a(key.get(), "EC")) {
        const QString group = groupName(key.get());
        if (group != QLatin1String("prime256v1") && group != QLatin1String("P-256"))
            return refuse(tr("the private key is on the curve %1; ES256 needs P-256").arg(group));
        d->ec = true;
    } else if (EVP_PKEY_is_a(key.get(), "RSA")) {
        if (EVP_PKEY_get_bits(key.get()) < 2048)
            return refuse(tr("the RSA private key has fewer than 2048 bits"));
    } else {
        return refuse(tr("the private key is neither EC P-256 nor RSA"));
    }
    d->key = std::move(key);
    SigningKey signingKey(std::move(d));
    if (!algorithm.isEmpty() && algorithm != signingKey.algorithm())
        return refuse(
                tr("the private key is for %1, not %2").arg(signingKey.algorithm(), algorithm));
    return signingKey;
}

SigningKey SigningKey::generateEs256()
{
    auto d = std::make_unique<Private>();
    d->key.reset(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
    d->ec = true;
    Q_ASSERT(d->key);
    return SigningKey(std::move(d));
}

QString SigningKey::algorithm() const
{
    return d->ec ? QStringLiteral("ES256") : QStringLiteral("RS256");
}

QByteArray SigningKey::sign(const QByteArray &input) const
{
    DigestContext context(EVP_MD_CTX_new());
    size_t length = 0;
    if (!context
        || EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, d->key.get()) != 1
        || EVP_DigestSign(context.get(), nullptr, &length,
                          reinterpret_cast<const unsigned char *>(input.constData()),
                          size_t(input.size()))
                   != 1)
        return {};
    QByteArray signature(qsizetype(length), Qt::Uninitialized);
    if (EVP_DigestSign(context.get(), reinterpret_cast<unsigned char *>(signature.data()), &length,
                       reinterpret_cast<const unsigned char *>(input.constData()),
                       size_t(input.size()))
        != 1)
        return {};
    signature.truncate(qsizetype(length));
    if (!d->ec)
        return signature;
    // OpenSSL writes an ECDSA signature as DER; a JWS holds R and S side by side.
    const auto *der = reinterpret_cast<const unsigned char *>(signature.constData());
    EcdsaSignature parsed(d2i_ECDSA_SIG(nullptr, &der, long(signature.size())));
    if (!parsed)
        return {};
    const BIGNUM *r = nullptr;
    const BIGNUM *s = nullptr;
    ECDSA_SIG_get0(parsed.get(), &r, &s);
    QByteArray raw(2 * Es256Half, Qt::Uninitialized);
    auto *out = reinterpret_cast<unsigned char *>(raw.data());
    if (BN_bn2binpad(r, out, Es256Half) != Es256Half
        || BN_bn2binpad(s, out + Es256Half, Es256Half) != Es256Half)
        return {};
    return raw;
}

Json SigningKey::publicJwk() const
{
    const auto text = [](const QByteArray &bytes) {
        return base64Url(bytes).toStdString();
    };
    if (d->ec)
        return {{"kty", "EC"},
                {"crv", "P-256"},
                {"x", text(bignumParam(d->key.get(), OSSL_PKEY_PARAM_EC_PUB_X, Es256Half))},
                {"y", text(bignumParam(d->key.get(), OSSL_PKEY_PARAM_EC_PUB_Y, Es256Half))}};
    return {{"kty", "RSA"},
            {"n", text(bignumParam(d->key.get(), OSSL_PKEY_PARAM_RSA_N))},
            {"e", text(bignumParam(d->key.get(), OSSL_PKEY_PARAM_RSA_E))}};
}

QByteArray jwkThumbprint(const Json &jwk)
{
    // nlohmann's objects keep their keys sorted, and dump() adds no whitespace: exactly the
    // form RFC 7638 3 hashes.
    Json required = Json::object();
    for (const char *member : {"crv", "e", "kty", "n", "x", "y"}) {
        if (const auto it = jwk.find(member); it != jwk.end())
            required[member] = *it;
    }
    return base64Url(QCryptographicHash::hash(QByteArray::fromStdString(required.dump()),
                                              QCryptographicHash::Sha256));
}

QByteArray SigningKey::thumbprint() const
{
    return jwkThumbprint(publicJwk());
}

QByteArray signJwt(const SigningKey &key, Json header, const Json &claims)
{
    header["alg"] = key.algorithm().toStdString();
    const QByteArray input = base64Url(QByteArray::fromStdString(header.dump())) + '.'
                             + base64Url(QByteArray::fromStdString(claims.dump()));
    const QByteArray signature = key.sign(input);
    if (signature.isEmpty())
        return {};
    return input + '.' + base64Url(signature);
}

} // namespace Mcp::OAuth
