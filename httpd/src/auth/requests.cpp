// requests.cpp: field rules of the identity endpoints.
#include "auth/requests.hpp"

#include <regex>

#include "api_error.hpp"
#include "auth/mfa_requests.hpp"
#include "auth/password_quality.hpp"
#include "core/base64url.hpp"
#include "core/limits.hpp"
#include "json_body.hpp"
#include "percent_decode.hpp"

namespace corebank::httpd::auth {

namespace {

using core::limits::auth::password_length_max;
using core::limits::auth::password_length_min;

const TextRule email_rule{false, 1, core::limits::auth::email_length_max, true, true};
// Phones are validated exactly as sent: the spec gives the pattern, not a cleanup.
const TextRule phone_rule{false, 1, 32, false, true};
const TextRule name_rule{false, 0, core::limits::auth::name_length_max, true, true};
const TextRule channel_rule{false, 0, core::limits::auth::channel_length_max, true, true};
const TextRule client_id_rule{false, 1, core::limits::auth::client_id_length_max, true, true};
const TextRule new_password_rule{true, password_length_min, password_length_max, false, false};
const TextRule any_password_rule{true, 1, core::limits::auth::login_password_length_max, false, false};
const TextRule token_rule{true, 1, core::limits::auth::opaque_token_length_max, true, true};

const char* const either_message = "Either an email or a phone number is required";

std::optional<std::string> read_email(JsonBody& body, const std::string& field, const TextRule& rule) {
    auto email = body.text(field, rule);
    if (email && !is_valid_email(*email)) {
        body.problem(field, "must be a valid email address");
        return std::nullopt;
    }
    return email ? std::optional<std::string>(normalise_email(*email)) : std::nullopt;
}

std::optional<std::string> read_phone(JsonBody& body) {
    auto phone = body.text("phone", phone_rule);
    if (phone && !is_valid_phone(*phone)) {
        body.problem("phone", "must match ^\\+?[0-9]{10,15}$");
        return std::nullopt;
    }
    return phone;
}

// A new password: the spec's length rule, then (only if that holds) the
// guessability check shared by register, change and reset (issue 13).
std::optional<std::string> read_new_password(JsonBody& body, const std::string& field) {
    auto password = body.text(field, new_password_rule);
    if (!password) return std::nullopt;
    if (auto weakness = password_quality().weakness(*password)) {
        body.problem(field, *weakness);
        return std::nullopt;
    }
    return password;
}

std::optional<std::string> form_decode(const std::string& text) { return percent_decode(text, true); }

}  // namespace

bool is_valid_email(const std::string& email) {
    static const std::regex pattern(R"(^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$)");
    return email.size() <= core::limits::auth::email_length_max && std::regex_match(email, pattern);
}

bool is_valid_phone(const std::string& phone) {
    static const std::regex pattern(R"(^\+?[0-9]{10,15}$)");
    return std::regex_match(phone, pattern);
}

std::string phone_key(const std::string& phone) { return phone.size() > 0 && phone[0] == '+' ? phone.substr(1) : phone; }

std::string normalise_email(const std::string& email) {
    std::string out = trim_ascii(email);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

RegisterRequest parse_register(const std::string& text) {
    JsonBody body(text);
    RegisterRequest r;
    r.email = read_email(body, "email", email_rule);
    r.phone = read_phone(body);
    auto password = read_new_password(body, "password");
    r.first_name = body.text("firstName", name_rule);
    r.last_name = body.text("lastName", name_rule);
    r.client_id = body.text("clientId", client_id_rule);
    r.channel = body.text("channel", channel_rule);
    // The spec's own sentence wins when both identifiers are simply missing.
    if (!r.email && !r.phone && !body.has_problem("email") && !body.has_problem("phone"))
        throw bad_request(either_message);
    body.finish();
    r.password = *password;
    return r;
}

LoginRequest parse_login(const std::string& text) {
    JsonBody body(text);
    auto email = read_email(body, "email", email_rule);
    auto phone = read_phone(body);
    auto password = body.text("password", any_password_rule);
    LoginRequest r;
    r.client_id = body.text("clientId", client_id_rule);
    r.channel = body.text("channel", channel_rule);
    read_login_second_factor(body, r.totp_code, r.recovery_code);
    if (!email && !phone && !body.has_problem("email") && !body.has_problem("phone")) throw bad_request(either_message);
    // With both sent, the email resolves the account and the phone is ignored, even if malformed.
    if (email) {
        r.identifier_kind = "email";
        r.identifier = *email;
    } else if (phone) {
        r.identifier_kind = "phone";
        r.identifier = phone_key(*phone);
    }
    if (!(email && body.has_problem("phone") && !body.has_problem("email"))) body.finish();
    else {
        // Re-check without the ignored phone problem.
        JsonBody again(text);
        read_email(again, "email", email_rule);
        again.text("phone", TextRule{false, 0, 1u << 20, false, false});
        again.text("password", any_password_rule);
        again.text("clientId", client_id_rule);
        again.text("channel", channel_rule);
        std::optional<std::string> totp_code, recovery_code;
        read_login_second_factor(again, totp_code, recovery_code);
        again.finish();
    }
    r.password = *password;
    return r;
}

std::string parse_refresh(const std::string& text) {
    JsonBody body(text);
    auto token = body.text("refreshToken", token_rule);
    body.finish();
    return *token;
}

PasswordChangeRequest parse_password_change(const std::string& text) {
    JsonBody body(text);
    auto current = body.text("currentPassword", any_password_rule);
    auto next = read_new_password(body, "newPassword");
    body.finish();
    return {*current, *next};
}

PasswordForgotRequest parse_password_forgot(const std::string& text) {
    JsonBody body(text);
    TextRule required_email = email_rule;
    required_email.required = true;
    auto email = read_email(body, "email", required_email);
    auto client_id = body.text("clientId", client_id_rule);
    body.finish();
    return {*email, client_id};
}

PasswordResetRequest parse_password_reset(const std::string& text) {
    JsonBody body(text);
    auto token = body.text("token", token_rule);
    auto next = read_new_password(body, "newPassword");
    body.finish();
    return {*token, *next};
}

std::string parse_deactivate(const std::string& text) {
    JsonBody body(text);
    auto password = body.text("password", any_password_rule);
    body.finish();
    return *password;
}

std::optional<std::string> FormFields::get(const std::string& name) const {
    for (const auto& [key, value] : fields)
        if (key == name) return value;
    return std::nullopt;
}

FormFields parse_form(const std::string& body) {
    static constexpr std::size_t fields_max = 32;
    FormFields form;
    std::size_t start = 0;
    while (start <= body.size()) {
        std::size_t end = body.find('&', start);
        if (end == std::string::npos) end = body.size();
        const std::string pair = body.substr(start, end - start);
        start = end + 1;
        if (pair.empty()) continue;
        const auto eq = pair.find('=');
        auto key = form_decode(pair.substr(0, eq));
        auto value = form_decode(eq == std::string::npos ? "" : pair.substr(eq + 1));
        if (!key || !value) throw bad_request("Malformed form-encoded request body");
        if (form.get(*key)) throw bad_request("Form field '" + key->substr(0, 64) + "' is repeated");
        if (form.fields.size() >= fields_max) throw bad_request("Too many form fields");
        form.fields.emplace_back(std::move(*key), std::move(*value));
    }
    return form;
}

std::optional<BasicCredentials> parse_basic_authorization(const std::string& header_value) {
    const std::string prefix = "basic ";
    if (header_value.size() <= prefix.size()) return std::nullopt;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(header_value[i])) != prefix[i]) return std::nullopt;
    const auto decoded = core::base64_decode(trim_ascii(header_value.substr(prefix.size())));
    if (!decoded) return std::nullopt;
    const auto colon = decoded->find(':');
    if (colon == std::string::npos) return std::nullopt;
    auto user = form_decode(decoded->substr(0, colon));
    auto password = form_decode(decoded->substr(colon + 1));
    if (!user || !password) return std::nullopt;
    return BasicCredentials{*user, *password};
}

std::optional<std::string> parse_bearer(const std::string& header_value) {
    const std::string prefix = "bearer ";
    if (header_value.size() <= prefix.size()) return std::nullopt;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(header_value[i])) != prefix[i]) return std::nullopt;
    std::string token = trim_ascii(header_value.substr(prefix.size()));
    if (token.empty() || token.size() > 8192 || token.find(' ') != std::string::npos) return std::nullopt;
    return token;
}

}  // namespace corebank::httpd::auth
