// posting_rules.hpp: every rule a posting must pass, each written once as a
// pure function (docs/design/ledger.md, Posting; docs/design/deposits.md,
// "What each state accepts").
//
// The adapters read the facts (accounts, GL accounts, branches) from the
// database and call these functions in their own order: the posting engine
// (pg/ledger_posting.cpp), the deposit account rules around it
// (pg/deposits_posting.cpp) and the batch of transfers (pg/transfer_batch.cpp).
// No function here touches the database or throws for a refusal: each returns
// a Decision, allowed or refused with the SQLSTATE and the exact message a
// client reads; require() turns a refusal into a CoreError.
//
// Movements are customer-side: a delta is credits minus debits of one
// account in one posting, so a negative delta is a debit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ledger.hpp"

namespace corebank::core::posting_rules {

/*---- decisions ----*/

struct Decision {
    const char* sqlstate = nullptr;  // nullptr: allowed; else a CB SQLSTATE of core/errors.hpp
    std::string message;             // empty when allowed

    bool ok() const { return sqlstate == nullptr; }
    static Decision allow() { return {}; }
    static Decision refuse(const char* sqlstate, std::string message);
};

// Throws CoreError(sqlstate, message) when `decision` refuses.
void require(const Decision& decision);

/*---- facts ----*/

enum class Direction { debit, credit };

// A zero net movement counts as a credit: it lowers nothing.
Direction direction_of(std::int64_t delta);

struct AccountFacts {
    std::string number;                    // what messages name
    std::string status;                    // ledger status: ACTIVE, FROZEN, DORMANT, CLOSED, PENDING_ACTIVATION
    std::int64_t balance_minor = 0;
    std::int64_t allow_overdraft_minor = 0;  // >= 0 (constraint ledger_accounts_overdraft)
};

struct GlFacts {
    std::string code;
    std::string currency;
    bool active = false;
    bool allow_manual = false;
};

/*---- ledger accounts ----*/

// CB404 "<field>: account not found".
Decision account_found(bool found, const std::string& field);

// A bare ledger account (no deposit row) takes postings only while ACTIVE:
// CB422 "account <n> is <status>".
Decision ledger_account_active(const AccountFacts& account);

// A line names its account's currency: CB422 "<field>: account <n> is in <CUR>".
Decision account_currency(const std::string& field, const std::string& number, const std::string& account_currency,
                          const std::string& line_currency);

// A line on an account posts to its control GL account:
// CB422 "<field>: glAccountId is not the control account of account <n>".
Decision control_account(const std::string& field, const std::string& number, const std::string& account_gl_id,
                         const std::string& line_gl_id);

// Balance after the movement: CB422 "the posting would overflow account <n>"
// when it leaves the bigint range; CB422 "insufficient funds in account <n>"
// when a debit ends below -allow_overdraft_minor. A credit is always
// accepted, even into an account already past a lowered limit.
Decision balance_limit(const AccountFacts& account, std::int64_t delta);

/*---- deposit accounts ----*/

// The state table of a deposit account:
//   PENDING_ACTIVATION, CLOSED  refused
//   FROZEN                      credits only
//   DORMANT                     credits; a customer-initiated debit too (it reactivates)
//   ACTIVE                      anything
Decision account_state(const AccountFacts& account, Direction direction, bool customer_initiated);

// A DORMANT account goes back to ACTIVE when its owner initiates a posting.
bool reactivates(const AccountFacts& account, bool customer_initiated);

// A transfer between two accounts of one customer is that customer's doing
// at both ends (the credited account counts as customer-initiated too).
// Accounts without a customer (internal ones) belong to nobody.
bool same_customer(const std::optional<std::string>& from_customer_id,
                   const std::optional<std::string>& to_customer_id);

// "12.34" from 1234: both currencies of the platform have 2 minor units.
std::string minor_text(std::int64_t minor);

// A debit of an account that must keep its product minimum (keep_minimum)
// may not end below a positive minimum: CB422 "the posting would take
// account <n> below its minimum balance of <12.34>". A zero minimum leaves
// the overdraft limit to decide.
Decision minimum_balance(const AccountFacts& account, std::int64_t delta, std::int64_t minimum, bool keep_minimum);

// The deposit rules of one account in one posting, in their order: a bare
// ledger account (no product minimum) must be ACTIVE; a deposit account
// passes the state table, then the minimum balance.
struct DepositOutcome {
    Decision decision;
    bool reactivate = false;  // allowed, and the posting reactivates a DORMANT account
};
DepositOutcome deposit_account(const AccountFacts& account, std::int64_t delta,
                               const std::optional<std::int64_t>& minimum, bool customer_initiated,
                               bool keep_minimum);

/*---- GL accounts ----*/

// CB404 "<field>.glAccountId: GL account not found" (field: "lines[0]").
Decision gl_found(bool found, const std::string& field);

// CB422 "GL account <code> (<CUR>) is inactive".
Decision gl_active(const GlFacts& gl);

// CB422 "<field>: GL account <code> (<CUR>) does not take <LINE CUR>".
Decision gl_currency(const std::string& field, const GlFacts& gl, const std::string& line_currency);

// Manual journals only: CB422 "GL account <code> (<CUR>) does not allow manual posting".
Decision gl_manual(const GlFacts& gl);

/*---- branch ----*/

// CB404 "branchId: branch not found"; CB422 "branch <code> is inactive".
Decision branch_found(bool found);
Decision branch_active(const std::string& code, bool active);

/*---- the transaction ----*/

// Dates are YYYY-MM-DD, which order like the dates they name:
// CB422 "valueDate must not be after the business date <today>".
Decision value_date_not_after(const std::string& value_date, const std::string& business_date);

// CB422 "transaction is not balanced in <CUR>" for the first currency whose
// debits and credits differ.
Decision balanced(const std::vector<ledger::Line>& lines);

/*---- the money operations (deposit, withdrawal, transfer, fee) ----*/

// A transfer moves between two accounts: CBV00 "toAccountId: must differ from fromAccountId".
Decision distinct_accounts(const std::string& from_account_id, const std::string& to_account_id);

// A currency named in the request must be the account's:
// CB422 "currency: account <n> is in <CUR>". `given` is upper-cased.
Decision requested_currency(const std::optional<std::string>& given, const std::string& number,
                            const std::string& account_currency);

// Internal accounts (NOSTRO, SUSPENSE, GL products) take no deposit,
// withdrawal or fee: CB422 "Internal accounts move money by transfer only".
Decision not_internal(bool internal);

// A fixed deposit takes one deposit, its first posting:
// CB422 "Fixed deposit <n> takes a single deposit".
Decision fixed_deposit_unfunded(const std::string& account_type, bool has_entries, const std::string& number);

// The early-withdrawal penalty of a debit of `amount_minor`: a fixed deposit
// debited before its maturity pays penalty_bp of the amount (half-even);
// anything else pays nothing. Dates are YYYY-MM-DD.
std::int64_t early_withdrawal_penalty(const std::string& account_type, const std::optional<std::string>& maturity_date,
                                      std::int32_t penalty_bp, std::int64_t amount_minor,
                                      const std::string& business_date);

// The GL account a money operation names by code must exist in the
// account's currency (CB404 "<field>: GL account <code> (<CUR>) not found")
// and be an active account of the wanted type (CB422 "<field>: GL account
// <code> (<CUR>) must be an active <TYPE> account").
struct GlTypeFacts {
    bool found = false;
    std::string type;
    bool active = false;
};
Decision gl_of_type(const GlTypeFacts& gl, const std::string& field, const std::string& code,
                    const std::string& currency, const std::string& wanted_type);

// A transfer across currencies needs the rate in force on its value date:
// CB422 "No exchange rate from <A> to <B> on <date>"; and a converted amount
// that is positive and within the line limit: CB422 "The converted amount is
// zero or too large". converted: core/interest.hpp fx_convert's result.
Decision fx_rate_found(bool found, const std::string& from_currency, const std::string& to_currency,
                       const std::string& value_date);
Decision fx_converted(const std::optional<std::int64_t>& converted);

// The rate as a transfer's narrative shows it: trailing zeros, then a
// trailing point, removed ("1.5000000000" is "1.5").
std::string rate_text(const std::string& rate);

/*---- what a batch of transfers does not take ----*/

// Same currency at both ends: CB422 "cross-currency transfers are not taken
// in a batch: use POST /v1/transfers (account <n> is in <CUR>, <m> in <CUR>)".
Decision batch_same_currency(const std::string& from_number, const std::string& from_currency,
                             const std::string& to_number, const std::string& to_currency);

// No fixed deposit at either end: CB422 "fixed deposit accounts are not
// taken in a batch: use POST /v1/transfers (account <n>)".
Decision batch_not_fixed_deposit(const std::string& number, const std::string& account_type);

}  // namespace corebank::core::posting_rules
