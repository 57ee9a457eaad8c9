// password_hash_test.cpp: argon2id password hashing (httpd/src/password_hash.hpp).
//
// Goal: hashes use argon2id with the OWASP parameters the header names,
// verify only the right password, are salted, and a malformed stored hash
// verifies nothing rather than throwing. Method: as few hashes as possible,
// since each one costs about 20 ms and 19 MiB.
#include <gtest/gtest.h>

#include <string>

#include "core/password_proof.hpp"
#include "password_hash.hpp"

namespace {

namespace httpd = corebank::httpd;

// Goal: hash then verify: the right password is accepted, a wrong one (one
// character off, empty, or with a trailing NUL) is refused, and the encoding
// names argon2id v=19 with m=19456, t=2, p=1.
TEST(PasswordHash, HashThenVerify) {
    const std::string password = "correct horse battery staple";
    const std::string encoded = httpd::password_hash(password);
    EXPECT_EQ(encoded.rfind("$argon2id$v=19$m=19456,t=2,p=1$", 0), 0u) << encoded;
    EXPECT_TRUE(httpd::password_verify(encoded, password));
    EXPECT_FALSE(httpd::password_verify(encoded, "correct horse battery staplE"));
    EXPECT_FALSE(httpd::password_verify(encoded, ""));
    EXPECT_FALSE(httpd::password_verify(encoded, password + std::string(1, '\0')));
}

// Goal: each hash has its own salt, so equal passwords hash differently.
TEST(PasswordHash, SaltedPerHash) {
    EXPECT_NE(httpd::password_hash("same password"), httpd::password_hash("same password"));
}

// Goal: malformed or foreign stored hashes verify as false, never throw.
TEST(PasswordHash, MalformedHashIsFalse) {
    for (const std::string& encoded :
         {std::string(""), std::string("plaintext"), std::string("$argon2id$"), std::string("$argon2id$v=19$garbage"),
          std::string("$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"),
          std::string("$2b$12$abcdefghijklmnopqrstuuGq3bNCy8ZfPHx5XSmKCN9EKqQx5gq6y")}) {
        bool verified = true;
        EXPECT_NO_THROW(verified = httpd::password_verify(encoded, "password")) << encoded;
        EXPECT_FALSE(verified) << encoded;
    }
}

// Goal: the two halves of the password proof agree: the tier's proof of a
// password under the parameters and salt the database answers for a stored
// hash (core::password_proof::params_json) is what the database's comparison
// accepts, and only for that password.
TEST(PasswordHash, ProofOfTheRightPasswordMatchesTheStoredHash) {
    namespace proof = corebank::core::password_proof;
    const std::string encoded = httpd::password_hash("correct horse battery staple");
    const auto stored = proof::parse_phc(encoded);
    ASSERT_TRUE(stored.has_value()) << encoded;
    const auto argon2 = nlohmann::json::parse(proof::params_json(stored->params));
    const std::string right = httpd::password_proof("correct horse battery staple", argon2);
    EXPECT_EQ(right.size(), proof::proof_bytes);
    EXPECT_TRUE(proof::proof_matches(*stored, right));
    EXPECT_FALSE(proof::proof_matches(*stored, httpd::password_proof("correct horse battery staplE", argon2)));
}

// Goal: a begin answer out of the bounds (missing member, zero passes, a
// salt under 8 bytes or not base64) is refused before any hashing.
TEST(PasswordHash, ProofRefusesMalformedParameters) {
    for (const char* bad : {R"({})", R"({"m":19456,"t":0,"p":1,"salt":"c2FsdHNhbHQ"})",
                            R"({"m":19456,"t":2,"p":1,"salt":"c2FsdA"})", R"({"m":19456,"t":2,"p":1,"salt":"!!"})",
                            R"({"m":"19456","t":2,"p":1,"salt":"c2FsdHNhbHQ"})",
                            R"({"m":4294967296,"t":2,"p":1,"salt":"c2FsdHNhbHQ"})", R"([])"}) {
        const auto before = httpd::argon2_runs_on_this_thread();
        EXPECT_THROW(httpd::password_proof("password", nlohmann::json::parse(bad)), std::runtime_error) << bad;
        EXPECT_EQ(httpd::argon2_runs_on_this_thread(), before) << bad;
    }
}

}  // namespace
