// staff_roles_test.cpp: the request rules of /v1/staff/roles
// (httpd/src/banking/staff/roles_validation.hpp), issue 15.
#include <gtest/gtest.h>

#include "api_error.hpp"
#include "banking/staff/roles_validation.hpp"

namespace banking = corebank::httpd::core_banking;
using corebank::httpd::ApiError;
using nlohmann::json;

// Goal: a role key is ^[a-z][a-z0-9_]{1,39}$ and nothing else.
TEST(StaffRoleKey, AcceptsTheRule) {
    for (const char* key : {"ab", "teller", "branch_manager", "a1", "a_", "z9_9"}) EXPECT_TRUE(banking::is_staff_role_key(key)) << key;
    EXPECT_TRUE(banking::is_staff_role_key("a" + std::string(39, 'b')));
}

TEST(StaffRoleKey, RefusesEverythingElse) {
    for (const char* key : {"", "a", "Teller", "1abc", "_abc", "ab-c", "ab c", "ab.c", "ab:c", "abé", "AB"})
        EXPECT_FALSE(banking::is_staff_role_key(key)) << key;
    EXPECT_FALSE(banking::is_staff_role_key("a" + std::string(40, 'b')));
    EXPECT_FALSE(banking::is_staff_role_key(std::string("ab\0c", 4)));
}

namespace {
int status_of(void (*call)(const std::string&), const std::string& body) {
    try {
        call(body);
    } catch (const ApiError& e) {
        return e.status;
    }
    return 200;
}
void create(const std::string& body) { banking::parse_staff_role_create(body); }
void update(const std::string& body) { banking::parse_staff_role_update(body); }
}  // namespace

// Goal: a creation needs a valid key and a name; permissions are strings; nothing unknown passes.
TEST(StaffRoleRequests, CreateIsChecked) {
    const json ok = banking::parse_staff_role_create(R"({"key": "night_clerk", "name": " Night ", "permissions": ["money.deposit"], "readOnly": false})");
    EXPECT_EQ(ok, json({{"key", "night_clerk"}, {"name", "Night"}, {"permissions", {"money.deposit"}}, {"readOnly", false}}));
    EXPECT_EQ(status_of(create, R"({"name": "X"})"), 400);
    EXPECT_EQ(status_of(create, R"({"key": "Night", "name": "X"})"), 400);
    EXPECT_EQ(status_of(create, R"({"key": "night"})"), 400);
    EXPECT_EQ(status_of(create, R"({"key": "night", "name": "X", "permissions": "money.deposit"})"), 400);
    EXPECT_EQ(status_of(create, R"({"key": "night", "name": "X", "permissions": [1]})"), 400);
    EXPECT_EQ(status_of(create, R"({"key": "night", "name": "X", "colour": "red"})"), 400);
    EXPECT_EQ(status_of(create, "not json"), 400);
}

// Goal: an amendment takes name and permissions; anything unknown is refused.
TEST(StaffRoleRequests, UpdateIsChecked) {
    EXPECT_EQ(banking::parse_staff_role_update(R"({"permissions": []})"), json({{"permissions", json::array()}}));
    EXPECT_EQ(status_of(update, R"({"name": ""})"), 400);
    EXPECT_EQ(status_of(update, R"({"roles": ["a"]})"), 400);
}
