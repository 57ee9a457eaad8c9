// roles_validation.hpp: the requests of /v1/staff/roles, checked before the
// database is asked (docs/core-banking.md, "Staff roles and permissions").
// The database checks the same rules again (corebank.core_staff_role_*).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

inline constexpr std::size_t staff_role_key_length_min = 2;
inline constexpr std::size_t staff_role_key_length_max = 40;
inline constexpr std::size_t staff_role_name_length_max = 100;
inline constexpr std::size_t staff_role_permissions_max = 500;
inline constexpr std::size_t staff_permission_key_length_max = 100;

// ^[a-z][a-z0-9_]{1,39}$: a role's key, its identity, never changed.
bool is_staff_role_key(const std::string& text);

// CreateStaffRoleRequest {key, name, permissions?, readOnly?}: the members
// the database reads; 400 VALIDATION_ERROR listing every problem.
nlohmann::json parse_staff_role_create(const std::string& text);

// UpdateStaffRoleRequest {name?, permissions?, key?, readOnly?}: key and
// readOnly may only repeat the role's own (the database answers 422 else).
nlohmann::json parse_staff_role_update(const std::string& text);

}  // namespace corebank::httpd::core_banking
