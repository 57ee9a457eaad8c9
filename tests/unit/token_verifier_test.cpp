// token_verifier_test.cpp: RS256 access-token verification in the tier
// (httpd/src/token_verifier.hpp).
//
// Goal: verify() accepts exactly the tokens the extension issues (RS256,
// known kid, right issuer, unexpired, sane iat, jti and sub present) and
// refuses every variation an attacker or a stale client could present.
// Method: two generated RSA keys; the JWKS is built from the first as the
// database would publish it; tokens are signed with core::jwt_sign_rs256, or
// cut by hand when the header itself is the attack. The database is never
// involved (db = nullptr, so an unknown kid causes no reload).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "core/jwt.hpp"
#include "core/rsa_key.hpp"
#include "token_verifier.hpp"

namespace {

namespace core = corebank::core;
using corebank::httpd::TokenVerifier;
using corebank::httpd::token_clock_skew_s;
using nlohmann::json;

constexpr const char* issuer = "http://127.0.0.1:8081";
constexpr std::int64_t now = 1'700'000'000;

const core::RsaKeyMaterial& signing_key() {
    static const core::RsaKeyMaterial key = core::rsa_generate();
    return key;
}

const core::RsaKeyMaterial& foreign_key() {
    static const core::RsaKeyMaterial key = core::rsa_generate();
    return key;
}

json jwk_of(const core::RsaKeyMaterial& key) {
    return json{{"kty", "RSA"}, {"use", "sig"},  {"alg", "RS256"},
                {"kid", key.kid}, {"n", key.modulus_b64url}, {"e", key.exponent_b64url}};
}

json jwks_of(const core::RsaKeyMaterial& key) { return json{{"keys", json::array({jwk_of(key)})}}; }

// A user access token as the extension issues it (docs/identity.md, Tokens).
json user_claims() {
    return json{{"sub", "5b0f2a4e-8c1d-4f7a-9e3b-2d6c1a0b9f8e"},
                {"iss", issuer},
                {"aud", "corebank"},
                {"iat", now},
                {"exp", now + 900},
                {"jti", "b7e1c2d3-0000-4000-8000-000000000001"},
                {"email", "alice@example.com"},
                {"roles", json::array({"customer"})},
                {"scopes", json::array({"profile:read"})},
                {"kyc_tier", "NONE"}};
}

std::string sign(const json& claims, const core::RsaKeyMaterial& key = signing_key()) {
    return core::jwt_sign_rs256(key.kid, claims.dump(), core::RsaPrivateKey::from_pem(key.private_key_pem));
}

// A token whose header is chosen by hand, with an RS256 signature made by
// `key` over exactly that header and payload: only the header can refuse it.
std::string sign_with_header(const json& header, const json& claims, const core::RsaKeyMaterial& key) {
    const std::string input = core::base64url_encode(header.dump()) + "." + core::base64url_encode(claims.dump());
    return input + "." + core::base64url_encode(core::RsaPrivateKey::from_pem(key.private_key_pem).sign_rs256(input));
}

class TokenVerifierTest : public ::testing::Test {
protected:
    void SetUp() override { verifier.load_jwks(jwks_of(signing_key())); }
    bool accepts(const std::string& token) { return verifier.verify(token, nullptr, now).has_value(); }

    TokenVerifier verifier{issuer};
};

// Goal: load_jwks keeps the key and serves the document back as loaded.
TEST_F(TokenVerifierTest, LoadsJwks) {
    EXPECT_EQ(verifier.key_count(), 1u);
    EXPECT_EQ(verifier.jwks(), jwks_of(signing_key()));
}

// Goal: a genuine user token is accepted, with its subject, jti and claims,
// and is not taken for a client token.
TEST_F(TokenVerifierTest, AcceptsValidUserToken) {
    const auto verified = verifier.verify(sign(user_claims()), nullptr, now);
    ASSERT_TRUE(verified.has_value());
    EXPECT_EQ(verified->subject, "5b0f2a4e-8c1d-4f7a-9e3b-2d6c1a0b9f8e");
    EXPECT_EQ(verified->jti, "b7e1c2d3-0000-4000-8000-000000000001");
    EXPECT_FALSE(verified->is_client_token);
    ASSERT_NE(verified->claims, nullptr);
    EXPECT_EQ(*verified->claims, user_claims());
}

// Goal: a client-credentials token (token_type "client") is flagged as one.
TEST_F(TokenVerifierTest, FlagsClientToken) {
    const json claims{{"sub", "kyc-service"},   {"iss", issuer},
                      {"iat", now},             {"exp", now + 900},
                      {"jti", "client-jti-1"},  {"token_type", "client"},
                      {"client_id", "kyc-service"}, {"scopes", json::array({"kyc:validate"})}};
    const auto verified = verifier.verify(sign(claims), nullptr, now);
    ASSERT_TRUE(verified.has_value());
    EXPECT_TRUE(verified->is_client_token);
    EXPECT_EQ(verified->subject, "kyc-service");
}

// Goal: a token from another issuer, or with no issuer, is refused.
TEST_F(TokenVerifierTest, RejectsWrongIssuer) {
    json claims = user_claims();
    claims["iss"] = "http://evil.example";
    EXPECT_FALSE(accepts(sign(claims)));
    claims["iss"] = std::string(issuer) + "/";
    EXPECT_FALSE(accepts(sign(claims)));
    claims.erase("iss");
    EXPECT_FALSE(accepts(sign(claims)));
}

// Goal: exp is exclusive: a token is dead at exp == now and after; one
// second before it still lives. A missing or non-integer exp is refused.
TEST_F(TokenVerifierTest, RejectsExpiredToken) {
    json claims = user_claims();
    claims["exp"] = now + 1;
    EXPECT_TRUE(accepts(sign(claims)));
    claims["exp"] = now;
    EXPECT_FALSE(accepts(sign(claims)));
    claims["exp"] = now - 1;
    EXPECT_FALSE(accepts(sign(claims)));
    claims["exp"] = std::to_string(now + 900);
    EXPECT_FALSE(accepts(sign(claims)));
    claims.erase("exp");
    EXPECT_FALSE(accepts(sign(claims)));
}

// Goal: iat may run ahead of our clock by the 30 s skew, not more; a missing
// iat is refused.
TEST_F(TokenVerifierTest, RejectsIssuedAtInTheFutureBeyondSkew) {
    ASSERT_EQ(token_clock_skew_s, 30);
    json claims = user_claims();
    claims["iat"] = now + token_clock_skew_s;
    EXPECT_TRUE(accepts(sign(claims)));
    claims["iat"] = now + token_clock_skew_s + 1;
    EXPECT_FALSE(accepts(sign(claims)));
    claims.erase("iat");
    EXPECT_FALSE(accepts(sign(claims)));
}

// Goal: nbf (RFC 7519 4.1.5), when present, is honoured like iat: a token
// not valid before a time further ahead than the skew is refused.
TEST_F(TokenVerifierTest, RejectsNotBeforeInTheFuture) {
    json claims = user_claims();
    claims["nbf"] = now;
    EXPECT_TRUE(accepts(sign(claims)));
    claims["nbf"] = now + 3600;
    EXPECT_FALSE(accepts(sign(claims)));
}

// Goal: jti and sub are required strings; without them revocation and the
// caller's identity cannot be decided.
TEST_F(TokenVerifierTest, RejectsMissingJtiOrSub) {
    json without_jti = user_claims();
    without_jti.erase("jti");
    EXPECT_FALSE(accepts(sign(without_jti)));
    json without_sub = user_claims();
    without_sub.erase("sub");
    EXPECT_FALSE(accepts(sign(without_sub)));
    json numeric_jti = user_claims();
    numeric_jti["jti"] = 7;
    EXPECT_FALSE(accepts(sign(numeric_jti)));
}

// Goal: alg "none" is refused, whether the signature is missing, junk, or a
// genuine RS256 signature over that very header (so only alg can refuse it).
TEST_F(TokenVerifierTest, RejectsAlgNone) {
    const json header{{"alg", "none"}, {"typ", "JWT"}, {"kid", signing_key().kid}};
    const std::string input = core::base64url_encode(header.dump()) + "." + core::base64url_encode(user_claims().dump());
    EXPECT_FALSE(accepts(input + "."));
    EXPECT_FALSE(accepts(input + "." + core::base64url_encode("x")));
    EXPECT_FALSE(accepts(sign_with_header(header, user_claims(), signing_key())));
}

// Goal: HS256 is refused: the classic confusion attack (HMAC keyed with the
// public key) and an HS256 header over a genuine RS256 signature alike.
TEST_F(TokenVerifierTest, RejectsAlgHs256) {
    const json header{{"alg", "HS256"}, {"typ", "JWT"}, {"kid", signing_key().kid}};
    const std::string input = core::base64url_encode(header.dump()) + "." + core::base64url_encode(user_claims().dump());
    for (const std::string& secret : {jwk_of(signing_key()).dump(), *core::base64url_decode(signing_key().modulus_b64url)})
        EXPECT_FALSE(accepts(input + "." + core::base64url_encode(core::hmac_sha256(secret, input))));
    EXPECT_FALSE(accepts(sign_with_header(header, user_claims(), signing_key())));
}

// Goal: the header must name RS256 and a kid; a header without a kid, with
// a numeric kid, or that is not JSON is refused.
TEST_F(TokenVerifierTest, RejectsHeaderWithoutKidOrNotJson) {
    EXPECT_FALSE(accepts(sign_with_header(json{{"alg", "RS256"}, {"typ", "JWT"}}, user_claims(), signing_key())));
    EXPECT_FALSE(accepts(sign_with_header(json{{"alg", "RS256"}, {"kid", 1}}, user_claims(), signing_key())));
    const std::string input = core::base64url_encode("not json") + "." + core::base64url_encode(user_claims().dump());
    const auto private_key = core::RsaPrivateKey::from_pem(signing_key().private_key_pem);
    EXPECT_FALSE(accepts(input + "." + core::base64url_encode(private_key.sign_rs256(input))));
}

// Goal: a kid the verifier does not know is refused (no database to ask).
TEST_F(TokenVerifierTest, RejectsUnknownKid) {
    const json header{{"alg", "RS256"}, {"typ", "JWT"}, {"kid", "no-such-key"}};
    EXPECT_FALSE(accepts(sign_with_header(header, user_claims(), signing_key())));
    EXPECT_FALSE(accepts(sign(user_claims(), foreign_key())));  // the foreign key's own kid
}

// Goal: a signature made by another key, presented under our kid, is refused.
TEST_F(TokenVerifierTest, RejectsSignatureFromAnotherKey) {
    const json header{{"alg", "RS256"}, {"typ", "JWT"}, {"kid", signing_key().kid}};
    EXPECT_FALSE(accepts(sign_with_header(header, user_claims(), foreign_key())));
}

// Goal: a genuine token whose payload segment is swapped for other claims
// (here: a later exp) no longer verifies.
TEST_F(TokenVerifierTest, RejectsTamperedPayload) {
    const std::string token = sign(user_claims());
    json forged = user_claims();
    forged["exp"] = now + 86400;
    const auto first = token.find('.');
    const auto second = token.find('.', first + 1);
    const std::string tampered =
        token.substr(0, first + 1) + core::base64url_encode(forged.dump()) + token.substr(second);
    ASSERT_TRUE(accepts(token));
    EXPECT_FALSE(accepts(tampered));
}

// Goal: malformed tokens are refused, never thrown on.
TEST_F(TokenVerifierTest, RejectsMalformedTokens) {
    EXPECT_FALSE(accepts(""));
    EXPECT_FALSE(accepts("a.b"));
    EXPECT_FALSE(accepts("not a token at all"));
    const std::string input = sign_with_header(json{{"alg", "RS256"}, {"kid", signing_key().kid}}, json::array(), signing_key());
    EXPECT_FALSE(accepts(input)) << "claims that are not an object";
}

// Goal: load_jwks replaces the key set: after a rotation that drops our key,
// its tokens are refused, and the new key's tokens are accepted.
TEST_F(TokenVerifierTest, ReloadReplacesKeySet) {
    verifier.load_jwks(jwks_of(foreign_key()));
    EXPECT_EQ(verifier.key_count(), 1u);
    EXPECT_FALSE(accepts(sign(user_claims(), signing_key())));
    EXPECT_TRUE(accepts(sign(user_claims(), foreign_key())));
}

// Goal: a JWKS entry that cannot be a usable RSA key is skipped, and the
// good entries beside it still work.
TEST_F(TokenVerifierTest, SkipsUnusableJwksEntries) {
    json jwks = jwks_of(signing_key());
    jwks["keys"].push_back(json{{"kty", "EC"}, {"kid", "ec"}, {"crv", "P-256"}});
    jwks["keys"].push_back(json{{"kty", "RSA"}, {"kid", "broken"}, {"n", "!!"}, {"e", "AQAB"}});
    jwks["keys"].push_back(json{{"kty", "RSA"}, {"n", signing_key().modulus_b64url}, {"e", "AQAB"}});
    verifier.load_jwks(jwks);
    EXPECT_EQ(verifier.key_count(), 1u);
    EXPECT_TRUE(accepts(sign(user_claims())));
}

// ---------------------------------------------------------------- the verified-token cache

// Goal: a token verified once is served from the cache with the same result
// (subject, jti, claims), and one entry is kept per token, not per use.
TEST_F(TokenVerifierTest, RemembersAVerifiedTokenAndAnswersTheSame) {
    const std::string token = sign(user_claims());
    const auto first = verifier.verify(token, nullptr, now);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(verifier.verified_count(), 1u);
    const auto again = verifier.verify(token, nullptr, now + 10);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->subject, first->subject);
    EXPECT_EQ(again->jti, first->jti);
    EXPECT_EQ(*again->claims, *first->claims);
    EXPECT_FALSE(again->is_client_token);
    EXPECT_EQ(verifier.verified_count(), 1u);
}

// Goal: the clock is checked again on every use of a remembered token: it is
// refused from its exp on, and an iat or nbf beyond the skew still refuses it.
TEST_F(TokenVerifierTest, ChecksTheClockOnEveryUseOfARememberedToken) {
    const std::string token = sign(user_claims());
    ASSERT_TRUE(accepts(token));
    EXPECT_TRUE(verifier.verify(token, nullptr, now + 899).has_value());
    EXPECT_FALSE(verifier.verify(token, nullptr, now + 900).has_value()) << "exp is not valid any more";
    EXPECT_FALSE(verifier.verify(token, nullptr, now - token_clock_skew_s - 1).has_value())
        << "iat in the future beyond the skew, even when remembered";

    json claims = user_claims();
    claims["nbf"] = now + 100;
    const std::string later = sign(claims);
    EXPECT_FALSE(accepts(later)) << "not yet valid";
    EXPECT_TRUE(verifier.verify(later, nullptr, now + 100).has_value());
    EXPECT_FALSE(verifier.verify(later, nullptr, now).has_value()) << "nbf checked again on a remembered token";
}

// Goal: what fails is never remembered: a forged or tampered token, a wrong
// issuer, and a token that has already expired (it cannot become valid).
TEST_F(TokenVerifierTest, RemembersNothingThatFailed) {
    EXPECT_FALSE(accepts(sign(user_claims(), foreign_key())));
    json wrong_issuer = user_claims();
    wrong_issuer["iss"] = "http://evil.example";
    EXPECT_FALSE(accepts(sign(wrong_issuer)));
    json expired = user_claims();
    expired["exp"] = now;
    EXPECT_FALSE(accepts(sign(expired)));
    EXPECT_EQ(verifier.verified_count(), 0u);
}

// Goal: a token whose signature was remembered is refused at once when its
// key leaves the key set (rotation), and the cache starts empty.
TEST_F(TokenVerifierTest, ANewKeySetForgetsRememberedTokens) {
    const std::string token = sign(user_claims());
    ASSERT_TRUE(accepts(token));
    ASSERT_EQ(verifier.verified_count(), 1u);
    verifier.load_jwks(jwks_of(foreign_key()));
    EXPECT_EQ(verifier.verified_count(), 0u);
    EXPECT_FALSE(accepts(token));
}

// Goal: loading the same key set again (a reload for an unknown kid) keeps
// what was verified; a different one forgets it.
TEST_F(TokenVerifierTest, TheSameKeySetAgainKeepsRememberedTokens) {
    ASSERT_TRUE(accepts(sign(user_claims())));
    verifier.load_jwks(jwks_of(signing_key()));
    EXPECT_EQ(verifier.verified_count(), 1u);
    json both = jwks_of(signing_key());
    both["keys"].push_back(jwk_of(foreign_key()));
    verifier.load_jwks(both);
    EXPECT_EQ(verifier.verified_count(), 0u);
}

// Goal: the cache is bounded: when full, the expired tokens go first, and
// when nothing has expired it starts again empty; it never holds more than
// its bound.
TEST_F(TokenVerifierTest, TheCacheIsBounded) {
    TokenVerifier small{issuer, 3};
    small.load_jwks(jwks_of(signing_key()));
    auto token_expiring_at = [](std::int64_t exp, int n) {
        json claims = user_claims();
        claims["exp"] = exp;
        claims["jti"] = "b7e1c2d3-0000-4000-8000-00000000000" + std::to_string(n);
        return sign(claims);
    };
    ASSERT_TRUE(small.verify(token_expiring_at(now + 5, 1), nullptr, now));
    ASSERT_TRUE(small.verify(token_expiring_at(now + 900, 2), nullptr, now));
    ASSERT_TRUE(small.verify(token_expiring_at(now + 900, 3), nullptr, now));
    EXPECT_EQ(small.verified_count(), 3u);
    // Full, and the first token has expired by now + 10: only it goes.
    ASSERT_TRUE(small.verify(token_expiring_at(now + 900, 4), nullptr, now + 10));
    EXPECT_EQ(small.verified_count(), 3u);
    // Full and nothing expired: everything goes, the new token stays.
    ASSERT_TRUE(small.verify(token_expiring_at(now + 900, 5), nullptr, now + 10));
    EXPECT_EQ(small.verified_count(), 1u);
}

}  // namespace
