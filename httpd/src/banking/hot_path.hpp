// hot_path.hpp: what one corebankd process keeps so that a request whose API
// key and staff token it has seen recently costs one database round trip, the
// operation itself (docs/design/hot-path.md): the two caches, evicted by the
// database's notifications, and the local rate accounting, flushed once a second.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "banking/auth_cache.hpp"
#include "banking/rate_accounting.hpp"

namespace corebank::httpd::core_banking {

// The channel the database's triggers notify (core_api_key_notify,
// auth_hot_path_notify) and the tier's listener subscribes to.
inline constexpr const char* hot_path_channel = "corebank_hot_path";

// An API key's verification as core_api_key_verify answered it.
struct CachedKey {
    std::string id;
    std::set<std::string> scopes;
    std::int64_t rate_limit_per_minute = 0;
};

// A staff token's live session as auth_authenticate answered it (active),
// with the user's roles and their permissions (staff_session); evicted when
// the user's roles or any role's permissions change.
struct CachedStaff {
    std::string user_id;
    std::string session_id;
    std::string client_id;
    std::vector<std::string> roles;
    std::vector<std::string> permissions;
};

class HotPath {
public:
    static constexpr std::size_t entries_max = 10'000;
    static constexpr std::int64_t flush_interval_ms = 1000;

    // now_ms: the monotonic clock of the cache lifetimes.
    HotPath(std::int64_t ttl_ms, AuthCache<CachedKey>::Clock now_ms)
        : keys(ttl_ms, entries_max, now_ms), staff(ttl_ms, entries_max, now_ms), rates(entries_max) {}

    // One notification payload: "api_key:<id>", "session:<id>", "user:<id>"
    // or "client:<id>". Anything else empties both caches (a payload this
    // version does not know must not leave a stale answer). Evictions made.
    std::size_t apply_event(const std::string& payload);

    // The listener subscribed (again): serve from empty caches.
    void listening() {
        keys.enable();
        staff.enable();
    }
    // The listener is down: evictions could be missed, so bypass both caches.
    void deaf() {
        keys.disable();
        staff.disable();
    }

    AuthCache<CachedKey> keys;
    AuthCache<CachedStaff> staff;
    RateAccounting rates;
};

}  // namespace corebank::httpd::core_banking
