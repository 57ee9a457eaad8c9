// credit_stripes_fold.cpp: corebank_internal.account_credit_stripes_fold
// (pg/credit_stripes.hpp), called by the maintenance pass.
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/credit_stripes.hpp"
#include "pg/spi.hpp"

namespace {

namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;

constexpr int accounts_max_limit = 10000;

}  // namespace

/* SQL function: corebank_internal.account_credit_stripes_fold(accounts_max int) returns int */
COREBANK_FUNCTION(account_credit_stripes_fold) {
    const std::int32_t accounts_max = args::require(args::int4(fcinfo, 0), "accounts_max");
    if (accounts_max < 1 || accounts_max > accounts_max_limit) {
        args::throw_validation("accounts_max: must be 1 to " + std::to_string(accounts_max_limit));
    }
    spi::connect();
    const int folded = corebank::pg::credit_stripes::fold(accounts_max);
    spi::finish();
    PG_RETURN_INT32(folded);
}
