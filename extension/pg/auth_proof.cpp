// auth_proof.cpp: see auth_proof.hpp.
//
// The salt of an unknown identifier is keyed by HKDF(root key, purpose
// "auth_unknown_salt") (core/seal.hpp): the root key is 32 random bytes no
// session, dump or backup holds, so nobody outside the server can compute
// the salt and tell it from a drawn one; the same identifier gets the same
// salt, as an account's stored one stays. The key is loaded for every
// answer, an account's too: without a root key every begin fails alike
// (F0000, the tier's 503, as signing a login's token would), so its absence
// cannot tell unknown identifiers from accounts.
#include "pg/auth_proof.hpp"

#include "core/password_proof.hpp"
#include "core/seal.hpp"
#include "pg/args.hpp"
#include "pg/root_key.hpp"

namespace corebank::pg::auth_proof {

namespace proof = core::password_proof;

namespace {

constexpr const char unknown_salt_purpose[] = "auth_unknown_salt";

}  // namespace

std::string params_json_for(const std::optional<std::string>& stored_hash, const std::string& identifier) {
    const std::string key = core::seal::derive_key(root_key::load(), unknown_salt_purpose);
    if (stored_hash) {
        if (const auto parsed = proof::parse_phc(*stored_hash)) return proof::params_json(parsed->params);
    }
    return proof::params_json(proof::unknown_params(key, identifier));
}

std::string require_proof(const std::optional<std::string>& value, const char* name) {
    const std::string given = args::require(value, name);
    if (given.size() != proof::proof_bytes) args::throw_validation(std::string(name) + ": must be 32 bytes");
    return given;
}

bool matches(const std::optional<std::string>& stored_hash, const std::string& given) {
    if (!stored_hash) return false;
    const auto parsed = proof::parse_phc(*stored_hash);
    return parsed && proof::proof_matches(*parsed, given);
}

}  // namespace corebank::pg::auth_proof
