// auth_rate_limiter.cpp: see auth_rate_limiter.hpp.
#include "pg/auth_rate_limiter.hpp"

#include "pg/check.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::auth_rate_limiter {

namespace {

// LEAST keeps a flood from overflowing the int counter: past the limit the
// exact number no longer matters.
constexpr const char count_hit_sql[] =
    "INSERT INTO corebank.auth_rate_counters AS counter (bucket, key, window_start, hits) "
    "VALUES ($1, $2, to_timestamp((floor(extract(epoch FROM now()) / $3) * $3)::double precision), 1) "
    "ON CONFLICT (bucket, key, window_start) "
    "DO UPDATE SET hits = least(counter.hits, 2147483646) + 1 "
    "RETURNING hits";

}  // namespace

bool hit(const std::string& bucket, const std::string& key, std::int32_t limit, std::int32_t window_s) {
    CB_CHECK(!bucket.empty() && bucket.size() <= bucket_length_max);
    CB_CHECK(key.size() <= key_length_max);
    CB_CHECK(limit > 0);
    CB_CHECK(window_s > 0);

    const std::uint64_t rows = spi::execute(
        count_hit_sql, {spi::Arg::text(bucket), spi::Arg::text(key), spi::Arg::int4(window_s)});
    CB_CHECK(rows == 1);
    const std::int64_t hits = spi::get_int(0, 1).value_or(0);
    CB_CHECK(hits >= 1);
    return hits <= limit;
}

}  // namespace corebank::pg::auth_rate_limiter
