// api_key_validation_test.cpp: the bodies of a key's rotation and of PUT
// /v1/api-keys/{id} (issue 15).
//
// Goal: each refusal is a 400 with the documented code and a message naming
// the field; an empty rotation body takes the default; `expiresAt: null` is
// kept apart from an absent expiresAt (it removes the expiry). Method: pure
// functions on hand-written bodies.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "api_error.hpp"
#include "banking/api_key_validation.hpp"

namespace {

using corebank::httpd::ApiError;
namespace banking = corebank::httpd::core_banking;

::testing::AssertionResult refused(const std::function<void()>& parse, const std::string& code,
                                   const std::string& message_part) {
    try {
        parse();
    } catch (const ApiError& e) {
        const std::string message = e.what();
        if (e.status == 400 && e.code == code && message.find(message_part) != std::string::npos)
            return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "threw " << e.status << " " << e.code << " \"" << message << "\"";
    }
    return ::testing::AssertionFailure() << "accepted the input";
}

TEST(ApiKeyRotateRequest, EmptyBodyTakesTheDefaultAndBoundsHold) {
    EXPECT_TRUE(banking::parse_api_key_rotate("").empty());
    EXPECT_TRUE(banking::parse_api_key_rotate("  ").empty());
    EXPECT_TRUE(banking::parse_api_key_rotate("{}").empty());
    EXPECT_EQ(banking::parse_api_key_rotate(R"({"overlapSeconds":0})")["overlapSeconds"], 0);
    EXPECT_EQ(banking::parse_api_key_rotate(R"({"overlapSeconds":2592000})")["overlapSeconds"], 2592000);
    EXPECT_TRUE(refused([] { banking::parse_api_key_rotate(R"({"overlapSeconds":2592001})"); }, "VALIDATION_ERROR",
                        "overlapSeconds"));
    EXPECT_TRUE(refused([] { banking::parse_api_key_rotate(R"({"overlapSeconds":-1})"); }, "VALIDATION_ERROR",
                        "overlapSeconds"));
    EXPECT_TRUE(refused([] { banking::parse_api_key_rotate(R"({"overlapSeconds":"60"})"); }, "VALIDATION_ERROR",
                        "overlapSeconds"));
    EXPECT_TRUE(refused([] { banking::parse_api_key_rotate(R"({"scopes":["admin"]})"); }, "VALIDATION_ERROR", "scopes"));
    EXPECT_TRUE(refused([] { banking::parse_api_key_rotate("[1]"); }, "BAD_REQUEST", "Malformed JSON"));
}

TEST(ApiKeyUpdateRequest, KeepsNullExpiryApartFromAbsent) {
    const auto cleared = banking::parse_api_key_update(R"({"expiresAt":null})");
    ASSERT_TRUE(cleared.contains("expiresAt"));
    EXPECT_TRUE(cleared["expiresAt"].is_null());
    const auto renamed = banking::parse_api_key_update(R"({"name":"  ops  "})");
    EXPECT_EQ(renamed["name"], "ops");
    EXPECT_FALSE(renamed.contains("expiresAt"));
    EXPECT_EQ(banking::parse_api_key_update(R"({"expiresAt":"2030-01-31T12:00:00.5+02:00"})")["expiresAt"],
              "2030-01-31T12:00:00.5+02:00");
}

TEST(ApiKeyUpdateRequest, RefusesBadValues) {
    EXPECT_TRUE(refused([] { banking::parse_api_key_update("{}"); }, "VALIDATION_ERROR",
                        "body: give at least one of name, rateLimitPerMinute, expiresAt"));
    EXPECT_TRUE(refused([] { banking::parse_api_key_update(R"({"name":"   "})"); }, "VALIDATION_ERROR", "name"));
    EXPECT_TRUE(refused([] { banking::parse_api_key_update(R"({"rateLimitPerMinute":0})"); }, "VALIDATION_ERROR",
                        "rateLimitPerMinute"));
    for (const char* bad : {R"({"expiresAt":"2030-01-31"})", R"({"expiresAt":"2030-01-31T12:00:00"})",
                            R"({"expiresAt":"2030-13-01T00:00:00Z"})", R"({"expiresAt":"2030-01-31 12:00:00Z"})",
                            R"({"expiresAt":1900000000})", R"({"expiresAt":"tomorrow"})"}) {
        EXPECT_TRUE(refused([bad] { banking::parse_api_key_update(bad); }, "VALIDATION_ERROR", "expiresAt")) << bad;
    }
    EXPECT_TRUE(refused([] { banking::parse_api_key_update(R"({"name":)"); }, "BAD_REQUEST", "Malformed JSON"));
}

}  // namespace
