// money_posting.hpp: the money operations (deposit, withdrawal, transfer,
// fee) in C++, over the one posting path (docs/design/posting-engine.md, 1;
// docs/deposits.md, "Money").
//
// Until 1.8 a PL/pgSQL chain (money_run -> money_<op>_posting ->
// money_header, deposit_account_row, money_currency_check, ...) read each
// account two or three times before it reached the C++ posting. Now one
// function per operation:
//   1. reads the request's members in the order the SQL functions did, with
//      their rules and messages (core/money_request.hpp), so a request with
//      two faults names the same one;
//   2. claims the idempotency key (scope core.money; the request hash is the
//      one 1.7 stored, so a key claimed before an upgrade still replays);
//   3. reads the accounts with their deposit row and product in one
//      statement; the posting locks them (pg/ledger_posting.hpp,
//      load_accounts: debits wait in id order, a credit to an account
//      another posting holds does not wait); a fixed deposit being funded is
//      locked first, so that its single deposit stays single;
//   4. decides with the pure rules of core/posting_rules.hpp (currency,
//      internal accounts, fixed deposits, GL type, early-withdrawal penalty,
//      exchange rate), builds the lines and posts them through
//      deposits::post_json, which applies the account state table, minimum
//      balance, overdraft, GL, branch, value-date and period rules and writes
//      the journal (pg/deposits_posting.hpp, pg/ledger_posting.hpp);
//   5. renders the TransactionResponse and stores it under the key.
// Runs inside the caller's SPI connection and transaction.
#pragma once

#include <optional>
#include <string>

#include "pg/jsonb_members.hpp"
#include "pg/postgres.hpp"

namespace corebank::pg::money {

enum class Operation { deposit, withdrawal, transfer, fee };

// "deposit", "withdrawal", "transfer", "fee"; nullopt for another name.
std::optional<Operation> operation_named(const std::string& name);

// The idempotency scope of the money operations, and the hash a request is
// claimed under (1.7's, so that a key claimed before an upgrade replays
// after it). posting_group.cpp claims single requests of a group with the
// same scope and hash, so a key replays through either path.
inline constexpr const char idempotency_scope[] = "core.money";
std::string request_hash(Operation operation, const JsonbArgument& request);

// The SQL faces corebank.core_deposit, core_withdraw, core_transfer and
// core_fee: the posted TransactionResponse (a Datum for returning), or the
// stored response of an earlier request with the same idempotencyKey.
// CBV00 "actor: is required", "request: must be a JSON object".
Datum run(Operation operation, const JsonbArgument& request, const std::optional<std::string>& actor_id);

// The posting alone, with no idempotency key (corebank_internal.money_post):
// standing orders (customer_initiated false) and the opening deposit of an
// account (true). Returns the TransactionResponse.
Datum post(Operation operation, const JsonbArgument& request, const std::string& actor_id, bool customer_initiated);

// corebank_internal.request_branch, the branch rule of every request that
// records one (the money operations, account opening, customer creation):
// branchId, else branchCode, else the acting staff member's active branch,
// else `fallback`, else head office; CB404 "Branch not found" for a named
// branch that does not exist.
std::string request_branch(const JsonbArgument& request, const std::optional<std::string>& actor_id,
                           const std::optional<std::string>& fallback);

// corebank_internal.money_currency_check: the request's currency member, when
// given, is the account's (CBV00 for a bad member, CB422 for another currency).
void check_requested_currency(const JsonbArgument& request, const std::string& account_currency,
                              const std::string& account_number);

}  // namespace corebank::pg::money
