// auth_guessing.cpp: every secret guess is counted (issue 13, "online
// guessing"): OAuth client authentication (/oauth/token, /oauth/introspect)
// and the password re-entered by /auth/password/change and /auth/deactivate.
//
// Like login, each check has two halves around the tier's argon2id hashing
// (never in a backend): begin answers "locked" (or "rate_limited") before any
// hashing, else the stored hash's parameters and salt (never the hash);
// finish compares the tier's proof with the stored hash in constant time
// (core/password_proof.hpp) and applies the database's own outcome.
//
// Clients: failures are counted per client id in corebank.auth_login_failures
// under 'client:<id>', for ids no client has as well, so the answers never
// tell whether a client exists; the 5th consecutive failure locks the id for
// 30 minutes (the login numbers, core/limits.hpp); a success resets the count.
//
// Re-entered passwords: a wrong one is a failed login of that user (the same
// auth_users counter and lock as auth_login_finish), a locked user gets
// "locked" as login does, and begin counts against the login rate limit
// (settings login_rate_limit per login_rate_window_s) per user.
//
// The counts live in the database so every tier process shares them, and
// outcomes that must persist are returned, never raised (raising would roll
// the count back).
#include "core/limits.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_audit.hpp"
#include "pg/auth_failures.hpp"
#include "pg/auth_proof.hpp"
#include "pg/auth_rate_limiter.hpp"
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

/*---- clients ----*/

std::string read_client_id(FunctionCallInfo fcinfo) {
    const std::string client_id = args::require(args::text(fcinfo, 0), "client_id");
    if (client_id.empty()) args::throw_validation("client_id: must not be empty");
    args::check_length(client_id, "client_id", core::limits::auth::client_id_length_max);
    return client_id;
}

constexpr const char client_locked_sql[] =
    "SELECT coalesce(locked_until > now(), false) FROM corebank.auth_login_failures WHERE identifier = $1";

constexpr const char select_client_hash_sql[] =
    "SELECT c.secret_hash FROM corebank.auth_oauth_clients c WHERE c.client_id = $1";

// Columns: 1 the "proceed" answer: status, scopes, audiences (whose user
// tokens the client may introspect; empty: any) and $2, the hash's
// parameters and salt.
constexpr const char client_proceed_sql[] =
    "SELECT jsonb_build_object('outcome', 'proceed', 'clientId', c.client_id, 'status', c.status, "
    "                          'scopes', to_jsonb(c.scopes), 'audiences', to_jsonb(c.audiences), "
    "                          'argon2', $2::jsonb) "
    "FROM corebank.auth_oauth_clients c WHERE c.client_id = $1";

// The stored secret hash of `client_id`, or nullopt for an id no client has.
std::optional<std::string> client_secret_hash(const std::string& client_id) {
    if (spi::execute(select_client_hash_sql, {spi::Arg::text(client_id)}) == 0) return std::nullopt;
    return spi::get_text(0, 1);
}

// During a rotation's overlap (auth_client_admin_rotate) the previous hash
// shares the current one's parameters and salt, so begin's one answer and
// the tier's one proof test both; NULL outside an overlap.
constexpr const char select_client_previous_hash_sql[] =
    "SELECT c.previous_secret_hash FROM corebank.auth_oauth_clients c "
    "WHERE c.client_id = $1 AND c.previous_secret_expires_at > now()";

// True when `proof` proves the current secret or, during an overlap, the
// previous one: both are compared every time (constant time, no early exit
// that would time which one matched).
bool client_proof_matches(const std::string& client_id, const std::string& proof) {
    const bool current = pg::auth_proof::matches(client_secret_hash(client_id), proof);
    std::optional<std::string> previous;
    if (spi::execute(select_client_previous_hash_sql, {spi::Arg::text(client_id)}) == 1) previous = spi::get_text(0, 1);
    const bool earlier = pg::auth_proof::matches(previous, proof);
    return current | earlier;
}

// A success reads the count under the row lock (no row: nothing to reset).
constexpr const char lock_count_sql[] =
    "SELECT coalesce(locked_until > now(), false) FROM corebank.auth_login_failures "
    "WHERE identifier = $1 FOR UPDATE";

constexpr const char reset_count_sql[] =
    "UPDATE corebank.auth_login_failures SET failed_attempts = 0, locked_until = NULL, updated_at = now() "
    "WHERE identifier = $1 AND (failed_attempts <> 0 OR locked_until IS NOT NULL)";

constexpr const char client_exists_sql[] = "SELECT 1 FROM corebank.auth_oauth_clients WHERE client_id = $1";

// A wrong secret for `client_id`: counted, and the id locked at the
// threshold. Returns false when it was already locked (nothing counted).
bool count_client_failure(const std::string& client_id) {
    const auto counted = pg::auth_failures::count_identifier_failure("client:" + client_id);
    if (counted.already_locked) return false;
    // Only a real client has an audit trail; made-up ids would flood it.
    if (spi::execute(client_exists_sql, {spi::Arg::text(client_id)}) == 1) {
        pg::auth_audit::record_for_client("login_failed", client_id);
        if (counted.locks_now) pg::auth_audit::record_for_client("locked", client_id);
    }
    return true;
}

/*---- re-entered passwords ----*/

constexpr const char select_user_sql[] =
    "SELECT u.status = 'ACTIVE' AND NOT coalesce(u.locked_until > now(), false), u.password_hash "
    "FROM corebank.auth_users u WHERE u.id = $1";

// The same row lock, counter and lock as auth_login_finish.
constexpr const char lock_user_sql[] =
    "SELECT status = 'ACTIVE' AND NOT coalesce(locked_until > now(), false), failed_attempts, password_hash "
    "FROM corebank.auth_users WHERE id = $1 FOR UPDATE";

constexpr const char reentered_detail[] = R"({"reason":"reentered_password"})";

Datum outcome(const char* literal) {
    spi::finish();
    return pg::jsonb_from_literal(literal);
}

}  // namespace

/* SQL function: corebank.auth_client_auth_begin(client_id text) returns jsonb */
COREBANK_FUNCTION(auth_client_auth_begin) {
    const std::string client_id = read_client_id(fcinfo);
    spi::connect();
    const std::uint64_t lock_rows = spi::execute(client_locked_sql, {spi::Arg::text("client:" + client_id)});
    if (lock_rows == 1 && spi::get_bool(0, 1).value()) return outcome(R"({"outcome":"locked"})");
    // An unknown id proceeds too, with parameters and a stable salt of its
    // own: the tier spends the same argon2id time, and finish counts it.
    const std::optional<std::string> stored = client_secret_hash(client_id);
    const std::string argon2 = pg::auth_proof::params_json_for(stored, "client:" + client_id);
    if (!stored) {
        const std::string answer = R"({"outcome":"proceed","argon2":)" + argon2 + "}";
        return outcome(answer.c_str());
    }
    const std::uint64_t rows = spi::execute(client_proceed_sql, {spi::Arg::text(client_id), spi::Arg::text(argon2)});
    CB_CHECK(rows == 1);
    const Datum proceed = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    return proceed;
}

/* SQL function: corebank.auth_client_auth_finish(client_id text, secret_proof bytea) returns jsonb */
COREBANK_FUNCTION(auth_client_auth_finish) {
    const std::string client_id = read_client_id(fcinfo);
    const std::string proof = pg::auth_proof::require_proof(args::bytea(fcinfo, 1), "secret_proof");
    const std::string key = "client:" + client_id;
    spi::connect();
    if (!client_proof_matches(client_id, proof)) {
        return outcome(count_client_failure(client_id) ? R"({"outcome":"invalid"})" : R"({"outcome":"locked"})");
    }
    // A lock taken by concurrent failures while this secret was verified wins.
    const std::uint64_t rows = spi::execute(lock_count_sql, {spi::Arg::text(key)});
    if (rows == 1 && spi::get_bool(0, 1).value()) return outcome(R"({"outcome":"locked"})");
    if (rows == 1) spi::execute(reset_count_sql, {spi::Arg::text(key)});
    return outcome(R"({"outcome":"ok"})");
}

/* SQL function: corebank.auth_password_reenter_begin(user_id uuid) returns jsonb */
COREBANK_FUNCTION(auth_password_reenter_begin) {
    const Uuid user_id = args::require(args::uuid(fcinfo, 0), "user_id");
    const settings::Auth settings = settings::current();
    spi::connect();
    if (!pg::auth_rate_limiter::hit("reenter", "user:" + pg::uuid_to_string(user_id), settings.login_rate_limit,
                                    settings.login_rate_window_s))
        return outcome(R"({"outcome":"rate_limited"})");
    const std::uint64_t rows = spi::execute(select_user_sql, {spi::Arg::uuid(user_id)});
    CB_CHECK(rows <= 1);
    if (rows == 0 || !spi::get_bool(0, 1).value()) return outcome(R"({"outcome":"locked"})");
    const std::string answer = R"({"outcome":"proceed","argon2":)" +
                               pg::auth_proof::params_json_for(spi::get_text(0, 2),
                                                               "user:" + pg::uuid_to_string(user_id)) +
                               "}";
    return outcome(answer.c_str());
}

/* SQL function: corebank.auth_password_reenter_finish(user_id uuid, password_proof bytea, ip text) returns jsonb */
COREBANK_FUNCTION(auth_password_reenter_finish) {
    const Uuid user_id = args::require(args::uuid(fcinfo, 0), "user_id");
    const std::string proof = pg::auth_proof::require_proof(args::bytea(fcinfo, 1), "password_proof");
    const std::optional<std::string> ip = args::text(fcinfo, 2);
    args::check_length(ip, "ip", core::limits::client_ip_length_max);
    spi::connect();
    // The user row lock serialises this with login and refresh of the user.
    const std::uint64_t rows = spi::execute(lock_user_sql, {spi::Arg::uuid(user_id)});
    CB_CHECK(rows <= 1);
    if (rows == 0 || !spi::get_bool(0, 1).value()) return outcome(R"({"outcome":"locked"})");
    if (!pg::auth_proof::matches(spi::get_text(0, 3), proof)) {
        pg::auth_failures::record_user_failure(user_id, spi::get_int(0, 2).value(), std::nullopt, ip, reentered_detail);
        return outcome(R"({"outcome":"invalid"})");
    }
    pg::auth_failures::clear_user_failures(user_id);
    return outcome(R"({"outcome":"ok"})");
}
