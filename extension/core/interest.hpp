// interest.hpp: deposit interest and money arithmetic, in pure C++
// (docs/design/deposits.md, Interest).
//
// Everything is integer arithmetic: amounts in minor units (int64), accruals
// in micro-minor units (10^-6 of a minor unit) held in a 128-bit integer, so
// that no floating point ever touches money and no intermediate product of
// a balance, a rate and the scale can overflow:
//   10^15 (amount_minor_max) * 10^6 (scale) * 10^5 (rate_bp_max) = 10^26 < 2^127.
// Rounding is half-even (banker's) everywhere: a day's accrual at micro
// scale, the cumulative accrual to minor units, basis-point fees and FX
// conversion.
//
// Interest, per day, on the end-of-day balance (actual/365):
//   SIMPLE    daily = balance * rate / (10000 * 365)
//   COMPOUND  daily = (balance + accrued this month) * rate / (10000 * 365)
//   tiers     bands: the slice of the base from tier i's from_minor up to
//             tier i+1's earns tier i's rate; one rounding per day.
// A base at or below zero accrues nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/limits.hpp"

namespace corebank::core::interest {

__extension__ typedef __int128 Micro;  // micro-minor units (10^-6 of a minor unit)

inline constexpr std::int64_t micro_per_minor = 1'000'000;
inline constexpr std::int64_t days_per_year = 365;
inline constexpr std::int64_t bp_per_unit = 10'000;
inline constexpr std::int32_t rate_bp_max = 100'000;          // 1000% a year
using limits::amount_minor_max;
inline constexpr std::size_t tiers_max = 16;
inline constexpr int fx_rate_decimals_max = 10;
inline constexpr std::size_t micro_text_length_max = 40;

static_assert(days_per_year == 365, "the day count is actual/365");

enum class Method { none, simple, compound };

struct Tier {
    std::int64_t from_minor = 0;
    std::int32_t rate_bp = 0;
};

// "NONE", "SIMPLE", "COMPOUND" (upper case); nullopt otherwise.
std::optional<Method> parse_method(std::string_view text);

// Checks tiers: at most tiers_max, the first from 0, strictly increasing,
// rates 0..rate_bp_max. Returns a "reason" for the first problem, or nullopt.
std::optional<std::string> tiers_problem(const std::vector<Tier>& tiers);

// n / d rounded half-even; d > 0.
Micro divide_half_even(Micro numerator, Micro denominator);

// One day's accrual in micro-minor units. `tiers` empty: the flat rate_bp.
// accrued_micro is the month's accrual so far (compound base only).
Micro daily_accrual(std::int64_t balance_minor, Micro accrued_micro, Method method, std::int32_t rate_bp,
                    const std::vector<Tier>& tiers);

// Micro-minor units to minor units, half-even.
std::int64_t micro_to_minor(Micro micro);

// amount * bp / 10000, half-even (fees, penalties). amount >= 0, bp >= 0.
std::int64_t apply_bp(std::int64_t amount_minor, std::int32_t bp);

// The effective flat rate of a balance under tiers, in basis points
// (informational, rounded half-even); the flat rate when there are no tiers.
std::int32_t effective_rate_bp(std::int64_t balance_minor, std::int32_t rate_bp, const std::vector<Tier>& tiers);

// amount * rate, half-even, where rate is a positive decimal with at most
// fx_rate_decimals_max decimals ("26.5", "0.0377358490"). nullopt when the
// rate is malformed or not positive, or the result exceeds amount_minor_max.
std::optional<std::int64_t> fx_convert(std::int64_t amount_minor, std::string_view rate_text);

// Decimal text of micro-minor units ("-12" or "52054795"); and back.
std::string micro_to_text(Micro micro);
std::optional<Micro> micro_from_text(std::string_view text);

}  // namespace corebank::core::interest
