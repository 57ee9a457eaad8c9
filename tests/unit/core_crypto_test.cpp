// core_crypto_test.cpp: hashing, HMAC, randomness, constant-time comparison
// and AES-256-GCM sealing from extension/core/crypto.hpp.
//
// Goal: the wrappers produce the published vectors, and aead_open refuses
// everything that is not exactly what aead_seal produced under the same key
// and associated data. Method: FIPS 180-2 / RFC 4231 vectors; for GCM, a
// byte-by-byte tamper sweep over a whole sealed message.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "core/limits.hpp"

namespace {

namespace core = corebank::core;

std::string key_of(char fill) { return std::string(core::data_key_bytes, fill); }

// Goal: SHA-256 of the empty string (FIPS 180-2 / NIST CAVP).
TEST(Sha256, EmptyStringVector) {
    EXPECT_EQ(core::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// Goal: SHA-256 of "abc" (FIPS 180-2 appendix B.1), raw and hex agree.
TEST(Sha256, AbcVector) {
    const std::string expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    EXPECT_EQ(core::sha256_hex("abc"), expected);
    const std::string raw = core::sha256("abc");
    EXPECT_EQ(raw.size(), core::sha256_bytes);
    EXPECT_EQ(core::hex_encode(raw), expected);
}

// Goal: HMAC-SHA-256 of RFC 4231 test case 2 (key "Jefe").
TEST(HmacSha256, Rfc4231TestCase2) {
    const std::string mac = core::hmac_sha256("Jefe", "what do ya want for nothing?");
    EXPECT_EQ(mac.size(), core::sha256_bytes);
    EXPECT_EQ(core::hex_encode(mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

// Goal: hex_encode is lower case, two digits per byte, including 0x00.
TEST(HexEncode, LowerCaseTwoDigitsPerByte) {
    EXPECT_EQ(core::hex_encode(std::string("\x00\x0f\xab\xff", 4)), "000fabff");
    EXPECT_EQ(core::hex_encode(""), "");
}

// Goal: equal strings compare equal; any difference in content or length
// compares unequal, including a prefix and an embedded NUL.
TEST(ConstantTimeEqual, EqualityAndInequality) {
    EXPECT_TRUE(core::constant_time_equal("", ""));
    EXPECT_TRUE(core::constant_time_equal("secret", "secret"));
    EXPECT_FALSE(core::constant_time_equal("secret", "secreT"));
    EXPECT_FALSE(core::constant_time_equal("secret", "secre"));
    EXPECT_FALSE(core::constant_time_equal("secre", "secret"));
    EXPECT_FALSE(core::constant_time_equal("", "x"));
    EXPECT_FALSE(core::constant_time_equal(std::string("a\0b", 3), std::string("a\0c", 3)));
}

// Goal: every random UUID carries version 4 and the RFC 4122 variant, and
// the other 122 bits vary (two draws differ).
TEST(RandomUuidV4Bytes, VersionVariantAndFreshness) {
    for (int draw = 0; draw < 1000; ++draw) {
        const std::string bytes = core::random_uuid_v4_bytes();
        ASSERT_EQ(bytes.size(), 16u);
        EXPECT_EQ(static_cast<unsigned char>(bytes[6]) & 0xF0, 0x40);
        EXPECT_EQ(static_cast<unsigned char>(bytes[8]) & 0xC0, 0x80);
    }
    EXPECT_NE(core::random_uuid_v4_bytes(), core::random_uuid_v4_bytes());
}

// Goal: random_bytes gives the requested count, and two draws differ.
TEST(RandomBytes, LengthAndFreshness) {
    EXPECT_EQ(core::random_bytes(0).size(), 0u);
    EXPECT_EQ(core::random_bytes(17).size(), 17u);
    EXPECT_NE(core::random_bytes(32), core::random_bytes(32));
}

// Goal: a token is the unpadded base64url of 32 bytes: 43 characters of
// [A-Za-z0-9_-], and 1000 draws never repeat.
TEST(RandomToken, LengthAlphabetAndUniqueness) {
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
        const std::string token = core::random_token();
        ASSERT_EQ(token.size(), 43u) << token;
        ASSERT_EQ(token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
                  std::string::npos)
            << token;
        seen.insert(token);
    }
    EXPECT_EQ(seen.size(), 1000u);
}

// Goal: seal then open gives back the plaintext, and the sealed form is
// nonce || ciphertext || tag (12 + n + 16 bytes).
TEST(Aead, SealOpenRoundTrip) {
    const std::string key = key_of('k');
    const std::string plaintext = "reset link: https://example.test/?token=abc";
    const std::string sealed = core::aead_seal(key, plaintext, "outbox:42");
    EXPECT_EQ(sealed.size(), core::gcm_nonce_bytes + plaintext.size() + core::gcm_tag_bytes);
    EXPECT_EQ(sealed.find(plaintext), std::string::npos);
    const auto opened = core::aead_open(key, sealed, "outbox:42");
    ASSERT_TRUE(opened.has_value());
    EXPECT_EQ(*opened, plaintext);
}

// Goal: an empty plaintext still seals to a 28-byte authenticated message.
TEST(Aead, EmptyPlaintextRoundTrip) {
    const std::string key = key_of('k');
    const std::string sealed = core::aead_seal(key, "");
    EXPECT_EQ(sealed.size(), core::gcm_nonce_bytes + core::gcm_tag_bytes);
    const auto opened = core::aead_open(key, sealed);
    ASSERT_TRUE(opened.has_value());
    EXPECT_TRUE(opened->empty());
}

// Goal: a fresh nonce per seal, so one plaintext never seals the same twice.
TEST(Aead, SealUsesFreshNonce) {
    const std::string key = key_of('k');
    EXPECT_NE(core::aead_seal(key, "same"), core::aead_seal(key, "same"));
}

// Goal: flipping any single bit of any byte (nonce, ciphertext or tag) makes
// aead_open refuse the message.
TEST(Aead, TamperingWithAnyByteIsDetected) {
    const std::string key = key_of('k');
    const std::string sealed = core::aead_seal(key, "pay 100 to alice", "ad");
    for (std::size_t i = 0; i < sealed.size(); ++i) {
        for (unsigned char mask : {0x01, 0x80}) {
            std::string tampered = sealed;
            tampered[i] = static_cast<char>(static_cast<unsigned char>(tampered[i]) ^ mask);
            EXPECT_FALSE(core::aead_open(key, tampered, "ad").has_value()) << "byte " << i << " mask " << int(mask);
        }
    }
}

// Goal: truncating or extending the message is detected too.
TEST(Aead, TruncationAndExtensionAreDetected) {
    const std::string key = key_of('k');
    const std::string sealed = core::aead_seal(key, "pay 100 to alice");
    EXPECT_FALSE(core::aead_open(key, sealed.substr(0, sealed.size() - 1)).has_value());
    EXPECT_FALSE(core::aead_open(key, sealed + "x").has_value());
}

// Goal: a message sealed under one key does not open under another.
TEST(Aead, WrongKeyIsRefused) {
    const std::string sealed = core::aead_seal(key_of('k'), "secret");
    EXPECT_FALSE(core::aead_open(key_of('K'), sealed).has_value());
}

// Goal: associated data binds the message to its context: other, missing or
// added associated data is refused.
TEST(Aead, WrongAssociatedDataIsRefused) {
    const std::string key = key_of('k');
    const std::string sealed = core::aead_seal(key, "secret", "row-1");
    EXPECT_FALSE(core::aead_open(key, sealed, "row-2").has_value());
    EXPECT_FALSE(core::aead_open(key, sealed, "").has_value());
    const std::string sealed_without = core::aead_seal(key, "secret");
    EXPECT_FALSE(core::aead_open(key, sealed_without, "row-1").has_value());
}

// Goal: input shorter than nonce + tag is refused without reading past it.
TEST(Aead, ShortInputIsRefused) {
    const std::string key = key_of('k');
    EXPECT_FALSE(core::aead_open(key, "").has_value());
    EXPECT_FALSE(core::aead_open(key, std::string(core::gcm_nonce_bytes + core::gcm_tag_bytes - 1, 'x')).has_value());
    // Exactly nonce + tag is a well-formed empty message, but this one is forged.
    EXPECT_FALSE(core::aead_open(key, std::string(core::gcm_nonce_bytes + core::gcm_tag_bytes, 'x')).has_value());
}

// Goal: a key that is not 32 bytes is a programming error and throws.
TEST(Aead, KeyOfWrongSizeThrows) {
    EXPECT_THROW(core::aead_seal(std::string(16, 'k'), "x"), core::CoreError);
    const std::string sealed = core::aead_seal(key_of('k'), "x");
    EXPECT_THROW(core::aead_open(std::string(31, 'k'), sealed), core::CoreError);
}

}  // namespace
