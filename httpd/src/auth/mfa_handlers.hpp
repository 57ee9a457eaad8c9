// mfa_handlers.hpp: the staff second factor's endpoints on the identity
// service (docs/identity.md, "Staff second factor"): GET /auth/mfa, TOTP
// enrolment, confirmation and removal, new recovery codes. Each is the
// signed-in user's own; the database decides every rule (entry/auth_mfa.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api_error.hpp"
#include "auth/context.hpp"
#include "db.hpp"
#include "http_types.hpp"
#include "auth/mfa_requests.hpp"
#include "json_body.hpp"

namespace corebank::httpd::auth {

HttpResponse handle_mfa_state(const Context&, const HttpRequest&, Db&);
HttpResponse handle_mfa_totp_begin(const Context&, const HttpRequest&, Db&);
HttpResponse handle_mfa_totp_confirm(const Context&, const HttpRequest&, Db&);
HttpResponse handle_mfa_totp_disable(const Context&, const HttpRequest&, Db&);
HttpResponse handle_mfa_recovery_codes(const Context&, const HttpRequest&, Db&);

// parse_mfa_code and read_login_second_factor: auth/mfa_requests.hpp.

// The second half of a login: corebank.auth_login_finish_with_factor when the
// request carries a code, else corebank.auth_login_finish (which answers
// "mfa_required" for a user with TOTP enabled). `params` are the seven of
// auth_login_finish. The database's answer, as text.
std::optional<std::string> login_finish(Db& db, std::vector<Param> params, const std::optional<std::string>& totp_code,
                                        const std::optional<std::string>& recovery_code);

// 401 MFA_REQUIRED: the password was right and the user has TOTP enabled.
inline ApiError mfa_required() {
    return {401, "MFA_REQUIRED", "A one-time code is required: send totpCode or recoveryCode"};
}

}  // namespace corebank::httpd::auth
