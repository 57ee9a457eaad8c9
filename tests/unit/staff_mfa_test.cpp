// staff_mfa_test.cpp: the tier's side of the staff second factor: the core
// tier's refusal of a staff token without "mfa" in its amr
// (banking/staff_mfa.hpp), and the identity tier's reading of a code
// (auth/mfa_requests.hpp), which refuses a malformed one before the database
// could count it as a guess.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "api_error.hpp"
#include "auth/mfa_requests.hpp"
#include "banking/staff_mfa.hpp"

namespace {

using corebank::httpd::ApiError;
using corebank::httpd::auth::parse_mfa_code;
using corebank::httpd::core_banking::second_factor_refusal;

const std::vector<std::string> admin_only{"admin"};

nlohmann::json claims(nlohmann::json amr) {
    nlohmann::json c{{"sub", "u"}};
    if (!amr.is_null()) c["amr"] = std::move(amr);
    return c;
}

using Roles = std::vector<std::string>;

TEST(StaffSecondFactor, AnAdminTokenAfterAPasswordAloneIsRefused) {
    const auto refusal = second_factor_refusal(Roles{"admin"}, claims({"pwd"}), admin_only);
    ASSERT_TRUE(refusal.has_value());
    EXPECT_EQ(refusal->status, 403);
    EXPECT_EQ(refusal->code, "FORBIDDEN");
    EXPECT_NE(std::string(refusal->what()).find("second factor is required for the role admin"), std::string::npos)
        << refusal->what();
}

TEST(StaffSecondFactor, AnAdminTokenWithMfaIsAccepted) {
    EXPECT_FALSE(second_factor_refusal(Roles{"admin", "teller"}, claims({"pwd", "otp", "mfa"}), admin_only));
    EXPECT_FALSE(second_factor_refusal(Roles{"admin"}, claims({"pwd", "mfa"}), admin_only));  // a recovery code
}

TEST(StaffSecondFactor, AMissingOrMalformedAmrLacksMfa) {
    EXPECT_TRUE(second_factor_refusal(Roles{"admin"}, claims(nullptr), admin_only));
    EXPECT_TRUE(second_factor_refusal(Roles{"admin"}, claims("mfa"), admin_only));  // a string, not an array
    EXPECT_TRUE(second_factor_refusal(Roles{"admin"}, claims({1, 2}), admin_only));
}

TEST(StaffSecondFactor, RolesOutsideTheListNeedNoSecondFactor) {
    EXPECT_FALSE(second_factor_refusal(Roles{"teller", "supervisor"}, claims({"pwd"}), admin_only));
    EXPECT_FALSE(second_factor_refusal(Roles{}, claims({"pwd"}), admin_only));
    EXPECT_FALSE(second_factor_refusal(Roles{"admin"}, claims({"pwd"}), {"nobody"}));
}

TEST(StaffSecondFactor, EveryListedRoleCounts) {
    const std::vector<std::string> two{"admin", "supervisor"};
    const auto refusal = second_factor_refusal(Roles{"teller", "supervisor"}, claims({"pwd"}), two);
    ASSERT_TRUE(refusal.has_value());
    EXPECT_NE(std::string(refusal->what()).find("role supervisor"), std::string::npos) << refusal->what();
}

std::string rejection(const std::string& body, bool totp_only) {
    try {
        parse_mfa_code(body, totp_only);
    } catch (const ApiError& e) {
        return std::to_string(e.status) + " " + e.code + " " + e.what();
    }
    return "accepted";
}

TEST(MfaCodeBody, ConfirmTakesSixDigitsOnly) {
    EXPECT_EQ(parse_mfa_code(R"({"code":" 012345 "})", true), "012345");
    EXPECT_EQ(rejection(R"({"code":"12345"})", true), "400 VALIDATION_ERROR code: must be 6 digits");
    EXPECT_EQ(rejection(R"({"code":"abcde-fghjk"})", true), "400 VALIDATION_ERROR code: must be 6 digits");
}

TEST(MfaCodeBody, DisableAndNewCodesTakeARecoveryCodeToo) {
    EXPECT_EQ(parse_mfa_code(R"({"code":"ABCDE-FGHJK"})", false), "ABCDE-FGHJK");
    EXPECT_EQ(parse_mfa_code(R"({"code":"123456"})", false), "123456");
    EXPECT_EQ(rejection(R"({"code":"abcde-fghj0"})", false),
              "400 VALIDATION_ERROR code: must be a 6-digit code or a recovery code (xxxxx-xxxxx)");
}

TEST(MfaCodeBody, BadBodiesAreRefusedWithTheirReasons) {
    EXPECT_EQ(rejection("{}", false), "400 VALIDATION_ERROR code: is required");
    EXPECT_EQ(rejection(R"({"code":123456})", true).substr(0, 25), "400 VALIDATION_ERROR code");
    EXPECT_EQ(rejection(R"({"code":"123456","x":1})", true), "400 VALIDATION_ERROR x: unknown field");
    EXPECT_EQ(rejection("not json", true), "400 BAD_REQUEST Malformed JSON request body");
    EXPECT_EQ(rejection(R"({"code":")" + std::string(21, '1') + R"("})", false).substr(0, 25),
              "400 VALIDATION_ERROR code");
}

}  // namespace
