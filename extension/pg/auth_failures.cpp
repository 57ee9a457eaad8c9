#include "pg/auth_failures.hpp"

#include "core/limits.hpp"
#include "pg/auth_audit.hpp"
#include "pg/check.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::auth_failures {

namespace {

namespace spi = corebank::pg::spi;

constexpr int failures_before_lock = core::limits::auth::failed_logins_before_lockout;
constexpr int lock_minutes = core::limits::auth::lockout_minutes;

constexpr const char set_user_failures_sql[] =
    "UPDATE corebank.auth_users SET failed_attempts = $2, updated_at = now() WHERE id = $1";

constexpr const char lock_user_sql[] =
    "UPDATE corebank.auth_users "
    "SET failed_attempts = 0, locked_until = now() + make_interval(mins => $2), updated_at = now() "
    "WHERE id = $1";

constexpr const char clear_user_sql[] =
    "UPDATE corebank.auth_users SET failed_attempts = 0, locked_until = NULL, updated_at = now() "
    "WHERE id = $1 AND (failed_attempts <> 0 OR locked_until IS NOT NULL)";

constexpr const char lock_or_create_identifier_sql[] =
    "INSERT INTO corebank.auth_login_failures AS f (identifier) VALUES ($1) "
    "ON CONFLICT (identifier) DO UPDATE SET failed_attempts = f.failed_attempts "
    "RETURNING f.failed_attempts, coalesce(f.locked_until > now(), false)";

constexpr const char set_identifier_failures_sql[] =
    "UPDATE corebank.auth_login_failures SET failed_attempts = $2, locked_until = NULL, updated_at = now() "
    "WHERE identifier = $1";

constexpr const char lock_identifier_sql[] =
    "UPDATE corebank.auth_login_failures "
    "SET failed_attempts = 0, locked_until = now() + make_interval(mins => $2), updated_at = now() "
    "WHERE identifier = $1";

}  // namespace

void record_user_failure(const Uuid& user_id, std::int64_t failed_before, const std::optional<std::string>& channel,
                         const std::optional<std::string>& ip, const char* detail_json) {
    CB_CHECK(failed_before >= 0 && failed_before < failures_before_lock);
    auth_audit::record("login_failed", user_id, channel, ip, detail_json);
    if (failed_before + 1 >= failures_before_lock) {
        spi::execute(lock_user_sql, {spi::Arg::uuid(user_id), spi::Arg::int4(lock_minutes)});
        auth_audit::record("locked", user_id, channel, ip, detail_json);
    } else {
        spi::execute(set_user_failures_sql,
                     {spi::Arg::uuid(user_id), spi::Arg::int4(static_cast<std::int32_t>(failed_before + 1))});
    }
}

void clear_user_failures(const Uuid& user_id) { spi::execute(clear_user_sql, {spi::Arg::uuid(user_id)}); }

IdentifierFailure count_identifier_failure(const std::string& identifier) {
    const std::uint64_t rows = spi::execute(lock_or_create_identifier_sql, {spi::Arg::text(identifier)});
    CB_CHECK(rows == 1);
    const std::int64_t failed_before = spi::get_int(0, 1).value();
    if (spi::get_bool(0, 2).value()) return {true, false};
    CB_CHECK(failed_before >= 0 && failed_before < failures_before_lock);
    const bool locks = failed_before + 1 >= failures_before_lock;
    if (locks) {
        spi::execute(lock_identifier_sql, {spi::Arg::text(identifier), spi::Arg::int4(lock_minutes)});
    } else {
        spi::execute(set_identifier_failures_sql, {spi::Arg::text(identifier),
                                                   spi::Arg::int4(static_cast<std::int32_t>(failed_before + 1))});
    }
    return {false, locks};
}

}  // namespace corebank::pg::auth_failures
