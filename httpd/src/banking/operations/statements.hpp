// operations/statements.hpp: the SQL of the end-of-day runner
// (docs/operations.md): one extension function per operation. The runner
// thread and POST /v1/jobs/run both drive corebank.eod_step, one step per
// call, so each step commits on its own.
#pragma once

#include "db.hpp"

namespace corebank::httpd::core_banking::sql {

inline const Statement eod_step{"eod_step", "SELECT corebank.eod_step($1)::text", 1};
inline const Statement jobs_list{"core_jobs_list",
                                 "SELECT corebank.core_jobs_list($1::date, $2, $3, $4::int, $5::int)::text", 5};
inline const Statement jobs_get{"core_jobs_get", "SELECT corebank.core_jobs_get($1::uuid)::text", 1};
inline const Statement jobs_runner{"core_jobs_runner", "SELECT corebank.core_jobs_runner()::text", 0};

}  // namespace corebank::httpd::core_banking::sql
