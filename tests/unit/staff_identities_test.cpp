// staff_identities_test.cpp: the request rules of /v1/staff/identities
// (httpd/src/banking/staff/identities_validation.hpp), issue 15.
#include <functional>

#include <gtest/gtest.h>

#include "api_error.hpp"
#include "banking/staff/identities_validation.hpp"

namespace banking = corebank::httpd::core_banking;
using corebank::httpd::ApiError;
using nlohmann::json;

namespace {

std::string message_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const ApiError& error) {
        return error.code + ": " + error.what();
    }
    return "accepted";
}

}  // namespace

// Goal: a username is ^[a-z0-9._@+-]{3,254}$: an email in lower case or a
// phone with its + is one; nothing a URL path would need escaped is.
TEST(StaffUsername, AcceptsTheRule) {
    for (const char* name : {"ann.teller@example.com", "bob.k", "+263771234567", "a_b-c", "abc"})
        EXPECT_TRUE(banking::is_staff_username(name)) << name;
    EXPECT_TRUE(banking::is_staff_username(std::string(254, 'a')));
}

TEST(StaffUsername, RefusesEverythingElse) {
    for (const char* name : {"", "ab", "Ann@example.com", "a b", "a/b", "a%20b", "a?b", "a#b", "abé", "a\tb"})
        EXPECT_FALSE(banking::is_staff_username(name)) << name;
    EXPECT_FALSE(banking::is_staff_username(std::string(255, 'a')));
}

// Goal: the username is the email unless given, lower-cased when given, and
// required when the email holds a character a username may not.
TEST(StaffUsername, DefaultsToTheEmailAndIsLowerCased) {
    const json plain = banking::parse_staff_identity_create(R"({"email": " Ann@Example.com ", "roles": ["teller"]})");
    EXPECT_EQ(plain["email"], "ann@example.com");
    EXPECT_FALSE(plain.contains("username"));  // the database takes the email
    const json given = banking::parse_staff_identity_create(R"({"email": "a@example.com", "username": "Bob.K", "roles": ["teller"]})");
    EXPECT_EQ(given["username"], "bob.k");
    EXPECT_NE(message_of([] { banking::parse_staff_identity_create(R"({"email": "o'neil@example.com", "roles": ["teller"]})"); })
                  .find("username: is required"),
              std::string::npos);
    EXPECT_EQ(banking::parse_staff_identity_create(R"({"email": "o'neil@example.com", "username": "oneil", "roles": ["teller"]})")["username"],
              "oneil");
    EXPECT_NE(message_of([] { banking::parse_staff_identity_create(R"({"email": "a@example.com", "username": "a b", "roles": ["teller"]})"); })
                  .find("username: must be 3 to 254"),
              std::string::npos);
}

// Goal: the branch member is required, null meaning head office.
TEST(StaffBranchRequest, NullIsHeadOfficeAndTheMemberIsRequired) {
    EXPECT_TRUE(banking::parse_staff_branch_update(R"({"branchCode": null})")["branchCode"].is_null());
    EXPECT_EQ(banking::parse_staff_branch_update(R"({"branchCode": "HRE"})")["branchCode"], "HRE");
    EXPECT_NE(message_of([] { banking::parse_staff_branch_update("{}"); }).find("branchCode: is required"), std::string::npos);
    EXPECT_NE(message_of([] { banking::parse_staff_branch_update(R"({"branchCode": "hre"})"); }).find("VALIDATION_ERROR"),
              std::string::npos);
    EXPECT_NE(message_of([] { banking::parse_staff_branch_update("[]"); }).find("BAD_REQUEST"), std::string::npos);
}

// Goal: an update that changes nothing is refused, as is a username change.
TEST(StaffIdentityUpdate, RefusesEmptyAndUnknownMembers) {
    EXPECT_NE(message_of([] { banking::parse_staff_identity_update("{}"); }).find("changes nothing"), std::string::npos);
    EXPECT_NE(message_of([] { banking::parse_staff_identity_update(R"({"username": "x"})"); }).find("username"),
              std::string::npos);
    EXPECT_EQ(banking::parse_staff_identity_update(R"({"status": "DISABLED"})")["status"], "DISABLED");
}
