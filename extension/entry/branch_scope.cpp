// branch_scope.cpp: the SQL face of branch scoping (pg/branch_scope.hpp).
//
//   corebank.actor_scope_set(actor uuid) returns void    the tier, per statement
//   corebank.scope_branch() returns uuid                 NULL: unscoped
//   corebank.branch_visible(branch uuid) returns bool    the one predicate
//
// branch_visible is what every API function, masking view and row-level
// security policy filters with (docs/core-banking.md "Branch scoping").
#include "core/branch_scope.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/branch_scope.hpp"
#include "pg/datums.hpp"

namespace {

namespace args = corebank::pg::args;
namespace branch_scope = corebank::pg::branch_scope;
using corebank::pg::Uuid;

std::optional<corebank::core::branch_scope::BranchId> bytes_of(const std::optional<Uuid>& id) {
    if (!id) return std::nullopt;
    return id->bytes;
}

}  // namespace

/* SQL function: corebank.actor_scope_set(actor uuid) returns void */
COREBANK_FUNCTION(actor_scope_set) {
    branch_scope::set_for_actor(args::uuid(fcinfo, 0));
    PG_RETURN_VOID();
}

/* SQL function: corebank.scope_branch() returns uuid */
COREBANK_FUNCTION(scope_branch) {
    const std::optional<Uuid> branch = branch_scope::current();
    if (!branch) PG_RETURN_NULL();
    return corebank::pg::uuid_datum(corebank::pg::uuid_to_string(*branch));
}

/* SQL function: corebank.branch_visible(branch uuid) returns boolean */
COREBANK_FUNCTION(branch_visible) {
    PG_RETURN_BOOL(corebank::core::branch_scope::visible(bytes_of(branch_scope::current()),
                                                         bytes_of(args::uuid(fcinfo, 0))));
}
