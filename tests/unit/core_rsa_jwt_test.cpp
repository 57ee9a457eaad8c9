// core_rsa_jwt_test.cpp: RSA keys, RFC 7638 thumbprints and compact RS256
// JWS from extension/core/rsa_key.hpp and jwt.hpp.
//
// Goal: a key generated for signing publishes a kid that is its own
// thumbprint; what the private key signs, the public key rebuilt from the
// JWK n/e verifies, and nothing else verifies; jwt_split accepts exactly the
// three-segment shape. Method: two generated keys shared by the suite (RSA
// generation is the slow part), the RFC 7638 example key, hand-cut tokens.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "core/base64url.hpp"
#include "core/errors.hpp"
#include "core/jwt.hpp"
#include "core/rsa_key.hpp"

namespace {

namespace core = corebank::core;

// RFC 7638 section 3.1: the example RSA key and its thumbprint.
constexpr const char* rfc7638_n =
    "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjh"
    "Mstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQv"
    "RL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
constexpr const char* rfc7638_e = "AQAB";
constexpr const char* rfc7638_thumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs";

const core::RsaKeyMaterial& first_key() {
    static const core::RsaKeyMaterial key = core::rsa_generate();
    return key;
}

const core::RsaKeyMaterial& second_key() {
    static const core::RsaKeyMaterial key = core::rsa_generate();
    return key;
}

std::string flip_first_byte(std::string bytes) {
    bytes[0] = static_cast<char>(bytes[0] ^ 0x01);
    return bytes;
}

// Goal: the RFC 7638 worked example gives the published thumbprint.
TEST(RsaJwkThumbprint, Rfc7638ExampleKey) {
    EXPECT_EQ(core::rsa_jwk_thumbprint(rfc7638_n, rfc7638_e), rfc7638_thumbprint);
}

// Goal: the RFC 7638 key is accepted as a 2048-bit public key.
TEST(RsaPublicKey, BuildsFromRfc7638Jwk) {
    EXPECT_NO_THROW(core::RsaPublicKey::from_jwk(rfc7638_n, rfc7638_e));
}

// Goal: a generated key is RSA-2048 with e = 65537, and its kid is the
// thumbprint of its own n and e.
TEST(RsaGenerate, KidIsThumbprintOfPublicKey) {
    const auto& key = first_key();
    EXPECT_EQ(key.kid, core::rsa_jwk_thumbprint(key.modulus_b64url, key.exponent_b64url));
    EXPECT_EQ(key.exponent_b64url, "AQAB");
    const auto modulus = core::base64url_decode(key.modulus_b64url);
    ASSERT_TRUE(modulus.has_value());
    EXPECT_EQ(modulus->size(), 256u);
    EXPECT_EQ(key.private_key_pem.rfind("-----BEGIN PRIVATE KEY-----", 0), 0u);
    EXPECT_NE(first_key().kid, second_key().kid);
}

// Goal: key sizes outside 2048..8192 are refused before any work.
TEST(RsaGenerate, RefusesWeakKeySize) {
    EXPECT_THROW(core::rsa_generate(1024), core::CoreError);
}

// Goal: what the PEM private key signs, the JWK public key verifies.
TEST(RsaSignature, SignWithPemVerifyWithJwk) {
    const auto& key = first_key();
    const auto private_key = core::RsaPrivateKey::from_pem(key.private_key_pem);
    const auto public_key = core::RsaPublicKey::from_jwk(key.modulus_b64url, key.exponent_b64url);
    const std::string input = "header.payload";
    const std::string signature = private_key.sign_rs256(input);
    EXPECT_EQ(signature.size(), 256u);
    EXPECT_TRUE(public_key.verify_rs256(input, signature));
}

// Goal: a changed payload, a changed signature, an empty signature or the
// other key's public half all fail verification.
TEST(RsaSignature, TamperedInputOrSignatureFails) {
    const auto& key = first_key();
    const auto private_key = core::RsaPrivateKey::from_pem(key.private_key_pem);
    const auto public_key = core::RsaPublicKey::from_jwk(key.modulus_b64url, key.exponent_b64url);
    const auto other_public =
        core::RsaPublicKey::from_jwk(second_key().modulus_b64url, second_key().exponent_b64url);
    const std::string input = "header.payload";
    const std::string signature = private_key.sign_rs256(input);
    EXPECT_FALSE(public_key.verify_rs256("header.payloaD", signature));
    EXPECT_FALSE(public_key.verify_rs256(input, flip_first_byte(signature)));
    EXPECT_FALSE(public_key.verify_rs256(input, signature.substr(0, 255)));
    EXPECT_FALSE(public_key.verify_rs256(input, ""));
    EXPECT_FALSE(other_public.verify_rs256(input, signature));
}

// Goal: bad key material throws CoreError rather than yielding a key.
TEST(RsaKeys, BadMaterialThrows) {
    EXPECT_THROW(core::RsaPrivateKey::from_pem("not a pem"), core::CoreError);
    EXPECT_THROW(core::RsaPublicKey::from_jwk("", "AQAB"), core::CoreError);
    EXPECT_THROW(core::RsaPublicKey::from_jwk("a+b/", "AQAB"), core::CoreError);
    // A 512-bit modulus is below the 2048-bit floor.
    EXPECT_THROW(core::RsaPublicKey::from_jwk(core::base64url_encode(std::string(64, '\x7f')), "AQAB"),
                 core::CoreError);
}

// Goal: jwt_sign_rs256 writes the header {"alg":"RS256","typ":"JWT","kid"},
// the claims verbatim, and a signature over the first two segments.
TEST(JwtSign, HeaderClaimsAndSignature) {
    const auto& key = first_key();
    const auto private_key = core::RsaPrivateKey::from_pem(key.private_key_pem);
    const std::string claims = R"({"sub":"u1","iss":"http://issuer"})";
    const std::string token = core::jwt_sign_rs256(key.kid, claims, private_key);

    const auto parts = core::jwt_split(token);
    ASSERT_TRUE(parts.has_value());
    const auto header = nlohmann::json::parse(parts->header_json);
    EXPECT_EQ(header, (nlohmann::json{{"alg", "RS256"}, {"typ", "JWT"}, {"kid", key.kid}}));
    EXPECT_EQ(parts->payload_json, claims);
    EXPECT_EQ(parts->signing_input, token.substr(0, token.rfind('.')));
    const auto public_key = core::RsaPublicKey::from_jwk(key.modulus_b64url, key.exponent_b64url);
    EXPECT_TRUE(public_key.verify_rs256(parts->signing_input, parts->signature));
}

// Goal: a kid that would need JSON escaping, or claims that are not an
// object, are refused at signing time.
TEST(JwtSign, RefusesUnsafeKidAndNonObjectClaims) {
    const auto private_key = core::RsaPrivateKey::from_pem(first_key().private_key_pem);
    EXPECT_THROW(core::jwt_sign_rs256("bad\"kid", "{}", private_key), core::CoreError);
    EXPECT_THROW(core::jwt_sign_rs256("", "{}", private_key), core::CoreError);
    EXPECT_THROW(core::jwt_sign_rs256("kid", "[1]", private_key), core::CoreError);
}

// Goal: jwt_split decodes a well-formed three-segment token.
TEST(JwtSplit, AcceptsThreeSegments) {
    const std::string token = core::base64url_encode("{\"alg\":\"RS256\"}") + "." + core::base64url_encode("{}") +
                              "." + core::base64url_encode("sig");
    const auto parts = core::jwt_split(token);
    ASSERT_TRUE(parts.has_value());
    EXPECT_EQ(parts->header_json, "{\"alg\":\"RS256\"}");
    EXPECT_EQ(parts->payload_json, "{}");
    EXPECT_EQ(parts->signature, "sig");
}

// Goal: every other shape is refused: too few or too many segments, empty
// segments, segments that are not base64url, and tokens over the length cap.
TEST(JwtSplit, RefusesWrongShapes) {
    const std::string h = core::base64url_encode("{\"alg\":\"RS256\"}");
    const std::string p = core::base64url_encode("{}");
    const std::string s = core::base64url_encode("sig");
    EXPECT_FALSE(core::jwt_split("").has_value());
    EXPECT_FALSE(core::jwt_split(h).has_value());
    EXPECT_FALSE(core::jwt_split(h + "." + p).has_value()) << "2 parts";
    EXPECT_FALSE(core::jwt_split(h + "." + p + "." + s + "." + s).has_value()) << "4 parts";
    EXPECT_FALSE(core::jwt_split("." + p + "." + s).has_value()) << "empty header";
    EXPECT_FALSE(core::jwt_split(h + ".." + s).has_value()) << "empty payload";
    EXPECT_FALSE(core::jwt_split(h + "." + p + ".").has_value()) << "empty signature";
    EXPECT_FALSE(core::jwt_split("..").has_value());
    EXPECT_FALSE(core::jwt_split(h + "." + p + "." + "a+b/").has_value()) << "standard alphabet";
    EXPECT_FALSE(core::jwt_split(h + "." + p + "!" + "." + s).has_value()) << "bad character";
    EXPECT_FALSE(core::jwt_split(h + "." + p + "." + "A").has_value()) << "impossible length";
}

// Goal: the length cap is jwt_length_max: one byte over is refused even when
// the shape is otherwise right, and a token at the cap is still split.
TEST(JwtSplit, RefusesTokensOverLengthCap) {
    const std::string h = core::base64url_encode("{\"alg\":\"RS256\"}");
    const std::string p = core::base64url_encode("{}");
    const std::string prefix = h + "." + p + ".";
    std::size_t signature_length = core::jwt_length_max - prefix.size();
    while (signature_length % 4 == 1) --signature_length;  // keep the segment decodable
    const std::string at_cap = prefix + std::string(signature_length, 'A');
    ASSERT_LE(at_cap.size(), core::jwt_length_max);
    EXPECT_TRUE(core::jwt_split(at_cap).has_value());
    const std::string over_cap = prefix + std::string(core::jwt_length_max - prefix.size() + 4, 'A');
    EXPECT_FALSE(core::jwt_split(over_cap).has_value());
}

}  // namespace
