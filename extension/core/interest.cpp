// interest.cpp: see interest.hpp.
#include "core/interest.hpp"

#include <cassert>

namespace corebank::core::interest {

namespace {

constexpr Micro year_denominator = static_cast<Micro>(bp_per_unit) * days_per_year;

static_assert(year_denominator == 3'650'000, "10000 basis points * 365 days");

Micro absolute(Micro value) { return value < 0 ? -value : value; }

// Σ slice * rate over the bands, the base in micro units.
Micro banded_numerator(Micro base_micro, const std::vector<Tier>& tiers) {
    Micro numerator = 0;
    for (std::size_t index = 0; index < tiers.size(); ++index) {
        const Micro from = static_cast<Micro>(tiers[index].from_minor) * micro_per_minor;
        if (base_micro <= from) break;
        Micro to = base_micro;
        if (index + 1 < tiers.size()) {
            const Micro next = static_cast<Micro>(tiers[index + 1].from_minor) * micro_per_minor;
            if (next < to) to = next;
        }
        numerator += (to - from) * tiers[index].rate_bp;
    }
    return numerator;
}

}  // namespace

std::optional<Method> parse_method(std::string_view text) {
    if (text == "NONE") return Method::none;
    if (text == "SIMPLE") return Method::simple;
    if (text == "COMPOUND") return Method::compound;
    return std::nullopt;
}

std::optional<std::string> tiers_problem(const std::vector<Tier>& tiers) {
    if (tiers.size() > tiers_max) return "must have at most " + std::to_string(tiers_max) + " tiers";
    for (std::size_t index = 0; index < tiers.size(); ++index) {
        const Tier& tier = tiers[index];
        if (index == 0 && tier.from_minor != 0) return "the first tier must start at 0";
        if (index > 0 && tier.from_minor <= tiers[index - 1].from_minor) return "tiers must start at increasing amounts";
        if (tier.from_minor < 0 || tier.from_minor > amount_minor_max) {
            return "a tier starts outside 0.." + std::to_string(amount_minor_max);
        }
        if (tier.rate_bp < 0 || tier.rate_bp > rate_bp_max) {
            return "a tier rate must be 0 to " + std::to_string(rate_bp_max) + " basis points";
        }
    }
    return std::nullopt;
}

Micro divide_half_even(Micro numerator, Micro denominator) {
    assert(denominator > 0);
    const bool negative = numerator < 0;
    const Micro magnitude = absolute(numerator);
    Micro quotient = magnitude / denominator;
    const Micro remainder = magnitude % denominator;
    const Micro twice = remainder * 2;
    if (twice > denominator || (twice == denominator && quotient % 2 == 1)) ++quotient;
    return negative ? -quotient : quotient;
}

Micro daily_accrual(std::int64_t balance_minor, Micro accrued_micro, Method method, std::int32_t rate_bp,
                    const std::vector<Tier>& tiers) {
    assert(rate_bp >= 0 && rate_bp <= rate_bp_max);
    assert(balance_minor <= amount_minor_max && balance_minor >= -amount_minor_max);
    if (method == Method::none) return 0;
    Micro base = static_cast<Micro>(balance_minor) * micro_per_minor;
    if (method == Method::compound) base += accrued_micro;
    if (base <= 0) return 0;
    const Micro numerator = tiers.empty() ? base * rate_bp : banded_numerator(base, tiers);
    const Micro accrual = divide_half_even(numerator, year_denominator);
    assert(accrual >= 0);
    return accrual;
}

std::int64_t micro_to_minor(Micro micro) {
    return static_cast<std::int64_t>(divide_half_even(micro, micro_per_minor));
}

std::int64_t apply_bp(std::int64_t amount_minor, std::int32_t bp) {
    assert(amount_minor >= 0 && bp >= 0);
    return static_cast<std::int64_t>(divide_half_even(static_cast<Micro>(amount_minor) * bp, bp_per_unit));
}

std::int32_t effective_rate_bp(std::int64_t balance_minor, std::int32_t rate_bp, const std::vector<Tier>& tiers) {
    if (tiers.empty()) return rate_bp;
    if (balance_minor <= 0) return tiers.front().rate_bp;
    const Micro base = static_cast<Micro>(balance_minor) * micro_per_minor;
    return static_cast<std::int32_t>(divide_half_even(banded_numerator(base, tiers), base));
}

std::optional<std::int64_t> fx_convert(std::int64_t amount_minor, std::string_view rate_text) {
    if (amount_minor < 0 || amount_minor > amount_minor_max) return std::nullopt;
    // Parse digits[.digits] into an integer scaled by 10^decimals.
    Micro rate = 0;
    int decimals = -1;
    int digits = 0;
    for (const char c : rate_text) {
        if (c == '.') {
            if (decimals >= 0 || digits == 0) return std::nullopt;
            decimals = 0;
            continue;
        }
        if (c < '0' || c > '9') return std::nullopt;
        if (++digits > 30) return std::nullopt;
        rate = rate * 10 + (c - '0');
        if (decimals >= 0 && ++decimals > fx_rate_decimals_max) return std::nullopt;
    }
    if (digits == 0 || decimals == 0 || rate <= 0) return std::nullopt;
    Micro denominator = 1;
    for (int i = 0; i < (decimals < 0 ? 0 : decimals); ++i) denominator *= 10;
    const Micro converted = divide_half_even(static_cast<Micro>(amount_minor) * rate, denominator);
    if (converted > amount_minor_max) return std::nullopt;
    return static_cast<std::int64_t>(converted);
}

std::string micro_to_text(Micro micro) {
    if (micro == 0) return "0";
    const bool negative = micro < 0;
    Micro magnitude = absolute(micro);
    std::string digits;
    while (magnitude > 0) {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
        magnitude /= 10;
    }
    return negative ? "-" + digits : digits;
}

std::optional<Micro> micro_from_text(std::string_view text) {
    if (text.empty() || text.size() > micro_text_length_max) return std::nullopt;
    bool negative = false;
    if (text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    // A numeric column renders whole values without a fraction; accept a
    // ".000" tail of zeros and nothing else.
    const std::size_t dot = text.find('.');
    if (dot != std::string_view::npos) {
        for (const char c : text.substr(dot + 1)) {
            if (c != '0') return std::nullopt;
        }
        text = text.substr(0, dot);
    }
    if (text.empty() || text.size() > 36) return std::nullopt;
    Micro value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return negative ? -value : value;
}

}  // namespace corebank::core::interest
