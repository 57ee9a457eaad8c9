// verify_webhook_signature_test.cpp: the webhook signature and the reference
// verifier (httpd/src/verify/webhook_signature.hpp).
//
// Goal: a receiver using the reference verifier accepts exactly the webhooks
// the service signed for it, recently, over these exact bytes: it refuses a
// tampered body (one byte, re-serialised JSON, appended data), the wrong
// secret, a timestamp outside 300 s either way, a signature moved to another
// timestamp, and malformed headers; it accepts within the tolerance and when
// one of several v1 signatures matches. The digest is the documented
// HMAC-SHA256 over "t.body", checked against OpenSSL computed independently
// of the code under test (a fixed vector).
#include <gtest/gtest.h>

#include <string>

#include "core/crypto.hpp"
#include "verify/webhook_signature.hpp"

namespace {

using corebank::httpd::verify::SignatureCheck;
using corebank::httpd::verify::verify_webhook_signature;
using corebank::httpd::verify::webhook_signature_header;

const std::string secret = "whsec_k39ijjp7Xz5kHVVMvoZC1AFJnxBykv8U0JkS0_v_ZQ4";
const std::string body =
    R"({"id":"798df8c1-9efa-4ffb-9a15-855f529580e0","type":"session.completed","createdAt":"2026-11-22T01:02:06.692Z",)"
    R"("data":{"sessionId":"ed48889f-f287-4e2e-8d45-ca74a21bff15"}})";
constexpr std::int64_t signed_at = 1795309326;

TEST(WebhookSignature, HeaderIsTimestampAndHexHmacOfTimestampDotBody) {
    const std::string header = webhook_signature_header(secret, signed_at, body);
    const std::string expected =
        corebank::core::hex_encode(corebank::core::hmac_sha256(secret, std::to_string(signed_at) + "." + body));
    EXPECT_EQ(header, "t=1795309326,v1=" + expected);
    EXPECT_EQ(expected.size(), 64u);
}

TEST(WebhookSignature, KnownVector) {
    // openssl dgst -sha256 -hmac key <<< "1700000000.{}" (printf, no newline)
    EXPECT_EQ(webhook_signature_header("key", 1700000000, "{}"),
              "t=1700000000,v1=" +
                  corebank::core::hex_encode(corebank::core::hmac_sha256("key", "1700000000.{}")));
    EXPECT_EQ(corebank::core::hex_encode(corebank::core::hmac_sha256("key", "The quick brown fox jumps over the lazy dog")),
              "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
}

TEST(WebhookSignature, AcceptsWhatTheServiceSigned) {
    const std::string header = webhook_signature_header(secret, signed_at, body);
    EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at), SignatureCheck::valid);
    EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at + 300), SignatureCheck::valid);
    EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at - 300), SignatureCheck::valid);
}

TEST(WebhookSignature, RefusesTamperedBodies) {
    const std::string header = webhook_signature_header(secret, signed_at, body);
    std::string one_byte = body;
    one_byte[one_byte.find("completed")] = 'C';
    EXPECT_EQ(verify_webhook_signature(secret, header, one_byte, signed_at), SignatureCheck::mismatch);
    // The same JSON, re-serialised with spaces: receivers must verify the raw bytes.
    std::string reformatted = body;
    reformatted.insert(reformatted.find(':') + 1, " ");
    EXPECT_EQ(verify_webhook_signature(secret, header, reformatted, signed_at), SignatureCheck::mismatch);
    EXPECT_EQ(verify_webhook_signature(secret, header, body + "\n", signed_at), SignatureCheck::mismatch);
    EXPECT_EQ(verify_webhook_signature(secret, header, "", signed_at), SignatureCheck::mismatch);
    std::string other_session = body;
    other_session.replace(other_session.find("ed48889f"), 8, "00000000");
    EXPECT_EQ(verify_webhook_signature(secret, header, other_session, signed_at), SignatureCheck::mismatch);
}

TEST(WebhookSignature, RefusesWrongSecrets) {
    const std::string header = webhook_signature_header(secret, signed_at, body);
    EXPECT_EQ(verify_webhook_signature("whsec_another_endpoint_secret_value_000000000", header, body, signed_at),
              SignatureCheck::mismatch);
    EXPECT_EQ(verify_webhook_signature(secret.substr(6), header, body, signed_at), SignatureCheck::mismatch)
        << "the key is the whole secret string, prefix included";
    EXPECT_EQ(verify_webhook_signature("", header, body, signed_at), SignatureCheck::mismatch);
}

TEST(WebhookSignature, RefusesStaleAndFutureTimestamps) {
    const std::string header = webhook_signature_header(secret, signed_at, body);
    EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at + 301), SignatureCheck::stale_timestamp);
    EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at - 301), SignatureCheck::stale_timestamp);
    EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at + 86400), SignatureCheck::stale_timestamp);
    // A receiver may choose a tighter tolerance.
    EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at + 61, 60), SignatureCheck::stale_timestamp);
}

TEST(WebhookSignature, RefusesASignatureMovedToAnotherTimestamp) {
    // A replay with a fresh t but the old v1 must not pass the clock check.
    const std::string header = webhook_signature_header(secret, signed_at, body);
    const std::string v1 = header.substr(header.find("v1="));
    const std::string moved = "t=" + std::to_string(signed_at + 3600) + "," + v1;
    EXPECT_EQ(verify_webhook_signature(secret, moved, body, signed_at + 3600), SignatureCheck::mismatch);
}

TEST(WebhookSignature, AcceptsWhenOneOfSeveralSignaturesMatches) {
    const std::string good = webhook_signature_header(secret, signed_at, body);
    const std::string other = webhook_signature_header("whsec_rotated_out", signed_at, body);
    const std::string both = other + "," + good.substr(good.find("v1="));
    EXPECT_EQ(verify_webhook_signature(secret, both, body, signed_at), SignatureCheck::valid);
    EXPECT_EQ(verify_webhook_signature(secret, both + ",v0=ignored", body, signed_at), SignatureCheck::valid)
        << "unknown schemes are ignored";
    EXPECT_EQ(verify_webhook_signature(secret, " t=1795309326 , " + good.substr(good.find("v1=")), body, signed_at),
              SignatureCheck::valid)
        << "spaces around items are tolerated";
}

// A rotation's overlap: one header, the new secret's v1 first, the old one's
// second; each secret verifies on its own, a third does not.
TEST(WebhookSignature, OverlapHeaderCarriesBothSecretsNewFirst) {
    const std::string previous = "whsec_oldoldoldoldoldoldoldoldoldoldoldoldold";
    const std::string header = webhook_signature_header(secret, previous, signed_at, body);
    const std::string t = std::to_string(signed_at);
    EXPECT_EQ(header, "t=" + t + ",v1=" + corebank::core::hex_encode(corebank::core::hmac_sha256(secret, t + "." + body)) +
                          ",v1=" + corebank::core::hex_encode(corebank::core::hmac_sha256(previous, t + "." + body)));
    EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at), SignatureCheck::valid);
    EXPECT_EQ(verify_webhook_signature(previous, header, body, signed_at), SignatureCheck::valid);
    EXPECT_EQ(verify_webhook_signature("whsec_another", header, body, signed_at), SignatureCheck::mismatch);
}

TEST(WebhookSignature, RefusesMalformedHeaders) {
    const std::string v1 = webhook_signature_header(secret, signed_at, body).substr(13);
    for (const std::string& header :
         {std::string(), std::string("garbage"), "v1=" + v1.substr(3), std::string("t=1795309326"),
          "t=abc," + v1, "t=-5," + v1, "t=1795309326,t=1795309326," + v1, "t=1795309326,v1=" + v1.substr(3, 60),
          "t=1795309326,v1=" + std::string(64, 'G'), "t=99999999999999999999," + v1, std::string(2000, 't')}) {
        EXPECT_EQ(verify_webhook_signature(secret, header, body, signed_at), SignatureCheck::malformed_header)
            << header;
    }
    // Upper-case hex is not what the service sends.
    std::string upper = webhook_signature_header(secret, signed_at, body);
    for (std::size_t i = upper.find("v1=") + 3; i < upper.size(); ++i) upper[i] = static_cast<char>(std::toupper(upper[i]));
    EXPECT_NE(verify_webhook_signature(secret, upper, body, signed_at), SignatureCheck::valid);
}

}  // namespace
