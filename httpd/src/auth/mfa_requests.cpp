// mfa_requests.cpp: see mfa_requests.hpp.
#include "auth/mfa_requests.hpp"

#include "core/totp.hpp"

namespace corebank::httpd::auth {

namespace {

// A recovery code typed with spaces is at most twice its length.
const TextRule code_rule{true, 1, 2 * core::totp::recovery_code_length, true, false};

}  // namespace

std::string parse_mfa_code(const std::string& text, bool totp_only) {
    JsonBody body(text);
    std::optional<std::string> code = body.text("code", code_rule);
    if (code && totp_only && !core::totp::is_code_format(*code)) {
        body.problem("code", "must be 6 digits");
        code.reset();
    } else if (code && !core::totp::is_code_format(*code) && !core::totp::recovery_code_normalise(*code)) {
        body.problem("code", "must be a 6-digit code or a recovery code (xxxxx-xxxxx)");
        code.reset();
    }
    body.finish();
    return *code;
}

void read_login_second_factor(JsonBody& body, std::optional<std::string>& totp_code,
                              std::optional<std::string>& recovery_code) {
    totp_code = body.text("totpCode", TextRule{false, 0, code_rule.max_chars, true, true});
    recovery_code = body.text("recoveryCode", TextRule{false, 0, code_rule.max_chars, true, true});
    if (totp_code && !core::totp::is_code_format(*totp_code)) {
        body.problem("totpCode", "must be 6 digits");
        totp_code.reset();
    }
    if (recovery_code && !core::totp::recovery_code_normalise(*recovery_code)) {
        body.problem("recoveryCode", "must be a recovery code (xxxxx-xxxxx)");
        recovery_code.reset();
    }
    if (totp_code && recovery_code) body.problem("recoveryCode", "send either totpCode or recoveryCode, not both");
}

}  // namespace corebank::httpd::auth
