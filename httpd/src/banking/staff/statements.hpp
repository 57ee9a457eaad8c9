// statements.hpp: the SQL of /v1/staff (sql/staff/).
#pragma once

#include "db.hpp"

namespace corebank::httpd::core_banking::sql {

inline const Statement staff_permissions_list{"core_staff_permissions_list",
                                              "SELECT corebank.core_staff_permissions_list()::text", 0};
inline const Statement staff_roles_list{"core_staff_roles_list", "SELECT corebank.core_staff_roles_list()::text", 0};
inline const Statement staff_role_create{"core_staff_role_create",
                                         "SELECT corebank.core_staff_role_create($1::jsonb, $2::uuid)::text", 2};
inline const Statement staff_role_update{
    "core_staff_role_update", "SELECT corebank.core_staff_role_update($1, $2::jsonb, $3::uuid)::text", 3};

}  // namespace corebank::httpd::core_banking::sql
