// requests.hpp: the identity service's request bodies, parsed and validated
// (02-identity.md, docs/identity.md). Pure functions: no I/O, unit-tested.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace corebank::httpd::auth {

struct RegisterRequest {
    std::optional<std::string> email;  // trimmed, lower-cased
    std::optional<std::string> phone;  // trimmed, as given
    std::string password;
    std::optional<std::string> first_name, last_name, client_id, channel;
};

struct LoginRequest {
    // Exactly one identifier: the email when both were sent.
    std::string identifier_kind;  // "email" or "phone"
    std::string identifier;
    std::string password;
    std::optional<std::string> client_id, channel;
    // The second factor, at most one (auth/mfa_requests.hpp).
    std::optional<std::string> totp_code, recovery_code;
};

struct PasswordChangeRequest { std::string current_password, new_password; };
struct PasswordForgotRequest { std::string email; std::optional<std::string> client_id; };
struct PasswordResetRequest { std::string token, new_password; };

// Each throws ApiError (400 BAD_REQUEST or VALIDATION_ERROR) on bad input.
RegisterRequest parse_register(const std::string& body);
LoginRequest parse_login(const std::string& body);
std::string parse_refresh(const std::string& body);  // the refresh token
PasswordChangeRequest parse_password_change(const std::string& body);
PasswordForgotRequest parse_password_forgot(const std::string& body);
PasswordResetRequest parse_password_reset(const std::string& body);
std::string parse_deactivate(const std::string& body);  // the password

bool is_valid_email(const std::string& email);
bool is_valid_phone(const std::string& phone);
// Digits only: "+263771234567" and "263771234567" are one number.
std::string phone_key(const std::string& phone);
std::string normalise_email(const std::string& email);

// x-www-form-urlencoded, as /oauth/token and /oauth/introspect take it.
// Throws BAD_REQUEST on malformed encoding or a repeated field.
struct FormFields { std::vector<std::pair<std::string, std::string>> fields; std::optional<std::string> get(const std::string& name) const; };
FormFields parse_form(const std::string& body);

// OAuth client secrets (issue 13): one an operator supplies has at least 32
// characters (and at most 256 bytes, argon2id's bounded input); one the
// system generates is 32 random bytes, base64url (43 characters).
inline constexpr std::size_t client_secret_length_min = 32;
inline constexpr std::size_t client_secret_length_max = 256;
inline constexpr std::size_t client_secret_generated_bytes = 32;

// HTTP Basic credentials (RFC 7617; RFC 6749 2.3.1 form-encodes id and secret).
struct BasicCredentials { std::string user, password; };
std::optional<BasicCredentials> parse_basic_authorization(const std::string& header_value);

// "Bearer <token>" -> token; nullopt for any other shape.
std::optional<std::string> parse_bearer(const std::string& header_value);

}  // namespace corebank::httpd::auth
