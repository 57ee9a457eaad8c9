// auth_root_key.cpp: whether the root key that seals the database's secrets
// loads (pg/root_key.hpp).
//
//   corebank_internal.auth_root_key_problem()  NULL when it loads, else why
//                                               not (never the key itself)
#include <string>

#include "entry/entry.hpp"
#include "pg/datums.hpp"
#include "pg/root_key.hpp"

/* SQL function: corebank_internal.auth_root_key_problem() returns text */
COREBANK_FUNCTION(auth_root_key_problem) {
    const std::string problem = corebank::pg::root_key::problem();
    if (problem.empty()) PG_RETURN_NULL();
    PG_RETURN_DATUM(corebank::pg::text_datum(problem));
}
