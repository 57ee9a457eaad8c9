// deposits_post.cpp: the posting entry points of issue 4
// (docs/design/deposits.md, Money).
//
//   corebank_internal.account_post(request, rules)        post under the
//       account state table (pg/deposits_posting.hpp); returns the
//       TransactionResponse. Called by the PL/pgSQL money functions, the
//       interest run and standing orders, never by the tier directly.
//   corebank_internal.money_idempotency_claim(key, request)  claim an
//       idempotency key of scope core.money before any work: NULL when new,
//       the stored response when the same request came before, CB409 when
//       the key was used for another request.
//   corebank_internal.money_idempotency_complete(key, transaction_id)
//       store the transaction's response under the key and return it.
//   corebank_internal.money_idempotency_store(key, transaction_id, response)
//       the same with the response already rendered (1.5: the money
//       functions render a posting once).
#include "core/crypto.hpp"
#include "core/ledger.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/deposits_posting.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace posting = corebank::pg::posting;

constexpr const char idempotency_scope[] = "core.money";
constexpr std::size_t idempotency_key_length_max = 128;

}  // namespace

/* SQL function: corebank_internal.account_post(request jsonb, rules jsonb) returns jsonb */
COREBANK_FUNCTION(account_post) {
    const std::string request_text = args::require(args::jsonb_text(fcinfo, 0), "request");
    const std::string rules_text = args::jsonb_text(fcinfo, 1).value_or("{}");
    const core::ledger::Request request = core::ledger::parse_request(request_text, core::ledger::Dialect::ledger_post);
    if (const std::optional<std::string> currency = core::ledger::unbalanced_currency(request.lines)) {
        pg::ledger::fail(core::sqlstate_unprocessable, "transaction is not balanced in " + *currency);
    }
    const pg::deposits::Rules rules = pg::deposits::parse_rules(rules_text);

    spi::connect();
    const std::string transaction_id = pg::deposits::post(request, rules);
    const Datum response = posting::render_transaction(transaction_id);
    spi::finish();
    PG_RETURN_DATUM(response);
}

/* SQL function: corebank_internal.money_idempotency_claim(key text, request jsonb) returns jsonb */
COREBANK_FUNCTION(money_idempotency_claim) {
    const std::string key = args::require(args::text(fcinfo, 0), "idempotencyKey");
    const std::string request_text = args::require(args::jsonb_text(fcinfo, 1), "request");
    args::check_length(key, "idempotencyKey", idempotency_key_length_max);

    spi::connect();
    const posting::Claim claim = posting::idempotency_claim(
        idempotency_scope, key, core::sha256(std::string(idempotency_scope) + "\n" + request_text));
    spi::finish();
    if (!claim.replay) PG_RETURN_NULL();
    PG_RETURN_DATUM(claim.response);
}

/* SQL function: corebank_internal.money_idempotency_complete(key text, transaction_id uuid) returns jsonb */
COREBANK_FUNCTION(money_idempotency_complete) {
    const std::string key = args::require(args::text(fcinfo, 0), "idempotencyKey");
    const std::string transaction_id = pg::uuid_to_string(args::require(args::uuid(fcinfo, 1), "transaction_id"));

    spi::connect();
    const Datum response = posting::idempotency_complete(idempotency_scope, key, transaction_id);
    spi::finish();
    PG_RETURN_DATUM(response);
}

/* SQL function: corebank_internal.money_idempotency_store(key text, transaction_id uuid, response jsonb) returns jsonb */
COREBANK_FUNCTION(money_idempotency_store) {
    const std::string key = args::require(args::text(fcinfo, 0), "idempotencyKey");
    const std::string transaction_id = pg::uuid_to_string(args::require(args::uuid(fcinfo, 1), "transaction_id"));
    const std::string response = args::require(args::jsonb_text(fcinfo, 2), "response");

    spi::connect();
    const Datum stored = posting::idempotency_store(idempotency_scope, key, transaction_id, response);
    spi::finish();
    PG_RETURN_DATUM(stored);
}
