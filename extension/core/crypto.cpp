// crypto.cpp: OpenSSL-backed hashing, HMAC, randomness and AES-256-GCM.
#include "core/crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <memory>

#include "core/base64url.hpp"
#include "core/errors.hpp"
#include "core/limits.hpp"

namespace corebank::core {

namespace {

struct CipherCtxDeleter {
    void operator()(EVP_CIPHER_CTX* ctx) const noexcept { EVP_CIPHER_CTX_free(ctx); }
};
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxDeleter>;

[[noreturn]] void crypto_failure(const char* what) {
    throw CoreError(sqlstate_internal, std::string("cryptographic operation failed: ") + what);
}

const unsigned char* bytes_of(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

}  // namespace

std::string sha256(std::string_view data) {
    std::string out(sha256_bytes, '\0');
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), reinterpret_cast<unsigned char*>(out.data()), &length, EVP_sha256(),
                   nullptr) != 1 ||
        length != sha256_bytes)
        crypto_failure("sha256");
    return out;
}

std::string hex_encode(std::string_view bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out.push_back(digits[c >> 4]);
        out.push_back(digits[c & 0x0f]);
    }
    return out;
}

std::string sha256_hex(std::string_view data) { return hex_encode(sha256(data)); }

std::string hmac_sha256(std::string_view key, std::string_view data) {
    std::string out(sha256_bytes, '\0');
    unsigned int length = 0;
    if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytes_of(data), data.size(),
             reinterpret_cast<unsigned char*>(out.data()), &length) == nullptr ||
        length != sha256_bytes)
        crypto_failure("hmac-sha256");
    return out;
}

std::string random_bytes(std::size_t count) {
    std::string out(count, '\0');
    if (count > 0 && RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(count)) != 1)
        crypto_failure("random bytes");
    return out;
}

std::string random_token() { return base64url_encode(random_bytes(limits::auth::opaque_token_bytes)); }

std::string random_uuid_v4_bytes() {
    std::string bytes = random_bytes(16);
    bytes[6] = static_cast<char>((static_cast<unsigned char>(bytes[6]) & 0x0F) | 0x40);  // version 4
    bytes[8] = static_cast<char>((static_cast<unsigned char>(bytes[8]) & 0x3F) | 0x80);  // RFC 4122 variant
    return bytes;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    if (a.empty()) return true;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string aead_seal(std::string_view key, std::string_view plaintext, std::string_view associated) {
    if (key.size() != data_key_bytes) throw CoreError(sqlstate_internal, "data key must be 32 bytes");
    const std::string nonce = random_bytes(gcm_nonce_bytes);
    CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
    if (!ctx) crypto_failure("cipher context");
    std::string out = nonce;
    out.resize(gcm_nonce_bytes + plaintext.size() + gcm_tag_bytes);
    int length = 0;
    auto* cipher_out = reinterpret_cast<unsigned char*>(out.data()) + gcm_nonce_bytes;
    if (EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes_of(key), bytes_of(nonce)) != 1)
        crypto_failure("gcm init");
    if (!associated.empty() &&
        EVP_EncryptUpdate(ctx.get(), nullptr, &length, bytes_of(associated), static_cast<int>(associated.size())) != 1)
        crypto_failure("gcm aad");
    if (EVP_EncryptUpdate(ctx.get(), cipher_out, &length, bytes_of(plaintext), static_cast<int>(plaintext.size())) != 1)
        crypto_failure("gcm update");
    int final_length = 0;
    if (EVP_EncryptFinal_ex(ctx.get(), cipher_out + length, &final_length) != 1) crypto_failure("gcm final");
    if (static_cast<std::size_t>(length + final_length) != plaintext.size()) crypto_failure("gcm length");
    if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(gcm_tag_bytes),
                            cipher_out + plaintext.size()) != 1)
        crypto_failure("gcm tag");
    return out;
}

std::optional<std::string> aead_open(std::string_view key, std::string_view sealed, std::string_view associated) {
    if (key.size() != data_key_bytes) throw CoreError(sqlstate_internal, "data key must be 32 bytes");
    if (sealed.size() < gcm_nonce_bytes + gcm_tag_bytes) return std::nullopt;
    const std::string_view nonce = sealed.substr(0, gcm_nonce_bytes);
    const std::string_view cipher = sealed.substr(gcm_nonce_bytes, sealed.size() - gcm_nonce_bytes - gcm_tag_bytes);
    std::string tag(sealed.substr(sealed.size() - gcm_tag_bytes));
    CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
    if (!ctx) crypto_failure("cipher context");
    std::string out(cipher.size(), '\0');
    int length = 0;
    if (EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes_of(key), bytes_of(nonce)) != 1)
        crypto_failure("gcm init");
    if (!associated.empty() &&
        EVP_DecryptUpdate(ctx.get(), nullptr, &length, bytes_of(associated), static_cast<int>(associated.size())) != 1)
        return std::nullopt;
    if (EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &length, bytes_of(cipher),
                          static_cast<int>(cipher.size())) != 1)
        return std::nullopt;
    if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(gcm_tag_bytes), tag.data()) != 1)
        return std::nullopt;
    int final_length = 0;
    if (EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + length, &final_length) != 1)
        return std::nullopt;  // authentication failed: tampered, or another key
    return out;
}

}  // namespace corebank::core
