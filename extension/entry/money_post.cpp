// money_post.cpp: the SQL faces of the money operations
// (pg/money_posting.hpp; docs/deposits.md, "Money").
//
//   corebank.core_deposit(request jsonb, actor uuid) returns jsonb
//   corebank.core_withdraw(request jsonb, actor uuid) returns jsonb
//   corebank.core_transfer(request jsonb, actor uuid) returns jsonb
//   corebank.core_fee(request jsonb, actor uuid) returns jsonb
//       what POST /v1/deposits, /withdrawals, /transfers and /fees call, and
//       what a DBA calls from psql: the same rules, the same answers, the
//       idempotencyKey member honoured;
//   corebank_internal.money_post(operation text, request jsonb, actor uuid,
//                                customer_initiated bool) returns jsonb
//       the posting alone, for standing orders and an account's opening
//       deposit (no idempotency key: their callers keep their own);
//   corebank_internal.money_currency_check(request jsonb, currency text,
//                                          account_number text) returns void
//       the engine's currency rule, for a standing order's creation;
//   corebank_internal.request_branch(request jsonb, actor uuid,
//                                    fallback uuid) returns uuid
//       the engine's branch rule, for account opening and customer creation.
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/datums.hpp"
#include "pg/jsonb_members.hpp"
#include "pg/ledger_common.hpp"
#include "pg/money_posting.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace money = corebank::pg::money;
namespace spi = corebank::pg::spi;

std::optional<std::string> actor_argument(FunctionCallInfo fcinfo, int index) {
    const std::optional<pg::Uuid> actor = args::uuid(fcinfo, index);
    if (!actor) return std::nullopt;
    return pg::uuid_to_string(*actor);
}

Datum run(FunctionCallInfo fcinfo, money::Operation operation) {
    const pg::JsonbArgument request(fcinfo, 0);
    const std::optional<std::string> actor = actor_argument(fcinfo, 1);
    spi::connect();
    const Datum response = money::run(operation, request, actor);
    spi::finish();
    PG_RETURN_DATUM(response);
}

}  // namespace

/* SQL function: corebank.core_deposit(request jsonb, actor uuid) returns jsonb */
COREBANK_FUNCTION(money_core_deposit) { return run(fcinfo, money::Operation::deposit); }

/* SQL function: corebank.core_withdraw(request jsonb, actor uuid) returns jsonb */
COREBANK_FUNCTION(money_core_withdraw) { return run(fcinfo, money::Operation::withdrawal); }

/* SQL function: corebank.core_transfer(request jsonb, actor uuid) returns jsonb */
COREBANK_FUNCTION(money_core_transfer) { return run(fcinfo, money::Operation::transfer); }

/* SQL function: corebank.core_fee(request jsonb, actor uuid) returns jsonb */
COREBANK_FUNCTION(money_core_fee) { return run(fcinfo, money::Operation::fee); }

/* SQL function: corebank_internal.money_post(operation text, request jsonb, actor uuid, customer_initiated bool)
   returns jsonb */
COREBANK_FUNCTION(money_post) {
    const std::string name = args::require(args::text(fcinfo, 0), "operation");
    const std::optional<money::Operation> operation = money::operation_named(name);
    if (!operation) pg::ledger::fail(core::sqlstate_validation, "operation: must be deposit, withdrawal, transfer or fee");
    const pg::JsonbArgument request(fcinfo, 1);
    const std::optional<std::string> actor = actor_argument(fcinfo, 2);
    if (!actor) pg::ledger::fail(core::sqlstate_validation, "actor: is required");
    const bool customer_initiated = args::require(args::boolean(fcinfo, 3), "customer_initiated");
    spi::connect();
    const Datum response = money::post(*operation, request, *actor, customer_initiated);
    spi::finish();
    PG_RETURN_DATUM(response);
}

/* SQL function: corebank_internal.money_currency_check(request jsonb, currency text, account_number text) returns void */
COREBANK_FUNCTION(money_currency_check) {
    const pg::JsonbArgument request(fcinfo, 0);
    const std::string currency = args::require(args::text(fcinfo, 1), "currency");
    const std::string account_number = args::require(args::text(fcinfo, 2), "account_number");
    money::check_requested_currency(request, currency, account_number);
    PG_RETURN_VOID();
}

/* SQL function: corebank_internal.request_branch(request jsonb, actor uuid, fallback uuid) returns uuid */
COREBANK_FUNCTION(request_branch) {
    const pg::JsonbArgument request(fcinfo, 0);
    const std::optional<std::string> actor = actor_argument(fcinfo, 1);
    const std::optional<std::string> fallback = actor_argument(fcinfo, 2);
    spi::connect();
    const std::string branch = money::request_branch(request, actor, fallback);
    spi::finish();
    return pg::uuid_datum(branch);
}
