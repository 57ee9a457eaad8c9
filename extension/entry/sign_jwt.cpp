// sign_jwt.cpp: corebank_internal.sign_jwt, signing a claims object with the
// active RS256 key (pg/auth_signing.hpp) for SQL-language callers and tests.
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_signing.hpp"
#include "pg/datums.hpp"
#include "pg/spi.hpp"

namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;

/* SQL function: corebank_internal.sign_jwt(claims jsonb) returns text */
COREBANK_FUNCTION(sign_jwt) {
    const std::string claims = args::require(args::jsonb_text(fcinfo, 0), "claims");
    if (claims.empty() || claims.front() != '{') args::throw_validation("claims: must be a JSON object");

    spi::connect();
    const std::string token = corebank::pg::auth_signing::sign_claims(claims);
    spi::finish();
    PG_RETURN_DATUM(corebank::pg::text_datum(token));
}
