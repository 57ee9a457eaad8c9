// auth_cache.hpp: a process-local cache of authentication answers (an API
// key's verification, a staff token's session), each kept for a few seconds
// and evicted at once by tag when the database announces a change
// (docs/design/hot-path.md).
//
// Locking: one mutex guards the map, the generation and the enabled flag.
// Every method takes it; none calls out while holding it.
//
// An answer is stored once as an immutable shared value: a hit hands out a
// reference (one atomic increment), not a copy of the key's scopes or the
// member's roles and permissions, on every request of the hot path.
//
// The generation closes the race between a worker that read an answer from
// the database and the eviction of that answer: a worker takes generation()
// BEFORE its query and put() stores the answer only if no eviction, clear()
// or disable() happened since. A disabled cache (the listener connection is
// down, so evictions could be missed) answers nothing and stores nothing.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace corebank::httpd::core_banking {

template <typename Value>
class AuthCache {
public:
    using Clock = std::function<std::int64_t()>;  // milliseconds, monotonic

    AuthCache(std::int64_t ttl_ms, std::size_t entries_max, Clock now_ms)
        : ttl_ms_(ttl_ms), entries_max_(entries_max), now_ms_(std::move(now_ms)) {
        assert(ttl_ms_ > 0);
        assert(entries_max_ > 0);
    }

    std::uint64_t generation() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return generation_;
    }

    bool enabled() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return enabled_;
    }

    // The live answer for key; null when absent, expired or disabled.
    std::shared_ptr<const Value> get(const std::string& key) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!enabled_) return nullptr;
        const auto found = entries_.find(key);
        if (found == entries_.end()) return nullptr;
        if (now_ms_() >= found->second.expires_at_ms) {
            entries_.erase(found);
            return nullptr;
        }
        assert(found->second.value != nullptr);
        return found->second.value;
    }

    // Stores an answer read after generation() returned `generation_seen`.
    // False (nothing stored) when something was evicted since, or disabled.
    bool put(const std::string& key, std::shared_ptr<const Value> value, std::vector<std::string> tags,
             std::uint64_t generation_seen) {
        assert(value != nullptr);
        std::lock_guard<std::mutex> lock(mutex_);
        if (!enabled_ || generation_seen != generation_) return false;
        const std::int64_t now = now_ms_();
        if (entries_.size() >= entries_max_ && entries_.count(key) == 0) drop_expired(now);
        // Still full of live answers: start over rather than grow without bound.
        if (entries_.size() >= entries_max_ && entries_.count(key) == 0) entries_.clear();
        entries_[key] = Entry{std::move(value), std::move(tags), now + ttl_ms_};
        assert(entries_.size() <= entries_max_);
        return true;
    }

    bool put(const std::string& key, Value value, std::vector<std::string> tags, std::uint64_t generation_seen) {
        return put(key, std::make_shared<const Value>(std::move(value)), std::move(tags), generation_seen);
    }

    // Evicts every entry carrying `tag` (e.g. "api_key:<id>"); how many.
    std::size_t evict_tag(const std::string& tag) {
        std::lock_guard<std::mutex> lock(mutex_);
        ++generation_;
        std::size_t evicted = 0;
        for (auto it = entries_.begin(); it != entries_.end();) {
            bool tagged = false;
            for (const auto& t : it->second.tags) tagged = tagged || t == tag;
            if (tagged) {
                it = entries_.erase(it);
                ++evicted;
            } else {
                ++it;
            }
        }
        return evicted;
    }

    // Empties the cache and serves again (the listener is (re)connected).
    void enable() { reset(true); }
    // Empties the cache and bypasses it until enable() (the listener is down).
    void disable() { reset(false); }

    std::size_t size() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return entries_.size();
    }

private:
    struct Entry {
        std::shared_ptr<const Value> value;  // never null
        std::vector<std::string> tags;
        std::int64_t expires_at_ms;
    };

    void reset(bool enabled) {
        std::lock_guard<std::mutex> lock(mutex_);
        entries_.clear();
        ++generation_;
        enabled_ = enabled;
    }

    void drop_expired(std::int64_t now) {
        for (auto it = entries_.begin(); it != entries_.end();)
            it = now >= it->second.expires_at_ms ? entries_.erase(it) : std::next(it);
    }

    const std::int64_t ttl_ms_;
    const std::size_t entries_max_;
    const Clock now_ms_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;
    std::uint64_t generation_ = 0;
    bool enabled_ = false;  // until the listener has subscribed
};

}  // namespace corebank::httpd::core_banking
