// auth_requests_test.cpp: the identity service's JSON request bodies
// (httpd/src/auth/requests.hpp on top of json_body.hpp).
//
// Goal: every field rule of docs/identity.md ("Rules", "Bad input", "Field
// limits") holds at its boundaries, and each refusal carries the documented
// status, code and exact message. Method: bodies written as JSON text (so
// nulls, wrong types, NUL escapes and malformed JSON can be expressed),
// parsed by the same functions the handlers call.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "api_error.hpp"
#include "auth/requests.hpp"
#include "json_body.hpp"

namespace {

using corebank::httpd::ApiError;
using nlohmann::json;
namespace auth = corebank::httpd::auth;

constexpr const char* either_message = "Either an email or a phone number is required";
constexpr const char* malformed_message = "Malformed JSON request body";
constexpr const char* good_password = "correct horse";

// Runs `parse` and reports whether it threw an ApiError 400 with this code
// and exactly this message.
::testing::AssertionResult fails_with(const std::function<void()>& parse, const std::string& code,
                                      const std::string& message) {
    try {
        parse();
    } catch (const ApiError& e) {
        if (e.status == 400 && e.code == code && message == e.what()) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "threw " << e.status << " " << e.code << " \"" << e.what()
                                             << "\", expected 400 " << code << " \"" << message << "\"";
    }
    return ::testing::AssertionFailure() << "did not throw; expected 400 " << code << " \"" << message << "\"";
}

::testing::AssertionResult register_fails_with(const json& body, const std::string& code, const std::string& message) {
    return fails_with([&] { auth::parse_register(body.dump()); }, code, message);
}

::testing::AssertionResult register_validation(const json& body, const std::string& message) {
    return register_fails_with(body, "VALIDATION_ERROR", message);
}

json register_body(const std::string& email = "alice@example.com") {
    return json{{"email", email}, {"password", good_password}};
}

// Distinct emoji (U+1F600 onwards, 4 bytes each): a run of one repeated
// character would be refused as too guessable (password_quality.hpp).
std::string emoji_string(std::size_t count) {
    std::string out;
    for (std::size_t i = 0; i < count; ++i) {
        const unsigned code_point = 0x1F600 + static_cast<unsigned>(i * 7 % 80);
        out += static_cast<char>(0xF0);
        out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code_point & 0x3F));
    }
    return out;
}

// The first `count` (at most 128) characters of a random text: passwords
// that pass the guessability check at every length the length tests need.
std::string varied_password(std::size_t count) {
    static const std::string random_text =
        "rtU_U479mSpTj8pSXmieK7oYtbCi6UPas6jf83494r5DYC!i39rx7pG-ZLMCTy9CRvShx5P4RrVDLQYiDUXDKmtnmJxryErPsA9iMGLqMq9nVyieCSREzaXC.8cpjG4V";
    EXPECT_LE(count, random_text.size());
    return random_text.substr(0, count);
}

// ---- register -------------------------------------------------------------

// Goal: a complete, valid registration comes through with every field.
TEST(ParseRegister, AcceptsCompleteBody) {
    const auto r = auth::parse_register(json{{"email", "alice@example.com"},
                                                 {"phone", "+263771234567"},
                                                 {"password", good_password},
                                                 {"firstName", "Alice"},
                                                 {"lastName", "Moyo"},
                                                 {"clientId", "mobile-app"},
                                                 {"channel", "MOBILE"}}
                                                .dump());
    EXPECT_EQ(r.email, "alice@example.com");
    EXPECT_EQ(r.phone, "+263771234567");
    EXPECT_EQ(r.password, good_password);
    EXPECT_EQ(r.first_name, "Alice");
    EXPECT_EQ(r.last_name, "Moyo");
    EXPECT_EQ(r.client_id, "mobile-app");
    EXPECT_EQ(r.channel, "MOBILE");
}

// Goal: with neither email nor phone, the answer is the spec's own sentence
// as 400 BAD_REQUEST; null and blank identifiers count as missing.
TEST(ParseRegister, EitherEmailOrPhoneIsRequired) {
    EXPECT_TRUE(register_fails_with(json{{"password", good_password}}, "BAD_REQUEST", either_message));
    EXPECT_TRUE(register_fails_with(json{{"email", nullptr}, {"phone", nullptr}, {"password", good_password}},
                                    "BAD_REQUEST", either_message));
    EXPECT_TRUE(register_fails_with(json{{"email", "   "}, {"phone", ""}, {"password", good_password}}, "BAD_REQUEST",
                                    either_message));
}

// Goal: a phone alone is enough, and is kept trimmed but otherwise as given.
TEST(ParseRegister, PhoneAloneIsEnough) {
    const auto r = auth::parse_register(json{{"phone", "+263771234567"}, {"password", good_password}}.dump());
    EXPECT_FALSE(r.email.has_value());
    EXPECT_EQ(r.phone, "+263771234567");
}

// Goal: a phone is checked exactly as sent against the spec's pattern: no
// trimming, so surrounding white space or a newline is refused, not repaired.
TEST(ParseRegister, PhoneIsNotTrimmed) {
    EXPECT_THROW(auth::parse_register(json{{"phone", " +263771234567 "}, {"password", good_password}}.dump()),
                 ApiError);
    EXPECT_THROW(auth::parse_register(json{{"phone", "263771234567\n"}, {"password", good_password}}.dump()),
                 ApiError);
}

// Goal: emails are trimmed and lower-cased, so login is case-insensitive.
TEST(ParseRegister, EmailIsTrimmedAndLowerCased) {
    const auto r = auth::parse_register(register_body("  Alice.Smith@Example.COM \t").dump());
    EXPECT_EQ(r.email, "alice.smith@example.com");
}

// Goal: addresses without exactly one '@', without a dotted domain, or with
// white space inside are refused with the email field named.
TEST(ParseRegister, RejectsInvalidEmails) {
    for (const char* email : {"plainaddress", "alice@", "@example.com", "alice@@example.com", "alice@example",
                              "alice@example.", "alice@.com", "alice smith@example.com", "alice@exa mple.com",
                              "alice@example..com"}) {
        EXPECT_TRUE(register_validation(register_body(email), "email: must be a valid email address")) << email;
    }
}

// Goal: the email limit is 254 characters: 254 passes, 255 fails.
TEST(ParseRegister, EmailLengthLimit) {
    const std::string domain = "@example.com";
    const std::string at_limit = std::string(254 - domain.size(), 'a') + domain;
    ASSERT_EQ(at_limit.size(), 254u);
    EXPECT_EQ(auth::parse_register(register_body(at_limit).dump()).email, at_limit);
    EXPECT_TRUE(register_validation(register_body("a" + at_limit), "email: must be at most 254 characters"));
}

// Goal: phones match ^\+?[0-9]{10,15}$: 10 and 15 digits pass with or
// without '+', 9 and 16 fail, and letters, spaces or a double '+' fail.
TEST(ParseRegister, PhoneRegexBoundaries) {
    for (const char* phone : {"1234567890", "123456789012345", "+1234567890", "+123456789012345"}) {
        const auto r = auth::parse_register(json{{"phone", phone}, {"password", good_password}}.dump());
        EXPECT_EQ(r.phone, phone);
    }
    for (const char* phone : {"123456789", "1234567890123456", "+123456789", "+1234567890123456", "12345abcde",
                              "++1234567890", "263 771 234 567", "263-771-234567", "1234567890+"}) {
        EXPECT_TRUE(register_validation(json{{"phone", phone}, {"password", good_password}},
                                        "phone: must match ^\\+?[0-9]{10,15}$"))
            << phone;
    }
}

// Goal: passwords are 8..128 characters: 7 and 129 fail, 8 and 128 pass.
TEST(ParseRegister, PasswordLengthBoundaries) {
    json body = register_body();
    body["password"] = std::string(7, 'p');
    EXPECT_TRUE(register_validation(body, "password: must be at least 8 characters"));
    body["password"] = varied_password(8);
    EXPECT_EQ(auth::parse_register(body.dump()).password, varied_password(8));
    body["password"] = varied_password(128);
    EXPECT_EQ(auth::parse_register(body.dump()).password, varied_password(128));
    body["password"] = std::string(129, 'p');
    EXPECT_TRUE(register_validation(body, "password: must be at most 128 characters"));
}

// Goal: length counts Unicode code points, not bytes: 128 emoji (512 bytes)
// is a valid password, 129 emoji is not, and 7 emoji (28 bytes) is too short.
TEST(ParseRegister, PasswordLengthCountsCodePoints) {
    json body = register_body();
    body["password"] = emoji_string(128);
    EXPECT_EQ(auth::parse_register(body.dump()).password, emoji_string(128));
    body["password"] = emoji_string(129);
    EXPECT_TRUE(register_validation(body, "password: must be at most 128 characters"));
    body["password"] = emoji_string(7);
    EXPECT_TRUE(register_validation(body, "password: must be at least 8 characters"));
}

// Goal: a missing password is named as required.
TEST(ParseRegister, PasswordIsRequired) {
    EXPECT_TRUE(register_validation(json{{"email", "alice@example.com"}}, "password: is required"));
}

// Goal: names are at most 100 characters; channel 50; clientId 100.
TEST(ParseRegister, NameChannelAndClientIdLimits) {
    json body = register_body();
    body["firstName"] = std::string(100, 'n');
    body["lastName"] = std::string(100, 'n');
    body["channel"] = std::string(50, 'c');
    body["clientId"] = std::string(100, 'i');
    EXPECT_NO_THROW(auth::parse_register(body.dump()));
    body["firstName"] = std::string(101, 'n');
    EXPECT_TRUE(register_validation(body, "firstName: must be at most 100 characters"));
    body["firstName"] = "Alice";
    body["lastName"] = std::string(101, 'n');
    EXPECT_TRUE(register_validation(body, "lastName: must be at most 100 characters"));
    body["lastName"] = "Moyo";
    body["channel"] = std::string(51, 'c');
    EXPECT_TRUE(register_validation(body, "channel: must be at most 50 characters"));
    body["channel"] = "WEB";
    body["clientId"] = std::string(101, 'i');
    EXPECT_TRUE(register_validation(body, "clientId: must be at most 100 characters"));
}

// Goal: a field nobody reads is refused as "<name>: unknown field".
TEST(ParseRegister, RejectsUnknownField) {
    json body = register_body();
    body["foo"] = "bar";
    EXPECT_TRUE(register_validation(body, "foo: unknown field"));
}

// Goal: every problem is listed, "field: reason" joined by "; ", in the
// order fields are read, unknown fields last.
TEST(ParseRegister, ListsEveryProblem) {
    const json body{{"email", "not-an-email"}, {"password", "short"}, {"firstName", std::string(101, 'n')}, {"foo", 1}};
    EXPECT_TRUE(register_validation(body,
                                    "email: must be a valid email address; password: must be at least 8 characters; "
                                    "firstName: must be at most 100 characters; foo: unknown field"));
}

// Goal: a value of the wrong JSON type is "must be a string", and does not
// turn into the either-or message when it is the identifier.
TEST(ParseRegister, RejectsWrongTypes) {
    EXPECT_TRUE(register_validation(json{{"email", 5}, {"password", good_password}}, "email: must be a string"));
    EXPECT_TRUE(register_validation(json{{"phone", true}, {"password", good_password}}, "phone: must be a string"));
    EXPECT_TRUE(register_validation(json{{"email", "alice@example.com"}, {"password", 12345678}},
                                    "password: must be a string"));
    EXPECT_TRUE(register_validation(json{{"email", "alice@example.com"}, {"password", good_password},
                                         {"firstName", json::array({"Alice"})}},
                                    "firstName: must be a string"));
}

// Goal: JSON null is the same as leaving the field out.
TEST(ParseRegister, NullIsTreatedAsAbsent) {
    const auto r = auth::parse_register(
        R"({"email":"alice@example.com","phone":null,"password":"correct horse","firstName":null,"lastName":null,"clientId":null,"channel":null})");
    EXPECT_EQ(r.email, "alice@example.com");
    EXPECT_FALSE(r.phone.has_value());
    EXPECT_FALSE(r.first_name.has_value());
    EXPECT_FALSE(r.client_id.has_value());
    EXPECT_TRUE(fails_with([] { auth::parse_register(R"({"email":"alice@example.com","password":null})"); },
                           "VALIDATION_ERROR", "password: is required"));
}

// Goal: a NUL character (\u0000) in any string is refused.
TEST(ParseRegister, RejectsNulCharacter) {
    EXPECT_TRUE(fails_with(
        [] { auth::parse_register(R"({"email":"alice@example.com","password":"correct\u0000horse"})"); },
        "VALIDATION_ERROR", "password: must not contain NUL characters"));
    EXPECT_TRUE(fails_with(
        [] { auth::parse_register(R"({"email":"alice@example.com","password":"correct horse","firstName":"A\u0000"})"); },
        "VALIDATION_ERROR", "firstName: must not contain NUL characters"));
}

// Goal: anything that is not one JSON object is 400 BAD_REQUEST "Malformed
// JSON request body": broken syntax, arrays, scalars, empty body, bad UTF-8.
TEST(ParseRegister, RejectsMalformedJson) {
    for (const std::string& text :
         {std::string(""), std::string("   "), std::string("{"), std::string("not json"), std::string("[]"),
          std::string(R"([{"email":"alice@example.com","password":"correct horse"}])"), std::string("null"),
          std::string("42"), std::string("\"alice@example.com\""), std::string("{\"email\":\"\xff\"}"),
          std::string(R"({"email":"alice@example.com",})"),
          std::string(R"({"email":"alice@example.com","password":"correct horse"} {})")}) {
        EXPECT_TRUE(fails_with([&] { auth::parse_register(text); }, "BAD_REQUEST", malformed_message)) << text;
    }
}

// ---- login ----------------------------------------------------------------

// Goal: with both identifiers, the email wins (normalised), even when the
// phone is malformed.
TEST(ParseLogin, EmailWinsOverPhone) {
    auto r = auth::parse_login(R"({"email":" Alice@Example.com ","phone":"+263771234567","password":"x"})");
    EXPECT_EQ(r.identifier_kind, "email");
    EXPECT_EQ(r.identifier, "alice@example.com");
    r = auth::parse_login(R"({"email":"alice@example.com","phone":"12","password":"x"})");
    EXPECT_EQ(r.identifier_kind, "email");
    EXPECT_EQ(r.identifier, "alice@example.com");
}

// Goal: a phone login keys on the digits only: "+263..." and "263..." are
// one identifier.
TEST(ParseLogin, PhoneKeyStripsPlus) {
    const auto with_plus = auth::parse_login(R"({"phone":"+263771234567","password":"x"})");
    const auto without_plus = auth::parse_login(R"({"phone":"263771234567","password":"x"})");
    EXPECT_EQ(with_plus.identifier_kind, "phone");
    EXPECT_EQ(with_plus.identifier, "263771234567");
    EXPECT_EQ(without_plus.identifier, with_plus.identifier);
}

// Goal: login takes any non-empty password up to 1024 characters (it simply
// fails later), so short passwords are not "validation" errors here.
TEST(ParseLogin, PasswordUpTo1024Characters) {
    json body{{"email", "alice@example.com"}, {"password", "x"}};
    EXPECT_EQ(auth::parse_login(body.dump()).password, "x");
    body["password"] = std::string(1024, 'p');
    EXPECT_EQ(auth::parse_login(body.dump()).password.size(), 1024u);
    body["password"] = std::string(1025, 'p');
    EXPECT_TRUE(fails_with([&] { auth::parse_login(body.dump()); }, "VALIDATION_ERROR",
                           "password: must be at most 1024 characters"));
    body.erase("password");
    EXPECT_TRUE(fails_with([&] { auth::parse_login(body.dump()); }, "VALIDATION_ERROR", "password: is required"));
}

// Goal: login without any identifier gives the either-or message; an unknown
// field and malformed JSON are refused as for registration.
TEST(ParseLogin, RequiresAnIdentifierAndKnownFields) {
    EXPECT_TRUE(fails_with([] { auth::parse_login(R"({"password":"x"})"); }, "BAD_REQUEST", either_message));
    EXPECT_TRUE(fails_with([] { auth::parse_login(R"({"email":"alice@example.com","password":"x","foo":1})"); },
                           "VALIDATION_ERROR", "foo: unknown field"));
    EXPECT_TRUE(fails_with([] { auth::parse_login("[1]"); }, "BAD_REQUEST", malformed_message));
}

// Goal: clientId and channel are carried through.
TEST(ParseLogin, CarriesClientIdAndChannel) {
    const auto r =
        auth::parse_login(R"({"email":"alice@example.com","password":"x","clientId":"web","channel":"WEB"})");
    EXPECT_EQ(r.client_id, "web");
    EXPECT_EQ(r.channel, "WEB");
}

// ---- refresh, password change / forgot / reset, deactivate ----------------

// Goal: refreshToken is required, trimmed, and at most 512 characters.
TEST(ParseRefresh, RequiredAndBounded) {
    EXPECT_EQ(auth::parse_refresh(R"({"refreshToken":" abc "})"), "abc");
    EXPECT_TRUE(fails_with([] { auth::parse_refresh("{}"); }, "VALIDATION_ERROR", "refreshToken: is required"));
    EXPECT_TRUE(fails_with([] { auth::parse_refresh(R"({"refreshToken":""})"); }, "VALIDATION_ERROR",
                           "refreshToken: is required"));
    EXPECT_EQ(auth::parse_refresh(json{{"refreshToken", std::string(512, 't')}}.dump()).size(), 512u);
    EXPECT_TRUE(fails_with([] { auth::parse_refresh(json{{"refreshToken", std::string(513, 't')}}.dump()); },
                           "VALIDATION_ERROR", "refreshToken: must be at most 512 characters"));
    EXPECT_TRUE(fails_with([] { auth::parse_refresh(R"({"refresh_token":"abc"})"); }, "VALIDATION_ERROR",
                           "refreshToken: is required; refresh_token: unknown field"));
}

// Goal: password change needs both passwords; the new one obeys 8..128.
TEST(ParsePasswordChange, RequiredFieldsAndNewPasswordRule) {
    const auto r = auth::parse_password_change(R"({"currentPassword":"old","newPassword":"new password"})");
    EXPECT_EQ(r.current_password, "old");
    EXPECT_EQ(r.new_password, "new password");
    EXPECT_TRUE(fails_with([] { auth::parse_password_change("{}"); }, "VALIDATION_ERROR",
                           "currentPassword: is required; newPassword: is required"));
    EXPECT_TRUE(fails_with([] { auth::parse_password_change(R"({"currentPassword":"old","newPassword":"short"})"); },
                           "VALIDATION_ERROR", "newPassword: must be at least 8 characters"));
    EXPECT_TRUE(fails_with(
        [] { auth::parse_password_change(json{{"currentPassword", "old"}, {"newPassword", std::string(129, 'p')}}.dump()); },
        "VALIDATION_ERROR", "newPassword: must be at most 128 characters"));
}

// Goal: forgot needs a valid email (normalised); clientId is optional.
TEST(ParsePasswordForgot, RequiresValidEmail) {
    auto r = auth::parse_password_forgot(R"({"email":" Alice@Example.com "})");
    EXPECT_EQ(r.email, "alice@example.com");
    EXPECT_FALSE(r.client_id.has_value());
    r = auth::parse_password_forgot(R"({"email":"alice@example.com","clientId":"web"})");
    EXPECT_EQ(r.client_id, "web");
    EXPECT_TRUE(fails_with([] { auth::parse_password_forgot("{}"); }, "VALIDATION_ERROR", "email: is required"));
    EXPECT_TRUE(fails_with([] { auth::parse_password_forgot(R"({"email":"nobody"})"); }, "VALIDATION_ERROR",
                           "email: must be a valid email address"));
    EXPECT_TRUE(fails_with([] { auth::parse_password_forgot(R"({"phone":"+263771234567"})"); }, "VALIDATION_ERROR",
                           "email: is required; phone: unknown field"));
}

// Goal: reset needs the token (at most 512) and a new password (8..128).
TEST(ParsePasswordReset, RequiredFields) {
    const auto r = auth::parse_password_reset(R"({"token":"tok","newPassword":"new password"})");
    EXPECT_EQ(r.token, "tok");
    EXPECT_EQ(r.new_password, "new password");
    EXPECT_TRUE(fails_with([] { auth::parse_password_reset("{}"); }, "VALIDATION_ERROR",
                           "token: is required; newPassword: is required"));
    EXPECT_TRUE(fails_with([] { auth::parse_password_reset(R"({"token":"tok","newPassword":"1234567"})"); },
                           "VALIDATION_ERROR", "newPassword: must be at least 8 characters"));
    EXPECT_TRUE(fails_with(
        [] { auth::parse_password_reset(json{{"token", std::string(513, 't')}, {"newPassword", "new password"}}.dump()); },
        "VALIDATION_ERROR", "token: must be at most 512 characters"));
}

// Goal: deactivate needs the password, re-entered.
TEST(ParseDeactivate, RequiresPassword) {
    EXPECT_EQ(auth::parse_deactivate(R"({"password":"secret"})"), "secret");
    EXPECT_TRUE(fails_with([] { auth::parse_deactivate("{}"); }, "VALIDATION_ERROR", "password: is required"));
    EXPECT_TRUE(fails_with([] { auth::parse_deactivate(""); }, "BAD_REQUEST", malformed_message));
}

// ---- helpers ----------------------------------------------------------------

// Goal: the helpers behind the rules agree with them.
TEST(IdentityHelpers, EmailAndPhoneHelpers) {
    EXPECT_TRUE(auth::is_valid_email("a@b.co"));
    EXPECT_FALSE(auth::is_valid_email("a@b"));
    EXPECT_TRUE(auth::is_valid_phone("+263771234567"));
    EXPECT_FALSE(auth::is_valid_phone(" 263771234567"));
    EXPECT_EQ(auth::phone_key("+263771234567"), "263771234567");
    EXPECT_EQ(auth::phone_key("263771234567"), "263771234567");
    EXPECT_EQ(auth::normalise_email("  MiXeD@Case.ORG\n"), "mixed@case.org");
}

// Goal: utf8_length counts code points; trim_ascii strips ASCII white space.
TEST(JsonBodyHelpers, Utf8LengthAndTrim) {
    EXPECT_EQ(corebank::httpd::utf8_length(""), 0u);
    EXPECT_EQ(corebank::httpd::utf8_length("h\xC3\xA9llo"), 5u);
    EXPECT_EQ(corebank::httpd::utf8_length(emoji_string(3)), 3u);
    EXPECT_EQ(corebank::httpd::trim_ascii(" \t a b \r\n"), "a b");
    EXPECT_EQ(corebank::httpd::trim_ascii(" \t "), "");
}

// Goal: operations without a body accept nothing or {} and refuse the rest.
TEST(JsonBodyHelpers, ExpectNoBody) {
    EXPECT_NO_THROW(corebank::httpd::expect_no_body(""));
    EXPECT_NO_THROW(corebank::httpd::expect_no_body("  "));
    EXPECT_NO_THROW(corebank::httpd::expect_no_body("{}"));
    EXPECT_TRUE(fails_with([] { corebank::httpd::expect_no_body(R"({"a":1})"); }, "BAD_REQUEST",
                           "This operation takes no request body"));
    EXPECT_TRUE(fails_with([] { corebank::httpd::expect_no_body("{"); }, "BAD_REQUEST", malformed_message));
}

// Goal: JsonBody::boolean reads booleans, names wrong types and missing
// required fields, and counts the field as known.
TEST(JsonBodyHelpers, BooleanField) {
    corebank::httpd::JsonBody body(R"({"flag":true,"other":"yes"})");
    EXPECT_EQ(body.boolean("flag", true), true);
    EXPECT_EQ(body.boolean("other", false), std::nullopt);
    EXPECT_EQ(body.boolean("missing", true), std::nullopt);
    EXPECT_TRUE(fails_with([&] { body.finish(); }, "VALIDATION_ERROR",
                           "other: must be a boolean; missing: is required"));
}

}  // namespace
