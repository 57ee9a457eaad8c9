// auth_failures.hpp: consecutive failed secrets and the 30-minute lock they
// earn (core/limits.hpp: failed_logins_before_lockout, lockout_minutes), in
// one place for every check that counts them: login, re-entered passwords,
// OAuth client secrets (entry/auth_login.cpp, entry/auth_guessing.cpp).
//
// Two kinds of counter: a user's (auth_users.failed_attempts and
// locked_until, read by the caller under the user's row lock), and an
// identifier's in corebank.auth_login_failures ('email:..', 'phone:..',
// 'client:..'), for secrets with no user row behind them, so that an unknown
// identifier locks exactly as a real one does. Callers let the counts
// persist: they return an outcome instead of raising.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pg/values.hpp"

namespace corebank::pg::auth_failures {

// One more failure of a user whose count before it was `failed_before` (read
// under the user's row lock): audited as login_failed (with `detail_json`),
// and at the threshold the account is locked (audited as locked).
void record_user_failure(const Uuid& user_id, std::int64_t failed_before, const std::optional<std::string>& channel,
                         const std::optional<std::string>& ip, const char* detail_json = nullptr);

// A success: the user's count and lock are cleared.
void clear_user_failures(const Uuid& user_id);

struct IdentifierFailure {
    bool already_locked;  // nothing was counted
    bool locks_now;       // this failure reached the threshold and locked it
};

// One more failure of `identifier`, unless it is locked already. The row is
// created or locked in one statement, so a concurrent prune
// (auth_maintenance) cannot leave the count without a row.
IdentifierFailure count_identifier_failure(const std::string& identifier);

}  // namespace corebank::pg::auth_failures
