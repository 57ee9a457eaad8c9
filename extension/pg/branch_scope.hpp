// branch_scope.hpp: the transaction's branch scope, kept in backend memory
// (issue 15, docs/core-banking.md "Branch scoping").
//
// Who sets it:
//   - the tier, once per statement: corebank.actor_scope_set(actor) runs in
//     the FROM clause of every call it makes after authenticating, with the
//     staff member of the verified token (NULL for an application key alone);
//   - nobody, for a psql login: the first read of the scope in a transaction
//     looks the session user up in corebank.staff_sql_logins.
// The scope is never a setting a client can SET: it lives in this module's
// memory, is stamped with the transaction's local id (a later transaction
// never sees it) and is cleared at commit and abort. Branch scoping off
// (platform_config.branch_scoping) makes every transaction unscoped.
// Parallel workers do not share it: the SQL functions are PARALLEL RESTRICTED.
#pragma once

#include <optional>

#include "pg/values.hpp"

namespace corebank::pg::branch_scope {

// The tier's call: scopes the transaction to the branch of `actor` (a staff
// member with a branch and without the auditor role) when branch scoping is
// on; unscoped otherwise, and for a NULL actor.
void set_for_actor(const std::optional<Uuid>& actor);

// The branch the current transaction is scoped to; nullopt when unscoped.
// Resolved once per transaction (SPI), then answered from memory.
std::optional<Uuid> current();

}  // namespace corebank::pg::branch_scope
