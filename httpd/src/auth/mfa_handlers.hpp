// mfa_handlers.hpp: the staff second factor's endpoints on the identity
// service (docs/identity.md, "Staff second factor"): GET /auth/mfa, TOTP
// enrolment, confirmation and removal, new recovery codes. Each is the
// signed-in user's own; the database decides every rule (entry/auth_mfa.cpp).
#pragma once

#include <string>

#include "auth/context.hpp"
#include "db.hpp"
#include "http_types.hpp"

namespace corebank::httpd::auth {

HttpResponse handle_mfa_state(const Context&, const HttpRequest&, Db&);
HttpResponse handle_mfa_totp_begin(const Context&, const HttpRequest&, Db&);
HttpResponse handle_mfa_totp_confirm(const Context&, const HttpRequest&, Db&);
HttpResponse handle_mfa_totp_disable(const Context&, const HttpRequest&, Db&);
HttpResponse handle_mfa_recovery_codes(const Context&, const HttpRequest&, Db&);

// The body {"code": ...} of confirm, disable and recovery-codes, trimmed.
// totp_only: exactly 6 digits; else 6 digits or a recovery code
// ("xxxxx-xxxxx", any case, hyphen and spaces optional). Throws ApiError 400
// VALIDATION_ERROR on anything else, before the database counts a guess.
std::string parse_mfa_code(const std::string& body, bool totp_only);

}  // namespace corebank::httpd::auth
