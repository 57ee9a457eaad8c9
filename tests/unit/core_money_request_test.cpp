// core_money_request_test.cpp: the members of a money request
// (extension/core/money_request.hpp).
//
// Goal: each reader answers what the SQL reader it replaced answered (1.7's
// json_string, json_int, json_uuid, json_date, json_amount_minor and
// json_channel), at each edge: absent, null, empty, another JSON kind, one
// character over the limit (in characters, not bytes), numbers as
// numeric_out prints them. Method: hand-built members; no database.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/money_request.hpp"

namespace {

namespace mr = corebank::core::money_request;
using corebank::core::CoreError;
using Kind = mr::Member::Kind;

mr::Member string_member(std::string text) { return mr::Member{Kind::string, std::move(text)}; }
mr::Member number_member(std::string text) { return mr::Member{Kind::number, std::move(text)}; }
const mr::Member absent{};
const mr::Member null_member{Kind::null, ""};

// The CBV00 message a call throws.
template <typename Call>
std::string refusal(Call&& call) {
    try {
        call();
    } catch (const CoreError& error) {
        EXPECT_STREQ(error.sqlstate(), "CBV00");
        return error.what();
    }
    ADD_FAILURE() << "no refusal";
    return {};
}

TEST(MoneyRequest, TextIsAbsentNullOrEmptyAsNothing) {
    EXPECT_FALSE(mr::text(absent, "reference", 80));
    EXPECT_FALSE(mr::text(null_member, "reference", 80));
    EXPECT_FALSE(mr::text(string_member(""), "reference", 80));
    EXPECT_EQ(mr::text(string_member(" a "), "reference", 80).value(), " a ");
}

TEST(MoneyRequest, TextRefusesOtherKindsAndCountsCharacters) {
    EXPECT_EQ(refusal([] { mr::text(number_member("1"), "reference", 80); }), "reference: must be a string");
    EXPECT_EQ(refusal([] { mr::text(mr::Member{Kind::object, ""}, "narrative", 5); }), "narrative: must be a string");
    EXPECT_EQ(refusal([] { mr::text(mr::Member{Kind::boolean, ""}, "narrative", 5); }), "narrative: must be a string");
    EXPECT_EQ(mr::text(string_member("ééééé"), "narrative", 5).value(), "ééééé");  // 10 bytes, 5 characters
    EXPECT_EQ(refusal([] { mr::text(string_member("abcdef"), "narrative", 5); }),
              "narrative: must be at most 5 characters");
}

TEST(MoneyRequest, TrimmedChecksLengthBeforeTrimming) {
    EXPECT_EQ(mr::trimmed(string_member("  ab  "), "reference", 6).value(), "ab");
    EXPECT_FALSE(mr::trimmed(string_member("   "), "reference", 6));
    EXPECT_EQ(refusal([] { mr::trimmed(string_member("  ab   "), "reference", 6); }),
              "reference: must be at most 6 characters");
    EXPECT_EQ(mr::trimmed(string_member("\tab"), "reference", 6).value(), "\tab");  // btrim trims spaces only
}

TEST(MoneyRequest, UuidIsCanonicalAndOnlyTheHyphenatedForm) {
    EXPECT_EQ(mr::uuid(string_member("0A1B2C3D-0000-4000-8000-00000000000F"), "accountId").value(),
              "0a1b2c3d-0000-4000-8000-00000000000f");
    EXPECT_FALSE(mr::uuid(absent, "accountId"));
    EXPECT_EQ(refusal([] { mr::uuid(string_member("0a1b2c3d00004000800000000000000f"), "accountId"); }),
              "accountId: must be a UUID");
    EXPECT_EQ(refusal([] { mr::uuid(string_member("not-a-uuid"), "accountId"); }), "accountId: must be a UUID");
    EXPECT_EQ(refusal([] { mr::uuid(string_member(std::string(37, 'a')), "accountId"); }),
              "accountId: must be at most 36 characters");
    EXPECT_EQ(refusal([] { mr::uuid(number_member("1"), "accountId"); }), "accountId: must be a string");
}

TEST(MoneyRequest, DateIsARealCalendarDate) {
    EXPECT_EQ(mr::date(string_member("2024-02-29"), "valueDate").value(), "2024-02-29");
    EXPECT_EQ(refusal([] { mr::date(string_member("2023-02-29"), "valueDate"); }),
              "valueDate: must be a date YYYY-MM-DD");
    EXPECT_EQ(refusal([] { mr::date(string_member("2100-02-29"), "valueDate"); }),
              "valueDate: must be a date YYYY-MM-DD");
    EXPECT_EQ(mr::date(string_member("2000-02-29"), "valueDate").value(), "2000-02-29");
    EXPECT_EQ(refusal([] { mr::date(string_member("2024-13-01"), "valueDate"); }),
              "valueDate: must be a date YYYY-MM-DD");
    EXPECT_EQ(refusal([] { mr::date(string_member("2024-1-01"), "valueDate"); }),
              "valueDate: must be a date YYYY-MM-DD");
    EXPECT_EQ(refusal([] { mr::date(string_member("0000-01-01"), "valueDate"); }),
              "valueDate: must be a date YYYY-MM-DD");
    EXPECT_EQ(refusal([] { mr::date(string_member("2024-01-011"), "valueDate"); }),
              "valueDate: must be at most 10 characters");
}

TEST(MoneyRequest, ChannelDefaultsToBranchAndIsUpperCased) {
    EXPECT_EQ(mr::channel(absent), "BRANCH");
    EXPECT_EQ(mr::channel(string_member("")), "BRANCH");
    EXPECT_EQ(mr::channel(string_member("mobile.app-2_x")), "MOBILE.APP-2_X");
    EXPECT_EQ(refusal([] { mr::channel(string_member("two words")); }),
              "channel: must be 1 to 32 of A-Z a-z 0-9 _ . -");
    EXPECT_EQ(refusal([] { mr::channel(string_member(std::string(33, 'A'))); }),
              "channel: must be at most 32 characters");
}

TEST(MoneyRequest, AmountMinorIsAnIntegerInRange) {
    EXPECT_EQ(mr::positive_amount(number_member("1"), absent), 1);
    EXPECT_EQ(mr::positive_amount(string_member("250"), absent), 250);  // a string of digits, as json_int took it
    EXPECT_EQ(mr::positive_amount(number_member("1000000000000000"), absent), corebank::core::limits::amount_minor_max);
    const std::string range = "amountMinor: must be an integer from 0 to 1000000000000000";
    EXPECT_EQ(refusal([] { mr::positive_amount(number_member("1000000000000001"), absent); }), range);
    EXPECT_EQ(refusal([] { mr::positive_amount(number_member("-1"), absent); }), range);
    EXPECT_EQ(refusal([] { mr::positive_amount(number_member("1.5"), absent); }), range);
    EXPECT_EQ(refusal([] { mr::positive_amount(number_member("1234567890123456789"), absent); }), range);
    EXPECT_EQ(refusal([] { mr::positive_amount(mr::Member{Kind::boolean, ""}, absent); }), range);
    EXPECT_EQ(refusal([] { mr::positive_amount(number_member("0"), absent); }), "amountMinor: must be greater than zero");
}

TEST(MoneyRequest, AmountIsADecimalWithTwoPlacesAtMost) {
    EXPECT_EQ(mr::positive_amount(absent, string_member("12.34")), 1234);
    EXPECT_EQ(mr::positive_amount(null_member, number_member("12.3")), 1230);
    EXPECT_EQ(mr::positive_amount(absent, number_member("7")), 700);
    EXPECT_EQ(mr::positive_amount(absent, string_member("9999999999999.99")), 999999999999999);
    const std::string decimal = "amount: must be a decimal amount with at most 2 decimals";
    EXPECT_EQ(refusal([] { mr::positive_amount(absent, string_member("1.234")); }), decimal);
    EXPECT_EQ(refusal([] { mr::positive_amount(absent, string_member("1.")); }), decimal);
    EXPECT_EQ(refusal([] { mr::positive_amount(absent, string_member("-1")); }), decimal);
    EXPECT_EQ(refusal([] { mr::positive_amount(absent, string_member("10000000000000")); }), decimal);
    EXPECT_EQ(refusal([] { mr::positive_amount(absent, string_member("0.00")); }), "amountMinor: must be greater than zero");
    // amountMinor wins when both are given; another kind of amount is as if absent.
    EXPECT_EQ(mr::positive_amount(number_member("5"), string_member("bad")), 5);
    EXPECT_EQ(refusal([] { mr::positive_amount(absent, mr::Member{Kind::object, ""}); }),
              "amountMinor: is required (or amount)");
    EXPECT_EQ(refusal([] { mr::positive_amount(absent, absent); }), "amountMinor: is required (or amount)");
}

}  // namespace
