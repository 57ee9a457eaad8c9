// rsa_key.hpp: RSA keys for RS256 tokens (RSASSA-PKCS1-v1_5 with SHA-256).
//
// The private key is generated and used inside the database (the extension
// signs tokens); the tier only ever builds public keys from the JWKS.
#pragma once

#include <memory>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace corebank::core {

inline constexpr int rsa_key_bits = 2048;

struct RsaKeyMaterial {
    std::string kid;               // RFC 7638 JWK thumbprint, base64url
    std::string private_key_pem;   // PKCS#8 PEM
    std::string modulus_b64url;    // JWK "n"
    std::string exponent_b64url;   // JWK "e"
};

// Generates a fresh key pair; throws CoreError on failure.
RsaKeyMaterial rsa_generate(int bits = rsa_key_bits);

// RFC 7638 thumbprint of an RSA public key given as JWK n and e.
std::string rsa_jwk_thumbprint(std::string_view modulus_b64url, std::string_view exponent_b64url);

struct EvpPkeyDeleter { void operator()(EVP_PKEY* key) const noexcept; };
using EvpPkeyPtr = std::unique_ptr<EVP_PKEY, EvpPkeyDeleter>;

class RsaPrivateKey {
public:
    static RsaPrivateKey from_pem(std::string_view pem);   // throws CoreError
    std::string sign_rs256(std::string_view input) const;  // raw signature bytes

private:
    explicit RsaPrivateKey(EvpPkeyPtr key) : key_(std::move(key)) {}
    EvpPkeyPtr key_;
};

class RsaPublicKey {
public:
    // From JWK members n and e (base64url); throws CoreError on bad input.
    static RsaPublicKey from_jwk(std::string_view modulus_b64url, std::string_view exponent_b64url);
    bool verify_rs256(std::string_view input, std::string_view signature) const noexcept;

private:
    explicit RsaPublicKey(EvpPkeyPtr key) : key_(std::move(key)) {}
    std::shared_ptr<EVP_PKEY> key_;
};

}  // namespace corebank::core
