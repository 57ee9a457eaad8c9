// deposits_posting.hpp: the account-posting rules of issue 4
// (docs/design/deposits.md, "What each state accepts").
//
// Every deposit, withdrawal, transfer, fee, interest posting and standing
// order payment goes through post() below, which wraps the ledger's posting
// engine (pg/ledger_posting.hpp):
//   1. locks the ledger accounts of the lines (posting::load_accounts, id
//      order: the engine's own lock order);
//   2. decides each account by its status, its net movement in this posting
//      (credit or debit) and who initiated it (core/posting_rules.hpp:
//      deposit_account, which the batch of transfers calls too):
//        PENDING_ACTIVATION, CLOSED  refused
//        FROZEN                      credits only
//        DORMANT                     a customer-initiated posting reactivates
//                                    it (status ACTIVE, history row, in this
//                                    transaction); otherwise credits only
//        ACTIVE                      anything; a debit of an account listed
//                                    under minimumBalance may not take it
//                                    below its product's minimum balance
//      An account without a deposit row (a bare ledger account) must be
//      ACTIVE, the ledger's own rule;
//   3. binds and posts through the engine (balanced per currency, period
//      lock, overdraft limit, balances, hash chain);
//   4. stamps last_customer_activity_on of the customer-initiated accounts,
//      which the dormancy job reads.
// Errors: CB422 for a refused rule, CB404 for an unknown account (from the
// engine).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/ledger.hpp"
#include "pg/ledger_posting.hpp"

namespace corebank::pg::deposits {

struct Rules {
    std::set<std::string> customer;          // accounts whose owner initiated this posting
    std::set<std::string> minimum_balance;   // accounts that must keep the product minimum
};

// {customer: [uuid...], minimumBalance: [uuid...]}; CBV00 when malformed.
Rules parse_rules(const std::string& json_text);

// Step 2's reactivation of a DORMANT account (status ACTIVE, history row),
// and step 4's activity date of the accounts whose owners initiated a
// posting. Inside the caller's SPI connection.
void reactivate_account(const std::string& account_id, const std::string& actor_id);
void record_customer_activity(const std::vector<std::string>& account_ids);

// Posts `request` (already parsed, Dialect::ledger_post) under the rules;
// returns the new transaction's id. Runs inside the caller's SPI connection.
std::string post(const core::ledger::Request& request, const Rules& rules);

// The same from the request's JSON text: parsed (CBV00 for a bad member) and
// checked balanced per currency (CB422) first. What account_post and the
// money engine (pg/money_posting.hpp) both call.
std::string post_json(const std::string& request_text, const Rules& rules);

}  // namespace corebank::pg::deposits
