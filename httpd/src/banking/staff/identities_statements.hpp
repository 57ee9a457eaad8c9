// identities_statements.hpp: the SQL of /v1/staff/identities (sql/staff/).
#pragma once

#include "db.hpp"

namespace corebank::httpd::core_banking::sql {

inline const Statement staff_identities_list{"core_staff_identities_list",
                                             "SELECT corebank.core_staff_identities_list()::text", 0};
// The identity and its set-password mail in one statement, so one
// transaction: no identity without its link, no link without its identity.
// The mail body is sealed by the tier (the database never holds the link).
inline const Statement staff_identity_create{
    "core_staff_identity_create",
    "SELECT c.identity::text FROM (SELECT corebank.core_staff_identity_create($1::jsonb, $2::uuid, $3::bytea) AS identity) c, "
    "LATERAL corebank.auth_mail_enqueue($4, $5, $6::bytea) m",
    6,
    unscoped};  // its own FROM; it creates an identity and reads no branch's records
inline const Statement staff_identity_update{
    "core_staff_identity_update", "SELECT corebank.core_staff_identity_update($1, $2::jsonb, $3::uuid)::text", 3};
inline const Statement staff_branch_get{"core_staff_branch_get", "SELECT corebank.core_staff_branch_get($1::uuid)::text",
                                        1};
inline const Statement staff_branch_set{
    "core_staff_branch_set", "SELECT corebank.core_staff_branch_set($1::uuid, $2::jsonb, $3::uuid)::text", 3};

}  // namespace corebank::httpd::core_banking::sql
