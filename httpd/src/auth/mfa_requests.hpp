// mfa_requests.hpp: the second factor's request parsing on the identity
// service (docs/identity.md, "Staff second factor"): pure, no database, so
// the unit tests and the fuzz targets reach it without a server.
#pragma once

#include <optional>
#include <string>

#include "json_body.hpp"

namespace corebank::httpd::auth {

// The body {"code": ...} of confirm, disable and recovery-codes, trimmed.
// totp_only: exactly 6 digits; else 6 digits or a recovery code
// ("xxxxx-xxxxx", any case, hyphen and spaces optional). Throws ApiError 400
// VALIDATION_ERROR on anything else, before the database counts a guess.
std::string parse_mfa_code(const std::string& body, bool totp_only);

// POST /auth/login's (and the contact claims') second factor: `totpCode` (6
// digits) or `recoveryCode` (xxxxx-xxxxx), not both; a malformed one is a
// problem of the body (400).
void read_login_second_factor(JsonBody& body, std::optional<std::string>& totp_code,
                              std::optional<std::string>& recovery_code);

}  // namespace corebank::httpd::auth
