// entry.hpp: how a SQL function enters C++ (the pattern every entry point uses).
//
//     /* SQL function: corebank.auth_jwks() returns jsonb */
//     COREBANK_FUNCTION(auth_jwks) {
//         ... C++, may throw; PostgreSQL calls only through pg_guard ...
//         return some_datum;
//     }
//
// COREBANK_FUNCTION(name) emits the V1 function `name` that PostgreSQL calls
// and declares `name_impl`, whose body follows the macro. `name` runs
// `name_impl` through corebank::entry::run_guarded, which:
//   - catches every C++ exception, so none ever unwinds into PostgreSQL;
//   - turns a PgError (an error PostgreSQL raised inside pg_guard) back into
//     that same error with ReThrowError, SQLSTATE and all;
//   - turns a core::CoreError into ereport(ERROR) with its SQLSTATE, message
//     and detail (the tier maps the "CB" class to HTTP);
//   - turns anything else into ERRCODE_INTERNAL_ERROR (or out of memory);
//   - raises only after the catch scope has closed, from a frame holding POD
//     only, so the longjmp skips no destructor.
#pragma once

#include "pg/postgres.hpp"

namespace corebank::entry {

using ImplFunction = Datum (*)(FunctionCallInfo);

// Runs impl(fcinfo) and returns its Datum, or raises the error it threw.
// `function_name` names the SQL function in internal-error messages.
Datum run_guarded(FunctionCallInfo fcinfo, ImplFunction impl, const char* function_name);

}  // namespace corebank::entry

#define COREBANK_FUNCTION(name)                                                     \
    static Datum name##_impl(FunctionCallInfo fcinfo);                              \
    extern "C" {                                                                    \
    PG_FUNCTION_INFO_V1(name);                                                      \
    }                                                                               \
    extern "C" Datum name(PG_FUNCTION_ARGS) {                                       \
        return corebank::entry::run_guarded(fcinfo, name##_impl, #name);            \
    }                                                                               \
    static Datum name##_impl([[maybe_unused]] FunctionCallInfo fcinfo)
