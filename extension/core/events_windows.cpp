// events_windows.cpp: see events_windows.hpp.
#include "core/events_windows.hpp"

#include "core/events_envelope.hpp"

namespace corebank::core::events {

namespace {

constexpr std::int64_t seconds_per_hour = 3600;
constexpr std::int64_t seconds_per_day = 86400;

int digits(std::string_view text, std::size_t at, std::size_t count) {
    int value = 0;
    for (std::size_t i = at; i < at + count; ++i) value = value * 10 + (text[i] - '0');
    return value;
}

bool all_digits(std::string_view text, std::size_t at, std::size_t count) {
    if (at + count > text.size()) return false;
    for (std::size_t i = at; i < at + count; ++i)
        if (text[i] < '0' || text[i] > '9') return false;
    return true;
}

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

// Howard Hinnant's days_from_civil: days since 1970-01-01 of a proleptic
// Gregorian date.
std::int64_t days_from_civil(int year, int month, int day) {
    const int y = year - (month <= 2 ? 1 : 0);
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return static_cast<std::int64_t>(era) * 146097 + doe - 719468;
}

std::optional<std::int64_t> day_of(std::string_view text) {
    if (text.size() < 10 || !all_digits(text, 0, 4) || text[4] != '-' || !all_digits(text, 5, 2) || text[7] != '-' ||
        !all_digits(text, 8, 2))
        return std::nullopt;
    const int year = digits(text, 0, 4);
    const int month = digits(text, 5, 2);
    const int day = digits(text, 8, 2);
    static constexpr int days_in_month[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1 || month < 1 || month > 12 || day < 1) return std::nullopt;
    if (day > days_in_month[month - 1] + (month == 2 && leap(year) ? 1 : 0)) return std::nullopt;
    return days_from_civil(year, month, day);
}

}  // namespace

std::optional<Granularity> parse_granularity(std::string_view text) {
    if (text == "hour") return Granularity::hour;
    if (text == "day") return Granularity::day;
    return std::nullopt;
}

std::optional<UtcInstant> parse_utc_instant(std::string_view text) {
    if (!occurred_at_valid(std::string(text))) return std::nullopt;
    const std::optional<std::int64_t> day = day_of(text);
    if (!day) return std::nullopt;
    const std::int64_t seconds =
        *day * seconds_per_day + digits(text, 11, 2) * seconds_per_hour + digits(text, 14, 2) * 60 + digits(text, 17, 2);
    bool whole = true;
    for (std::size_t i = 20; i + 1 < text.size(); ++i) whole = whole && text[i] == '0';
    return UtcInstant{seconds, whole};
}

std::optional<std::int64_t> parse_utc_day(std::string_view text) {
    if (text.size() != 10) return std::nullopt;
    return day_of(text);
}

bool starts_window(const UtcInstant& at, Granularity granularity) {
    const std::int64_t width = granularity == Granularity::hour ? seconds_per_hour : seconds_per_day;
    // Years from 0001: seconds may be negative, so use the floored remainder.
    return at.whole_seconds && ((at.seconds % width) + width) % width == 0;
}

std::optional<std::string> parity_range_problem(std::int64_t from_seconds, std::int64_t to_seconds,
                                                Granularity granularity) {
    if (to_seconds <= from_seconds) return "to must be after from";
    if (granularity == Granularity::hour && to_seconds - from_seconds > parity_hours_max * seconds_per_hour)
        return "an hourly range covers at most " + std::to_string(parity_hours_max) + " hours";
    if (granularity == Granularity::day && to_seconds - from_seconds > parity_days_max * seconds_per_day)
        return "a daily range covers at most " + std::to_string(parity_days_max) + " days";
    return std::nullopt;
}

std::optional<std::string> insights_range_problem(std::int64_t from_day, std::int64_t to_day) {
    if (to_day < from_day) return "to must not be before from";
    if (to_day - from_day + 1 > insights_days_max)
        return "a range covers at most " + std::to_string(insights_days_max) + " days";
    return std::nullopt;
}

}  // namespace corebank::core::events
