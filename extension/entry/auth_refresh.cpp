// auth_refresh.cpp: corebank.auth_refresh, refresh-token rotation with replay
// detection.
//
// A session is one family of refresh tokens; each token is single use. Order
// of the checks:
//   1. unknown or expired token                 -> {"outcome":"invalid"}
//   2. token already used (a replay: someone holds a copy of a rotated token)
//      -> every live session of the user is revoked (reason refresh_replay),
//         {"outcome":"replayed"}
//   3. session revoked or expired               -> {"outcome":"invalid"}
//   4. user not ACTIVE, or locked               -> {"outcome":"locked"}
//   5. else the token is marked used, a new one joins the same session (same
//      audience) and a new access token is issued -> {"outcome":"ok",...}
// The replay check precedes the session check on purpose: a rotated token
// presented again is evidence of theft even after its session ended.
//
// Locking: the user row first (as login does), then the token row, both FOR
// UPDATE, and the token is re-read after the user lock is held. Of two
// concurrent uses of one token, the second waits on the user lock, then sees
// the token used and is treated as a replay.
#include "core/limits.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_access_tokens.hpp"
#include "pg/auth_audit.hpp"
#include "pg/auth_sessions.hpp"
#include "pg/check.hpp"
#include "pg/datums.hpp"
#include "pg/settings.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

namespace {

using namespace corebank;
using corebank::pg::Uuid;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;

// Finds the owner of the token without locking anything.
constexpr const char select_token_owner_sql[] =
    "SELECT s.user_id FROM corebank.auth_refresh_tokens t "
    "JOIN corebank.auth_sessions s ON s.id = t.session_id WHERE t.token_hash = $1";

constexpr const char lock_user_sql[] =
    "SELECT status = 'ACTIVE', coalesce(locked_until > now(), false) "
    "FROM corebank.auth_users WHERE id = $1 FOR UPDATE";

// Columns: 1 expired, 2 used, 3 session live, 4 session id, 5 audience,
// 6 channel.
constexpr const char lock_token_sql[] =
    "SELECT t.expires_at <= now(), t.used_at IS NOT NULL, "
    "       s.revoked_at IS NULL AND s.expires_at > now(), s.id, s.audience, s.channel "
    "FROM corebank.auth_refresh_tokens t JOIN corebank.auth_sessions s ON s.id = t.session_id "
    "WHERE t.token_hash = $1 FOR UPDATE OF t";

constexpr const char mark_used_sql[] =
    "UPDATE corebank.auth_refresh_tokens SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL";

constexpr const char touch_session_sql[] =
    "UPDATE corebank.auth_sessions SET last_used_at = clock_timestamp() WHERE id = $1";

struct RefreshRequest {
    std::string token_hash;
    std::string new_token_hash;
    std::optional<std::string> ip;
    std::optional<std::string> user_agent;
};

RefreshRequest read_request(FunctionCallInfo fcinfo) {
    RefreshRequest request{args::require(args::bytea(fcinfo, 0), "refresh_token_hash"),
                           args::require(args::bytea(fcinfo, 1), "new_refresh_token_hash"), args::text(fcinfo, 2),
                           args::text(fcinfo, 3)};
    args::check_sha256(request.token_hash, "refresh_token_hash");
    args::check_sha256(request.new_token_hash, "new_refresh_token_hash");
    if (request.token_hash == request.new_token_hash) {
        args::throw_validation("new_refresh_token_hash: must differ from refresh_token_hash");
    }
    args::check_length(request.ip, "ip", core::limits::client_ip_length_max);
    return request;
}

Datum outcome(const char* json_literal) {
    spi::finish();
    return pg::jsonb_from_literal(json_literal);
}

}  // namespace

/* SQL function: corebank.auth_refresh(refresh_token_hash bytea, new_refresh_token_hash bytea, ip text, user_agent text) returns jsonb */
COREBANK_FUNCTION(auth_refresh) {
    const RefreshRequest request = read_request(fcinfo);
    const settings::Auth settings = settings::current();

    spi::connect();
    if (spi::execute(select_token_owner_sql, {spi::Arg::bytea(request.token_hash)}) == 0) {
        return outcome(R"({"outcome":"invalid"})");
    }
    const Uuid user_id = spi::get_uuid(0, 1).value();

    // User first, then token: the same order as every other writer.
    const std::uint64_t user_rows = spi::execute(lock_user_sql, {spi::Arg::uuid(user_id)});
    CB_CHECK(user_rows == 1);  // sessions reference users, which are never deleted
    const bool user_active = spi::get_bool(0, 1).value();
    const bool user_locked = spi::get_bool(0, 2).value();

    // Maintenance may have pruned an expired token since the first read.
    if (spi::execute(lock_token_sql, {spi::Arg::bytea(request.token_hash)}) == 0) {
        return outcome(R"({"outcome":"invalid"})");
    }
    const bool token_expired = spi::get_bool(0, 1).value();
    const bool token_used = spi::get_bool(0, 2).value();
    const bool session_live = spi::get_bool(0, 3).value();
    const Uuid session_id = spi::get_uuid(0, 4).value();
    const std::string audience = spi::get_text(0, 5).value();
    const std::optional<std::string> channel = spi::get_text(0, 6);

    if (token_expired) return outcome(R"({"outcome":"invalid"})");
    if (token_used) {
        const std::int64_t revoked = pg::auth_sessions::revoke_all(user_id, "refresh_replay");
        CB_CHECK(revoked >= 0);
        pg::auth_audit::record("replay", user_id, channel, request.ip);
        CB_CHECK(pg::auth_sessions::live_count(user_id) == 0);
        return outcome(R"({"outcome":"replayed"})");
    }
    if (!session_live) return outcome(R"({"outcome":"invalid"})");
    if (!user_active || user_locked) return outcome(R"({"outcome":"locked"})");

    const std::uint64_t marked = spi::execute(mark_used_sql, {spi::Arg::bytea(request.token_hash)});
    CB_CHECK(marked == 1);  // the row lock is ours and it was unused
    pg::auth_sessions::add_refresh_token(session_id, request.new_token_hash);
    spi::execute(touch_session_sql, {spi::Arg::uuid(session_id)});

    const pg::auth_access_tokens::Issued issued = pg::auth_access_tokens::issue_for_user(user_id, session_id, audience, settings);
    pg::auth_audit::record("refresh", user_id, channel, request.ip);
    const Datum block = pg::auth_access_tokens::token_block_for_return(issued, user_id, session_id,
                                                                  pg::auth_access_tokens::BlockShape::outcome_ok);
    spi::finish();
    PG_RETURN_DATUM(block);
}
