// auth_rate_limiter.hpp: fixed-window counters in corebank.auth_rate_counters.
//
// A hit is counted with one INSERT .. ON CONFLICT DO UPDATE, which is atomic
// under concurrency: any number of tier processes share one count. The window
// containing now() starts at a multiple of window_s since the epoch. Callers
// must let the count persist: they return an outcome instead of raising.
#pragma once

#include <cstdint>
#include <string>

namespace corebank::pg::auth_rate_limiter {

inline constexpr std::size_t bucket_length_max = 32;
// Bytes: an identifier of 254 characters is at most 1016 bytes, plus its kind.
inline constexpr std::size_t key_length_max = 1024;

// Counts one hit for (bucket, key) and returns true while the hits in the
// current window are at most `limit` (allowed), false once over it.
bool hit(const std::string& bucket, const std::string& key, std::int32_t limit, std::int32_t window_s);

}  // namespace corebank::pg::auth_rate_limiter
