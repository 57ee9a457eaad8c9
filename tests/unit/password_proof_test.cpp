// password_proof_test.cpp: core/password_proof.hpp, the parsing of a stored
// argon2id PHC string and the constant-time comparison of the tier's proof
// with it (the database compares, the tier only hashes), and the salt of an
// identifier no account has. The round trip through libargon2 itself is in
// password_hash_test.cpp (the tier's half).
#include <gtest/gtest.h>

#include <string>

#include "core/crypto.hpp"
#include "core/password_proof.hpp"

namespace {

using namespace corebank::core;
namespace proof = corebank::core::password_proof;

// "saltsalt" and 32 bytes 0x00..0x1f, spelled as the tier spells them.
std::string raw_hash() {
    std::string hash(32, '\0');
    for (std::size_t i = 0; i < hash.size(); ++i) hash[i] = static_cast<char>(i);
    return hash;
}

std::string phc(const std::string& params = "m=19456,t=2,p=1") {
    return "$argon2id$v=19$" + params + "$c2FsdHNhbHQ$" + proof::phc_b64_encode(raw_hash());
}

TEST(PasswordProofTest, ParsesTheTiersPhcString) {
    const auto stored = proof::parse_phc(phc());
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->params.memory_kib, 19456U);
    EXPECT_EQ(stored->params.time_cost, 2U);
    EXPECT_EQ(stored->params.parallelism, 1U);
    EXPECT_EQ(stored->params.salt, "saltsalt");
    EXPECT_EQ(stored->hash, raw_hash());
    EXPECT_EQ(proof::params_json(stored->params), R"({"m":19456,"t":2,"p":1,"salt":"c2FsdHNhbHQ"})");
}

TEST(PasswordProofTest, RefusesEverythingElse) {
    const std::string hash = proof::phc_b64_encode(raw_hash());
    for (const std::string& bad : {
             std::string(""),
             std::string("$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$") + hash,    // another algorithm
             std::string("$argon2id$v=16$m=19456,t=2,p=1$c2FsdHNhbHQ$") + hash,   // another version
             std::string("$argon2id$m=19456,t=2,p=1$c2FsdHNhbHQ$") + hash,        // no version
             std::string("$argon2id$v=19$t=2,m=19456,p=1$c2FsdHNhbHQ$") + hash,   // parameters out of order
             std::string("$argon2id$v=19$m=019456,t=2,p=1$c2FsdHNhbHQ$") + hash,  // leading zero
             std::string("$argon2id$v=19$m=19456,t=0,p=1$c2FsdHNhbHQ$") + hash,   // zero passes
             std::string("$argon2id$v=19$m=19456,t=17,p=1$c2FsdHNhbHQ$") + hash,  // over the pass bound
             std::string("$argon2id$v=19$m=2097152,t=2,p=1$c2FsdHNhbHQ$") + hash, // over the memory bound
             std::string("$argon2id$v=19$m=8,t=2,p=2$c2FsdHNhbHQ$") + hash,      // under 8 KiB a lane
             std::string("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$") + hash,        // a 4-byte salt
             std::string("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ=$") + hash,  // padding
             std::string("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHR$") + hash,   // not canonical
             std::string("$argon2id$v=19$m=19456,t=2,p=1$c2Fs-HNhbHQ$") + hash,   // base64url alphabet
             std::string("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ"),           // no hash
             std::string("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$") + hash + "$",
             std::string("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$") + hash + " ",
             std::string("$argon2id$v=19$m=19456,t=2,p=1,x=1$c2FsdHNhbHQ$") + hash,
             std::string("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$") + std::string(600, 'A'),
         }) {
        EXPECT_FALSE(proof::parse_phc(bad).has_value()) << bad;
    }
}

TEST(PasswordProofTest, OnlyTheExactThirtyTwoBytesMatch) {
    const auto stored = proof::parse_phc(phc());
    ASSERT_TRUE(stored.has_value());
    EXPECT_TRUE(proof::proof_matches(*stored, raw_hash()));
    std::string flipped = raw_hash();
    flipped[31] = static_cast<char>(flipped[31] ^ 1);
    EXPECT_FALSE(proof::proof_matches(*stored, flipped));
    EXPECT_FALSE(proof::proof_matches(*stored, raw_hash().substr(0, 31)));
    EXPECT_FALSE(proof::proof_matches(*stored, raw_hash() + "x"));
    EXPECT_FALSE(proof::proof_matches(*stored, ""));
}

TEST(PasswordProofTest, AShorterStoredHashMatchesNothing) {
    // A 16-byte hash parses (argon2 allows it) but no 32-byte proof equals it,
    // not even its own bytes padded or cut.
    const auto stored = proof::parse_phc("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$" +
                                         proof::phc_b64_encode(raw_hash().substr(0, 16)));
    ASSERT_TRUE(stored.has_value());
    EXPECT_FALSE(proof::proof_matches(*stored, raw_hash()));
    EXPECT_FALSE(proof::proof_matches(*stored, raw_hash().substr(0, 16)));
}

TEST(PasswordProofTest, UnknownIdentifiersGetAStableSaltOnlyTheKeyHolderCanCompute) {
    const std::string key(32, 'k');
    const proof::Params first = proof::unknown_params(key, "login:email:ghost@example.com");
    EXPECT_EQ(first.salt, proof::unknown_params(key, "login:email:ghost@example.com").salt);
    EXPECT_EQ(first.salt.size(), proof::salt_bytes);
    EXPECT_EQ(first.salt, hmac_sha256(key, "login:email:ghost@example.com").substr(0, proof::salt_bytes));
    EXPECT_NE(first.salt, proof::unknown_params(key, "login:email:other@example.com").salt);
    EXPECT_NE(first.salt, proof::unknown_params(std::string(32, 'j'), "login:email:ghost@example.com").salt);
    EXPECT_EQ(first.memory_kib, proof::default_memory_kib);
    EXPECT_EQ(first.time_cost, proof::default_time_cost);
    EXPECT_EQ(first.parallelism, proof::default_parallelism);
    EXPECT_THROW(proof::unknown_params("", "x"), std::invalid_argument);
}

TEST(PasswordProofTest, Base64IsCanonicalAndUnpadded) {
    EXPECT_EQ(proof::phc_b64_encode("saltsalt"), "c2FsdHNhbHQ");
    EXPECT_EQ(proof::phc_b64_decode("c2FsdHNhbHQ"), std::optional<std::string>("saltsalt"));
    EXPECT_FALSE(proof::phc_b64_decode("c2FsdHNhbHQ=").has_value());
    EXPECT_FALSE(proof::phc_b64_decode("c2FsdHNhbHR").has_value());
    EXPECT_FALSE(proof::phc_b64_decode("c").has_value());
}

}  // namespace
