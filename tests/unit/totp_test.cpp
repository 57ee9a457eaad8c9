// totp_test.cpp: core/totp.hpp, the staff second factor's arithmetic: HOTP
// and TOTP against the RFCs' own vectors, the window and replay rule, base32,
// the otpauth URI and recovery codes.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/errors.hpp"
#include "core/totp.hpp"

namespace {

using namespace corebank::core;

// The ASCII secret of RFC 4226 Appendix D and RFC 6238 Appendix B (SHA-1).
const std::string rfc_key = "12345678901234567890";

TEST(Totp, Rfc4226AppendixDVectors) {
    const char* expected[] = {"755224", "287082", "359152", "969429", "338314",
                              "254676", "287922", "162583", "399871", "520489"};
    for (std::uint64_t counter = 0; counter < 10; ++counter)
        EXPECT_EQ(totp::hotp(rfc_key, counter), expected[counter]) << "counter " << counter;
}

TEST(Totp, Rfc6238AppendixBSha1Vectors) {
    struct Vector { std::int64_t time; const char* code; };
    const Vector vectors[] = {{59, "94287082"},         {1111111109, "07081804"}, {1111111111, "14050471"},
                              {1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"}};
    for (const Vector& v : vectors)
        EXPECT_EQ(totp::code_at(rfc_key, totp::step_of(v.time), 8), v.code) << "time " << v.time;
    // The 6-digit code is the last 6 digits of the same truncation.
    EXPECT_EQ(totp::code_at(rfc_key, totp::step_of(59)), "287082");
}

TEST(Totp, StepsAreThirtySecondsFloored) {
    EXPECT_EQ(totp::step_of(0), 0);
    EXPECT_EQ(totp::step_of(29), 0);
    EXPECT_EQ(totp::step_of(30), 1);
    EXPECT_EQ(totp::step_of(1111111109), 37037036);
    EXPECT_EQ(totp::step_of(-1), -1);
}

TEST(Totp, MatchAcceptsTheCurrentStepAndOneEitherSide) {
    const std::int64_t now = 37037036;
    for (std::int64_t offset = -1; offset <= 1; ++offset)
        EXPECT_EQ(totp::match(rfc_key, totp::code_at(rfc_key, now + offset), now, std::nullopt), now + offset);
    EXPECT_EQ(totp::match(rfc_key, totp::code_at(rfc_key, now - 2), now, std::nullopt), std::nullopt);
    EXPECT_EQ(totp::match(rfc_key, totp::code_at(rfc_key, now + 2), now, std::nullopt), std::nullopt);
}

TEST(Totp, MatchRefusesTheLastAcceptedStepAndEarlierOnes) {
    const std::int64_t now = 37037036;
    const std::string current = totp::code_at(rfc_key, now);
    EXPECT_EQ(totp::match(rfc_key, current, now, now), std::nullopt);       // replay
    EXPECT_EQ(totp::match(rfc_key, current, now, now + 1), std::nullopt);   // a later step was used
    EXPECT_EQ(totp::match(rfc_key, totp::code_at(rfc_key, now - 1), now, now - 1), std::nullopt);
    EXPECT_EQ(totp::match(rfc_key, current, now, now - 1), now);
}

TEST(Totp, MatchRefusesMalformedCodes) {
    const std::int64_t now = 1;
    const std::string code = totp::code_at(rfc_key, now);
    EXPECT_EQ(totp::match(rfc_key, code + "0", now, std::nullopt), std::nullopt);
    EXPECT_EQ(totp::match(rfc_key, code.substr(1), now, std::nullopt), std::nullopt);
    EXPECT_EQ(totp::match(rfc_key, " " + code.substr(1), now, std::nullopt), std::nullopt);
    EXPECT_FALSE(totp::is_code_format("12345a"));
    EXPECT_FALSE(totp::is_code_format(""));
    EXPECT_TRUE(totp::is_code_format("000000"));
}

TEST(Totp, HotpRefusesAnEmptyKeyAndBadDigits) {
    EXPECT_THROW(totp::hotp("", 0), CoreError);
    EXPECT_THROW(totp::hotp(rfc_key, 0, 5), CoreError);
    EXPECT_THROW(totp::hotp(rfc_key, 0, 9), CoreError);
}

TEST(Totp, Base32RoundTripsAndMatchesRfc4648) {
    // RFC 4648 section 10, without padding.
    EXPECT_EQ(totp::base32_encode(""), "");
    EXPECT_EQ(totp::base32_encode("f"), "MY");
    EXPECT_EQ(totp::base32_encode("fo"), "MZXQ");
    EXPECT_EQ(totp::base32_encode("foo"), "MZXW6");
    EXPECT_EQ(totp::base32_encode("foob"), "MZXW6YQ");
    EXPECT_EQ(totp::base32_encode("fooba"), "MZXW6YTB");
    EXPECT_EQ(totp::base32_encode("foobar"), "MZXW6YTBOI");
    EXPECT_EQ(totp::base32_encode(rfc_key), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    EXPECT_EQ(totp::base32_decode("MZXW6YTBOI======"), "foobar");
    EXPECT_EQ(totp::base32_decode("mzxw 6ytb oi"), "foobar");
    EXPECT_EQ(totp::base32_decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"), rfc_key);
    EXPECT_EQ(totp::base32_decode("MZ1"), std::nullopt);    // '1' is not base32
    EXPECT_EQ(totp::base32_decode("MZ"), std::nullopt);     // non-zero padding bits ("f" is MY)
    EXPECT_EQ(totp::base32_decode("MYA"), std::nullopt);    // a stray symbol
}

TEST(Totp, OtpauthUriNamesTheParametersAppsRead) {
    EXPECT_EQ(totp::otpauth_uri("corebank", "ann@bank.test", rfc_key),
              "otpauth://totp/corebank:ann%40bank.test?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
              "&issuer=corebank&algorithm=SHA1&digits=6&period=30");
    EXPECT_EQ(totp::otpauth_uri("My Bank", "a:b", "x"),
              "otpauth://totp/My%20Bank:a%3Ab?secret=PA&issuer=My%20Bank&algorithm=SHA1&digits=6&period=30");
    EXPECT_THROW(totp::otpauth_uri("", "a", "x"), CoreError);
    EXPECT_THROW(totp::otpauth_uri("i", std::string(255, 'a'), "x"), CoreError);
}

TEST(Totp, RecoveryCodesUseTheUnambiguousAlphabet) {
    std::set<std::string> seen;
    for (int i = 0; i < 200; ++i) {
        const std::string code = totp::recovery_code();
        ASSERT_EQ(code.size(), totp::recovery_code_length);
        for (const char c : code) EXPECT_NE(totp::recovery_alphabet.find(c), std::string_view::npos) << code;
        seen.insert(code);
    }
    EXPECT_EQ(seen.size(), 200u);
    EXPECT_EQ(totp::recovery_alphabet.find_first_of("01ilo"), std::string_view::npos);
}

TEST(Totp, RecoveryCodeFromRejectsBytesThatWouldBiasTheDraw) {
    // 248..255 are skipped; 0 maps to '2', 30 to 'z', 31 wraps to '2'.
    const std::string bytes = std::string("\xf8\xff", 2) + std::string("\x00\x1e\x1f\x01\x02\x03\x04\x05\x06\x07", 10);
    EXPECT_EQ(totp::recovery_code_from(bytes), "2z23456789");
    EXPECT_EQ(totp::recovery_code_from(std::string(40, '\xff')), std::nullopt);
}

TEST(Totp, RecoveryCodesAreShownGroupedAndReadLeniently) {
    EXPECT_EQ(totp::recovery_code_display("abcdefghjk"), "abcde-fghjk");
    EXPECT_EQ(totp::recovery_code_normalise("ABCDE-FGHJK"), "abcdefghjk");
    EXPECT_EQ(totp::recovery_code_normalise(" abcde fghjk "), "abcdefghjk");
    EXPECT_EQ(totp::recovery_code_normalise("abcde-fghj"), std::nullopt);     // 9 symbols
    EXPECT_EQ(totp::recovery_code_normalise("abcde-fghj1"), std::nullopt);    // '1' is not in the alphabet
    EXPECT_EQ(totp::recovery_code_normalise(std::string(21, '-')), std::nullopt);
}

}  // namespace
