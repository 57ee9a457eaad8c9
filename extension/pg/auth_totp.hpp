// auth_totp.hpp: the staff second factor in the database (needs SPI
// connected): TOTP secrets sealed under the root key, the last accepted step
// per user, recovery codes stored as hashes, and whether a user's roles need
// the factor (docs/identity.md, "Staff second factor").
//
// The secret is 20 random bytes made here, sealed (core/seal.hpp, purpose
// "totp_secret", the user id as associated data) into
// corebank.auth_mfa_totp.secret_sealed: a dump, a backup or a replica's files
// hold nothing that computes a code. It leaves the database once, in the
// enrolment answer. Callers hold the user's row lock (SELECT .. FOR UPDATE on
// auth_users), which serialises two uses of one code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pg/values.hpp"

namespace corebank::pg::auth_totp {

struct Enrolment {
    std::string secret_base32;
    std::string otpauth_uri;
};

// Makes a new secret for the user, replacing a pending one: pending (enabled
// at confirmation) or, with enable_now, enabled at once (staff create).
// The caller has checked that no enabled secret exists.
Enrolment enrol(const Uuid& user_id, const std::string& issuer, bool enable_now);

// Whether the user has a secret, and whether it is enabled.
enum class State { none, pending, enabled };
State state(const Uuid& user_id);

// A pending secret's confirmation: true when `code` matches it (the step is
// then used and the secret enabled).
bool confirm(const Uuid& user_id, const std::string& code);

// The second factor presented at login or to change the factor itself.
enum class Check {
    not_enrolled,  // no enabled secret: there is nothing to check
    missing,       // enabled, and neither a TOTP code nor a recovery code came
    wrong,         // a code came and did not match (or was used already)
    ok_totp,       // a TOTP code of a step after the last accepted one: now used
    ok_recovery,   // an unused recovery code: now used
};
Check verify(const Uuid& user_id, const std::optional<std::string>& totp_code,
             const std::optional<std::string>& recovery_code);

// The session's amr (RFC 8176) after a login whose second factor was
// `check`: {"pwd"} without one, {"pwd","otp","mfa"} after a TOTP code,
// {"pwd","mfa"} after a recovery code (no RFC 8176 value names those).
std::vector<std::string> amr_of(Check check);

// verify() of one `code` field: six digits are a TOTP code, anything else a
// recovery code.
Check verify_either(const Uuid& user_id, const std::string& code);

// A new set of recovery codes replacing the old one; returns them grouped
// for display ("abcde-fghjk"). Only their SHA-256 is stored.
std::vector<std::string> replace_recovery_codes(const Uuid& user_id);

// Drops the user's secret and recovery codes.
void remove(const Uuid& user_id);

// Whether the user holds a role named in corebank.staff_mfa_roles.
bool roles_need_factor(const Uuid& user_id);

}  // namespace corebank::pg::auth_totp
