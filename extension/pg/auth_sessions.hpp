// auth_sessions.hpp: sessions (refresh-token families) and their refresh tokens
// (needs SPI connected).
//
// A session is live while revoked_at IS NULL and expires_at > now(). Its
// lifetime is absolute: fixed at login to refresh_token_ttl_s, and every
// refresh token of the family expires with the session. Callers that create
// or revoke sessions of a user hold that user's row lock (SELECT .. FOR
// UPDATE on auth_users), which is what makes the session cap hold under
// concurrent logins.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pg/values.hpp"

namespace corebank::pg::auth_sessions {

struct NewSession {
    Uuid user_id;
    std::optional<std::string> client_id;
    std::string audience;
    std::optional<std::string> channel;
    std::optional<std::string> ip;
    std::optional<std::string> user_agent;
    std::string refresh_token_hash;  // SHA-256 of the opaque token, 32 bytes
    std::int32_t lifetime_s;
    // How the user signed in (RFC 8176), kept for the session's life so that
    // every access token of it, refreshes included, says the same:
    // {"pwd"}, {"pwd","otp","mfa"} (a TOTP code), {"pwd","mfa"} (a recovery code).
    std::vector<std::string> amr{"pwd"};
};

// Creates the session and its first refresh token; returns the session id.
Uuid open(const NewSession& session);

// Number of live sessions of the user.
std::int64_t live_count(const Uuid& user_id);

// Revokes the `count` oldest live sessions of the user with `reason`.
std::int64_t revoke_oldest(const Uuid& user_id, std::int64_t count, const char* reason);

// Revokes every live session of the user with `reason`; returns how many.
std::int64_t revoke_all(const Uuid& user_id, const char* reason);

// Adds a refresh token to an existing session; it expires with the session.
void add_refresh_token(const Uuid& session_id, const std::string& refresh_token_hash);

}  // namespace corebank::pg::auth_sessions
