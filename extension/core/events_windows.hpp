// events_windows.hpp: the time windows of the event service's parity and
// insight reads (docs/events.md, "Parity" and "Insights"). Pure rules,
// tested in tests/unit/events_windows_test.cpp; the tier checks a request
// with them and the database checks the same bounds again.
//
// Parity: from and to are UTC instants (the occurredAt grammar) that start a
// window of the granularity (an hour, or a day at 00:00); to is exclusive and
// after from; at most parity_hours_max hours or parity_days_max days apart.
// Insights: from and to are UTC days YYYY-MM-DD, both included, to not before
// from, at most insights_days_max days.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corebank::core::events {

inline constexpr std::int64_t parity_hours_max = 168;
inline constexpr std::int64_t parity_days_max = 31;
inline constexpr std::int64_t insights_days_max = 92;

enum class Granularity { hour, day };

// "hour" or "day"; nullopt for anything else.
std::optional<Granularity> parse_granularity(std::string_view text);

// Seconds since 1970-01-01T00:00:00Z of an occurredAt-form instant
// (YYYY-MM-DDTHH:MM:SS[.f]Z); nullopt when it is not one. The fraction must
// be zero to count as whole seconds (a boundary never has one), so a
// non-zero fraction is reported through `whole_seconds`.
struct UtcInstant {
    std::int64_t seconds;
    bool whole_seconds;
};
std::optional<UtcInstant> parse_utc_instant(std::string_view text);

// Days since 1970-01-01 of YYYY-MM-DD (years 0001-9999, a real day).
std::optional<std::int64_t> parse_utc_day(std::string_view text);

// Does the instant start a window of the granularity?
bool starts_window(const UtcInstant& at, Granularity granularity);

// The problem with a parity range of two boundaries (to exclusive), or
// nullopt when it is a valid range.
std::optional<std::string> parity_range_problem(std::int64_t from_seconds, std::int64_t to_seconds,
                                                Granularity granularity);

// The problem with an insights range of two days (both included), or nullopt.
std::optional<std::string> insights_range_problem(std::int64_t from_day, std::int64_t to_day);

}  // namespace corebank::core::events
