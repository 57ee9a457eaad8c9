// auth_sessions.cpp: see auth_sessions.hpp.
#include "pg/auth_sessions.hpp"

#include "core/crypto.hpp"
#include "pg/check.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::auth_sessions {

namespace {

// The user agent is informational and clients send what they like: it is cut
// to 512 characters rather than refused.
// created_at uses clock_timestamp() so that sessions opened in one
// transaction still order by creation (the cap revokes the oldest).
constexpr const char insert_session_sql[] =
    "INSERT INTO corebank.auth_sessions "
    "(id, user_id, client_id, audience, channel, ip, user_agent, created_at, last_used_at, expires_at, amr) "
    "VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, left($6, 512), clock_timestamp(), clock_timestamp(), "
    "now() + make_interval(secs => $7), $8) "
    "RETURNING id";

constexpr const char insert_refresh_token_sql[] =
    "INSERT INTO corebank.auth_refresh_tokens (token_hash, session_id, issued_at, expires_at) "
    "SELECT $1, s.id, now(), s.expires_at FROM corebank.auth_sessions s WHERE s.id = $2";

constexpr const char count_live_sql[] =
    "SELECT count(*) FROM corebank.auth_sessions "
    "WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()";

constexpr const char revoke_oldest_sql[] =
    "UPDATE corebank.auth_sessions SET revoked_at = now(), revoked_reason = $3 "
    "WHERE id IN (SELECT id FROM corebank.auth_sessions "
    "             WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() "
    "             ORDER BY created_at, id LIMIT $2)";

constexpr const char revoke_all_sql[] =
    "UPDATE corebank.auth_sessions SET revoked_at = now(), revoked_reason = $2 "
    "WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()";

}  // namespace

Uuid open(const NewSession& session) {
    CB_CHECK(session.refresh_token_hash.size() == core::sha256_bytes);
    CB_CHECK(session.lifetime_s > 0);
    CB_CHECK(!session.audience.empty());
    CB_CHECK(!session.amr.empty() && session.amr.front() == "pwd");
    const std::uint64_t rows = spi::execute(
        insert_session_sql,
        {spi::Arg::uuid(session.user_id), spi::Arg::text(session.client_id), spi::Arg::text(session.audience),
         spi::Arg::text(session.channel), spi::Arg::text(session.ip), spi::Arg::text(session.user_agent),
         spi::Arg::int4(session.lifetime_s), spi::Arg::text_array(session.amr)});
    CB_CHECK(rows == 1);
    const Uuid session_id = spi::get_uuid(0, 1).value();
    add_refresh_token(session_id, session.refresh_token_hash);
    return session_id;
}

std::int64_t live_count(const Uuid& user_id) {
    const std::uint64_t rows = spi::execute(count_live_sql, {spi::Arg::uuid(user_id)});
    CB_CHECK(rows == 1);
    return spi::get_int(0, 1).value();
}

std::int64_t revoke_oldest(const Uuid& user_id, std::int64_t count, const char* reason) {
    CB_CHECK(count > 0);
    return static_cast<std::int64_t>(spi::execute(
        revoke_oldest_sql, {spi::Arg::uuid(user_id), spi::Arg::int8(count), spi::Arg::text(std::string_view(reason))}));
}

std::int64_t revoke_all(const Uuid& user_id, const char* reason) {
    return static_cast<std::int64_t>(
        spi::execute(revoke_all_sql, {spi::Arg::uuid(user_id), spi::Arg::text(std::string_view(reason))}));
}

void add_refresh_token(const Uuid& session_id, const std::string& refresh_token_hash) {
    CB_CHECK(refresh_token_hash.size() == core::sha256_bytes);
    const std::uint64_t rows =
        spi::execute(insert_refresh_token_sql, {spi::Arg::bytea(refresh_token_hash), spi::Arg::uuid(session_id)});
    CB_CHECK(rows == 1);
}

}  // namespace corebank::pg::auth_sessions
