// crypto.hpp: thin, typed wrappers over OpenSSL for hashing, randomness,
// HMAC, constant-time comparison and AES-256-GCM sealing. Nothing here is
// hand-written cryptography: every primitive is OpenSSL's.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corebank::core {

inline constexpr std::size_t sha256_bytes = 32;
inline constexpr std::size_t data_key_bytes = 32;    // AES-256
inline constexpr std::size_t gcm_nonce_bytes = 12;
inline constexpr std::size_t gcm_tag_bytes = 16;

std::string sha256(std::string_view data);           // 32 raw bytes
std::string sha256_hex(std::string_view data);       // 64 lower-case hex digits
std::string hmac_sha256(std::string_view key, std::string_view data);  // 32 raw bytes
std::string hex_encode(std::string_view bytes);

// Cryptographically strong random bytes (RAND_bytes); throws on failure.
std::string random_bytes(std::size_t count);
// A fresh opaque token: base64url of opaque_token_bytes random bytes.
std::string random_token();
// The 16 bytes of a random (version 4, RFC 4122 variant) UUID: the one place
// that sets those bits, for the extension's ids and the tier's alike.
std::string random_uuid_v4_bytes();

// Constant-time equality (CRYPTO_memcmp); unequal lengths compare unequal.
bool constant_time_equal(std::string_view a, std::string_view b);

// AES-256-GCM: output is nonce || ciphertext || tag. The key must be 32 bytes.
std::string aead_seal(std::string_view key, std::string_view plaintext, std::string_view associated = {});
// nullopt when the input is short, tampered with, or under another key.
std::optional<std::string> aead_open(std::string_view key, std::string_view sealed, std::string_view associated = {});

}  // namespace corebank::core
