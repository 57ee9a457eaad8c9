// events_windows_test.cpp: the windows of the parity and insight reads
// (extension/core/events_windows.cpp; docs/events.md, "Parity", "Insights").
//
// Goal: instants and days parse only in the documented forms and to the
// right epoch values; a boundary starts its hour or day (no minutes,
// seconds or fraction); ranges are refused when reversed, empty or longer
// than the documented bounds, and accepted at exactly the bounds.
// Method: pure functions on literal strings.
#include <gtest/gtest.h>

#include "core/events_windows.hpp"

namespace ev = corebank::core::events;

TEST(EventsWindows, GranularityIsHourOrDay) {
    EXPECT_EQ(ev::parse_granularity("hour"), ev::Granularity::hour);
    EXPECT_EQ(ev::parse_granularity("day"), ev::Granularity::day);
    EXPECT_FALSE(ev::parse_granularity("Hour"));
    EXPECT_FALSE(ev::parse_granularity("week"));
    EXPECT_FALSE(ev::parse_granularity(""));
}

TEST(EventsWindows, InstantsParseToEpochSeconds) {
    EXPECT_EQ(ev::parse_utc_instant("1970-01-01T00:00:00Z")->seconds, 0);
    EXPECT_EQ(ev::parse_utc_instant("2026-11-21T10:00:00Z")->seconds, 1795255200);
    EXPECT_EQ(ev::parse_utc_instant("2024-02-29T23:59:59Z")->seconds, 1709251199);
    EXPECT_TRUE(ev::parse_utc_instant("2026-11-21T10:00:00.000Z")->whole_seconds);
    EXPECT_FALSE(ev::parse_utc_instant("2026-11-21T10:00:00.001Z")->whole_seconds);
    EXPECT_FALSE(ev::parse_utc_instant("2026-11-21T10:00:00+00:00"));
    EXPECT_FALSE(ev::parse_utc_instant("2026-11-21"));
    EXPECT_FALSE(ev::parse_utc_instant("2025-02-29T00:00:00Z"));
    EXPECT_FALSE(ev::parse_utc_instant("2026-13-01T00:00:00Z"));
}

TEST(EventsWindows, DaysParseOnlyAsCalendarDays) {
    EXPECT_EQ(ev::parse_utc_day("1970-01-01"), 0);
    EXPECT_EQ(ev::parse_utc_day("2026-11-21"), 20778);
    EXPECT_EQ(ev::parse_utc_day("2024-02-29"), 19782);
    EXPECT_FALSE(ev::parse_utc_day("2025-02-29"));
    EXPECT_FALSE(ev::parse_utc_day("2026-11-21T00:00:00Z"));
    EXPECT_FALSE(ev::parse_utc_day("2026-1-21"));
    EXPECT_FALSE(ev::parse_utc_day("0000-01-01"));
}

TEST(EventsWindows, BoundariesStartTheirWindow) {
    const auto hour = *ev::parse_utc_instant("2026-11-21T10:00:00Z");
    const auto midnight = *ev::parse_utc_instant("2026-11-21T00:00:00Z");
    EXPECT_TRUE(ev::starts_window(hour, ev::Granularity::hour));
    EXPECT_FALSE(ev::starts_window(hour, ev::Granularity::day));
    EXPECT_TRUE(ev::starts_window(midnight, ev::Granularity::day));
    EXPECT_FALSE(ev::starts_window(*ev::parse_utc_instant("2026-11-21T10:30:00Z"), ev::Granularity::hour));
    EXPECT_FALSE(ev::starts_window(*ev::parse_utc_instant("2026-11-21T10:00:01Z"), ev::Granularity::hour));
    EXPECT_FALSE(ev::starts_window(*ev::parse_utc_instant("2026-11-21T10:00:00.5Z"), ev::Granularity::hour));
    EXPECT_TRUE(ev::starts_window(*ev::parse_utc_instant("0001-01-01T00:00:00Z"), ev::Granularity::day));
}

TEST(EventsWindows, ParityRangesAreBounded) {
    constexpr std::int64_t h = 3600;
    constexpr std::int64_t d = 86400;
    EXPECT_FALSE(ev::parity_range_problem(0, h, ev::Granularity::hour));
    EXPECT_FALSE(ev::parity_range_problem(0, 168 * h, ev::Granularity::hour));
    EXPECT_TRUE(ev::parity_range_problem(0, 169 * h, ev::Granularity::hour));
    EXPECT_FALSE(ev::parity_range_problem(0, 31 * d, ev::Granularity::day));
    EXPECT_TRUE(ev::parity_range_problem(0, 32 * d, ev::Granularity::day));
    EXPECT_EQ(ev::parity_range_problem(h, h, ev::Granularity::hour), "to must be after from");
    EXPECT_TRUE(ev::parity_range_problem(2 * h, h, ev::Granularity::hour));
}

TEST(EventsWindows, InsightRangesAreBounded) {
    EXPECT_FALSE(ev::insights_range_problem(10, 10));
    EXPECT_FALSE(ev::insights_range_problem(0, 91));
    EXPECT_TRUE(ev::insights_range_problem(0, 92));
    EXPECT_EQ(ev::insights_range_problem(11, 10), "to must not be before from");
}
