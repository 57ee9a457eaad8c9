// password_throttle.hpp: how many password attempts (requests to a route
// that runs argon2id) this process admits, per client IP and in all (issue
// 13, "Starvation"). Token buckets: each refills at its rate per second and
// holds at most twice that, so a client may burst two seconds' worth.
//
// Per process, in memory, on purpose: it protects this process's CPU, which
// is what a flood of argon2id exhausts. N processes behind a load balancer
// admit N times the global rate in all; the per-account limiter in the
// database (extension/pg/auth_rate_limiter.*) is the one shared by every
// process (docs/security.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace corebank::httpd {

struct PasswordThrottleLimits {
    int global_per_s = 50;      // password_attempts_per_s
    int per_ip_per_s = 25;      // password_attempts_per_ip_per_s
    // Distinct client addresses tracked at once. Past it, idle addresses are
    // forgotten; if none is idle, new addresses share one bucket (the global
    // bucket still bounds them all).
    std::size_t addresses_max = 65536;
};

class PasswordThrottle {
public:
    // Milliseconds on a monotonic clock; the tests pass their own.
    using Clock = std::function<std::int64_t()>;

    PasswordThrottle(PasswordThrottleLimits limits, Clock clock);

    // 0: the attempt is admitted and counted against both buckets. Otherwise
    // nothing is counted and the result is the whole seconds (at least 1)
    // until both buckets hold an attempt again: the Retry-After.
    int admit(const std::string& client_ip);

    // Gives back an admitted attempt that ran no argon2id (a malformed body,
    // a limit the database answered first), up to the buckets' capacity.
    void refund(const std::string& client_ip);

    // The key an address is counted under: an IPv4 address as given, an IPv6
    // address by its /64 (one host can hold a whole /64).
    static std::string address_key(const std::string& client_ip);

    std::size_t addresses_tracked() const;

private:
    struct Bucket {
        double tokens = 0;
        std::int64_t updated_ms = 0;
    };
    void refill(Bucket& bucket, double rate_per_s, std::int64_t now_ms) const;
    Bucket& bucket_of(const std::string& key, std::int64_t now_ms);
    void forget_idle(std::int64_t now_ms);

    PasswordThrottleLimits limits_;
    Clock clock_;
    mutable std::mutex mutex_;
    Bucket global_;
    Bucket shared_overflow_;
    std::unordered_map<std::string, Bucket> by_address_;
    std::int64_t last_sweep_ms_ = 0;
};

}  // namespace corebank::httpd
