// seal_test.cpp: core/seal.hpp, the sealing of database secrets under the
// root key: per-purpose keys (HKDF), and values that open only with the
// same root key, purpose and row, unchanged.
#include <gtest/gtest.h>

#include <string>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "core/seal.hpp"

namespace {

using namespace corebank::core;

std::string test_root_key() {
    std::string key(seal::root_key_bytes, '\0');
    for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<char>(i);
    return key;
}

constexpr const char* pem = "-----BEGIN PRIVATE KEY-----\nMIIE...\n-----END PRIVATE KEY-----\n";

TEST(SealTest, DerivedKeyIsHkdfSha256OfTheRootKey) {
    // Computed independently with Python's cryptography HKDF(SHA256, 32,
    // salt=b"corebank/seal/v1", info=b"auth_signing_key") over bytes 0..31:
    // a change here would leave every sealed value unopenable.
    EXPECT_EQ(hex_encode(seal::derive_key(test_root_key(), "auth_signing_key")),
              "94f5d0172c96071cdc872c1d93f8a8adbb92ddd3c2e784b245c2d894d0233201");
}

TEST(SealTest, EachPurposeHasItsOwnKey) {
    EXPECT_NE(seal::derive_key(test_root_key(), "auth_signing_key"),
              seal::derive_key(test_root_key(), "other_purpose"));
}

TEST(SealTest, SealedValueOpensWithTheSameKeyPurposeAndRow) {
    const std::string sealed = seal::seal(test_root_key(), "auth_signing_key", "kid-1", pem);
    EXPECT_EQ(static_cast<unsigned char>(sealed.front()), seal::format_version);
    EXPECT_EQ(sealed.find("BEGIN"), std::string::npos);
    EXPECT_EQ(seal::open(test_root_key(), "auth_signing_key", "kid-1", sealed), std::string(pem));
}

TEST(SealTest, SealingTwiceGivesDifferentBytes) {
    EXPECT_NE(seal::seal(test_root_key(), "auth_signing_key", "kid-1", pem),
              seal::seal(test_root_key(), "auth_signing_key", "kid-1", pem));
}

TEST(SealTest, AnotherRootKeyDoesNotOpen) {
    const std::string sealed = seal::seal(test_root_key(), "auth_signing_key", "kid-1", pem);
    std::string other = test_root_key();
    other[0] = static_cast<char>(other[0] ^ 1);
    EXPECT_FALSE(seal::open(other, "auth_signing_key", "kid-1", sealed).has_value());
}

TEST(SealTest, AnotherRowOrPurposeDoesNotOpen) {
    const std::string sealed = seal::seal(test_root_key(), "auth_signing_key", "kid-1", pem);
    EXPECT_FALSE(seal::open(test_root_key(), "auth_signing_key", "kid-2", sealed).has_value());
    EXPECT_FALSE(seal::open(test_root_key(), "other_purpose", "kid-1", sealed).has_value());
}

TEST(SealTest, AnyChangedByteDoesNotOpen) {
    const std::string sealed = seal::seal(test_root_key(), "auth_signing_key", "kid-1", pem);
    for (std::size_t i = 0; i < sealed.size(); ++i) {
        std::string tampered = sealed;
        tampered[i] = static_cast<char>(tampered[i] ^ 0x01);
        EXPECT_FALSE(seal::open(test_root_key(), "auth_signing_key", "kid-1", tampered).has_value()) << "byte " << i;
    }
    EXPECT_FALSE(seal::open(test_root_key(), "auth_signing_key", "kid-1", sealed.substr(0, 20)).has_value());
    EXPECT_FALSE(seal::open(test_root_key(), "auth_signing_key", "kid-1", "").has_value());
    EXPECT_FALSE(seal::open(test_root_key(), "auth_signing_key", "kid-1", pem).has_value());
}

TEST(SealTest, BadRootKeyOrPurposeIsRefused) {
    EXPECT_THROW(seal::derive_key(std::string(31, 'k'), "auth_signing_key"), CoreError);
    EXPECT_THROW(seal::derive_key(std::string(33, 'k'), "auth_signing_key"), CoreError);
    EXPECT_THROW(seal::derive_key(test_root_key(), ""), CoreError);
    EXPECT_THROW(seal::derive_key(test_root_key(), std::string(65, 'p')), CoreError);
    EXPECT_THROW(seal::seal(test_root_key(), "auth_signing_key", "", pem), CoreError);
}

}  // namespace
