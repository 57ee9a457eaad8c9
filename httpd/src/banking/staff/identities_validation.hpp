// identities_validation.hpp: the requests of /v1/staff/identities, checked
// before the database is asked (docs/core-banking.md, "Staff identities").
// The database checks the same rules again (corebank.core_staff_identity_*,
// core_staff_branch_set).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

inline constexpr std::size_t staff_username_length_min = 3;
inline constexpr std::size_t staff_username_length_max = 254;
inline constexpr std::size_t staff_display_name_length_max = 100;
inline constexpr std::size_t staff_identity_roles_max = 32;
inline constexpr std::size_t staff_branch_code_length_max = 10;

// ^[a-z0-9._@+-]{3,254}$: a username, as the path of PUT
// /v1/staff/identities/{username} carries it (no character a path needs
// escaped); an email in lower case is one.
bool is_staff_username(const std::string& text);

// CreateStaffIdentityRequest {email, roles, username?, displayName?,
// branchCode?}: the email normalised (trimmed, ASCII lower case), the
// username in lower case; 400 VALIDATION_ERROR listing every problem.
nlohmann::json parse_staff_identity_create(const std::string& text);

// UpdateStaffIdentityRequest {email?, displayName?, roles?, status?}.
nlohmann::json parse_staff_identity_update(const std::string& text);

// UpdateStaffBranchRequest {branchCode}: a branch code or null (head
// office); the member is required, JSON null being its meaning here.
nlohmann::json parse_staff_branch_update(const std::string& text);

}  // namespace corebank::httpd::core_banking
