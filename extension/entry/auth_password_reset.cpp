// auth_password_reset.cpp: the forgotten-password flow.
//
//   corebank.auth_password_forgot        rate-limited per client IP; stores a
//                                        reset token (its SHA-256) for an
//                                        ACTIVE account and tells the tier
//                                        whether to send mail
//   corebank.auth_password_reset_begin   the account behind a usable token,
//                                        with its current hash's parameters
//                                        and salt (never the hash)
//   corebank.auth_password_reset_finish  refuses a new password equal to the
//                                        current one (the tier's proof of it
//                                        under those parameters, compared
//                                        here), consumes the token, sets the
//                                        hash, clears lockout, revokes sessions
//
// A reset token is usable while unused, unexpired (reset_token_ttl_s) and its
// user ACTIVE. finish locks the user row, then the token row (the order
// refresh uses), and re-checks; consuming one token also retires every other
// outstanding token of that user, so an older mailed link dies with it.
// The database never sees the reset link or the plaintext token.
#include "core/errors.hpp"
#include "core/limits.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_audit.hpp"
#include "pg/auth_proof.hpp"
#include "pg/auth_rate_limiter.hpp"
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

constexpr const char reset_token_invalid[] = "Reset token is invalid, expired or already used";

/*---- forgot ----*/

constexpr const char select_branding_sql[] =
    "SELECT reset_link_base, app_name FROM corebank.auth_oauth_clients "
    "WHERE client_id = $1 AND status = 'ACTIVE'";

constexpr const char select_active_user_by_email_sql[] =
    "SELECT id FROM corebank.auth_users WHERE email = $1 AND status = 'ACTIVE'";

constexpr const char insert_reset_token_sql[] =
    "INSERT INTO corebank.auth_reset_tokens (token_hash, user_id, created_at, expires_at) "
    "VALUES ($1, $2, now(), now() + make_interval(secs => $3))";

constexpr const char forgot_send_sql[] =
    "SELECT jsonb_build_object('rateLimited', false, 'send', true, 'userId', u.id, 'recipient', u.email, "
    "                          'linkBase', $2::text, 'appName', $3::text) "
    "FROM corebank.auth_users u WHERE u.id = $1";

/*---- reset ----*/

// Columns: 1 user id, 2 used, 3 expired, 4 user ACTIVE, 5 the current hash.
constexpr const char select_reset_token_sql[] =
    "SELECT t.user_id, t.used_at IS NOT NULL, t.expires_at <= now(), u.status = 'ACTIVE', u.password_hash "
    "FROM corebank.auth_reset_tokens t JOIN corebank.auth_users u ON u.id = t.user_id "
    "WHERE t.token_hash = $1";

constexpr const char lock_user_sql[] =
    "SELECT status = 'ACTIVE', password_hash FROM corebank.auth_users WHERE id = $1 FOR UPDATE";

// 02-identity.md: a reset to the current password is refused (as a change is).
constexpr const char same_password[] = "newPassword: must differ from the current password";

// Columns: 1 used, 2 expired.
constexpr const char lock_reset_token_sql[] =
    "SELECT used_at IS NOT NULL, expires_at <= now() FROM corebank.auth_reset_tokens "
    "WHERE token_hash = $1 FOR UPDATE";

constexpr const char consume_reset_tokens_sql[] =
    "UPDATE corebank.auth_reset_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL";

constexpr const char set_password_sql[] =
    "UPDATE corebank.auth_users "
    "SET password_hash = $2, failed_attempts = 0, locked_until = NULL, updated_at = now() WHERE id = $1";

[[noreturn]] void throw_token_invalid() {
    throw core::CoreError(core::sqlstate_bad_request, reset_token_invalid);
}

std::string require_token_hash(FunctionCallInfo fcinfo, int index) {
    const std::string token_hash = args::require(args::bytea(fcinfo, index), "token_hash");
    args::check_sha256(token_hash, "token_hash");
    return token_hash;
}

}  // namespace

/* SQL function: corebank.auth_password_forgot(email text, client_id text, ip text, token_hash bytea) returns jsonb */
COREBANK_FUNCTION(auth_password_forgot) {
    const std::string email = pg::normalize_email(args::require(args::text(fcinfo, 0), "email"));
    const std::optional<std::string> client_id = args::text(fcinfo, 1);
    const std::optional<std::string> ip = args::text(fcinfo, 2);
    const std::string token_hash = require_token_hash(fcinfo, 3);
    args::check_length(email, "email", core::limits::auth::email_length_max);
    args::check_length(ip, "ip", core::limits::client_ip_length_max);
    const settings::Auth settings = settings::current();

    spi::connect();
    if (!pg::auth_rate_limiter::hit("reset", ip.value_or(""), settings.reset_rate_limit, settings.reset_rate_window_s)) {
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(R"({"rateLimited":true})"));
    }

    // An unknown or disabled clientId falls back to the tier's defaults
    // (NULL branding): forgot always answers the same.
    std::optional<std::string> link_base;
    std::optional<std::string> app_name;
    if (client_id && pg::utf8_length(*client_id) <= core::limits::auth::client_id_length_max &&
        spi::execute(select_branding_sql, {spi::Arg::text(client_id)}) == 1) {
        link_base = spi::get_text(0, 1);
        app_name = spi::get_text(0, 2);
    }

    if (spi::execute(select_active_user_by_email_sql, {spi::Arg::text(email)}) == 0) {
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(R"({"rateLimited":false,"send":false})"));
    }
    const Uuid user_id = spi::get_uuid(0, 1).value();
    spi::execute(insert_reset_token_sql,
                 {spi::Arg::bytea(token_hash), spi::Arg::uuid(user_id), spi::Arg::int4(settings.reset_token_ttl_s)});
    pg::auth_audit::record("reset_requested", user_id, std::nullopt, ip);

    const std::uint64_t rows =
        spi::execute(forgot_send_sql, {spi::Arg::uuid(user_id), spi::Arg::text(link_base), spi::Arg::text(app_name)});
    CB_CHECK(rows == 1);
    const Datum answer = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    PG_RETURN_DATUM(answer);
}

/* SQL function: corebank.auth_password_reset_begin(token_hash bytea) returns jsonb */
COREBANK_FUNCTION(auth_password_reset_begin) {
    const std::string token_hash = require_token_hash(fcinfo, 0);

    spi::connect();
    if (spi::execute(select_reset_token_sql, {spi::Arg::bytea(token_hash)}) == 0) throw_token_invalid();
    const bool used = spi::get_bool(0, 2).value();
    const bool expired = spi::get_bool(0, 3).value();
    const bool user_active = spi::get_bool(0, 4).value();
    if (used || expired || !user_active) throw_token_invalid();
    const Uuid user_id = spi::get_uuid(0, 1).value();
    const std::string answer = R"({"userId":")" + pg::uuid_to_string(user_id) + R"(","argon2":)" +
                               pg::auth_proof::params_json_for(spi::get_text(0, 5),
                                                               "user:" + pg::uuid_to_string(user_id)) +
                               "}";
    spi::finish();
    PG_RETURN_DATUM(pg::jsonb_from_literal(answer.c_str()));
}

/* SQL function: corebank.auth_password_reset_finish(token_hash bytea, new_password_hash text, new_password_proof bytea) returns void */
COREBANK_FUNCTION(auth_password_reset_finish) {
    const std::string token_hash = require_token_hash(fcinfo, 0);
    const std::string new_password_hash = args::require(args::text(fcinfo, 1), "new_password_hash");
    if (!pg::password_hash_valid(new_password_hash)) {
        args::throw_validation("new_password_hash: must be an argon2id encoded hash");
    }
    // The new password hashed under the current hash's parameters and salt
    // (as reset_begin answered them): equal to the current hash means the
    // same password.
    const std::string new_password_proof =
        pg::auth_proof::require_proof(args::bytea(fcinfo, 2), "new_password_proof");

    spi::connect();
    if (spi::execute(select_reset_token_sql, {spi::Arg::bytea(token_hash)}) == 0) throw_token_invalid();
    const Uuid user_id = spi::get_uuid(0, 1).value();

    // User first, then the token; both re-read under their locks.
    const std::uint64_t user_rows = spi::execute(lock_user_sql, {spi::Arg::uuid(user_id)});
    CB_CHECK(user_rows == 1);  // users are never deleted
    const bool user_active = spi::get_bool(0, 1).value();
    const bool same_as_current = pg::auth_proof::matches(spi::get_text(0, 2), new_password_proof);
    const std::uint64_t token_rows = spi::execute(lock_reset_token_sql, {spi::Arg::bytea(token_hash)});
    if (token_rows == 0) throw_token_invalid();  // pruned meanwhile
    const bool used = spi::get_bool(0, 1).value();
    const bool expired = spi::get_bool(0, 2).value();
    if (used || expired || !user_active) throw_token_invalid();
    if (same_as_current) args::throw_validation(same_password);

    const std::uint64_t consumed = spi::execute(consume_reset_tokens_sql, {spi::Arg::uuid(user_id)});
    CB_CHECK(consumed >= 1);  // at least the token we hold
    spi::execute(set_password_sql, {spi::Arg::uuid(user_id), spi::Arg::text(new_password_hash)});
    pg::auth_sessions::revoke_all(user_id, "password_reset");
    pg::auth_audit::record("password_reset", user_id, std::nullopt, std::nullopt);
    CB_CHECK(pg::auth_sessions::live_count(user_id) == 0);
    spi::finish();
    PG_RETURN_VOID();
}
