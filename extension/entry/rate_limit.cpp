// rate_limit.cpp: corebank_internal.rate_hit, the SQL face of the
// fixed-window rate limiter (pg/auth_rate_limiter.hpp) for SQL-language callers.
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_rate_limiter.hpp"
#include "pg/spi.hpp"

namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace auth_rate_limiter = corebank::pg::auth_rate_limiter;

// True while the hits of the current window are within the limit.
/* SQL function: corebank_internal.rate_hit(bucket text, key text, hit_limit int, window_s int) returns bool */
COREBANK_FUNCTION(rate_hit) {
    const std::string bucket = args::require(args::text(fcinfo, 0), "bucket");
    const std::string key = args::require(args::text(fcinfo, 1), "key");
    const std::int32_t limit = args::require(args::int4(fcinfo, 2), "hit_limit");
    const std::int32_t window_s = args::require(args::int4(fcinfo, 3), "window_s");
    if (bucket.empty() || bucket.size() > auth_rate_limiter::bucket_length_max) {
        args::throw_validation("bucket: must be 1 to 32 bytes");
    }
    if (key.size() > auth_rate_limiter::key_length_max) args::throw_validation("key: must be at most 1024 bytes");
    if (limit < 1) args::throw_validation("hit_limit: must be positive");
    if (window_s < 1) args::throw_validation("window_s: must be positive");

    spi::connect();
    const bool allowed = auth_rate_limiter::hit(bucket, key, limit, window_s);
    spi::finish();
    PG_RETURN_BOOL(allowed);
}
