// staff_mfa.hpp: the core tier's refusal of a staff token without the second
// factor (docs/identity.md, "Staff second factor"): a token whose roles meet
// staff_mfa_roles must say "mfa" in its amr (RFC 8176), which the identity
// service writes only after a TOTP or recovery code. Pure: unit-tested.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api_error.hpp"

namespace corebank::httpd::core_banking {

// 403 FORBIDDEN when `roles` (those the staff member acts with) include one
// of `mfa_roles` and the token's amr claim lacks "mfa" (a missing or
// malformed amr lacks it); else nullopt.
std::optional<ApiError> second_factor_refusal(const std::vector<std::string>& roles, const nlohmann::json& claims,
                                              const std::vector<std::string>& mfa_roles);

}  // namespace corebank::httpd::core_banking
