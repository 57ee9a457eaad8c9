// auth_contact_reenter.cpp: corebank_internal.auth_contact_reenter, the
// proof a contact claim needs (docs/identity.md, "The current user and
// contact claims"): a claim moves the login identifier, so a stolen access
// token alone must not start one. The password is compared as
// auth_password_reenter_finish compares it (pg/auth_proof), and with TOTP
// enabled a code is checked as auth_mfa_totp_disable checks it
// (pg/auth_totp); each wrong secret is a failed login of the user
// (pg/auth_failures), so five lock the account for 30 minutes.
//
// Called only by corebank.auth_contact_claim_start, in the same statement
// that writes the claim: the app role cannot reach a claim without it.
// Outcomes that must persist (a counted failure) are returned, not raised.
#include "core/limits.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_failures.hpp"
#include "pg/auth_proof.hpp"
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

// A TOTP code is 6 digits, a recovery code 10 symbols with an optional hyphen.
constexpr std::size_t factor_code_length_max = 32;

// The same row lock, counter and lock as auth_login_finish. Columns: 1
// usable (ACTIVE and not locked), 2 failed attempts, 3 the stored hash.
constexpr const char lock_user_sql[] =
    "SELECT status = 'ACTIVE' AND NOT coalesce(locked_until > now(), false), failed_attempts, password_hash "
    "FROM corebank.auth_users WHERE id = $1 FOR UPDATE";

constexpr const char password_detail[] = R"({"reason":"reentered_password","for":"contact_claim"})";
constexpr const char factor_detail[] = R"({"reason":"second_factor","for":"contact_claim"})";

Datum outcome(const char* literal) {
    spi::finish();
    return pg::jsonb_from_literal(literal);
}

}  // namespace

/* SQL function: corebank_internal.auth_contact_reenter(user_id uuid, password_proof bytea, factor_code text, ip text) returns jsonb */
COREBANK_FUNCTION(auth_contact_reenter) {
    const Uuid user_id = args::require(args::uuid(fcinfo, 0), "user_id");
    const std::string proof = pg::auth_proof::require_proof(args::bytea(fcinfo, 1), "password_proof");
    const std::optional<std::string> factor_code = args::text(fcinfo, 2);
    args::check_length(factor_code, "factor_code", factor_code_length_max);
    const std::optional<std::string> ip = args::text(fcinfo, 3);
    args::check_length(ip, "ip", core::limits::client_ip_length_max);
    spi::connect();
    const std::uint64_t rows = spi::execute(lock_user_sql, {spi::Arg::uuid(user_id)});
    CB_CHECK(rows <= 1);
    if (rows == 0 || !spi::get_bool(0, 1).value()) return outcome(R"({"outcome":"locked"})");
    const std::int64_t failed_before = spi::get_int(0, 2).value();
    // A wrong password never spends a code (as at login).
    if (!pg::auth_proof::matches(spi::get_text(0, 3), proof)) {
        pg::auth_failures::record_user_failure(user_id, failed_before, std::nullopt, ip, password_detail);
        return outcome(R"({"outcome":"invalid"})");
    }
    if (totp::state(user_id) == totp::State::enabled) {
        // Missing after the right password: not a guess, nothing counted (as at login).
        if (!factor_code) return outcome(R"({"outcome":"mfa_required"})");
        const totp::Check check = totp::verify_either(user_id, *factor_code);
        if (check != totp::Check::ok_totp && check != totp::Check::ok_recovery) {
            pg::auth_failures::record_user_failure(user_id, failed_before, std::nullopt, ip, factor_detail);
            return outcome(R"({"outcome":"invalid"})");
        }
    }
    pg::auth_failures::clear_user_failures(user_id);
    return outcome(R"({"outcome":"ok"})");
}
