// client_admin_secret_test.cpp: the OAuth client secret made for
// ./corebank client create and POST /admin/clients, and the hash of a
// rotated secret under the current hash's parameters and salt
// (httpd/src/auth/client_admin_secret.hpp).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "auth/client_admin_secret.hpp"
#include "password_hash.hpp"

namespace {

using namespace corebank;

// The {"m","t","p","salt"} object of a PHC string, as
// auth_client_admin_rotate_begin answers it.
nlohmann::json params_of(const std::string& phc) {
    std::smatch m;
    const std::regex pattern(R"(^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$[A-Za-z0-9+/]+$)");
    EXPECT_TRUE(std::regex_match(phc, m, pattern)) << phc;
    // Unsigned, as the database's answer parses.
    const auto number = [&](int i) { return static_cast<unsigned>(std::stoul(m[i].str())); };
    return {{"m", number(1)}, {"t", number(2)}, {"p", number(3)}, {"salt", m[4].str()}};
}

// Goal: a generated secret is 32 random bytes in base64url (43 characters), new each time.
TEST(ClientAdminSecret, GeneratedSecretIs32RandomBytes) {
    const std::string a = httpd::auth::new_client_secret();
    EXPECT_TRUE(std::regex_match(a, std::regex("^[A-Za-z0-9_-]{43}$"))) << a;
    EXPECT_NE(a, httpd::auth::new_client_secret());
}

// Goal: hashing under given parameters and salt gives the PHC string
// argon2id itself makes with them, so the tier's one proof matches it, and
// another secret under the same salt gives another hash.
TEST(ClientAdminSecret, HashWithGivenSaltMatchesArgon2) {
    const std::string secret = httpd::auth::new_client_secret();
    const std::string stored = httpd::password_hash(secret);
    const nlohmann::json params = params_of(stored);
    EXPECT_EQ(httpd::auth::client_secret_hash_with(secret, params), stored);
    EXPECT_TRUE(httpd::password_verify(stored, secret));
    const std::string rotated = httpd::auth::client_secret_hash_with("another secret of enough length", params);
    EXPECT_NE(rotated, stored);
    EXPECT_EQ(params_of(rotated), params);
    EXPECT_TRUE(httpd::password_verify(rotated, "another secret of enough length"));
}

// Goal: parameters out of password_proof's bounds are refused, not hashed.
TEST(ClientAdminSecret, RefusesParametersOutOfBounds) {
    const nlohmann::json too_much_memory = {{"m", 1U << 30}, {"t", 2U}, {"p", 1U}, {"salt", "c2FsdHNhbHQ"}};
    EXPECT_THROW(httpd::auth::client_secret_hash_with("s", too_much_memory), std::exception);
}

}  // namespace
