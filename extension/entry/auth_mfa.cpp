// auth_mfa.cpp: the staff second factor's SQL functions (docs/identity.md,
// "Staff second factor"): TOTP enrolment and confirmation, turning it off,
// new recovery codes, enrolment at staff creation, and the pure code
// arithmetic for tests.
//
// Each locks the user row first (SELECT .. FOR UPDATE), as login, refresh and
// the re-entered password do, so a code is never accepted twice by two
// concurrent calls. A wrong code to turn the factor off or to get new
// recovery codes is a failed login of the user (pg/auth_failures): a stolen
// access token cannot guess the factor without locking the account.
// Outcomes that must persist (a counted failure) are returned, not raised.
#include "core/errors.hpp"
#include "core/totp.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_audit.hpp"
#include "pg/auth_failures.hpp"
#include "pg/auth_totp.hpp"
#include "pg/check.hpp"
#include "pg/datums.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

namespace {

using namespace corebank;
using corebank::pg::Uuid;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace totp = corebank::pg::auth_totp;

// Issuer labels and codes are short; longer input is refused before any work.
constexpr std::size_t issuer_length_max = 100;
constexpr std::size_t code_length_max = 32;

// Columns: 1 usable (ACTIVE and not locked), 2 failed attempts.
constexpr const char lock_user_sql[] =
    "SELECT status = 'ACTIVE' AND NOT coalesce(locked_until > now(), false), failed_attempts "
    "FROM corebank.auth_users WHERE id = $1 FOR UPDATE";

constexpr const char enrolment_json_sql[] = "SELECT jsonb_build_object('secret', $1::text, 'otpauthUri', $2::text)";

constexpr const char codes_json_sql[] =
    "SELECT jsonb_build_object('outcome', 'ok', 'recoveryCodes', to_jsonb($1::text[]))";

constexpr const char factor_detail[] = R"({"reason":"second_factor"})";

Datum outcome(const char* literal) {
    spi::finish();
    return pg::jsonb_from_literal(literal);
}

Datum json_for_return(const char* sql, std::initializer_list<spi::Arg> values) {
    CB_CHECK(spi::execute(sql, values) == 1);
    const Datum result = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    return result;
}

struct LockedUser {
    bool usable;
    std::int64_t failed_attempts;
};

// The user row, locked; a user that does not exist is an internal error (the
// tier passes the id of a verified token).
LockedUser lock_user(const Uuid& user_id) {
    if (spi::execute(lock_user_sql, {spi::Arg::uuid(user_id)}) != 1)
        throw core::CoreError(core::sqlstate_not_found, "User not found");
    return LockedUser{spi::get_bool(0, 1).value(), spi::get_int(0, 2).value()};
}

std::string read_code(FunctionCallInfo fcinfo, int index) {
    std::string code = args::require(args::text(fcinfo, index), "code");
    args::check_length(code, "code", code_length_max);
    return code;
}

Datum enrolment_for_return(const totp::Enrolment& enrolment) {
    return json_for_return(enrolment_json_sql,
                           {spi::Arg::text(enrolment.secret_base32), spi::Arg::text(enrolment.otpauth_uri)});
}

}  // namespace

/* SQL function: corebank.auth_mfa_totp_begin(user_id uuid, issuer text) returns jsonb */
COREBANK_FUNCTION(auth_mfa_totp_begin) {
    const Uuid user_id = args::require(args::uuid(fcinfo, 0), "user_id");
    const std::string issuer = args::require(args::text(fcinfo, 1), "issuer");
    args::check_length(issuer, "issuer", issuer_length_max);
    if (issuer.empty()) args::throw_validation("issuer: must not be empty");
    spi::connect();
    lock_user(user_id);
    if (totp::state(user_id) == totp::State::enabled)
        throw core::CoreError(core::sqlstate_conflict,
                              "Two-factor authentication is already enabled; turn it off first to enrol again");
    return enrolment_for_return(totp::enrol(user_id, issuer, false));
}

/* SQL function: corebank.auth_mfa_totp_confirm(user_id uuid, code text) returns jsonb */
COREBANK_FUNCTION(auth_mfa_totp_confirm) {
    const Uuid user_id = args::require(args::uuid(fcinfo, 0), "user_id");
    const std::string code = read_code(fcinfo, 1);
    if (!core::totp::is_code_format(code)) args::throw_validation("code: must be 6 digits");
    spi::connect();
    lock_user(user_id);
    const totp::State state = totp::state(user_id);
    if (state == totp::State::enabled)
        throw core::CoreError(core::sqlstate_conflict, "Two-factor authentication is already enabled");
    if (state == totp::State::none)
        throw core::CoreError(core::sqlstate_conflict,
                              "There is no enrolment to confirm; start one with POST /auth/mfa/totp");
    // The pending secret was shown to this caller a moment ago: a wrong code
    // is a typing or clock problem, not a guess at anything secret.
    if (!totp::confirm(user_id, code))
        args::throw_validation("code: does not match the authenticator; check its clock and enter the current code");
    const std::vector<std::string> codes = totp::replace_recovery_codes(user_id);
    pg::auth_audit::record("mfa_enabled", user_id, std::nullopt, std::nullopt);
    return json_for_return(codes_json_sql, {spi::Arg::text_array(codes)});
}

/* SQL function: corebank.auth_mfa_totp_disable(user_id uuid, code text) returns jsonb */
COREBANK_FUNCTION(auth_mfa_totp_disable) {
    const Uuid user_id = args::require(args::uuid(fcinfo, 0), "user_id");
    const std::string code = read_code(fcinfo, 1);
    spi::connect();
    const LockedUser user = lock_user(user_id);
    if (!user.usable) return outcome(R"({"outcome":"locked"})");
    if (totp::roles_need_factor(user_id))
        throw core::CoreError(core::sqlstate_forbidden,
                              "Your roles require a second factor (staff_mfa_roles); it cannot be turned off");
    if (totp::state(user_id) != totp::State::enabled)
        throw core::CoreError(core::sqlstate_conflict, "Two-factor authentication is not enabled");
    const totp::Check check = totp::verify_either(user_id, code);
    if (check != totp::Check::ok_totp && check != totp::Check::ok_recovery) {
        pg::auth_failures::record_user_failure(user_id, user.failed_attempts, std::nullopt, std::nullopt, factor_detail);
        return outcome(R"({"outcome":"invalid"})");
    }
    pg::auth_failures::clear_user_failures(user_id);
    totp::remove(user_id);
    pg::auth_audit::record("mfa_disabled", user_id, std::nullopt, std::nullopt);
    return outcome(R"({"outcome":"ok"})");
}

/* SQL function: corebank.auth_mfa_recovery_codes(user_id uuid, code text) returns jsonb */
COREBANK_FUNCTION(auth_mfa_recovery_codes) {
    const Uuid user_id = args::require(args::uuid(fcinfo, 0), "user_id");
    const std::string code = read_code(fcinfo, 1);
    spi::connect();
    const LockedUser user = lock_user(user_id);
    if (!user.usable) return outcome(R"({"outcome":"locked"})");
    if (totp::state(user_id) != totp::State::enabled)
        throw core::CoreError(core::sqlstate_conflict, "Two-factor authentication is not enabled");
    const totp::Check check = totp::verify_either(user_id, code);
    if (check != totp::Check::ok_totp && check != totp::Check::ok_recovery) {
        pg::auth_failures::record_user_failure(user_id, user.failed_attempts, std::nullopt, std::nullopt, factor_detail);
        return outcome(R"({"outcome":"invalid"})");
    }
    pg::auth_failures::clear_user_failures(user_id);
    const std::vector<std::string> codes = totp::replace_recovery_codes(user_id);
    pg::auth_audit::record("mfa_recovery_codes", user_id, std::nullopt, std::nullopt);
    return json_for_return(codes_json_sql, {spi::Arg::text_array(codes)});
}

/* SQL function: corebank.auth_mfa_staff_enrol(user_id uuid, issuer text) returns jsonb */
// ./corebank staff create, in the statement that creates the user: when the
// roles meet corebank.staff_mfa_roles the secret is made and enabled at once
// (so the first login already needs a code), else NULL.
COREBANK_FUNCTION(auth_mfa_staff_enrol) {
    const Uuid user_id = args::require(args::uuid(fcinfo, 0), "user_id");
    const std::string issuer = args::require(args::text(fcinfo, 1), "issuer");
    args::check_length(issuer, "issuer", issuer_length_max);
    if (issuer.empty()) args::throw_validation("issuer: must not be empty");
    spi::connect();
    lock_user(user_id);
    if (!totp::roles_need_factor(user_id)) {
        spi::finish();
        PG_RETURN_NULL();
    }
    if (totp::state(user_id) == totp::State::enabled)
        throw core::CoreError(core::sqlstate_conflict, "Two-factor authentication is already enabled");
    const totp::Enrolment enrolment = totp::enrol(user_id, issuer, true);
    pg::auth_audit::record("mfa_enabled", user_id, std::nullopt, std::nullopt, R"({"staff":true})");
    return enrolment_for_return(enrolment);
}

/* SQL function: corebank_internal.auth_totp_code(secret_base32 text, step integer) returns text */
// The code of a step under a given key: pure arithmetic on a key the caller
// already holds (pgTAP computes the codes of its own enrolments with it).
COREBANK_FUNCTION(auth_totp_code) {
    const std::string secret = args::require(args::text(fcinfo, 0), "secret_base32");
    args::check_length(secret, "secret_base32", code_length_max * 4);
    const std::optional<std::int32_t> step = args::int4(fcinfo, 1);
    const std::optional<std::string> key = core::totp::base32_decode(secret);
    if (!key || key->empty()) args::throw_validation("secret_base32: must be base32");
    PG_RETURN_DATUM(pg::text_datum(core::totp::code_at(*key, args::require(step, "step"))));
}
