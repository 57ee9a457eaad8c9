#include "password_hash.hpp"

#include <argon2.h>

#include <stdexcept>
#include <vector>

#include "core/crypto.hpp"

namespace corebank::httpd {

namespace {

thread_local std::uint64_t argon2_runs = 0;

}  // namespace

std::uint64_t argon2_runs_on_this_thread() { return argon2_runs; }

std::string password_hash(const std::string& password) {
    ++argon2_runs;
    const std::string salt = core::random_bytes(argon2_salt_bytes);
    const std::size_t encoded_length = argon2_encodedlen(argon2_time_cost, argon2_memory_kib, argon2_parallelism,
                                                         argon2_salt_bytes, argon2_hash_bytes, Argon2_id);
    std::vector<char> encoded(encoded_length);
    const int rc = argon2id_hash_encoded(argon2_time_cost, argon2_memory_kib, argon2_parallelism, password.data(),
                                         password.size(), salt.data(), salt.size(), argon2_hash_bytes, encoded.data(),
                                         encoded.size());
    if (rc != ARGON2_OK) throw std::runtime_error(std::string("argon2id hashing failed: ") + argon2_error_message(rc));
    return std::string(encoded.data());
}

bool password_verify(const std::string& encoded, const std::string& password) {
    if (encoded.rfind("$argon2id$", 0) != 0) return false;
    ++argon2_runs;
    return argon2id_verify(encoded.c_str(), password.data(), password.size()) == ARGON2_OK;
}

const std::string& password_dummy_hash() {
    static const std::string hash = password_hash(core::random_token());
    return hash;
}

}  // namespace corebank::httpd
