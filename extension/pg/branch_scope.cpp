// branch_scope.cpp: see branch_scope.hpp.
#include "pg/branch_scope.hpp"

#include "pg/guard.hpp"
#include "pg/postgres.hpp"
#include "pg/spi.hpp"

extern "C" {
#include "access/xact.h"
#include "miscadmin.h"
#include "storage/proc.h"
}

namespace corebank::pg::branch_scope {

namespace {

// The scope of one transaction. `resolved` with no branch: unscoped. A scope
// looked up for the session user is stamped with that user: SET SESSION
// AUTHORIZATION inside the transaction looks the new one up.
struct State {
    LocalTransactionId local_xid = InvalidLocalTransactionId;
    bool resolved = false;
    Oid session_user = InvalidOid;  // InvalidOid: set by the tier for an actor
    std::optional<Uuid> branch;
};

State state;
bool callback_registered = false;

// Operators are named in pg_catalog: these run as the function's owner
// (SECURITY DEFINER) on behalf of any login, whose search_path is not ours.
//
// The staff member's branch, when scoping is on and the member is no
// auditor. No row: unscoped (head office, an unknown id, scoping off).
constexpr const char actor_branch_sql[] =
    "SELECT b.id FROM corebank.platform_config c "
    "JOIN corebank.auth_users u ON u.id OPERATOR(pg_catalog.=) $1::uuid "
    "JOIN corebank.branches b ON b.code OPERATOR(pg_catalog.=) u.branch_code "
    "WHERE c.branch_scoping AND NOT ('auditor' OPERATOR(pg_catalog.=) ANY (u.roles))";

// A psql login's branch (corebank.staff_sql_logins), when scoping is on and
// the login is no auditor: a trigger refuses a row for a member of
// corebank_auditor, but a GRANT made after the row fires no trigger.
constexpr const char login_branch_sql[] =
    "SELECT l.branch_id FROM corebank.platform_config c "
    "JOIN corebank.staff_sql_logins l ON l.login OPERATOR(pg_catalog.=) pg_catalog.session_user() "
    "WHERE c.branch_scoping AND NOT pg_catalog.pg_has_role(l.login, 'corebank_auditor', 'MEMBER')";

void clear_at_end(XactEvent event, void* /*argument*/) {
    switch (event) {
        case XACT_EVENT_COMMIT:
        case XACT_EVENT_PARALLEL_COMMIT:
        case XACT_EVENT_ABORT:
        case XACT_EVENT_PARALLEL_ABORT:
        case XACT_EVENT_PREPARE:
            state = State{};
            break;
        default:
            break;
    }
}

bool current_transaction(const State& s) {
    return s.resolved && s.local_xid == MyProc->lxid &&
           (s.session_user == InvalidOid || s.session_user == GetSessionUserId());
}

std::optional<Uuid> lookup(const char* sql, std::initializer_list<spi::Arg> args) {
    spi::connect();
    const std::uint64_t rows = spi::execute(sql, args);
    std::optional<Uuid> branch;
    if (rows > 0) branch = spi::get_uuid(0, 1);
    spi::finish();
    return branch;
}

void remember(std::optional<Uuid> branch, Oid session_user) {
    if (!callback_registered) {
        pg_guard([]() noexcept { RegisterXactCallback(clear_at_end, nullptr); });
        callback_registered = true;
    }
    state.local_xid = MyProc->lxid;
    state.resolved = true;
    state.session_user = session_user;
    state.branch = branch;
}

}  // namespace

void set_for_actor(const std::optional<Uuid>& actor) {
    remember(actor ? lookup(actor_branch_sql, {spi::Arg::uuid(actor)}) : std::nullopt, InvalidOid);
}

std::optional<Uuid> current() {
    if (!current_transaction(state)) remember(lookup(login_branch_sql, {}), GetSessionUserId());
    return state.branch;
}

}  // namespace corebank::pg::branch_scope
