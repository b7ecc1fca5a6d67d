#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

// The signatures OAuth extensions need and Qt lacks, from OpenSSL (libcrypto): JSON Web
// Signatures (RFC 7515) with ES256 and RS256, JSON Web Keys (RFC 7517) and their thumbprints
// (RFC 7638). For private_key_jwt client authentication (RFC 7523) and DPoP (RFC 9449).
namespace Mcp::OAuth {

// base64url without padding (RFC 7515 2).
QByteArray base64Url(const QByteArray &bytes);

// RFC 7638: base64url(SHA-256) of a JWK's required members (EC: crv, kty, x, y; RSA: e,
// kty, n) in lexicographic order, without whitespace.
QByteArray jwkThumbprint(const Json &jwk);

// A private key that signs: EC P-256 (ES256) or RSA of 2048 bits or more (RS256).
class SigningKey
{
public:
    // A PEM private key (PKCS#8 "PRIVATE KEY", or "EC PRIVATE KEY" / "RSA PRIVATE KEY");
    // nullopt and why when it is not one of the two kinds, or does not fit `algorithm`
    // (when given: "ES256" or "RS256").
    static std::optional<SigningKey> fromPem(const QByteArray &pem, const QString &algorithm,
                                             QString *error);
    // A new EC P-256 key (DPoP proofs), never written anywhere.
    static SigningKey generateEs256();

    SigningKey(SigningKey &&) noexcept;
    SigningKey &operator=(SigningKey &&) noexcept;
    ~SigningKey();

    QString algorithm() const; // "ES256" or "RS256"
    // The JWS signature of `input` (ES256: R and S, 32 bytes each; RS256: PKCS #1 v1.5).
    QByteArray sign(const QByteArray &input) const;
    // The public half as a JWK ({kty, crv, x, y} or {kty, n, e}).
    Json publicJwk() const;
    // RFC 7638: base64url(SHA-256) of the JWK's required members in lexicographic order.
    QByteArray thumbprint() const;

private:
    struct Private;
    explicit SigningKey(std::unique_ptr<Private> d);
    std::unique_ptr<Private> d;
};

// A compact JWS: `header` (alg is set from the key) and `claims`, signed.
QByteArray signJwt(const SigningKey &key, Json header, const Json &claims);

} // namespace Mcp::OAuth
