// client_admin_secret.hpp: an OAuth client's secret, made the same way for
// ./corebank client create and POST /admin/clients (and its rotation):
// 32 random bytes, base64url, shown once; only an argon2id hash is stored.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::auth {

// A new secret: client_secret_generated_bytes (32) random bytes, base64url
// (43 characters).
std::string new_client_secret();

// The PHC argon2id hash of `secret` under given parameters and salt (the
// {"m","t","p","salt"} object auth_client_admin_rotate_begin answers): a
// rotated secret shares the current hash's salt, so one proof tests both
// during the overlap (docs/identity.md, "Client administration"). Throws
// std::runtime_error on parameters out of password_proof's bounds.
std::string client_secret_hash_with(const std::string& secret, const nlohmann::json& argon2);

}  // namespace corebank::httpd::auth
