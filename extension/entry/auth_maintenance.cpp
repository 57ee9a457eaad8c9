// auth_maintenance.cpp: corebank.auth_maintenance, the tier's once-a-minute
// housekeeping.
//
// Prunes rows that can no longer change any answer, in bounded batches so
// one call stays cheap however far behind it is (the next call continues):
//   - access tokens past expires_at (auth_authenticate already answers
//     inactive for them; a missing jti answers the same);
//   - rate counters whose window ended (older than the longest window);
//   - reset tokens used or expired (either way they answer invalid);
//   - refresh tokens past expires_at (expired tokens answer invalid before
//     the replay check, so their used_at no longer matters);
//   - failure counts of unknown identifiers with nothing left to count, or
//     untouched for 30 days;
//   - contact claims closed (confirmed, expired, locked, replaced, lost)
//     more than 7 days ago: only a pending claim answers anything, and the
//     hourly claim limit reads the last hour; the audit keeps the history.
// Then makes sure a fresh signing key exists (auth_ensure_signing_key).
#include <algorithm>

#include "entry/entry.hpp"
#include "pg/auth_signing.hpp"
#include "pg/check.hpp"
#include "pg/settings.hpp"
#include "pg/spi.hpp"

namespace {

using namespace corebank;
namespace spi = corebank::pg::spi;

constexpr std::int32_t prune_batch_rows_max = 10000;

constexpr const char prune_access_tokens_sql[] =
    "DELETE FROM corebank.auth_access_tokens WHERE jti IN ("
    "  SELECT jti FROM corebank.auth_access_tokens WHERE expires_at < now() LIMIT $1)";

constexpr const char prune_rate_counters_sql[] =
    "DELETE FROM corebank.auth_rate_counters WHERE ctid = ANY (ARRAY("
    "  SELECT ctid FROM corebank.auth_rate_counters "
    "  WHERE window_start < now() - make_interval(secs => $2) LIMIT $1))";

constexpr const char prune_reset_tokens_sql[] =
    "DELETE FROM corebank.auth_reset_tokens WHERE token_hash IN ("
    "  SELECT token_hash FROM corebank.auth_reset_tokens "
    "  WHERE used_at IS NOT NULL OR expires_at < now() LIMIT $1)";

constexpr const char prune_refresh_tokens_sql[] =
    "DELETE FROM corebank.auth_refresh_tokens WHERE token_hash IN ("
    "  SELECT token_hash FROM corebank.auth_refresh_tokens WHERE expires_at < now() LIMIT $1)";

// A row with no failure and no live lock answers as no row does; one whose
// failures are older than login_failures_kept_days is dropped so a spray of
// made-up identifiers cannot grow the table for ever (docs/identity.md).
constexpr std::int32_t login_failures_kept_days = 30;
constexpr const char prune_login_failures_sql[] =
    "DELETE FROM corebank.auth_login_failures WHERE identifier IN ("
    "  SELECT identifier FROM corebank.auth_login_failures "
    "  WHERE (failed_attempts = 0 AND (locked_until IS NULL OR locked_until <= now())) "
    "     OR (updated_at < now() - make_interval(days => $2) AND (locked_until IS NULL OR locked_until <= now())) "
    "  LIMIT $1)";

constexpr std::int32_t contact_claims_kept_days = 7;
constexpr const char prune_contact_claims_sql[] =
    "DELETE FROM corebank.auth_contact_claims WHERE id IN ("
    "  SELECT id FROM corebank.auth_contact_claims "
    "  WHERE status <> 'PENDING' AND closed_at < now() - make_interval(days => $2) LIMIT $1)";

constexpr const char report_sql[] =
    "SELECT jsonb_build_object('accessTokensPruned', $1::bigint, 'rateCountersPruned', $2::bigint, "
    "                          'resetTokensPruned', $3::bigint, 'refreshTokensPruned', $4::bigint, "
    "                          'signingKey', $5::text)";

}  // namespace

/* SQL function: corebank.auth_maintenance() returns jsonb */
COREBANK_FUNCTION(auth_maintenance) {
    const settings::Auth settings = settings::current();
    const std::int32_t window_s_max = std::max(settings.login_rate_window_s, settings.reset_rate_window_s);
    CB_CHECK(window_s_max > 0);
    const spi::Arg batch = spi::Arg::int4(prune_batch_rows_max);

    spi::connect();
    const std::uint64_t access_tokens = spi::execute(prune_access_tokens_sql, {batch});
    const std::uint64_t rate_counters =
        spi::execute(prune_rate_counters_sql, {batch, spi::Arg::int4(window_s_max)});
    const std::uint64_t reset_tokens = spi::execute(prune_reset_tokens_sql, {batch});
    const std::uint64_t refresh_tokens = spi::execute(prune_refresh_tokens_sql, {batch});
    spi::execute(prune_login_failures_sql, {batch, spi::Arg::int4(login_failures_kept_days)});
    spi::execute(prune_contact_claims_sql, {batch, spi::Arg::int4(contact_claims_kept_days)});
    const std::string kid = pg::auth_signing::ensure_active_key(settings.signing_key_rotation_days);

    const std::uint64_t rows = spi::execute(
        report_sql, {spi::Arg::int8(static_cast<std::int64_t>(access_tokens)),
                     spi::Arg::int8(static_cast<std::int64_t>(rate_counters)),
                     spi::Arg::int8(static_cast<std::int64_t>(reset_tokens)),
                     spi::Arg::int8(static_cast<std::int64_t>(refresh_tokens)), spi::Arg::text(kid)});
    CB_CHECK(rows == 1);
    const Datum report = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    PG_RETURN_DATUM(report);
}
