// seal.hpp: secrets kept in the database, sealed under the root key
// (docs/security.md, "Sealed secrets and the root key").
//
// The root key is 32 random bytes in a file outside the data directory
// (pg/root_key.hpp loads it). It never seals anything itself: each purpose
// ("auth_signing_key", ...) gets its own key, HKDF-SHA256 (RFC 5869) of the
// root key with the purpose as info, so a sealed value of one purpose can
// never be opened as another. A sealed value is
//     version byte 0x01 || AES-256-GCM(nonce || ciphertext || tag)
// with the purpose and the row's id as associated data, so sealed bytes
// copied onto another row, or into another purpose's column, do not open.
// Pure C++ over OpenSSL: no PostgreSQL, tested by tests/unit/seal_test.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace corebank::core::seal {

inline constexpr std::size_t root_key_bytes = 32;
inline constexpr unsigned char format_version = 0x01;
// Purposes are short fixed names; a longer one is a programming error.
inline constexpr std::size_t purpose_length_max = 64;
// A row id longer than this is refused (the kid of a signing key is 43).
inline constexpr std::size_t row_id_length_max = 256;

// The key of one purpose: HKDF-SHA256(salt = "corebank/seal/v1", ikm =
// root_key, info = purpose), 32 bytes. Throws CoreError on a root key that
// is not 32 bytes or an empty or over-long purpose.
std::string derive_key(std::string_view root_key, std::string_view purpose);

// Seals `plaintext` for (purpose, row_id). Throws like derive_key.
std::string seal(std::string_view root_key, std::string_view purpose, std::string_view row_id,
                 std::string_view plaintext);

// The plaintext, or nullopt when the bytes are not a sealed value of this
// version, were changed, belong to another row or purpose, or were sealed
// under another root key. Throws like derive_key.
std::optional<std::string> open(std::string_view root_key, std::string_view purpose, std::string_view row_id,
                                std::string_view sealed);

}  // namespace corebank::core::seal
