// client_admin_secret.cpp: see client_admin_secret.hpp.
#include "auth/client_admin_secret.hpp"

#include <stdexcept>

#include "auth/requests.hpp"
#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "password_hash.hpp"

namespace corebank::httpd::auth {

std::string new_client_secret() {
    return core::base64url_encode(core::random_bytes(client_secret_generated_bytes));
}

std::string client_secret_hash_with(const std::string& secret, const nlohmann::json& argon2) {
    // password_proof checks the parameters' bounds and runs argon2id_hash_raw.
    const std::string raw = password_proof(secret, argon2);
    std::string encoded = core::base64_encode(raw);
    while (!encoded.empty() && encoded.back() == '=') encoded.pop_back();  // PHC: unpadded
    return "$argon2id$v=19$m=" + std::to_string(argon2.at("m").get<unsigned>()) +
           ",t=" + std::to_string(argon2.at("t").get<unsigned>()) +
           ",p=" + std::to_string(argon2.at("p").get<unsigned>()) + "$" + argon2.at("salt").get<std::string>() + "$" +
           encoded;
}

}  // namespace corebank::httpd::auth
