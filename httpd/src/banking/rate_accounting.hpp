// rate_accounting.hpp: the per-key, per-minute request limit counted in the
// tier process and flushed to the database in batches (docs/design/hot-path.md).
//
// Semantics: a request of key K in minute M is refused when
//     known_total + in_flight + local > limit
// where known_total is K's global count in M as the database last answered it
// (a flush or a cache miss), in_flight the counts of a flush under way and
// local the requests counted here since (this one included). Refused requests
// count too, as they always did. With one process this is exact; with N
// processes each sees the others' counts only at its next flush (at most
// flush_interval_ms later), so a key may go over its limit by what the other
// processes admit in one flush interval, and never by more than (N - 1) x limit
// in a minute.
//
// Locking: one mutex guards every member; no method calls out while holding it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace corebank::httpd::core_banking {

enum class Admission { allowed, limited, untracked };

class RateAccounting {
public:
    static constexpr std::int64_t minute_ms = 60'000;

    explicit RateAccounting(std::size_t keys_max);

    // Counts one request of the key at wall-clock time now_ms. untracked: the
    // table of keys is full; the caller counts this request another way.
    Admission admit(const std::string& key_id, std::int64_t limit_per_minute, std::int64_t now_ms);

    // The database's global count of the key in minute `minute` (epoch minutes).
    void observe(const std::string& key_id, std::int64_t minute, std::int64_t total);

    struct Entry {
        std::string key_id;
        std::int64_t minute;  // epoch minutes
        std::int64_t count;   // requests to add; 0 only reads the total back
    };

    // What to flush now: the local counts (moved to in flight) plus a read-back
    // of every other key of the current minute. Empty when nothing was counted.
    std::vector<Entry> take_batch(std::int64_t now_ms);
    // The flush of `batch` succeeded; totals[i] is entry i's global count after it.
    void flushed(const std::vector<Entry>& batch, const std::vector<std::int64_t>& totals);
    // The flush failed: its counts are counted again by the next one.
    void flush_failed(const std::vector<Entry>& batch);

    std::size_t key_count() const;

private:
    struct Window {
        std::int64_t minute = 0;
        std::int64_t known_total = 0;
        std::int64_t in_flight = 0;
        std::int64_t local = 0;
    };

    void carry(const std::string& key_id, std::int64_t minute, std::int64_t count);
    void drop_idle(std::int64_t minute);

    const std::size_t keys_max_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Window> windows_;
    std::vector<Entry> carried_;  // counts of a past minute still to flush (last_used_at)
};

}  // namespace corebank::httpd::core_banking
