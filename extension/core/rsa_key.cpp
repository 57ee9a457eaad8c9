// rsa_key.cpp: RSA key generation, PEM and JWK conversion, RS256 sign/verify
// through OpenSSL 3's EVP interfaces.
#include "core/rsa_key.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>

#include <cassert>
#include <string>

#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "core/errors.hpp"

namespace corebank::core {

void EvpPkeyDeleter::operator()(EVP_PKEY* key) const noexcept { EVP_PKEY_free(key); }

namespace {

struct BioDeleter { void operator()(BIO* bio) const noexcept { BIO_free(bio); } };
struct BnDeleter { void operator()(BIGNUM* bn) const noexcept { BN_free(bn); } };
struct MdCtxDeleter { void operator()(EVP_MD_CTX* ctx) const noexcept { EVP_MD_CTX_free(ctx); } };
struct PkeyCtxDeleter { void operator()(EVP_PKEY_CTX* ctx) const noexcept { EVP_PKEY_CTX_free(ctx); } };
struct ParamBldDeleter { void operator()(OSSL_PARAM_BLD* b) const noexcept { OSSL_PARAM_BLD_free(b); } };
struct ParamDeleter { void operator()(OSSL_PARAM* p) const noexcept { OSSL_PARAM_free(p); } };
using BioPtr = std::unique_ptr<BIO, BioDeleter>;
using BnPtr = std::unique_ptr<BIGNUM, BnDeleter>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxDeleter>;

[[noreturn]] void key_failure(const char* what) {
    throw CoreError(sqlstate_internal, std::string("RSA key operation failed: ") + what);
}

std::string bignum_param_b64url(const EVP_PKEY* key, const char* name) {
    BIGNUM* raw = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &raw) != 1) key_failure("read public parameter");
    BnPtr bn(raw);
    std::string bytes(static_cast<std::size_t>(BN_num_bytes(bn.get())), '\0');
    BN_bn2bin(bn.get(), reinterpret_cast<unsigned char*>(bytes.data()));
    return base64url_encode(bytes);
}

BnPtr bignum_from_b64url(std::string_view text) {
    const auto bytes = base64url_decode(text);
    if (!bytes || bytes->empty()) throw CoreError(sqlstate_bad_request, "invalid JWK member encoding");
    BnPtr bn(BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes->data()), static_cast<int>(bytes->size()), nullptr));
    if (!bn) key_failure("bignum");
    return bn;
}

}  // namespace

std::string rsa_jwk_thumbprint(std::string_view modulus_b64url, std::string_view exponent_b64url) {
    // RFC 7638: the required members in lexicographic order, no whitespace.
    std::string canonical = "{\"e\":\"";
    canonical.append(exponent_b64url).append("\",\"kty\":\"RSA\",\"n\":\"").append(modulus_b64url).append("\"}");
    return base64url_encode(sha256(canonical));
}

RsaKeyMaterial rsa_generate(int bits) {
    if (bits < 2048 || bits > 8192) throw CoreError(sqlstate_bad_request, "RSA key size must be 2048..8192 bits");
    EvpPkeyPtr key(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(bits)));
    if (!key) key_failure("generate");
    RsaKeyMaterial material;
    material.modulus_b64url = bignum_param_b64url(key.get(), OSSL_PKEY_PARAM_RSA_N);
    material.exponent_b64url = bignum_param_b64url(key.get(), OSSL_PKEY_PARAM_RSA_E);
    material.kid = rsa_jwk_thumbprint(material.modulus_b64url, material.exponent_b64url);
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        key_failure("write PEM");
    char* data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    if (length <= 0 || data == nullptr) key_failure("PEM buffer");
    material.private_key_pem.assign(data, static_cast<std::size_t>(length));
    assert(!material.kid.empty());
    return material;
}

RsaPrivateKey RsaPrivateKey::from_pem(std::string_view pem) {
    BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    if (!bio) key_failure("PEM buffer");
    EvpPkeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    if (!key) key_failure("parse PEM");
    if (EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_RSA) key_failure("not an RSA key");
    return RsaPrivateKey(std::move(key));
}

std::string RsaPrivateKey::sign_rs256(std::string_view input) const {
    MdCtxPtr ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key_.get()) != 1)
        key_failure("sign init");
    std::size_t length = 0;
    const auto* data = reinterpret_cast<const unsigned char*>(input.data());
    if (EVP_DigestSign(ctx.get(), nullptr, &length, data, input.size()) != 1) key_failure("sign size");
    std::string signature(length, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length, data, input.size()) != 1)
        key_failure("sign");
    signature.resize(length);
    return signature;
}

RsaPublicKey RsaPublicKey::from_jwk(std::string_view modulus_b64url, std::string_view exponent_b64url) {
    BnPtr n = bignum_from_b64url(modulus_b64url);
    BnPtr e = bignum_from_b64url(exponent_b64url);
    if (BN_num_bits(n.get()) < 2048) throw CoreError(sqlstate_bad_request, "RSA modulus shorter than 2048 bits");
    std::unique_ptr<OSSL_PARAM_BLD, ParamBldDeleter> builder(OSSL_PARAM_BLD_new());
    if (!builder || OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_N, n.get()) != 1 ||
        OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_E, e.get()) != 1)
        key_failure("param build");
    std::unique_ptr<OSSL_PARAM, ParamDeleter> params(OSSL_PARAM_BLD_to_param(builder.get()));
    std::unique_ptr<EVP_PKEY_CTX, PkeyCtxDeleter> ctx(EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr));
    EVP_PKEY* raw = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
        EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params.get()) != 1)
        key_failure("public key from JWK");
    return RsaPublicKey(EvpPkeyPtr(raw));
}

bool RsaPublicKey::verify_rs256(std::string_view input, std::string_view signature) const noexcept {
    MdCtxPtr ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key_.get()) != 1) return false;
    return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                            reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
}

}  // namespace corebank::core
