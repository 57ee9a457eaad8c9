// deposits_post.cpp: the posting entry points of issue 4
// (docs/design/deposits.md, Money).
//
//   corebank_internal.account_post(request, rules)        post under the
//       account state table (pg/deposits_posting.hpp); returns the
//       TransactionResponse. Called by the interest run and the interest
//       posting of an account, never by the tier directly.
//   The money operations' faces (corebank.core_deposit and the rest) are
//   entry/money_post.cpp.
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/deposits_posting.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace posting = corebank::pg::posting;

}  // namespace

/* SQL function: corebank_internal.account_post(request jsonb, rules jsonb) returns jsonb */
COREBANK_FUNCTION(account_post) {
    const std::string request_text = args::require(args::jsonb_text(fcinfo, 0), "request");
    const std::string rules_text = args::jsonb_text(fcinfo, 1).value_or("{}");
    const pg::deposits::Rules rules = pg::deposits::parse_rules(rules_text);

    spi::connect();
    const std::string transaction_id = pg::deposits::post_json(request_text, rules);
    const Datum response = posting::render_transaction(transaction_id);
    spi::finish();
    PG_RETURN_DATUM(response);
}
