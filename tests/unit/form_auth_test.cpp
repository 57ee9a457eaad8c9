// form_auth_test.cpp: form bodies and Authorization headers of the OAuth
// endpoints (httpd/src/auth/requests.hpp), and the ApiError factories
// (httpd/src/api_error.hpp).
//
// Goal: x-www-form-urlencoded decoding follows the HTML/URL rules ('+' is a
// space, %XX is a byte) and refuses ambiguity (a repeated field) and broken
// escapes; Basic and Bearer headers parse exactly their RFC shapes; every
// ApiError factory carries the documented status and code. Method: RFC 7617's
// own example plus hand-made malformed inputs.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "api_error.hpp"
#include "auth/requests.hpp"
#include "core/base64url.hpp"

namespace {

using corebank::httpd::ApiError;
namespace httpd = corebank::httpd;
namespace auth = corebank::httpd::auth;

::testing::AssertionResult bad_request(const std::function<void()>& parse) {
    try {
        parse();
    } catch (const ApiError& e) {
        if (e.status == 400 && e.code == "BAD_REQUEST") return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "threw " << e.status << " " << e.code << " " << e.what();
    }
    return ::testing::AssertionFailure() << "did not throw";
}

// ---- parse_form ---------------------------------------------------------------

// Goal: a client-credentials body decodes field by field, '+' and %20 both
// giving spaces, %XX any byte, in either case of hex digit.
TEST(ParseForm, DecodesPercentAndPlus) {
    const auto form = auth::parse_form(
        "grant_type=client_credentials&client_id=kyc%2Dservice&client_secret=s%3Ds%26t%2bu&scope=kyc%3avalidate+kyc:screen%20x");
    EXPECT_EQ(form.fields.size(), 4u);
    EXPECT_EQ(form.get("grant_type"), "client_credentials");
    EXPECT_EQ(form.get("client_id"), "kyc-service");
    EXPECT_EQ(form.get("client_secret"), "s=s&t+u");
    EXPECT_EQ(form.get("scope"), "kyc:validate kyc:screen x");
    EXPECT_EQ(form.get("absent"), std::nullopt);
}

// Goal: keys are decoded too; a key without '=' has an empty value; empty
// pairs ("&&") and an empty body are ignored.
TEST(ParseForm, KeysEmptyValuesAndEmptyPairs) {
    const auto form = auth::parse_form("a%5Fb=1&&flag&c=");
    EXPECT_EQ(form.get("a_b"), "1");
    EXPECT_EQ(form.get("flag"), "");
    EXPECT_EQ(form.get("c"), "");
    EXPECT_EQ(form.fields.size(), 3u);
    EXPECT_TRUE(auth::parse_form("").fields.empty());
}

// Goal: a field given twice is refused (which one would win is ambiguous),
// also when the repetition hides behind an escape.
TEST(ParseForm, RejectsRepeatedField) {
    EXPECT_TRUE(bad_request([] { auth::parse_form("scope=a&scope=b"); }));
    EXPECT_TRUE(bad_request([] { auth::parse_form("scope=a&sc%6Fpe=a"); }));
}

// Goal: malformed escapes (%zz, a truncated %X, a lone %) and an escaped NUL
// are refused instead of being passed on.
TEST(ParseForm, RejectsMalformedEscapes) {
    EXPECT_TRUE(bad_request([] { auth::parse_form("token=%zz"); }));
    EXPECT_TRUE(bad_request([] { auth::parse_form("token=abc%4"); }));
    EXPECT_TRUE(bad_request([] { auth::parse_form("token=abc%"); }));
    EXPECT_TRUE(bad_request([] { auth::parse_form("token=%g1"); }));
    EXPECT_TRUE(bad_request([] { auth::parse_form("token=a%00b"); }));
}

// Goal: the number of fields is bounded (32).
TEST(ParseForm, BoundsFieldCount) {
    std::string body;
    for (int i = 0; i < 32; ++i) body += (i ? "&f" : "f") + std::to_string(i) + "=v";
    EXPECT_EQ(auth::parse_form(body).fields.size(), 32u);
    EXPECT_TRUE(bad_request([&] { auth::parse_form(body + "&f32=v"); }));
}

// ---- parse_basic_authorization -------------------------------------------------

// Goal: RFC 7617 section 2's example decodes to Aladdin / open sesame.
TEST(ParseBasicAuthorization, Rfc7617Example) {
    const auto credentials = auth::parse_basic_authorization("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
    ASSERT_TRUE(credentials.has_value());
    EXPECT_EQ(credentials->user, "Aladdin");
    EXPECT_EQ(credentials->password, "open sesame");
}

// Goal: the scheme is case-insensitive; the first ':' splits, so a password
// may contain ':'; RFC 6749 2.3.1 form-encoding of id and secret is undone.
TEST(ParseBasicAuthorization, SchemeCaseColonAndFormEncoding) {
    const auto lower = auth::parse_basic_authorization("basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
    ASSERT_TRUE(lower.has_value());
    EXPECT_EQ(lower->user, "Aladdin");
    const auto colon = auth::parse_basic_authorization("Basic " + corebank::core::base64_encode("id:se:cret"));
    ASSERT_TRUE(colon.has_value());
    EXPECT_EQ(colon->user, "id");
    EXPECT_EQ(colon->password, "se:cret");
    const auto encoded = auth::parse_basic_authorization("Basic " + corebank::core::base64_encode("my%20id:a%2Bb"));
    ASSERT_TRUE(encoded.has_value());
    EXPECT_EQ(encoded->user, "my id");
    EXPECT_EQ(encoded->password, "a+b");
}

// Goal: anything else is nullopt: another scheme, no credentials, invalid
// base64, no colon, a bad escape inside.
TEST(ParseBasicAuthorization, GarbageIsRefused) {
    EXPECT_FALSE(auth::parse_basic_authorization("").has_value());
    EXPECT_FALSE(auth::parse_basic_authorization("Basic").has_value());
    EXPECT_FALSE(auth::parse_basic_authorization("Basic ").has_value());
    EXPECT_FALSE(auth::parse_basic_authorization("Basic !!!!").has_value());
    EXPECT_FALSE(auth::parse_basic_authorization("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ").has_value());
    EXPECT_FALSE(auth::parse_basic_authorization("Bearer QWxhZGRpbjpvcGVuIHNlc2FtZQ==").has_value());
    EXPECT_FALSE(auth::parse_basic_authorization("BasicQWxhZGRpbjpvcGVuIHNlc2FtZQ==").has_value());
    EXPECT_FALSE(auth::parse_basic_authorization("Basic " + corebank::core::base64_encode("nocolon")).has_value());
    EXPECT_FALSE(auth::parse_basic_authorization("Basic " + corebank::core::base64_encode("id:%zz")).has_value());
}

// ---- parse_bearer -------------------------------------------------------------

// Goal: "Bearer <token>" (any case of the scheme) gives the token.
TEST(ParseBearer, ExtractsToken) {
    EXPECT_EQ(auth::parse_bearer("Bearer abc.def.ghi"), "abc.def.ghi");
    EXPECT_EQ(auth::parse_bearer("bearer abc.def.ghi"), "abc.def.ghi");
    EXPECT_EQ(auth::parse_bearer("BEARER  abc.def.ghi "), "abc.def.ghi");
}

// Goal: another scheme, no token, a token with a space, or an oversized
// token is nullopt.
TEST(ParseBearer, RefusesOtherShapes) {
    EXPECT_FALSE(auth::parse_bearer("").has_value());
    EXPECT_FALSE(auth::parse_bearer("Bearer").has_value());
    EXPECT_FALSE(auth::parse_bearer("Bearer ").has_value());
    EXPECT_FALSE(auth::parse_bearer("Bearer    ").has_value());
    EXPECT_FALSE(auth::parse_bearer("Basic abc").has_value());
    EXPECT_FALSE(auth::parse_bearer("Bearerabc").has_value());
    EXPECT_FALSE(auth::parse_bearer("Bearer abc def").has_value());
    EXPECT_FALSE(auth::parse_bearer("Bearer " + std::string(8193, 'a')).has_value());
}

// ---- ApiError -----------------------------------------------------------------

// Goal: each factory carries the documented status, code and message.
TEST(ApiErrorFactories, StatusCodeAndMessage) {
    const ApiError bad = httpd::bad_request("broken");
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(bad.code, "BAD_REQUEST");
    EXPECT_STREQ(bad.what(), "broken");
    EXPECT_TRUE(bad.with_timestamp);
    EXPECT_TRUE(bad.headers.empty());

    const ApiError validation = httpd::validation_error("a: b");
    EXPECT_EQ(validation.status, 400);
    EXPECT_EQ(validation.code, "VALIDATION_ERROR");
    EXPECT_STREQ(validation.what(), "a: b");

    const ApiError credentials = httpd::invalid_credentials();
    EXPECT_EQ(credentials.status, 401);
    EXPECT_EQ(credentials.code, "INVALID_CREDENTIALS");
    EXPECT_STREQ(credentials.what(), "Invalid credentials");

    EXPECT_EQ(httpd::account_locked().status, 403);
    EXPECT_EQ(httpd::account_locked().code, "ACCOUNT_LOCKED");
    EXPECT_EQ(httpd::not_found("x").status, 404);
    EXPECT_EQ(httpd::not_found("x").code, "NOT_FOUND");
    EXPECT_EQ(httpd::service_unavailable("x").status, 503);
    EXPECT_EQ(httpd::service_unavailable("x").code, "SERVICE_UNAVAILABLE");
    EXPECT_EQ(httpd::internal_error().status, 500);
    EXPECT_EQ(httpd::internal_error().code, "INTERNAL_ERROR");
}

// Goal: UNAUTHORIZED carries no timestamp and a WWW-Authenticate header;
// RATE_LIMIT_EXCEEDED carries Retry-After.
TEST(ApiErrorFactories, UnauthorizedAndRateLimitedHeaders) {
    const ApiError unauthorized = httpd::unauthorized("Token expired");
    EXPECT_EQ(unauthorized.status, 401);
    EXPECT_EQ(unauthorized.code, "UNAUTHORIZED");
    EXPECT_STREQ(unauthorized.what(), "Token expired");
    EXPECT_FALSE(unauthorized.with_timestamp);
    ASSERT_EQ(unauthorized.headers.size(), 1u);
    EXPECT_EQ(unauthorized.headers[0].first, "WWW-Authenticate");
    EXPECT_EQ(unauthorized.headers[0].second, "Bearer");

    const ApiError limited = httpd::rate_limited("Slow down", 42);
    EXPECT_EQ(limited.status, 429);
    EXPECT_EQ(limited.code, "RATE_LIMIT_EXCEEDED");
    ASSERT_EQ(limited.headers.size(), 1u);
    EXPECT_EQ(limited.headers[0].first, "Retry-After");
    EXPECT_EQ(limited.headers[0].second, "42");
}

}  // namespace
