// auth_text.cpp: corebank_internal.normalize_email and
// auth_password_hash_valid, so that SQL-language functions and the auth_users
// check constraint normalise emails, and the PL/pgSQL functions judge a
// password hash, with the very same code as the C++ functions (pg/values.hpp).
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/datums.hpp"
#include "pg/values.hpp"

namespace args = corebank::pg::args;

/* SQL function: corebank_internal.normalize_email(email text) returns text (IMMUTABLE STRICT) */
COREBANK_FUNCTION(normalize_email) {
    const std::string normalized = corebank::pg::normalize_email(args::require(args::text(fcinfo, 0), "email"));
    PG_RETURN_DATUM(corebank::pg::text_datum(normalized));
}

/* SQL function: corebank_internal.auth_password_hash_valid(hash text) returns boolean (IMMUTABLE STRICT) */
COREBANK_FUNCTION(auth_password_hash_valid) {
    PG_RETURN_BOOL(corebank::pg::password_hash_valid(args::require(args::text(fcinfo, 0), "hash")));
}
