// core_encoding_test.cpp: base64url (RFC 4648 section 5, unpadded) and
// standard base64 from extension/core/base64url.hpp.
//
// Goal: every byte value survives a round trip at every length modulo 3, and
// anything that is not the alphabet in question is refused with nullopt
// rather than decoded into some other bytes. Method: known vectors from
// RFC 4648 section 10, exhaustive round trips, and hand-made bad inputs.
#include <gtest/gtest.h>

#include <string>

#include "core/base64url.hpp"

namespace {

using corebank::core::base64_decode;
using corebank::core::base64_encode;
using corebank::core::base64url_decode;
using corebank::core::base64url_encode;

std::string all_byte_values() {
    std::string out;
    for (int i = 0; i < 256; ++i) out.push_back(static_cast<char>(i));
    return out;
}

// Goal: the RFC 4648 section 10 vectors, with the padding removed.
TEST(Base64Url, EncodesRfc4648VectorsWithoutPadding) {
    EXPECT_EQ(base64url_encode(""), "");
    EXPECT_EQ(base64url_encode("f"), "Zg");
    EXPECT_EQ(base64url_encode("fo"), "Zm8");
    EXPECT_EQ(base64url_encode("foo"), "Zm9v");
    EXPECT_EQ(base64url_encode("foob"), "Zm9vYg");
    EXPECT_EQ(base64url_encode("fooba"), "Zm9vYmE");
    EXPECT_EQ(base64url_encode("foobar"), "Zm9vYmFy");
}

// Goal: the URL-safe alphabet replaces '+' and '/' by '-' and '_'.
// Method: bytes 0xFB 0xFF encode to "+/8" in standard base64.
TEST(Base64Url, UsesUrlSafeAlphabet) {
    const std::string bytes("\xfb\xff", 2);
    EXPECT_EQ(base64_encode(bytes), "+/8=");
    EXPECT_EQ(base64url_encode(bytes), "-_8");
    const auto decoded = base64url_decode("-_8");
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, bytes);
}

// Goal: every prefix of the 256 byte values (all lengths mod 3, every byte)
// decodes back to itself.
TEST(Base64Url, RoundTripsEveryByteAtEveryLength) {
    const std::string bytes = all_byte_values();
    for (std::size_t length = 0; length <= bytes.size(); ++length) {
        const std::string input = bytes.substr(0, length);
        const std::string encoded = base64url_encode(input);
        EXPECT_EQ(encoded.find_first_of("+/="), std::string::npos) << "length " << length;
        const auto decoded = base64url_decode(encoded);
        ASSERT_TRUE(decoded.has_value()) << "length " << length;
        EXPECT_EQ(*decoded, input) << "length " << length;
    }
}

// Goal: trailing '=' padding is tolerated on input (the header says so).
TEST(Base64Url, AcceptsTrailingPadding) {
    const auto decoded = base64url_decode("Zm8=");
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, "fo");
}

// Goal: the standard alphabet's '+' and '/' are not base64url.
TEST(Base64Url, RejectsStandardAlphabetCharacters) {
    EXPECT_FALSE(base64url_decode("+/8").has_value());
    EXPECT_FALSE(base64url_decode("ab+d").has_value());
    EXPECT_FALSE(base64url_decode("ab/d").has_value());
}

// Goal: a length of 1 mod 4 can encode no whole byte and is refused.
TEST(Base64Url, RejectsImpossibleLength) {
    EXPECT_FALSE(base64url_decode("A").has_value());
    EXPECT_FALSE(base64url_decode("Zm9vY").has_value());
}

// Goal: characters outside the alphabet (space, '.', '=' inside, non-ASCII,
// NUL) are refused instead of being skipped.
TEST(Base64Url, RejectsCharactersOutsideTheAlphabet) {
    EXPECT_FALSE(base64url_decode("Zm 9v").has_value());
    EXPECT_FALSE(base64url_decode("Zm.v").has_value());
    EXPECT_FALSE(base64url_decode("Zg=Zg").has_value());
    EXPECT_FALSE(base64url_decode("Zm9\xc3\xa9").has_value());
    EXPECT_FALSE(base64url_decode(std::string("Zm9\0", 4)).has_value());
}

// Goal: the empty string is the encoding of zero bytes.
TEST(Base64Url, DecodesEmptyToEmpty) {
    const auto decoded = base64url_decode("");
    ASSERT_TRUE(decoded.has_value());
    EXPECT_TRUE(decoded->empty());
}

// Goal: standard base64 pads, and matches RFC 4648 section 10.
TEST(Base64, EncodesRfc4648VectorsWithPadding) {
    EXPECT_EQ(base64_encode(""), "");
    EXPECT_EQ(base64_encode("f"), "Zg==");
    EXPECT_EQ(base64_encode("fo"), "Zm8=");
    EXPECT_EQ(base64_encode("foo"), "Zm9v");
    EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

// Goal: standard base64 round-trips every byte at every length.
TEST(Base64, RoundTripsEveryByteAtEveryLength) {
    const std::string bytes = all_byte_values();
    for (std::size_t length = 0; length <= bytes.size(); ++length) {
        const std::string input = bytes.substr(0, length);
        const auto decoded = base64_decode(base64_encode(input));
        ASSERT_TRUE(decoded.has_value()) << "length " << length;
        EXPECT_EQ(*decoded, input) << "length " << length;
    }
}

// Goal: standard base64 needs its padding and its own alphabet.
TEST(Base64, RejectsMissingPaddingAndUrlAlphabet) {
    EXPECT_FALSE(base64_decode("Zg").has_value());
    EXPECT_FALSE(base64_decode("-_8=").has_value());
    EXPECT_FALSE(base64_decode("Zm9v!A==").has_value());
    EXPECT_FALSE(base64_decode("Zm9v Zg==").has_value());
}

// Goal: '=' is padding only at the end, and at most two of it; anywhere else
// it is not data. Method: "Zg==Zg==" is two padded groups glued together,
// "Z===" and "====" pad more than a group allows; RFC 4648 section 3.3 makes
// them invalid, and decoding them must not yield bytes.
TEST(Base64, RejectsPaddingBeforeTheEnd) {
    EXPECT_FALSE(base64_decode("Zg==Zg==").has_value());
    EXPECT_FALSE(base64_decode("Z===").has_value());
    EXPECT_FALSE(base64_decode("====").has_value());
}

}  // namespace
