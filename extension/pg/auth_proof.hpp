// auth_proof.hpp: the database's half of the password proof
// (core/password_proof.hpp): what a begin function answers under "argon2",
// and the comparison a finish function makes. Shared by login, the
// re-entered password, the reset and client authentication.
#pragma once

#include <optional>
#include <string>

namespace corebank::pg::auth_proof {

// The "argon2" object for a stored PHC hash: its parameters and salt, never
// the hash. A hash that does not parse (none stored, another form) is
// answered like an unknown identifier, so it can never be proven.
// `identifier` names the account or client ("login:email:a@b.c",
// "client:svc", "user:<uuid>"): it seeds the salt of an unknown one.
std::string params_json_for(const std::optional<std::string>& stored_hash, const std::string& identifier);

// The proof argument of a finish function: required and exactly 32 bytes,
// else a validation error (CBV00) naming it.
std::string require_proof(const std::optional<std::string>& proof, const char* name);

// True when `proof` is the raw argon2id output the stored PHC hash holds
// (constant-time); false for a hash that does not parse.
bool matches(const std::optional<std::string>& stored_hash, const std::string& proof);

}  // namespace corebank::pg::auth_proof
