// hot_path_test.cpp: the hot path's authentication cache and rate accounting
// (docs/design/hot-path.md).
//
// Goal: a cached answer lives for its TTL and no longer; an eviction by tag,
// a notification payload or the listener going down removes it at once, and an
// answer read from the database before an eviction is never stored after it.
// The rate accounting refuses past the limit with the counts of this process
// plus the database's last known total, hands every count to exactly one
// flush, and gives the counts of a failed flush to the next one. Method: the
// classes with an injected clock and hand-made flush answers.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "banking/auth_cache.hpp"
#include "banking/hot_path.hpp"
#include "banking/rate_accounting.hpp"

namespace cb = corebank::httpd::core_banking;

namespace {

struct FakeClock {
    std::shared_ptr<std::int64_t> now = std::make_shared<std::int64_t>(1'000'000);
    cb::AuthCache<int>::Clock clock() const {
        auto shared = now;
        return [shared] { return *shared; };
    }
};

// A cached answer's value, or `fallback` when the cache answered nothing.
int value_or(const std::shared_ptr<const int>& answer, int fallback) { return answer ? *answer : fallback; }

}  // namespace

TEST(AuthCache, AnswersUntilTheTtlEnds) {
    FakeClock clock;
    cb::AuthCache<int> cache(2000, 100, clock.clock());
    cache.enable();
    ASSERT_TRUE(cache.put("k", 7, {"api_key:1"}, cache.generation()));
    ASSERT_EQ(value_or(cache.get("k"), -1), 7);
    *clock.now += 1999;
    EXPECT_EQ(value_or(cache.get("k"), -1), 7);
    *clock.now += 1;
    EXPECT_EQ(cache.get("k"), nullptr);
    EXPECT_EQ(cache.size(), 0u);
}

TEST(AuthCache, StartsDisabledAndStoresNothingUntilEnabled) {
    FakeClock clock;
    cb::AuthCache<int> cache(2000, 100, clock.clock());
    EXPECT_FALSE(cache.enabled());
    EXPECT_FALSE(cache.put("k", 1, {}, cache.generation()));
    EXPECT_EQ(cache.get("k"), nullptr);
    cache.enable();
    EXPECT_TRUE(cache.put("k", 1, {}, cache.generation()));
}

TEST(AuthCache, EvictByTagRemovesOnlyTaggedEntries) {
    FakeClock clock;
    cb::AuthCache<int> cache(2000, 100, clock.clock());
    cache.enable();
    cache.put("jti-a", 1, {"session:s1", "user:u1"}, cache.generation());
    cache.put("jti-b", 2, {"session:s2", "user:u1"}, cache.generation());
    cache.put("jti-c", 3, {"session:s3", "user:u2"}, cache.generation());
    EXPECT_EQ(cache.evict_tag("user:u1"), 2u);
    EXPECT_EQ(cache.get("jti-a"), nullptr);
    EXPECT_EQ(cache.get("jti-b"), nullptr);
    EXPECT_EQ(value_or(cache.get("jti-c"), -1), 3);
    EXPECT_EQ(cache.evict_tag("user:nobody"), 0u);
}

TEST(AuthCache, AnAnswerReadBeforeAnEvictionIsNotStored) {
    FakeClock clock;
    cb::AuthCache<int> cache(2000, 100, clock.clock());
    cache.enable();
    const auto seen = cache.generation();  // the worker is about to ask the database
    cache.evict_tag("api_key:1");          // meanwhile the key is revoked
    EXPECT_FALSE(cache.put("k", 1, {"api_key:1"}, seen));
    EXPECT_EQ(cache.get("k"), nullptr);
}

TEST(AuthCache, DisableEmptiesAndBypassesUntilEnabledAgain) {
    FakeClock clock;
    cb::AuthCache<int> cache(2000, 100, clock.clock());
    cache.enable();
    const auto seen = cache.generation();
    cache.put("k", 1, {}, seen);
    cache.disable();
    EXPECT_FALSE(cache.enabled());
    EXPECT_EQ(cache.get("k"), nullptr);
    cache.enable();
    EXPECT_EQ(cache.get("k"), nullptr) << "a reconnect starts from an empty cache";
    EXPECT_FALSE(cache.put("k", 1, {}, seen)) << "an answer read before the outage is not stored";
}

TEST(AuthCache, StaysWithinItsBound) {
    FakeClock clock;
    cb::AuthCache<int> cache(2000, 3, clock.clock());
    cache.enable();
    for (int i = 0; i < 10; ++i) {
        cache.put("k" + std::to_string(i), i, {}, cache.generation());
        ASSERT_LE(cache.size(), 3u);
    }
    EXPECT_EQ(value_or(cache.get("k9"), -1), 9);
}

TEST(HotPath, PayloadsEvictTheirEntries) {
    FakeClock clock;
    cb::HotPath hot(2000, clock.clock());
    hot.listening();
    hot.keys.put("hash1", cb::CachedKey{"id1", {"read"}, 10}, {"api_key:id1"}, hot.keys.generation());
    hot.keys.put("hash2", cb::CachedKey{"id2", {"read"}, 10}, {"api_key:id2"}, hot.keys.generation());
    hot.staff.put("jti1", cb::CachedStaff{"u1", "s1", "", {}, {}}, {"session:s1", "user:u1"}, hot.staff.generation());
    hot.staff.put("jti2", cb::CachedStaff{"u2", "s2", "c", {}, {}}, {"session:s2", "user:u2", "client:c"},
                  hot.staff.generation());
    EXPECT_EQ(hot.apply_event("api_key:id1"), 1u);
    EXPECT_EQ(hot.keys.get("hash1"), nullptr);
    EXPECT_NE(hot.keys.get("hash2"), nullptr);
    EXPECT_EQ(hot.apply_event("session:s1"), 1u);
    EXPECT_EQ(hot.staff.get("jti1"), nullptr);
    EXPECT_EQ(hot.apply_event("client:c"), 1u);
    EXPECT_EQ(hot.staff.get("jti2"), nullptr);
}

TEST(HotPath, AnUnknownPayloadEmptiesBothCaches) {
    FakeClock clock;
    cb::HotPath hot(2000, clock.clock());
    hot.listening();
    hot.keys.put("hash1", cb::CachedKey{"id1", {"read"}, 10}, {"api_key:id1"}, hot.keys.generation());
    hot.staff.put("jti1", cb::CachedStaff{"u1", "s1", "", {}, {}}, {"session:s1"}, hot.staff.generation());
    hot.apply_event("something-new:42");
    EXPECT_EQ(hot.keys.get("hash1"), nullptr);
    EXPECT_EQ(hot.staff.get("jti1"), nullptr);
    EXPECT_TRUE(hot.keys.enabled());
}

TEST(HotPath, DeafBypassesBothCaches) {
    FakeClock clock;
    cb::HotPath hot(2000, clock.clock());
    hot.listening();
    hot.keys.put("hash1", cb::CachedKey{"id1", {"read"}, 10}, {"api_key:id1"}, hot.keys.generation());
    hot.deaf();
    EXPECT_FALSE(hot.keys.enabled());
    EXPECT_FALSE(hot.staff.enabled());
    EXPECT_EQ(hot.keys.get("hash1"), nullptr);
}

// ---------------------------------------------------------------- rate accounting

namespace {
constexpr std::int64_t minute0_ms = 29'000'000LL * 60'000;  // the start of a minute
constexpr std::int64_t minute0 = minute0_ms / 60'000;
}  // namespace

TEST(RateAccounting, OneProcessRefusesTheCallPastTheLimit) {
    cb::RateAccounting rates(100);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(rates.admit("k", 3, minute0_ms + i), cb::Admission::allowed);
    EXPECT_EQ(rates.admit("k", 3, minute0_ms + 10), cb::Admission::limited);
    EXPECT_EQ(rates.admit("other", 3, minute0_ms + 10), cb::Admission::allowed) << "keys count apart";
}

TEST(RateAccounting, ANewMinuteStartsAgain) {
    cb::RateAccounting rates(100);
    for (int i = 0; i < 4; ++i) rates.admit("k", 3, minute0_ms);
    EXPECT_EQ(rates.admit("k", 3, minute0_ms + 59'999), cb::Admission::limited);
    EXPECT_EQ(rates.admit("k", 3, minute0_ms + 60'000), cb::Admission::allowed);
}

TEST(RateAccounting, TheDatabaseTotalCountsAgainstTheLimit) {
    cb::RateAccounting rates(100);
    rates.observe("k", minute0, 2);  // other processes used 2 of 3
    EXPECT_EQ(rates.admit("k", 3, minute0_ms), cb::Admission::allowed);
    EXPECT_EQ(rates.admit("k", 3, minute0_ms), cb::Admission::limited);
    rates.observe("k", minute0 - 1, 100);  // an answer about a past minute changes nothing
    EXPECT_EQ(rates.admit("other", 1, minute0_ms), cb::Admission::allowed);
}

TEST(RateAccounting, EveryCountGoesToExactlyOneFlush) {
    cb::RateAccounting rates(100);
    for (int i = 0; i < 5; ++i) rates.admit("k", 100, minute0_ms);
    auto batch = rates.take_batch(minute0_ms + 1);
    ASSERT_EQ(batch.size(), 1u);
    EXPECT_EQ(batch[0].key_id, "k");
    EXPECT_EQ(batch[0].minute, minute0);
    EXPECT_EQ(batch[0].count, 5);
    rates.admit("k", 100, minute0_ms + 2);  // while the flush is under way
    rates.flushed(batch, {12});             // the global total after it (7 from elsewhere)
    auto next = rates.take_batch(minute0_ms + 3);
    ASSERT_EQ(next.size(), 1u);
    EXPECT_EQ(next[0].count, 1) << "only what came after the first flush";
    rates.flushed(next, {13});
    EXPECT_TRUE(rates.take_batch(minute0_ms + 4).empty()) << "nothing counted, nothing to flush";
}

TEST(RateAccounting, FlushedTotalsLimitTheRestOfTheMinute) {
    cb::RateAccounting rates(100);
    rates.admit("k", 10, minute0_ms);
    auto batch = rates.take_batch(minute0_ms);
    rates.flushed(batch, {9});  // another process used 8
    EXPECT_EQ(rates.admit("k", 10, minute0_ms), cb::Admission::allowed);
    EXPECT_EQ(rates.admit("k", 10, minute0_ms), cb::Admission::limited);
}

TEST(RateAccounting, InFlightCountsStillLimit) {
    cb::RateAccounting rates(100);
    rates.admit("k", 2, minute0_ms);
    rates.admit("k", 2, minute0_ms);
    const auto batch = rates.take_batch(minute0_ms);
    ASSERT_EQ(batch.size(), 1u);
    EXPECT_EQ(rates.admit("k", 2, minute0_ms), cb::Admission::limited) << "the flush has not answered yet";
}

TEST(RateAccounting, AFailedFlushIsCountedByTheNext) {
    cb::RateAccounting rates(100);
    for (int i = 0; i < 3; ++i) rates.admit("k", 100, minute0_ms);
    auto batch = rates.take_batch(minute0_ms);
    rates.admit("k", 100, minute0_ms);
    rates.flush_failed(batch);
    auto retry = rates.take_batch(minute0_ms);
    ASSERT_EQ(retry.size(), 1u);
    EXPECT_EQ(retry[0].count, 4);
}

TEST(RateAccounting, CountsOfAPastMinuteAreStillFlushed) {
    cb::RateAccounting rates(100);
    rates.admit("k", 100, minute0_ms + 59'000);
    rates.admit("k", 100, minute0_ms + 61'000);  // the next minute
    auto batch = rates.take_batch(minute0_ms + 61'500);
    ASSERT_EQ(batch.size(), 2u);
    std::int64_t past = -1, current = -1;
    for (const auto& entry : batch) (entry.minute == minute0 ? past : current) = entry.count;
    EXPECT_EQ(past, 1);
    EXPECT_EQ(current, 1);
}

TEST(RateAccounting, AFullTableLeavesNewKeysUntracked) {
    cb::RateAccounting rates(2);
    EXPECT_EQ(rates.admit("a", 5, minute0_ms), cb::Admission::allowed);
    EXPECT_EQ(rates.admit("b", 5, minute0_ms), cb::Admission::allowed);
    EXPECT_EQ(rates.admit("c", 5, minute0_ms), cb::Admission::untracked);
    // Once flushed and a minute later, idle keys make room.
    rates.flushed(rates.take_batch(minute0_ms), {1, 1});
    EXPECT_EQ(rates.admit("c", 5, minute0_ms + 60'000), cb::Admission::allowed);
    EXPECT_LE(rates.key_count(), 2u);
}
