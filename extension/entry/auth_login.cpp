// auth_login.cpp: corebank.auth_login_begin and corebank.auth_login_finish,
// the two halves of a password login.
//
// The tier hashes the password with argon2id between the two calls (never in
// a backend); the database compares (core/password_proof.hpp). begin counts
// the attempt against the identifier's rate limit and hands out the stored
// hash's parameters and salt, never the hash; finish compares the tier's
// proof (the raw argon2id output) with the stored hash in constant time and
// applies the outcome, so no session can finish a login without the password:
//   - lockout: the 5th consecutive failure locks the account for 30 minutes
//     (that attempt still answers "invalid"); a success resets the counter;
//   - session cap: at most 3 live sessions; a new login revokes the oldest;
//   - an identifier no account has is counted and locked the same way in
//     begin (auth_login_failures), so lockout never reveals an account.
// Both rules hold under concurrent logins because finish locks the user row
// (SELECT .. FOR UPDATE) before reading the counter or counting sessions.
// Outcomes that must persist (a counted failure, a rate-limit hit) are
// returned as {"outcome": ...}: raising would roll them back.
#include "core/limits.hpp"
#include "core/totp.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_access_tokens.hpp"
#include "pg/auth_audit.hpp"
#include "pg/auth_clients.hpp"
#include "pg/auth_failures.hpp"
#include "pg/auth_proof.hpp"
#include "pg/auth_rate_limiter.hpp"
#include "pg/auth_sessions.hpp"
#include "pg/auth_totp.hpp"
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

/*---- begin ----*/

// Columns: 1 may proceed (status ACTIVE, or SUSPENDED: finish tells a
// suspended user so only after the right password), 2 locked (locked_until
// in the future), 3 the user id, 4 the stored hash (read here, never answered).
constexpr const char select_by_email_sql[] =
    "SELECT u.status IN ('ACTIVE', 'SUSPENDED'), coalesce(u.locked_until > now(), false), u.id::text, "
    "u.password_hash FROM corebank.auth_users u WHERE u.email = $1";

constexpr const char select_by_phone_sql[] =
    "SELECT u.status IN ('ACTIVE', 'SUSPENDED'), coalesce(u.locked_until > now(), false), u.id::text, "
    "u.password_hash FROM corebank.auth_users u WHERE u.phone_key = $1";

/*---- begin: an identifier no account has ----*/

// An unknown identifier fails like a real account with a wrong password
// (issue 13): its 5th consecutive failure "locks" it for 30 minutes, so a
// locked account and an unknown one answer alike (403 ACCOUNT_LOCKED) and the
// answer never tells whether an account exists. Counted per identifier in
// corebank.auth_login_failures, since there is no user row to hold it.
// True when the identifier is locked (the caller answers "locked"); else the
// attempt, certain to fail, is counted and locks at the threshold (that
// attempt still answers "unknown", as a real account's 5th does "invalid").
bool unknown_identifier_locked(const std::string& identifier) {
    return pg::auth_failures::count_identifier_failure(identifier).already_locked;
}

/*---- finish ----*/

// Column 5: suspended by staff (auth_user_suspend).
constexpr const char lock_user_sql[] =
    "SELECT status = 'ACTIVE', coalesce(locked_until > now(), false), failed_attempts, password_hash, "
    "status = 'SUSPENDED' FROM corebank.auth_users WHERE id = $1 FOR UPDATE";

struct FinishRequest {
    Uuid user_id;
    std::string password_proof;
    std::optional<std::string> client_id;
    std::optional<std::string> channel;
    std::optional<std::string> ip;
    std::optional<std::string> user_agent;
    std::optional<std::string> refresh_token_hash;
    // The second factor (auth_login_finish_with_factor only): at most one.
    std::optional<std::string> totp_code{};
    std::optional<std::string> recovery_code{};
};

FinishRequest read_finish_request(FunctionCallInfo fcinfo) {
    FinishRequest request{args::require(args::uuid(fcinfo, 0), "user_id"),
                          pg::auth_proof::require_proof(args::bytea(fcinfo, 1), "password_proof"),
                          args::text(fcinfo, 2),
                          args::text(fcinfo, 3),
                          args::text(fcinfo, 4),
                          args::text(fcinfo, 5),
                          args::bytea(fcinfo, 6)};
    args::check_length(request.channel, "channel", core::limits::auth::channel_length_max);
    args::check_length(request.ip, "ip", core::limits::client_ip_length_max);
    args::check_sha256(request.refresh_token_hash, "refresh_token_hash");
    return request;
}

// Makes room for one more session under the cap by revoking the oldest.
void enforce_session_cap(const Uuid& user_id) {
    const std::int64_t live = pg::auth_sessions::live_count(user_id);
    const std::int64_t excess = live - (core::limits::auth::live_sessions_per_user_max - 1);
    if (excess > 0) pg::auth_sessions::revoke_oldest(user_id, excess, "session_cap");
    CB_CHECK(pg::auth_sessions::live_count(user_id) <= core::limits::auth::live_sessions_per_user_max - 1);
}

}  // namespace

/* SQL function: corebank.auth_login_begin(identifier_kind text, identifier text, client_id text) returns jsonb */
COREBANK_FUNCTION(auth_login_begin) {
    const std::string kind = args::require(args::text(fcinfo, 0), "identifier_kind");
    const std::string identifier = args::require(args::text(fcinfo, 1), "identifier");
    const std::optional<std::string> client_id = args::text(fcinfo, 2);
    const bool by_email = kind == "email";
    if (!by_email && kind != "phone") args::throw_validation("identifier_kind: must be email or phone");
    args::check_length(identifier, "identifier", core::limits::auth::email_length_max);
    const settings::Auth settings = settings::current();

    // The rate limit counts the normalised identifier, so "A@x.com " and
    // "a@x.com" (or a phone with and without '+') share one budget.
    const std::string key = by_email ? pg::normalize_email(identifier) : pg::phone_key(identifier);

    spi::connect();
    if (!pg::auth_rate_limiter::hit("login", kind + ":" + key, settings.login_rate_limit, settings.login_rate_window_s)) {
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(R"({"outcome":"rate_limited"})"));
    }
    // Raising here rolls the hit back, but a request with a bad clientId
    // cannot log in either, so it gains nothing from the limit it escapes.
    pg::auth_clients::require_active_or_absent(client_id);

    const std::uint64_t rows =
        key.empty() ? 0 : spi::execute(by_email ? select_by_email_sql : select_by_phone_sql, {spi::Arg::text(key)});
    CB_CHECK(rows <= 1);  // email and phone_key are unique
    if (rows == 0) {
        const bool locked = !key.empty() && unknown_identifier_locked(kind + ":" + key);
        // An unknown identifier gets parameters and a stable salt like an
        // account's, so the tier spends the same argon2id time on it.
        const std::string answer =
            locked ? std::string(R"({"outcome":"locked"})")
                   : R"({"outcome":"unknown","argon2":)" +
                         pg::auth_proof::params_json_for(std::nullopt, "login:" + kind + ":" + key) + "}";
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(answer.c_str()));
    }
    const bool active = spi::get_bool(0, 1).value();
    const bool locked = spi::get_bool(0, 2).value();
    if (!active || locked) {
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(R"({"outcome":"locked"})"));
    }
    const std::string answer = R"({"outcome":"proceed","userId":")" + spi::get_text(0, 3).value() +
                               R"(","argon2":)" +
                               pg::auth_proof::params_json_for(spi::get_text(0, 4), "login:" + kind + ":" + key) +
                               "}";
    spi::finish();
    PG_RETURN_DATUM(pg::jsonb_from_literal(answer.c_str()));
}

namespace {

// Both finish functions: the proof of the password, then, for a user with
// TOTP enabled, the second factor (docs/identity.md, "Staff second factor"),
// then the session, whose amr says which factors were shown.
Datum finish_login(const FinishRequest& request) {
    const settings::Auth settings = settings::current();

    spi::connect();
    pg::auth_clients::require_active_or_absent(request.client_id);

    // The user row lock serialises every login and refresh of this user.
    const std::uint64_t rows = spi::execute(lock_user_sql, {spi::Arg::uuid(request.user_id)});
    if (rows == 0) {
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(R"({"outcome":"invalid"})"));
    }
    const bool active = spi::get_bool(0, 1).value();
    const bool locked = spi::get_bool(0, 2).value();
    const std::int64_t failed_attempts = spi::get_int(0, 3).value();
    const bool proven = pg::auth_proof::matches(spi::get_text(0, 4), request.password_proof);
    if (!active || locked) {
        // A suspended user learns of the suspension (its own message) only
        // with the right password; otherwise the answer is every locked
        // account's. Nothing is counted either way.
        const bool told_suspended = spi::get_bool(0, 5).value() && proven && !locked;
        pg::auth_audit::record("login_failed", request.user_id, request.channel, request.ip,
                               told_suspended ? R"({"reason":"suspended"})" : R"({"reason":"locked"})");
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(told_suspended ? R"({"outcome":"suspended"})"
                                                              : R"({"outcome":"locked"})"));
    }
    if (!proven) {
        pg::auth_failures::record_user_failure(request.user_id, failed_attempts, request.channel, request.ip);
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(R"({"outcome":"invalid"})"));
    }

    // After the password, so a code is never checked for someone who lacks
    // it; "mfa_required" tells that the password was right, as every two-step
    // login does (begin counted the attempt against the rate limit). A wrong
    // or used code is a failed login like a wrong password.
    const pg::auth_totp::Check factor = pg::auth_totp::verify(request.user_id, request.totp_code, request.recovery_code);
    if (factor == pg::auth_totp::Check::missing) {
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(R"({"outcome":"mfa_required"})"));
    }
    if (factor == pg::auth_totp::Check::wrong) {
        pg::auth_failures::record_user_failure(request.user_id, failed_attempts, request.channel, request.ip,
                                               R"({"reason":"second_factor"})");
        spi::finish();
        PG_RETURN_DATUM(pg::jsonb_from_literal(R"({"outcome":"invalid"})"));
    }

    if (!request.refresh_token_hash) args::throw_validation("refresh_token_hash: is required");
    pg::auth_failures::clear_user_failures(request.user_id);
    enforce_session_cap(request.user_id);
    const std::string audience = request.client_id.value_or(settings.default_audience);
    const Uuid session_id = pg::auth_sessions::open(pg::auth_sessions::NewSession{
        request.user_id, request.client_id, audience, request.channel, request.ip, request.user_agent,
        request.refresh_token_hash.value(), settings.refresh_token_ttl_s, pg::auth_totp::amr_of(factor)});
    CB_CHECK(pg::auth_sessions::live_count(request.user_id) <= core::limits::auth::live_sessions_per_user_max);

    const pg::auth_access_tokens::Issued issued =
        pg::auth_access_tokens::issue_for_user(request.user_id, session_id, audience, settings);
    pg::auth_audit::record("login_ok", request.user_id, request.channel, request.ip);
    const Datum block = pg::auth_access_tokens::token_block_for_return(issued, request.user_id, session_id,
                                                                  pg::auth_access_tokens::BlockShape::outcome_ok);
    spi::finish();
    PG_RETURN_DATUM(block);
}

}  // namespace

/* SQL function: corebank.auth_login_finish(user_id uuid, password_proof bytea, client_id text, channel text, ip text, user_agent text, refresh_token_hash bytea) returns jsonb */
// Without a second factor: a user with TOTP enabled answers "mfa_required".
COREBANK_FUNCTION(auth_login_finish) { return finish_login(read_finish_request(fcinfo)); }

/* SQL function: corebank.auth_login_finish_with_factor(user_id uuid, password_proof bytea, client_id text, channel text, ip text, user_agent text, refresh_token_hash bytea, totp_code text, recovery_code text) returns jsonb */
COREBANK_FUNCTION(auth_login_finish_with_factor) {
    FinishRequest request = read_finish_request(fcinfo);
    request.totp_code = args::text(fcinfo, 7);
    request.recovery_code = args::text(fcinfo, 8);
    args::check_length(request.totp_code, "totp_code", static_cast<std::size_t>(core::totp::digits));
    args::check_length(request.recovery_code, "recovery_code", 2 * core::totp::recovery_code_length);
    if (request.totp_code && request.recovery_code) args::throw_validation("totp_code: send a TOTP code or a recovery code, not both");
    return finish_login(request);
}
