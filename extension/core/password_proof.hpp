// password_proof.hpp: the password proof (issue 13, "Settings"): the tier
// hashes, the database compares.
//
// A stored password or client secret is the PHC string the tier made,
//     $argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>
// (standard base64 without padding). The database hands the tier only the
// parameters and the salt; the tier runs argon2id_hash_raw on the password
// with them and sends the raw 32-byte output, the proof; the extension
// compares it with the stored hash in constant time. No app-role call ever
// returns the stored hash, so a session of corebank_app cannot finish a login
// it has no password for.
//
// An identifier no account (or client) has gets the usual parameters and a
// salt derived from the identifier under a key only the database holds
// (HMAC-SHA256, truncated to the tier's salt size): the same identifier gets
// the same salt every time, as a real account's does, and nobody outside can
// compute it.
//
// Pure C++ over OpenSSL (base64, HMAC, CRYPTO_memcmp): no PostgreSQL, tested
// by tests/unit/password_proof_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corebank::core::password_proof {

// The raw argon2id output the tier computes and stores (password_hash.hpp).
inline constexpr std::size_t proof_bytes = 32;
// The salt the tier draws for every new hash, and the size of a derived one.
inline constexpr std::size_t salt_bytes = 16;
// argon2 refuses salts under 8 bytes; more than 64 is not a hash we made.
inline constexpr std::size_t salt_bytes_min = 8;
inline constexpr std::size_t salt_bytes_max = 64;
// argon2's least output is 4 bytes; only a 32-byte one can ever match.
inline constexpr std::size_t hash_bytes_min = 4;
inline constexpr std::size_t hash_bytes_max = 64;
// Bounds on what a stored hash may ask the tier to spend (1 GiB, 16 passes,
// 16 lanes): far above the OWASP parameters, far below a denial of service.
inline constexpr std::uint32_t memory_kib_max = 1U << 20;
inline constexpr std::uint32_t time_cost_max = 16;
inline constexpr std::uint32_t parallelism_max = 16;
// PHC strings are short; a longer one is refused before parsing.
inline constexpr std::size_t encoded_length_max = 512;

// The argon2id parameters of one hash and its raw salt.
struct Params {
    std::uint32_t memory_kib = 0;
    std::uint32_t time_cost = 0;
    std::uint32_t parallelism = 0;
    std::string salt;
};

// The parameters every new hash gets (OWASP: 19 MiB, t=2, p=1): what an
// unknown identifier is answered with.
inline constexpr std::uint32_t default_memory_kib = 19456;
inline constexpr std::uint32_t default_time_cost = 2;
inline constexpr std::uint32_t default_parallelism = 1;

struct StoredHash {
    Params params;
    std::string hash;  // raw bytes
};

// The parts of "$argon2id$v=19$m=..,t=..,p=..$salt$hash", or nullopt for
// anything else: another algorithm or version, parameters out of the bounds
// above or with leading zeros, a salt or hash that is not canonical unpadded
// standard base64 of an allowed length, any extra character.
std::optional<StoredHash> parse_phc(std::string_view encoded);

// True when `proof` is exactly proof_bytes long and equal to the stored
// hash (which must be proof_bytes long too), compared with CRYPTO_memcmp.
bool proof_matches(const StoredHash& stored, std::string_view proof);

// The parameters answered for an identifier no account or client has: the
// defaults and HMAC-SHA256(key, identifier) truncated to salt_bytes. `key`
// must not be empty (throws std::invalid_argument).
Params unknown_params(std::string_view key, std::string_view identifier);

// {"m":19456,"t":2,"p":1,"salt":"<unpadded standard base64>"}: the object a
// begin function answers under "argon2".
std::string params_json(const Params& params);

// Unpadded standard base64, as PHC strings spell salts and hashes.
std::string phc_b64_encode(std::string_view bytes);
// The bytes of canonical unpadded standard base64, else nullopt.
std::optional<std::string> phc_b64_decode(std::string_view text);

}  // namespace corebank::core::password_proof
