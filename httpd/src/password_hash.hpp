// password_hash.hpp: argon2id with the OWASP parameters (19 MiB, t=2, p=1).
// About 20 ms per call: run it on worker threads only (the password lane's,
// password_lane.hpp), never on a reactor thread and never inside a database
// backend.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd {

inline constexpr unsigned argon2_time_cost = 2;
inline constexpr unsigned argon2_memory_kib = 19456;
inline constexpr unsigned argon2_parallelism = 1;
inline constexpr unsigned argon2_salt_bytes = 16;
inline constexpr unsigned argon2_hash_bytes = 32;

// PHC-encoded "$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>"; throws on failure.
std::string password_hash(const std::string& password);
// Constant-time verification (libargon2 compares in constant time). False for
// a malformed encoded hash.
bool password_verify(const std::string& encoded, const std::string& password);
// The password proof (core/password_proof.hpp): argon2id_hash_raw of
// `password` with the parameters and salt a begin function answered under
// "argon2" ({"m","t","p","salt"}), 32 raw bytes for the finish function to
// compare; the tier never sees the stored hash. Throws std::runtime_error on
// an answer out of password_proof's bounds (the database's fault: a 500).
std::string password_proof(const std::string& password, const nlohmann::json& argon2);
// A valid hash of a random password, made once: verifying against it keeps a
// login for an unknown account as slow as one for a real account.
const std::string& password_dummy_hash();

// How many argon2id computations (hashes and verifications) the calling
// thread has run. The password lane gives an admitted attempt back to its
// throttle when the handler ran none (a malformed body, a limit the database
// answered first): the throttle counts argon2id work, not requests.
std::uint64_t argon2_runs_on_this_thread();

}  // namespace corebank::httpd
