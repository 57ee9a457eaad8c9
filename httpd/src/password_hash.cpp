#include "password_hash.hpp"

#include <argon2.h>

#include <stdexcept>
#include <vector>

#include "core/crypto.hpp"
#include "core/password_proof.hpp"

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

std::string password_proof(const std::string& password, const nlohmann::json& argon2) {
    namespace proof = core::password_proof;
    const auto number = [&](const char* name, std::uint32_t least, std::uint32_t most) {
        const auto it = argon2.find(name);
        if (!argon2.is_object() || it == argon2.end() || !it->is_number_unsigned())
            throw std::runtime_error(std::string("password proof: argon2.") + name + " missing");
        const auto value = it->get<std::uint64_t>();
        if (value < least || value > most)
            throw std::runtime_error(std::string("password proof: argon2.") + name + " out of bounds");
        return static_cast<std::uint32_t>(value);
    };
    const std::uint32_t memory_kib = number("m", 8, proof::memory_kib_max);
    const std::uint32_t time_cost = number("t", 1, proof::time_cost_max);
    const std::uint32_t parallelism = number("p", 1, proof::parallelism_max);
    const auto salt_text = argon2.find("salt");
    const auto salt = salt_text != argon2.end() && salt_text->is_string()
                          ? proof::phc_b64_decode(salt_text->get<std::string>())
                          : std::nullopt;
    if (!salt || salt->size() < proof::salt_bytes_min || salt->size() > proof::salt_bytes_max)
        throw std::runtime_error("password proof: argon2.salt malformed");
    ++argon2_runs;
    std::string out(proof::proof_bytes, '\0');
    const int rc = argon2id_hash_raw(time_cost, memory_kib, parallelism, password.data(), password.size(),
                                     salt->data(), salt->size(), out.data(), out.size());
    if (rc != ARGON2_OK) throw std::runtime_error(std::string("argon2id hashing failed: ") + argon2_error_message(rc));
    return out;
}

const std::string& password_dummy_hash() {
    static const std::string hash = password_hash(core::random_token());
    return hash;
}

}  // namespace corebank::httpd
