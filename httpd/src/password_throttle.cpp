#include "password_throttle.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace corebank::httpd {

namespace {

// Each bucket holds two seconds' worth of attempts.
constexpr double burst_seconds = 2.0;
// A full address table is swept for idle addresses at most this often, so a
// stream of new addresses cannot make every admission walk the table.
constexpr std::int64_t sweep_interval_ms = 1000;

double capacity(double rate_per_s) { return rate_per_s * burst_seconds; }

// Seconds until a bucket holds one whole attempt again.
double seconds_until_one(double tokens, double rate_per_s) {
    return tokens >= 1.0 ? 0.0 : (1.0 - tokens) / rate_per_s;
}

}  // namespace

PasswordThrottle::PasswordThrottle(PasswordThrottleLimits limits, Clock clock)
    : limits_(limits), clock_(std::move(clock)) {
    limits_.global_per_s = std::max(1, limits_.global_per_s);
    limits_.per_ip_per_s = std::max(1, limits_.per_ip_per_s);
    limits_.addresses_max = std::max<std::size_t>(1, limits_.addresses_max);
    const std::int64_t now = clock_();
    global_ = Bucket{capacity(limits_.global_per_s), now};
    shared_overflow_ = Bucket{capacity(limits_.per_ip_per_s), now};
    last_sweep_ms_ = now;
}

void PasswordThrottle::refill(Bucket& bucket, double rate_per_s, std::int64_t now_ms) const {
    if (now_ms > bucket.updated_ms) {
        const double gained = static_cast<double>(now_ms - bucket.updated_ms) / 1000.0 * rate_per_s;
        bucket.tokens = std::min(capacity(rate_per_s), bucket.tokens + gained);
        bucket.updated_ms = now_ms;
    }
}

void PasswordThrottle::forget_idle(std::int64_t now_ms) {
    last_sweep_ms_ = now_ms;
    const double rate = limits_.per_ip_per_s;
    for (auto it = by_address_.begin(); it != by_address_.end();) {
        refill(it->second, rate, now_ms);
        // A full bucket is what a new address gets anyway: forgetting it loses nothing.
        if (it->second.tokens >= capacity(rate)) it = by_address_.erase(it);
        else ++it;
    }
}

PasswordThrottle::Bucket& PasswordThrottle::bucket_of(const std::string& key, std::int64_t now_ms) {
    const auto found = by_address_.find(key);
    if (found != by_address_.end()) return found->second;
    if (by_address_.size() >= limits_.addresses_max && now_ms - last_sweep_ms_ >= sweep_interval_ms)
        forget_idle(now_ms);
    if (by_address_.size() >= limits_.addresses_max) return shared_overflow_;
    return by_address_.emplace(key, Bucket{capacity(limits_.per_ip_per_s), now_ms}).first->second;
}

int PasswordThrottle::admit(const std::string& client_ip) {
    const std::string key = address_key(client_ip);
    std::lock_guard<std::mutex> lock(mutex_);
    const std::int64_t now = clock_();
    refill(global_, limits_.global_per_s, now);
    Bucket& address = bucket_of(key, now);
    refill(address, limits_.per_ip_per_s, now);
    if (global_.tokens >= 1.0 && address.tokens >= 1.0) {
        global_.tokens -= 1.0;
        address.tokens -= 1.0;
        return 0;
    }
    const double wait = std::max(seconds_until_one(global_.tokens, limits_.global_per_s),
                                 seconds_until_one(address.tokens, limits_.per_ip_per_s));
    return std::max(1, static_cast<int>(std::ceil(wait)));
}

void PasswordThrottle::refund(const std::string& client_ip) {
    const std::string key = address_key(client_ip);
    std::lock_guard<std::mutex> lock(mutex_);
    const std::int64_t now = clock_();
    refill(global_, limits_.global_per_s, now);
    global_.tokens = std::min(capacity(limits_.global_per_s), global_.tokens + 1.0);
    // An address forgotten meanwhile starts full anyway; one past the table
    // was counted in the shared bucket.
    const auto found = by_address_.find(key);
    Bucket& address = found != by_address_.end() ? found->second : shared_overflow_;
    refill(address, limits_.per_ip_per_s, now);
    address.tokens = std::min(capacity(limits_.per_ip_per_s), address.tokens + 1.0);
}

std::string PasswordThrottle::address_key(const std::string& client_ip) {
    if (client_ip.find(':') == std::string::npos) return client_ip;
    unsigned char bytes[16];
    if (inet_pton(AF_INET6, client_ip.c_str(), bytes) != 1) return client_ip;
    static const unsigned char v4_mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    char text[INET6_ADDRSTRLEN] = {};
    if (std::memcmp(bytes, v4_mapped_prefix, sizeof v4_mapped_prefix) == 0) {
        if (inet_ntop(AF_INET, bytes + 12, text, sizeof text) == nullptr) return client_ip;
        return text;
    }
    std::memset(bytes + 8, 0, 8);
    if (inet_ntop(AF_INET6, bytes, text, sizeof text) == nullptr) return client_ip;
    return std::string(text) + "/64";
}

std::size_t PasswordThrottle::addresses_tracked() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return by_address_.size();
}

}  // namespace corebank::httpd
