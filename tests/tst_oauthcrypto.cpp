#include "jsontest.h"

#include <mcp/auth/oauthcrypto.h>

#include <QTest>

#include <openssl/bio.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

using namespace Mcp;
using namespace Mcp::OAuth;

namespace {

// A key of OpenSSL's own making, written as PKCS#8 PEM: what a user's key file holds.
QByteArray pemOf(EVP_PKEY *key)
{
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    QByteArray pem(data, size);
    BIO_free(bio);
    return pem;
}

QByteArray newPem(const char *type, const char *parameter, size_t bits = 0)
{
    EVP_PKEY *key = bits ? EVP_PKEY_Q_keygen(nullptr, nullptr, type, bits)
                         : EVP_PKEY_Q_keygen(nullptr, nullptr, type, parameter);
    QByteArray pem = pemOf(key);
    EVP_PKEY_free(key);
    return pem;
}

// Checks a compact JWS with OpenSSL directly, from the PEM's public half: the header and
// claims as given, the signature in JWS form (ES256: R || S).
bool verifies(const QByteArray &jws, const QByteArray &pem)
{
    const QList<QByteArray> parts = jws.split('.');
    if (parts.size() != 3)
        return false;
    const QByteArray input = parts[0] + '.' + parts[1];
    QByteArray signature = QByteArray::fromBase64(parts[2], QByteArray::Base64UrlEncoding);
    BIO *bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!key)
        return false;
    if (EVP_PKEY_is_a(key, "EC")) {
        if (signature.size() != 64)
            return false;
        ECDSA_SIG *sig = ECDSA_SIG_new();
        ECDSA_SIG_set0(
                sig,
                BN_bin2bn(reinterpret_cast<const unsigned char *>(signature.constData()), 32,
                          nullptr),
                BN_bin2bn(reinterpret_cast<const unsigned char *>(signature.constData()) + 32, 32,
                          nullptr));
        unsigned char *der = nullptr;
        const int length = i2d_ECDSA_SIG(sig, &der);
        signature = QByteArray(reinterpret_cast<const char *>(der), length);
        OPENSSL_free(der);
        ECDSA_SIG_free(sig);
    }
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    const bool ok
            = EVP_DigestVerifyInit(context, nullptr, EVP_sha256(), nullptr, key) == 1
              && EVP_DigestVerify(context,
                                  reinterpret_cast<const unsigned char *>(signature.constData()),
                                  size_t(signature.size()),
                                  reinterpret_cast<const unsigned char *>(input.constData()),
                                  size_t(input.size()))
                         == 1;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

Json part(const QByteArray &jws, int index)
{
    return Json::parse(
            QByteArray::fromBase64(jws.split('.').value(index), QByteArray::Base64UrlEncoding)
                    .toStdString(),
            nullptr, false);
}

} // namespace

// The JOSE pieces of the OAuth extensions, checked against OpenSSL itself and RFC 7638.
class tst_OAuthCrypto : public QObject
{
    Q_OBJECT

private slots:
    // RFC 7638 3.1's own example.
    void thumbprintOfTheRfcExample()
    {
        const Json jwk = {
                {"kty", "RSA"},
                {"n", "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxu"
                      "hDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN"
                      "5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5"
                      "hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBni"
                      "Iqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"},
                {"e", "AQAB"},
                {"alg", "RS256"},
                {"kid", "2011-04-29"}};
        QCOMPARE(jwkThumbprint(jwk), QByteArray("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"));
    }

    void es256SignsWhatOpenSslVerifies()
    {
        const QByteArray pem = newPem("EC", "P-256");
        QString why;
        const std::optional<SigningKey> key
                = SigningKey::fromPem(pem, QStringLiteral("ES256"), &why);
        QVERIFY2(key, qPrintable(why));
        QCOMPARE(key->algorithm(), QStringLiteral("ES256"));
        for (int i = 0; i < 20; ++i) { // R or S with a leading zero byte comes up now and then
            const QByteArray jws = signJwt(*key, {{"typ", "JWT"}}, {{"sub", "me"}, {"n", i}});
            QVERIFY(verifies(jws, pem));
            QCOMPARE(part(jws, 0).value("alg", ""), std::string("ES256"));
            QVERIFY(part(jws, 1).value("n", -1) == i);
        }
        // The public JWK: the P-256 coordinates, 32 bytes each, and no private part.
        const Json jwk = key->publicJwk();
        QCOMPARE(jwk.value("kty", ""), std::string("EC"));
        QCOMPARE(jwk.value("crv", ""), std::string("P-256"));
        QCOMPARE(QByteArray::fromBase64(QByteArray::fromStdString(jwk.value("x", "")),
                                        QByteArray::Base64UrlEncoding)
                         .size(),
                 32);
        QVERIFY(!jwk.contains("d"));
        QCOMPARE(key->thumbprint(), jwkThumbprint(jwk));
    }

    void rs256SignsWhatOpenSslVerifies()
    {
        const QByteArray pem = newPem("RSA", nullptr, 2048);
        QString why;
        const std::optional<SigningKey> key = SigningKey::fromPem(pem, QString(), &why);
        QVERIFY2(key, qPrintable(why));
        QCOMPARE(key->algorithm(), QStringLiteral("RS256"));
        const QByteArray jws = signJwt(*key, {{"typ", "JWT"}}, {{"iss", "client"}});
        QVERIFY(verifies(jws, pem));
        QCOMPARE(key->publicJwk().value("e", ""), std::string("AQAB"));
    }

    // A generated DPoP key signs proofs that carry their own public key.
    void generatedKeySigns()
    {
        const SigningKey key = SigningKey::generateEs256();
        const QByteArray jws
                = signJwt(key, {{"typ", "dpop+jwt"}, {"jwk", key.publicJwk()}}, {{"htm", "POST"}});
        QCOMPARE(jws.count('.'), 2);
        QVERIFY(part(jws, 0)["jwk"] == key.publicJwk());
        QCOMPARE(QByteArray::fromBase64(jws.split('.')[2], QByteArray::Base64UrlEncoding).size(),
                 64);
    }

    void unusableKeysAreRefusedWithAReason()
    {
        QString why;
        QVERIFY(!SigningKey::fromPem("not a key", QString(), &why));
        QVERIFY2(why.contains(QLatin1String("not a PEM private key")), qPrintable(why));
        QVERIFY(!SigningKey::fromPem(newPem("EC", "P-384"), QString(), &why));
        QVERIFY2(why.contains(QLatin1String("P-256")), qPrintable(why));
        QVERIFY(!SigningKey::fromPem(newPem("RSA", nullptr, 1024), QString(), &why));
        QVERIFY2(why.contains(QLatin1String("2048")), qPrintable(why));
        QVERIFY(!SigningKey::fromPem(newPem("EC", "P-256"), QStringLiteral("RS256"), &why));
        QVERIFY2(why.contains(QLatin1String("ES256")), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(tst_OAuthCrypto)
#include "tst_oauthcrypto.moc"
