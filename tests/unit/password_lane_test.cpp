// password_lane_test.cpp: the password lane of issue 13 ("Starvation"):
// the per-IP and global throttle (httpd/src/password_throttle.hpp), the
// bound of a worker pool's queue (httpd/src/worker_pool.hpp) and which
// identity routes run on the lane (auth::runs_argon2).
//
// Goal: an address gets bursts of twice its rate and then 429's Retry-After
// in whole seconds, another address is unaffected until the global bucket
// runs dry, a refused attempt costs nothing, an admitted one that ran no
// argon2id is given back, the buckets refill with time,
// an IPv6 /64 counts as one address, the address table stays bounded; a pool
// refuses jobs past running + queue_max; every route that calls argon2id is
// on the lane and no other. Method: a hand-driven clock, a pool whose one
// worker is held on a latch, and the real identity router.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "auth/context.hpp"
#include "password_hash.hpp"
#include "password_throttle.hpp"
#include "worker_pool.hpp"

namespace {

namespace httpd = corebank::httpd;
using httpd::PasswordThrottle;
using httpd::PasswordThrottleLimits;

struct ManualClock {
    std::shared_ptr<std::int64_t> now_ms = std::make_shared<std::int64_t>(1'000'000);
    PasswordThrottle::Clock clock() const {
        auto now = now_ms;
        return [now] { return *now; };
    }
    void advance_ms(std::int64_t ms) const { *now_ms += ms; }
};

int admitted_in_a_row(PasswordThrottle& throttle, const std::string& ip, int tries) {
    int admitted = 0;
    for (int i = 0; i < tries; ++i)
        if (throttle.admit(ip) == 0) ++admitted;
    return admitted;
}

// Goal: 2 x rate in a burst, then a refusal whose Retry-After is the whole
// seconds until one attempt is back.
TEST(PasswordThrottle, AnAddressGetsTwoSecondsWorthThenRetryAfter) {
    ManualClock clock;
    PasswordThrottle throttle(PasswordThrottleLimits{1000, 5}, clock.clock());
    EXPECT_EQ(admitted_in_a_row(throttle, "203.0.113.7", 10), 10);
    EXPECT_EQ(throttle.admit("203.0.113.7"), 1);  // 0.2 s until one more: rounded up to 1
    clock.advance_ms(199);
    EXPECT_EQ(throttle.admit("203.0.113.7"), 1);
    clock.advance_ms(1);
    EXPECT_EQ(throttle.admit("203.0.113.7"), 0);
    EXPECT_EQ(throttle.admit("203.0.113.7"), 1);
    // Another address is not affected.
    EXPECT_EQ(admitted_in_a_row(throttle, "203.0.113.8", 10), 10);
}

// Goal: the global bucket bounds every address together, and a refused
// attempt takes nothing from either bucket.
TEST(PasswordThrottle, TheGlobalBucketBoundsAllAddresses) {
    ManualClock clock;
    PasswordThrottle throttle(PasswordThrottleLimits{10, 3}, clock.clock());
    int admitted = 0;
    for (int i = 0; i < 100; ++i)
        if (throttle.admit("10.0.0." + std::to_string(i)) == 0) ++admitted;
    EXPECT_EQ(admitted, 20);  // the global burst: 2 x 10
    EXPECT_GE(throttle.admit("10.1.0.1"), 1);
    // The address refused by the global bucket kept its own burst.
    clock.advance_ms(10'000);
    EXPECT_EQ(admitted_in_a_row(throttle, "10.1.0.1", 6), 6);
}

// Goal: refused attempts during a flood do not push the recovery back.
TEST(PasswordThrottle, HammeringDoesNotDelayRecovery) {
    ManualClock clock;
    PasswordThrottle throttle(PasswordThrottleLimits{100, 2}, clock.clock());
    EXPECT_EQ(admitted_in_a_row(throttle, "192.0.2.9", 1000), 4);
    clock.advance_ms(500);
    EXPECT_EQ(admitted_in_a_row(throttle, "192.0.2.9", 1000), 1);
}

// Goal: an admitted attempt that ran no argon2id is given back to both
// buckets, never past their capacity.
TEST(PasswordThrottle, AnAttemptThatRanNoArgon2IsGivenBack) {
    ManualClock clock;
    PasswordThrottle throttle(PasswordThrottleLimits{3, 2}, clock.clock());
    for (int i = 0; i < 100; ++i) {
        ASSERT_EQ(throttle.admit("192.0.2.10"), 0) << i;
        throttle.refund("192.0.2.10");
    }
    EXPECT_EQ(admitted_in_a_row(throttle, "192.0.2.10", 10), 4);  // the burst, not more
    throttle.refund("192.0.2.10");
    EXPECT_EQ(admitted_in_a_row(throttle, "192.0.2.11", 10), 3);  // global: 2 left plus the one given back
    throttle.refund("192.0.2.99");  // never admitted: the global bucket is capped anyway
    throttle.refund("192.0.2.99");
    EXPECT_EQ(admitted_in_a_row(throttle, "192.0.2.12", 10), 2);
}

// Goal: only a verification or hash counts as argon2id work on the thread
// (what the refund is decided by); a malformed stored hash is no work.
TEST(PasswordThrottle, Argon2RunsAreCountedPerThread) {
    const std::uint64_t before = httpd::argon2_runs_on_this_thread();
    EXPECT_FALSE(httpd::password_verify("not an argon2id hash", "password"));
    EXPECT_EQ(httpd::argon2_runs_on_this_thread(), before);
    const std::string& dummy = httpd::password_dummy_hash();
    const std::uint64_t made = httpd::argon2_runs_on_this_thread();
    EXPECT_FALSE(httpd::password_verify(dummy, "password"));
    EXPECT_EQ(httpd::argon2_runs_on_this_thread(), made + 1);
    std::uint64_t other_thread = 0;
    std::thread([&] {
        httpd::password_verify(dummy, "password");
        other_thread = httpd::argon2_runs_on_this_thread();
    }).join();
    EXPECT_EQ(other_thread, 1u);
    EXPECT_EQ(httpd::argon2_runs_on_this_thread(), made + 1);
}

// Goal: one host holding a whole IPv6 /64 is one address; an IPv4-mapped
// address is its IPv4 address; text that is no address is its own key.
TEST(PasswordThrottle, AnIpv6Slash64IsOneAddress) {
    EXPECT_EQ(PasswordThrottle::address_key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
    EXPECT_EQ(PasswordThrottle::address_key("2001:db8:1:2:bbbb:cccc:dddd:eeee"), "2001:db8:1:2::/64");
    EXPECT_EQ(PasswordThrottle::address_key("::ffff:192.0.2.1"), "192.0.2.1");
    EXPECT_EQ(PasswordThrottle::address_key("192.0.2.1"), "192.0.2.1");
    EXPECT_EQ(PasswordThrottle::address_key("not:an:address"), "not:an:address");
    ManualClock clock;
    PasswordThrottle throttle(PasswordThrottleLimits{1000, 2}, clock.clock());
    EXPECT_EQ(admitted_in_a_row(throttle, "2001:db8:1:2::1", 2), 2);
    EXPECT_EQ(admitted_in_a_row(throttle, "2001:db8:1:2::2", 2), 2);
    EXPECT_GE(throttle.admit("2001:db8:1:2:ffff::3"), 1);
    EXPECT_EQ(throttle.admit("2001:db8:1:3::1"), 0);
}

// Goal: a stream of new addresses never grows the table past its bound; past
// it new addresses share one bucket until idle ones are forgotten.
TEST(PasswordThrottle, TheAddressTableIsBounded) {
    ManualClock clock;
    PasswordThrottle throttle(PasswordThrottleLimits{100'000, 1, 3}, clock.clock());
    for (int i = 0; i < 50; ++i) throttle.admit("172.16.0." + std::to_string(i));
    EXPECT_EQ(throttle.addresses_tracked(), 3u);
    // The 47 past the bound shared one bucket of 2: now empty.
    EXPECT_GE(throttle.admit("172.16.1.1"), 1);
    // After the tracked buckets refill (2 s) they are forgotten, making room.
    clock.advance_ms(2'000);
    EXPECT_EQ(throttle.admit("172.16.1.1"), 0);
    EXPECT_EQ(throttle.addresses_tracked(), 1u);
}

// A pool whose jobs wait for release(); counts the jobs that ran.
struct HeldPool {
    std::mutex mutex;
    std::condition_variable changed;
    bool released = false;
    int started = 0;
    std::atomic<int> finished{0};
    httpd::WorkerPool pool;

    HeldPool(int threads, std::size_t queue_max)
        : pool(threads, [] { return std::make_unique<httpd::Db>("host=/nonexistent", no_settings()); }, queue_max) {}

    // The jobs never touch their connection, which opens only on first use.
    static std::vector<std::pair<std::string, std::string>> no_settings() { return {}; }

    bool submit() {
        return pool.submit([this](httpd::Db&) {
            std::unique_lock<std::mutex> lock(mutex);
            ++started;
            changed.notify_all();
            changed.wait(lock, [this] { return released; });
            ++finished;
        });
    }
    bool wait_started(int n) {
        std::unique_lock<std::mutex> lock(mutex);
        return changed.wait_for(lock, std::chrono::seconds(10), [&] { return started >= n; });
    }
    void release() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            released = true;
        }
        changed.notify_all();
    }
};

// Goal: with every worker busy the pool takes queue_max more jobs and refuses
// the next (the password lane answers that 429), then runs them all.
TEST(PasswordLanePool, RefusesPastRunningPlusQueueMax) {
    HeldPool held(2, 3);
    EXPECT_TRUE(held.submit());
    EXPECT_TRUE(held.submit());
    ASSERT_TRUE(held.wait_started(2));
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(held.submit()) << i;
    EXPECT_FALSE(held.submit());
    EXPECT_FALSE(held.submit());
    held.release();
    held.pool.stop();  // drains the queue
    EXPECT_EQ(held.finished.load(), 5);
}

// Goal: the default bound of the shared pool is unchanged.
TEST(PasswordLanePool, TheSharedPoolKeepsItsBound) {
    HeldPool held(1, httpd::worker_queue_max);
    EXPECT_TRUE(held.submit());
    ASSERT_TRUE(held.wait_started(1));
    std::size_t accepted = 0;
    while (accepted < httpd::worker_queue_max + 10 && held.submit()) ++accepted;
    EXPECT_EQ(accepted, httpd::worker_queue_max);
    held.release();
    held.pool.stop();
}

// Goal: the routes whose handlers call password_hash or password_verify
// (grep httpd/src/auth) are exactly the ones on the lane, and each exists.
TEST(PasswordLaneRoutes, EveryArgon2RouteAndNoOther) {
    const std::set<std::string> expected = {
        "POST /auth/register",        "POST /auth/login",      "POST /auth/password/change",
        "POST /auth/password/reset",  "POST /auth/deactivate", "POST /oauth/token",
        "POST /oauth/introspect",     "POST /admin/clients",   "POST /admin/clients/:clientId/rotate-secret",
        "POST /auth/me/email",        "POST /auth/me/phone",
    };
    const auto router = httpd::auth::make_router(std::make_shared<const httpd::auth::Context>());
    std::set<std::string> on_lane;
    for (const auto& route : router.routes())
        if (httpd::auth::runs_argon2(route)) on_lane.insert(route.method + " " + route.pattern);
    EXPECT_EQ(on_lane, expected);
    EXPECT_FALSE(httpd::auth::runs_argon2(httpd::Route{"GET", "/auth/login", httpd::RunOn::worker, nullptr}));
}

}  // namespace
