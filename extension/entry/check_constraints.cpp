// check_constraints.cpp: the SQL face of the per-backend cache of planned
// CHECK constraints (pg/check_constraints.hpp).
//
//   corebank_internal.check_constraints_cached() -> integer
//       the number of corebank tables whose CHECK constraints this backend
//       holds planned now (after an invalidation, until the next write).
#include "entry/entry.hpp"
#include "pg/check_constraints.hpp"
#include "pg/guard.hpp"

/* SQL function: corebank_internal.check_constraints_cached() returns integer */
COREBANK_FUNCTION(check_constraints_cached) {
    PG_RETURN_INT32(corebank::pg::pg_guard([]() noexcept { return corebank::pg::check_constraints::tables_cached(); }));
}
