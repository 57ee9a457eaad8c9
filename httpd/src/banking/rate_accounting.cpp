// rate_accounting.cpp: see rate_accounting.hpp for the semantics.
#include "banking/rate_accounting.hpp"

#include <algorithm>
#include <cassert>

namespace corebank::httpd::core_banking {

namespace {

std::int64_t minute_of(std::int64_t now_ms) { return now_ms / RateAccounting::minute_ms; }

}  // namespace

RateAccounting::RateAccounting(std::size_t keys_max) : keys_max_(keys_max) { assert(keys_max_ > 0); }

Admission RateAccounting::admit(const std::string& key_id, std::int64_t limit_per_minute, std::int64_t now_ms) {
    assert(limit_per_minute > 0);
    const std::int64_t minute = minute_of(now_ms);
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = windows_.find(key_id);
    if (found == windows_.end()) {
        if (windows_.size() >= keys_max_) drop_idle(minute);
        if (windows_.size() >= keys_max_) return Admission::untracked;
        found = windows_.emplace(key_id, Window{minute, 0, 0, 0}).first;
    }
    Window& w = found->second;
    if (w.minute != minute) {
        // A new minute: what this process counted in the old one still goes to
        // the database (for last_used_at), but no longer limits anything.
        if (w.local > 0) carry(key_id, w.minute, w.local);
        w = Window{minute, 0, 0, 0};
    }
    ++w.local;
    assert(w.local > 0);
    return w.known_total + w.in_flight + w.local <= limit_per_minute ? Admission::allowed : Admission::limited;
}

void RateAccounting::observe(const std::string& key_id, std::int64_t minute, std::int64_t total) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = windows_.find(key_id);
    if (found == windows_.end()) {
        if (windows_.size() >= keys_max_) drop_idle(minute);
        if (windows_.size() >= keys_max_) return;
        found = windows_.emplace(key_id, Window{minute, 0, 0, 0}).first;
    }
    Window& w = found->second;
    if (w.minute != minute) {
        if (minute < w.minute) return;  // an answer about a minute that is over
        if (w.local > 0) carry(key_id, w.minute, w.local);
        w = Window{minute, 0, 0, 0};
    }
    w.known_total = std::max(w.known_total, total);
}

std::vector<RateAccounting::Entry> RateAccounting::take_batch(std::int64_t now_ms) {
    const std::int64_t minute = minute_of(now_ms);
    std::lock_guard<std::mutex> lock(mutex_);
    bool counted = !carried_.empty();
    for (const auto& [key_id, w] : windows_) counted = counted || w.local > 0;
    if (!counted) {
        drop_idle(minute);
        return {};
    }
    std::vector<Entry> batch = std::move(carried_);
    carried_.clear();
    for (auto& [key_id, w] : windows_) {
        if (w.minute != minute && w.local == 0) continue;
        batch.push_back(Entry{key_id, w.minute, w.local});
        w.in_flight += w.local;
        w.local = 0;
    }
    return batch;
}

void RateAccounting::flushed(const std::vector<Entry>& batch, const std::vector<std::int64_t>& totals) {
    assert(batch.size() == totals.size());
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < batch.size() && i < totals.size(); ++i) {
        const auto found = windows_.find(batch[i].key_id);
        if (found == windows_.end() || found->second.minute != batch[i].minute) continue;
        Window& w = found->second;
        w.in_flight = std::max<std::int64_t>(0, w.in_flight - batch[i].count);
        // The total includes this flush; what is local now came after it.
        w.known_total = std::max(w.known_total, totals[i]);
    }
}

void RateAccounting::flush_failed(const std::vector<Entry>& batch) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : batch) {
        if (entry.count == 0) continue;
        const auto found = windows_.find(entry.key_id);
        if (found != windows_.end() && found->second.minute == entry.minute) {
            Window& w = found->second;
            const std::int64_t back = std::min(w.in_flight, entry.count);
            w.in_flight -= back;
            w.local += back;
        } else {
            carry(entry.key_id, entry.minute, entry.count);
        }
    }
}

std::size_t RateAccounting::key_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return windows_.size();
}

void RateAccounting::carry(const std::string& key_id, std::int64_t minute, std::int64_t count) {
    // Bounded like the key table: past minutes only feed last_used_at.
    if (carried_.size() < keys_max_) carried_.push_back(Entry{key_id, minute, count});
}

// Forgets keys with nothing counted or in flight in the current minute.
void RateAccounting::drop_idle(std::int64_t minute) {
    for (auto it = windows_.begin(); it != windows_.end();) {
        const Window& w = it->second;
        const bool idle = w.minute != minute && w.local == 0 && w.in_flight == 0;
        it = idle ? windows_.erase(it) : std::next(it);
    }
}

}  // namespace corebank::httpd::core_banking
