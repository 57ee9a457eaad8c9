// auth_access_tokens.hpp: issuing user access tokens and the token block returned
// by register, login and refresh (needs SPI connected).
//
// Every access token gets a row in corebank.auth_access_tokens (its jti), so
// revocation and introspection are decided here. The claims are built with
// jsonb from the user row, exactly: sub, iss, aud (a plain string), iat, exp,
// jti, phone and email (only when present), roles, scopes (the sorted,
// distinct union of auth_role_scopes.scopes of the roles), kyc_tier, amr
// (the session's, RFC 8176: how the user signed in).
#pragma once

#include <cstdint>
#include <string>

#include "pg/postgres.hpp"
#include "pg/settings.hpp"
#include "pg/values.hpp"

namespace corebank::pg::auth_access_tokens {

struct Issued {
    std::string token;       // compact JWS
    std::int32_t expires_in; // seconds, exp - iat
};

Issued issue_for_user(const Uuid& user_id, const Uuid& session_id, const std::string& audience,
                      const settings::Auth& settings);

enum class BlockShape {
    bare,        // {"accessToken", "tokenType", "expiresIn", "user", "sessionId"}
    outcome_ok,  // {"outcome":"ok","tokens": <bare block>}
};

// Builds the token block as jsonb in the caller's memory context.
Datum token_block_for_return(const Issued& issued, const Uuid& user_id, const Uuid& session_id, BlockShape shape);

}  // namespace corebank::pg::auth_access_tokens
