// seal.cpp: see seal.hpp.
#include "core/seal.hpp"

#include <openssl/evp.h>
#include <openssl/kdf.h>

#include <memory>

#include "core/crypto.hpp"
#include "core/errors.hpp"

namespace corebank::core::seal {

namespace {

constexpr std::string_view hkdf_salt = "corebank/seal/v1";

struct PkeyCtxFree {
    void operator()(EVP_PKEY_CTX* ctx) const noexcept { EVP_PKEY_CTX_free(ctx); }
};
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree>;

const unsigned char* bytes_of(std::string_view text) {
    return reinterpret_cast<const unsigned char*>(text.data());
}

void check_inputs(std::string_view root_key, std::string_view purpose) {
    if (root_key.size() != root_key_bytes)
        throw CoreError(sqlstate_internal, "the root key must be 32 bytes");
    if (purpose.empty() || purpose.size() > purpose_length_max)
        throw CoreError(sqlstate_internal, "a sealing purpose must be 1 to 64 characters");
}

// Associated data: the purpose and the row id, length-prefixed so that no
// two (purpose, row_id) pairs give the same bytes.
std::string associated_data(std::string_view purpose, std::string_view row_id) {
    if (row_id.empty() || row_id.size() > row_id_length_max)
        throw CoreError(sqlstate_internal, "a sealed value's row id must be 1 to 256 bytes");
    std::string out;
    out.reserve(4 + purpose.size() + row_id.size());
    out.push_back(static_cast<char>(purpose.size()));
    out.append(purpose);
    out.push_back(static_cast<char>(row_id.size() >> 8));
    out.push_back(static_cast<char>(row_id.size() & 0xff));
    out.append(row_id);
    return out;
}

[[noreturn]] void hkdf_failure() { throw CoreError(sqlstate_internal, "HKDF-SHA256 failed in OpenSSL"); }

}  // namespace

std::string derive_key(std::string_view root_key, std::string_view purpose) {
    check_inputs(root_key, purpose);
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nullptr));
    if (!ctx) hkdf_failure();
    if (EVP_PKEY_derive_init(ctx.get()) != 1) hkdf_failure();
    if (EVP_PKEY_CTX_set_hkdf_md(ctx.get(), EVP_sha256()) != 1) hkdf_failure();
    if (EVP_PKEY_CTX_set1_hkdf_salt(ctx.get(), bytes_of(hkdf_salt), static_cast<int>(hkdf_salt.size())) != 1)
        hkdf_failure();
    if (EVP_PKEY_CTX_set1_hkdf_key(ctx.get(), bytes_of(root_key), static_cast<int>(root_key.size())) != 1)
        hkdf_failure();
    if (EVP_PKEY_CTX_add1_hkdf_info(ctx.get(), bytes_of(purpose), static_cast<int>(purpose.size())) != 1)
        hkdf_failure();
    std::string key(data_key_bytes, '\0');
    std::size_t length = key.size();
    if (EVP_PKEY_derive(ctx.get(), reinterpret_cast<unsigned char*>(key.data()), &length) != 1) hkdf_failure();
    if (length != data_key_bytes) hkdf_failure();
    return key;
}

std::string seal(std::string_view root_key, std::string_view purpose, std::string_view row_id,
                 std::string_view plaintext) {
    const std::string key = derive_key(root_key, purpose);
    std::string out(1, static_cast<char>(format_version));
    out += aead_seal(key, plaintext, associated_data(purpose, row_id));
    return out;
}

std::optional<std::string> open(std::string_view root_key, std::string_view purpose, std::string_view row_id,
                                std::string_view sealed) {
    const std::string key = derive_key(root_key, purpose);
    const std::string associated = associated_data(purpose, row_id);
    if (sealed.empty() || static_cast<unsigned char>(sealed.front()) != format_version) return std::nullopt;
    return aead_open(key, sealed.substr(1), associated);
}

}  // namespace corebank::core::seal
