// interest_test.cpp: the pure interest and money arithmetic
// (extension/core/interest.hpp).
//
// Goal: a month of daily accrual matches hand-computed figures for a simple,
// a compound and a tiered product (docs/design/deposits.md, worked example),
// rounding is half-even at every step, and the money helpers (basis-point
// fees, FX conversion, micro text) hold at their edges. Method: the same
// loop the daily run performs (accrue, add to the month's cumulative, journal
// the change of the rounded cumulative), on fixed balances; no database.
#include <gtest/gtest.h>

#include <vector>

#include "core/interest.hpp"

namespace {

namespace interest = corebank::core::interest;
using interest::Method;
using interest::Micro;
using interest::Tier;

struct Month {
    Micro cumulative = 0;
    std::int64_t journalled = 0;  // the sum of the daily journal amounts
};

// One month of the daily run on a balance that does not move: accrue, keep
// the cumulative, journal the change of its rounded value each day.
Month run_month(std::int64_t balance_minor, Method method, std::int32_t rate_bp, const std::vector<Tier>& tiers,
                int days) {
    Month month;
    std::int64_t rounded_before = 0;
    for (int day = 0; day < days; ++day) {
        month.cumulative += interest::daily_accrual(balance_minor, month.cumulative, method, rate_bp, tiers);
        const std::int64_t rounded = interest::micro_to_minor(month.cumulative);
        EXPECT_GE(rounded, rounded_before) << "the rounded cumulative never falls";
        month.journalled += rounded - rounded_before;
        rounded_before = rounded;
    }
    return month;
}

// Goal: SIMPLE 3.65% on 10,000.00 accrues exactly 1.00 a day: 30.00 in June.
TEST(InterestTest, SimpleMonthMatchesHandFigures) {
    EXPECT_EQ(interest::daily_accrual(1'000'000, 0, Method::simple, 365, {}), Micro{100'000'000});
    const Month june = run_month(1'000'000, Method::simple, 365, {}, 30);
    EXPECT_EQ(june.cumulative, Micro{3'000'000'000});
    EXPECT_EQ(interest::micro_to_minor(june.cumulative), 3000);
    EXPECT_EQ(june.journalled, 3000);
}

// Goal: COMPOUND 3.65% on 10,000.00 compounds daily on the month's accrual:
// day n accrues (1,000,000 + accrued) * 365 / 3,650,000 (micro, half-even);
// after 30 days 3004.354060, posted 3004.
TEST(InterestTest, CompoundMonthMatchesHandFigures) {
    // Day 2 earns on 1,000,100 minor units (10,001.00): 100.01 minor units.
    EXPECT_EQ(interest::daily_accrual(1'000'000, 100'000'000, Method::compound, 365, {}), Micro{100'010'000});
    const Month june = run_month(1'000'000, Method::compound, 365, {}, 30);
    EXPECT_EQ(june.cumulative, Micro{3'004'354'060});
    EXPECT_EQ(interest::micro_to_minor(june.cumulative), 3004);
    EXPECT_EQ(june.journalled, 3004);
}

// Goal: tiers are bands. SAV-TIER (1% to 1,000.00, 2% to 10,000.00, then 3%)
// on 10,000.00: 100,000 * 100 + 900,000 * 200 = 19,000,000 a year per 10^4,
// 52.054794.. a day -> 52054795 micro; 30 days 1561.643850 -> 1562.
TEST(InterestTest, TieredMonthMatchesHandFigures) {
    const std::vector<Tier> tiers = {{0, 100}, {100'000, 200}, {1'000'000, 300}};
    EXPECT_EQ(interest::daily_accrual(1'000'000, 0, Method::simple, 0, tiers), Micro{52'054'795});
    const Month june = run_month(1'000'000, Method::simple, 0, tiers, 30);
    EXPECT_EQ(june.cumulative, Micro{1'561'643'850});
    EXPECT_EQ(interest::micro_to_minor(june.cumulative), 1562);
    EXPECT_EQ(june.journalled, 1562);
    // The slice above 10,000.00 earns 3%: (10^7 + 1.8 * 10^8 + 3 * 10^8) * 10^6 / 3,650,000.
    EXPECT_EQ(interest::daily_accrual(2'000'000, 0, Method::simple, 0, tiers), Micro{134'246'575});
    EXPECT_EQ(interest::effective_rate_bp(1'000'000, 0, tiers), 190);
}

// Goal: nothing accrues on a zero or negative base, or without a method.
TEST(InterestTest, NoAccrualWithoutPositiveBase) {
    EXPECT_EQ(interest::daily_accrual(0, 0, Method::simple, 500, {}), Micro{0});
    EXPECT_EQ(interest::daily_accrual(-5'000, 0, Method::compound, 500, {}), Micro{0});
    EXPECT_EQ(interest::daily_accrual(1'000'000, 0, Method::none, 500, {}), Micro{0});
}

// Goal: half-even rounding: ties go to the even neighbour, in both signs.
TEST(InterestTest, RoundsHalfEven) {
    EXPECT_EQ(interest::micro_to_minor(500'000), 0);
    EXPECT_EQ(interest::micro_to_minor(1'500'000), 2);
    EXPECT_EQ(interest::micro_to_minor(2'500'000), 2);
    EXPECT_EQ(interest::micro_to_minor(2'500'001), 3);
    EXPECT_EQ(interest::micro_to_minor(-2'500'000), -2);
    EXPECT_EQ(interest::divide_half_even(7, 2), Micro{4});
    EXPECT_EQ(interest::divide_half_even(5, 2), Micro{2});
}

// Goal: basis-point fees and penalties round half-even.
TEST(InterestTest, AppliesBasisPoints) {
    EXPECT_EQ(interest::apply_bp(100'000, 200), 2000);  // 2% of 1,000.00
    EXPECT_EQ(interest::apply_bp(25, 200), 0);           // 0.5 -> 0
    EXPECT_EQ(interest::apply_bp(75, 200), 2);           // 1.5 -> 2
    EXPECT_EQ(interest::apply_bp(0, 10'000), 0);
}

// Goal: FX conversion is exact decimal arithmetic with half-even rounding,
// and malformed rates are refused.
TEST(InterestTest, ConvertsCurrencies) {
    EXPECT_EQ(interest::fx_convert(10'000, "26.5"), std::optional<std::int64_t>(265'000));
    EXPECT_EQ(interest::fx_convert(10'000, "26.5000000000"), std::optional<std::int64_t>(265'000));
    EXPECT_EQ(interest::fx_convert(1, "0.5"), std::optional<std::int64_t>(0));
    EXPECT_EQ(interest::fx_convert(3, "0.5"), std::optional<std::int64_t>(2));
    EXPECT_EQ(interest::fx_convert(265'000, "0.0377358491"), std::optional<std::int64_t>(10'000));
    EXPECT_FALSE(interest::fx_convert(100, "0"));
    EXPECT_FALSE(interest::fx_convert(100, "-1"));
    EXPECT_FALSE(interest::fx_convert(100, "1."));
    EXPECT_FALSE(interest::fx_convert(100, "1.12345678901"));
    EXPECT_FALSE(interest::fx_convert(100, "abc"));
    EXPECT_FALSE(interest::fx_convert(interest::amount_minor_max, "2"));
}

// Goal: tiers are checked: first from 0, increasing, rates in range.
TEST(InterestTest, ChecksTiers) {
    EXPECT_FALSE(interest::tiers_problem({{0, 100}, {1000, 200}}));
    EXPECT_TRUE(interest::tiers_problem({{1, 100}}));
    EXPECT_TRUE(interest::tiers_problem({{0, 100}, {0, 200}}));
    EXPECT_TRUE(interest::tiers_problem({{0, -1}}));
    EXPECT_TRUE(interest::tiers_problem({{0, interest::rate_bp_max + 1}}));
    // The limit in the text is limits::amount_minor_max, written out.
    EXPECT_EQ(interest::tiers_problem({{0, 100}, {interest::amount_minor_max + 1, 200}}),
              std::optional<std::string>("a tier starts outside 0..1000000000000000"));
    EXPECT_EQ(interest::tiers_problem({{0, interest::rate_bp_max + 1}}),
              std::optional<std::string>("a tier rate must be 0 to 100000 basis points"));
}

// Goal: micro amounts cross to SQL as text and back unchanged, beyond a bigint.
TEST(InterestTest, MicroTextRoundTrips) {
    const Micro big = Micro{1'000'000'000'000'000} * 1'000'000 + 7;
    EXPECT_EQ(interest::micro_from_text(interest::micro_to_text(big)), std::optional<Micro>(big));
    EXPECT_EQ(interest::micro_to_text(-42), "-42");
    EXPECT_EQ(interest::micro_from_text("0"), std::optional<Micro>(0));
    EXPECT_EQ(interest::micro_from_text("12.000"), std::optional<Micro>(12));
    EXPECT_FALSE(interest::micro_from_text("12.5"));
    EXPECT_FALSE(interest::micro_from_text(""));
    EXPECT_FALSE(interest::micro_from_text("1e5"));
    EXPECT_EQ(interest::parse_method("COMPOUND"), std::optional<Method>(Method::compound));
    EXPECT_FALSE(interest::parse_method("compound"));
}

}  // namespace
