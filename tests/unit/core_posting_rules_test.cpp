// core_posting_rules_test.cpp: the posting rules (extension/core/posting_rules.hpp).
//
// Goal: every rule refuses exactly at its edge, with the SQLSTATE and the
// message text that the pgTAP and e2e suites pin, and allows everything on
// the other side: the overdraft limit at, one below and past the bigint
// edges; the minimum balance zero and positive; each cell of the deposit
// account state table (state x direction x customer-initiated). Method:
// hand-built facts; no database.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/ledger.hpp"
#include "core/posting_rules.hpp"

namespace {

namespace rules = corebank::core::posting_rules;
using corebank::core::CoreError;
using corebank::core::sqlstate_internal;
using corebank::core::sqlstate_not_found;
using corebank::core::sqlstate_unprocessable;
using rules::Decision;
using rules::Direction;

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

rules::AccountFacts account(std::string status, std::int64_t balance = 0, std::int64_t overdraft = 0) {
    return rules::AccountFacts{"1000000001", std::move(status), balance, overdraft};
}

rules::GlFacts gl(bool active = true, bool allow_manual = true) { return rules::GlFacts{"2100", "USD", active, allow_manual}; }

void expect_ok(const Decision& decision) {
    EXPECT_TRUE(decision.ok()) << decision.message;
    EXPECT_EQ(decision.sqlstate, nullptr);
    EXPECT_EQ(decision.message, "");
}

void expect_refused(const Decision& decision, const char* sqlstate, const std::string& message) {
    ASSERT_FALSE(decision.ok());
    EXPECT_STREQ(decision.sqlstate, sqlstate);
    EXPECT_EQ(decision.message, message);
}

TEST(PostingRules, RequireThrowsTheRefusalAndPassesAnAllowance) {
    EXPECT_NO_THROW(rules::require(Decision::allow()));
    try {
        rules::require(Decision::refuse(sqlstate_unprocessable, "no"));
        FAIL() << "require() did not throw";
    } catch (const CoreError& e) {
        EXPECT_STREQ(e.sqlstate(), sqlstate_unprocessable);
        EXPECT_STREQ(e.what(), "no");
    }
    // A refusal without a message is a programmer error.
    try {
        (void)Decision::refuse(sqlstate_unprocessable, "");
        FAIL() << "an empty refusal was accepted";
    } catch (const CoreError& e) {
        EXPECT_STREQ(e.sqlstate(), sqlstate_internal);
    }
}

TEST(PostingRules, ZeroMovementIsACredit) {
    EXPECT_EQ(rules::direction_of(-1), Direction::debit);
    EXPECT_EQ(rules::direction_of(0), Direction::credit);
    EXPECT_EQ(rules::direction_of(1), Direction::credit);
    EXPECT_EQ(rules::direction_of(int64_min), Direction::debit);
}

TEST(PostingRules, OverdraftLimitIsInclusive) {
    // No overdraft: down to exactly zero, not one below.
    expect_ok(rules::balance_limit(account("ACTIVE", 500), -500));
    expect_refused(rules::balance_limit(account("ACTIVE", 500), -501), sqlstate_unprocessable,
                   "insufficient funds in account 1000000001");
    // An overdraft of 1,000: down to exactly -1,000, not one below.
    expect_ok(rules::balance_limit(account("ACTIVE", 500, 1000), -1500));
    expect_refused(rules::balance_limit(account("ACTIVE", 500, 1000), -1501), sqlstate_unprocessable,
                   "insufficient funds in account 1000000001");
    // A credit is taken even into an account already past a lowered limit.
    expect_ok(rules::balance_limit(account("ACTIVE", -5000, 1000), 1));
    // So is a zero movement (a debit and a credit of one account).
    expect_ok(rules::balance_limit(account("ACTIVE", -5000, 1000), 0));
    // A debit of an account already past its limit is refused.
    expect_refused(rules::balance_limit(account("ACTIVE", -5000, 1000), -1), sqlstate_unprocessable,
                   "insufficient funds in account 1000000001");
}

TEST(PostingRules, OverflowAtTheBigintEdges) {
    expect_ok(rules::balance_limit(account("ACTIVE", int64_max - 1), 1));
    expect_refused(rules::balance_limit(account("ACTIVE", int64_max), 1), sqlstate_unprocessable,
                   "the posting would overflow account 1000000001");
    expect_refused(rules::balance_limit(account("ACTIVE", 1), int64_max), sqlstate_unprocessable,
                   "the posting would overflow account 1000000001");
    // Overflow downwards is named as overflow, before the overdraft rule.
    expect_refused(rules::balance_limit(account("ACTIVE", int64_min + 1, int64_max), -2), sqlstate_unprocessable,
                   "the posting would overflow account 1000000001");
    // The largest overdraft: down to exactly -INT64_MAX.
    expect_ok(rules::balance_limit(account("ACTIVE", 0, int64_max), -int64_max));
    expect_refused(rules::balance_limit(account("ACTIVE", -1, int64_max), -int64_max), sqlstate_unprocessable,
                   "insufficient funds in account 1000000001");
}

TEST(PostingRules, NegativeOverdraftLimitIsAnInvariantBreak) {
    try {
        (void)rules::balance_limit(account("ACTIVE", 0, -1), -1);
        FAIL() << "a negative overdraft limit was accepted";
    } catch (const CoreError& e) {
        EXPECT_STREQ(e.sqlstate(), sqlstate_internal);
    }
}

// One cell of the state table: what account_state() decides.
struct StateCell {
    const char* status;
    Direction direction;
    bool customer_initiated;
    const char* refusal;  // nullptr: allowed
    bool reactivates;
};

TEST(PostingRules, DepositStateTableEveryCell) {
    const Direction debit = Direction::debit;
    const Direction credit = Direction::credit;
    const char* const pending = "account 1000000001 is not activated yet (PENDING_ACTIVATION)";
    const char* const closed = "account 1000000001 is CLOSED";
    const char* const frozen = "account 1000000001 is FROZEN: debits are refused";
    const char* const dormant = "account 1000000001 is DORMANT: only a customer-initiated posting reactivates it";
    const std::vector<StateCell> cells = {
        {"PENDING_ACTIVATION", debit, false, pending, false},
        {"PENDING_ACTIVATION", debit, true, pending, false},
        {"PENDING_ACTIVATION", credit, false, pending, false},
        {"PENDING_ACTIVATION", credit, true, pending, false},
        {"ACTIVE", debit, false, nullptr, false},
        {"ACTIVE", debit, true, nullptr, false},
        {"ACTIVE", credit, false, nullptr, false},
        {"ACTIVE", credit, true, nullptr, false},
        {"FROZEN", debit, false, frozen, false},
        {"FROZEN", debit, true, frozen, false},
        {"FROZEN", credit, false, nullptr, false},
        {"FROZEN", credit, true, nullptr, false},
        {"DORMANT", debit, false, dormant, false},
        {"DORMANT", debit, true, nullptr, true},
        {"DORMANT", credit, false, nullptr, false},
        {"DORMANT", credit, true, nullptr, true},
        {"CLOSED", debit, false, closed, false},
        {"CLOSED", debit, true, closed, false},
        {"CLOSED", credit, false, closed, false},
        {"CLOSED", credit, true, closed, false},
    };
    for (const StateCell& cell : cells) {
        SCOPED_TRACE(std::string(cell.status) + (cell.direction == debit ? " debit" : " credit") +
                     (cell.customer_initiated ? " by the customer" : " by the bank"));
        const rules::AccountFacts facts = account(cell.status, 10000);
        const Decision decision = rules::account_state(facts, cell.direction, cell.customer_initiated);
        if (cell.refusal) {
            expect_refused(decision, sqlstate_unprocessable, cell.refusal);
        } else {
            expect_ok(decision);
        }
        // The composition of deposit_account() agrees cell by cell.
        const std::int64_t delta = cell.direction == debit ? -100 : 100;
        const rules::DepositOutcome outcome = rules::deposit_account(facts, delta, 0, cell.customer_initiated, true);
        EXPECT_EQ(outcome.decision.ok(), cell.refusal == nullptr);
        EXPECT_EQ(outcome.reactivate, cell.reactivates);
        if (cell.refusal) {
            EXPECT_EQ(outcome.decision.message, cell.refusal);
        }
    }
}

TEST(PostingRules, BareLedgerAccountMustBeActive) {
    expect_ok(rules::ledger_account_active(account("ACTIVE")));
    for (const char* status : {"FROZEN", "DORMANT", "CLOSED", "PENDING_ACTIVATION"}) {
        expect_refused(rules::ledger_account_active(account(status)), sqlstate_unprocessable,
                       std::string("account 1000000001 is ") + status);
        // Without a product minimum, deposit_account() applies the ledger's
        // rule: even a customer-initiated credit to a DORMANT one is refused.
        const rules::DepositOutcome outcome = rules::deposit_account(account(status), 100, std::nullopt, true, true);
        expect_refused(outcome.decision, sqlstate_unprocessable, std::string("account 1000000001 is ") + status);
        EXPECT_FALSE(outcome.reactivate);
    }
    const rules::DepositOutcome outcome = rules::deposit_account(account("ACTIVE", 0), -100, std::nullopt, true, true);
    expect_ok(outcome.decision);  // the overdraft is balance_limit's to decide
}

TEST(PostingRules, MinimumBalanceIsInclusiveAndOnlyForKeptDebits) {
    const char* const below = "the posting would take account 1000000001 below its minimum balance of 50.00";
    // Exactly at the minimum, then one below.
    expect_ok(rules::minimum_balance(account("ACTIVE", 10000), -5000, 5000, true));
    expect_refused(rules::minimum_balance(account("ACTIVE", 10000), -5001, 5000, true), sqlstate_unprocessable, below);
    // Not kept (a fee, an internal account): the overdraft decides.
    expect_ok(rules::minimum_balance(account("ACTIVE", 10000), -5001, 5000, false));
    // A zero minimum leaves the overdraft limit to decide.
    expect_ok(rules::minimum_balance(account("ACTIVE", 100), -200, 0, true));
    // Credits are always taken, even into an account below its minimum.
    expect_ok(rules::minimum_balance(account("ACTIVE", 100), 1, 5000, true));
    expect_ok(rules::minimum_balance(account("ACTIVE", 100), 0, 5000, true));
    // A debit past the bigint edge ends below any positive minimum.
    expect_refused(rules::minimum_balance(account("ACTIVE", int64_min + 1), -2, 1, true), sqlstate_unprocessable,
                   "the posting would take account 1000000001 below its minimum balance of 0.01");
    // deposit_account(): the state table first, then the minimum.
    expect_refused(rules::deposit_account(account("ACTIVE", 10000), -5001, 5000, true, true).decision,
                   sqlstate_unprocessable, below);
    expect_refused(rules::deposit_account(account("FROZEN", 10000), -5001, 5000, true, true).decision,
                   sqlstate_unprocessable, "account 1000000001 is FROZEN: debits are refused");
    const rules::DepositOutcome dormant = rules::deposit_account(account("DORMANT", 10000), -5001, 5000, true, true);
    expect_refused(dormant.decision, sqlstate_unprocessable, below);
    EXPECT_FALSE(dormant.reactivate);  // a refused posting reactivates nothing
}

TEST(PostingRules, MinorTextHasTwoDecimals) {
    EXPECT_EQ(rules::minor_text(0), "0.00");
    EXPECT_EQ(rules::minor_text(5), "0.05");
    EXPECT_EQ(rules::minor_text(1234), "12.34");
    EXPECT_EQ(rules::minor_text(-1234), "-12.34");
    EXPECT_EQ(rules::minor_text(int64_max), "92233720368547758.07");
    EXPECT_EQ(rules::minor_text(int64_min), "-92233720368547758.08");
}

TEST(PostingRules, LinesNameTheirAccountsCurrencyAndControlAccount) {
    expect_refused(rules::account_found(false, "lines[1].accountId"), sqlstate_not_found,
                   "lines[1].accountId: account not found");
    expect_refused(rules::account_found(false, "toAccountId"), sqlstate_not_found, "toAccountId: account not found");
    expect_ok(rules::account_found(true, "toAccountId"));
    expect_ok(rules::account_currency("lines[0]", "1000000001", "USD", "USD"));
    expect_refused(rules::account_currency("lines[0]", "1000000001", "USD", "ZWG"), sqlstate_unprocessable,
                   "lines[0]: account 1000000001 is in USD");
    expect_refused(rules::account_currency("currency", "1000000001", "ZWG", "USD"), sqlstate_unprocessable,
                   "currency: account 1000000001 is in ZWG");
    expect_ok(rules::control_account("lines[0]", "1000000001", "gl-a", "gl-a"));
    expect_refused(rules::control_account("entries[2]", "1000000001", "gl-a", "gl-b"), sqlstate_unprocessable,
                   "entries[2]: glAccountId is not the control account of account 1000000001");
}

TEST(PostingRules, GlAccountFoundActiveInCurrencyAndManual) {
    expect_ok(rules::gl_found(true, "lines[0]"));
    expect_refused(rules::gl_found(false, "lines[0]"), sqlstate_not_found, "lines[0].glAccountId: GL account not found");
    expect_ok(rules::gl_active(gl()));
    expect_refused(rules::gl_active(gl(false)), sqlstate_unprocessable, "GL account 2100 (USD) is inactive");
    expect_ok(rules::gl_currency("lines[0]", gl(), "USD"));
    expect_refused(rules::gl_currency("lines[3]", gl(), "ZWG"), sqlstate_unprocessable,
                   "lines[3]: GL account 2100 (USD) does not take ZWG");
    expect_ok(rules::gl_manual(gl(true, true)));
    expect_refused(rules::gl_manual(gl(true, false)), sqlstate_unprocessable,
                   "GL account 2100 (USD) does not allow manual posting");
}

TEST(PostingRules, BranchFoundAndActive) {
    expect_ok(rules::branch_found(true));
    expect_refused(rules::branch_found(false), sqlstate_not_found, "branchId: branch not found");
    expect_ok(rules::branch_active("HQ", true));
    expect_refused(rules::branch_active("HQ", false), sqlstate_unprocessable, "branch HQ is inactive");
}

corebank::core::ledger::Line line(const char* currency, corebank::core::ledger::Side side, std::int64_t amount) {
    corebank::core::ledger::Line item;
    item.currency = currency;
    item.side = side;
    item.amount_minor = amount;
    return item;
}

TEST(PostingRules, BalancedPerCurrency) {
    using corebank::core::ledger::Side;
    expect_ok(rules::balanced({line("USD", Side::debit, 100), line("USD", Side::credit, 100)}));
    expect_refused(rules::balanced({line("USD", Side::debit, 100), line("USD", Side::credit, 99)}),
                   sqlstate_unprocessable, "transaction is not balanced in USD");
    // Balanced in total but not per currency.
    expect_refused(rules::balanced({line("USD", Side::debit, 100), line("ZWG", Side::credit, 100)}),
                   sqlstate_unprocessable, "transaction is not balanced in USD");
}

TEST(PostingRules, ValueDateUpToTheBusinessDate) {
    expect_ok(rules::value_date_not_after("2026-11-25", "2026-11-25"));
    expect_ok(rules::value_date_not_after("2025-12-31", "2026-01-01"));
    expect_refused(rules::value_date_not_after("2026-11-26", "2026-11-25"), sqlstate_unprocessable,
                   "valueDate must not be after the business date 2026-11-25");
    expect_refused(rules::value_date_not_after("2027-01-01", "2026-12-31"), sqlstate_unprocessable,
                   "valueDate must not be after the business date 2026-12-31");
    try {
        (void)rules::value_date_not_after("25/11/2026", "2026-11-25");
        FAIL() << "a date that is not YYYY-MM-DD was compared";
    } catch (const CoreError& e) {
        EXPECT_STREQ(e.sqlstate(), sqlstate_internal);
    }
}

TEST(PostingRules, SameCustomerNeedsOneCustomerAtBothEnds) {
    EXPECT_TRUE(rules::same_customer(std::string("c1"), std::string("c1")));
    EXPECT_FALSE(rules::same_customer(std::string("c1"), std::string("c2")));
    EXPECT_FALSE(rules::same_customer(std::string("c1"), std::nullopt));
    EXPECT_FALSE(rules::same_customer(std::nullopt, std::string("c1")));
    // Two internal accounts belong to nobody, not to one customer.
    EXPECT_FALSE(rules::same_customer(std::nullopt, std::nullopt));
}

TEST(PostingRules, BatchRefusesCrossCurrencyAndFixedDeposits) {
    expect_ok(rules::batch_same_currency("1000000001", "USD", "1000000002", "USD"));
    expect_refused(rules::batch_same_currency("1000000001", "USD", "1000000002", "ZWG"), sqlstate_unprocessable,
                   "cross-currency transfers are not taken in a batch: use POST /v1/transfers (account 1000000001 is "
                   "in USD, 1000000002 in ZWG)");
    expect_ok(rules::batch_not_fixed_deposit("1000000001", "SAVINGS"));
    expect_ok(rules::batch_not_fixed_deposit("1000000001", ""));
    expect_refused(rules::batch_not_fixed_deposit("1000000001", "FIXED_DEPOSIT"), sqlstate_unprocessable,
                   "fixed deposit accounts are not taken in a batch: use POST /v1/transfers (account 1000000001)");
}

}  // namespace

namespace {

// The rules of the money operations (issue 12 part 1: moved from PL/pgSQL).
TEST(PostingRulesMoney, TransferNeedsTwoAccounts) {
    const Decision same = rules::distinct_accounts("a", "a");
    ASSERT_FALSE(same.ok());
    EXPECT_STREQ(same.sqlstate, "CBV00");
    EXPECT_EQ(same.message, "toAccountId: must differ from fromAccountId");
    EXPECT_TRUE(rules::distinct_accounts("a", "b").ok());
}

TEST(PostingRulesMoney, RequestedCurrencyMustBeTheAccounts) {
    EXPECT_TRUE(rules::requested_currency(std::nullopt, "1000000001", "USD").ok());
    EXPECT_TRUE(rules::requested_currency(std::string("USD"), "1000000001", "USD").ok());
    const Decision other = rules::requested_currency(std::string("ZWG"), "1000000001", "USD");
    EXPECT_STREQ(other.sqlstate, sqlstate_unprocessable);
    EXPECT_EQ(other.message, "currency: account 1000000001 is in USD");
}

TEST(PostingRulesMoney, InternalAccountsMoveByTransferOnly) {
    EXPECT_TRUE(rules::not_internal(false).ok());
    EXPECT_EQ(rules::not_internal(true).message, "Internal accounts move money by transfer only");
}

TEST(PostingRulesMoney, FixedDepositTakesOneDeposit) {
    EXPECT_TRUE(rules::fixed_deposit_unfunded("FIXED_DEPOSIT", false, "1000000001").ok());
    EXPECT_TRUE(rules::fixed_deposit_unfunded("SAVINGS", true, "1000000001").ok());
    EXPECT_EQ(rules::fixed_deposit_unfunded("FIXED_DEPOSIT", true, "1000000001").message,
              "Fixed deposit 1000000001 takes a single deposit");
}

TEST(PostingRulesMoney, EarlyWithdrawalPenaltyBeforeMaturityOnly) {
    const std::optional<std::string> maturity = std::string("2026-12-31");
    EXPECT_EQ(rules::early_withdrawal_penalty("FIXED_DEPOSIT", maturity, 250, 10000, "2026-12-30"), 250);
    EXPECT_EQ(rules::early_withdrawal_penalty("FIXED_DEPOSIT", maturity, 250, 10000, "2026-12-31"), 0);
    EXPECT_EQ(rules::early_withdrawal_penalty("FIXED_DEPOSIT", std::nullopt, 250, 10000, "2026-01-01"), 0);
    EXPECT_EQ(rules::early_withdrawal_penalty("SAVINGS", maturity, 250, 10000, "2026-01-01"), 0);
    // Half-even: 0.5 of a cent rounds to the even neighbour.
    EXPECT_EQ(rules::early_withdrawal_penalty("FIXED_DEPOSIT", maturity, 50, 100, "2026-01-01"), 0);
    EXPECT_EQ(rules::early_withdrawal_penalty("FIXED_DEPOSIT", maturity, 150, 100, "2026-01-01"), 2);
}

TEST(PostingRulesMoney, GlAccountOfTheWantedType) {
    const Decision missing = rules::gl_of_type(rules::GlTypeFacts{}, "sourceGlAccountCode", "1000", "USD", "ASSET");
    EXPECT_STREQ(missing.sqlstate, sqlstate_not_found);
    EXPECT_EQ(missing.message, "sourceGlAccountCode: GL account 1000 (USD) not found");
    const std::string wrong = "incomeGlAccountCode: GL account 1000 (USD) must be an active INCOME account";
    EXPECT_EQ(rules::gl_of_type(rules::GlTypeFacts{true, "ASSET", true}, "incomeGlAccountCode", "1000", "USD", "INCOME")
                  .message, wrong);
    EXPECT_EQ(rules::gl_of_type(rules::GlTypeFacts{true, "INCOME", false}, "incomeGlAccountCode", "1000", "USD", "INCOME")
                  .message, wrong);
    EXPECT_TRUE(rules::gl_of_type(rules::GlTypeFacts{true, "INCOME", true}, "incomeGlAccountCode", "4100", "USD", "INCOME")
                    .ok());
}

TEST(PostingRulesMoney, ExchangeRateAndConvertedAmount) {
    EXPECT_EQ(rules::fx_rate_found(false, "USD", "ZWG", "2026-11-25").message,
              "No exchange rate from USD to ZWG on 2026-11-25");
    EXPECT_TRUE(rules::fx_rate_found(true, "USD", "ZWG", "2026-11-25").ok());
    EXPECT_EQ(rules::fx_converted(std::nullopt).message, "The converted amount is zero or too large");
    EXPECT_EQ(rules::fx_converted(std::int64_t{0}).message, "The converted amount is zero or too large");
    EXPECT_TRUE(rules::fx_converted(std::int64_t{1}).ok());
    EXPECT_EQ(rules::rate_text("26.5000000000"), "26.5");
    EXPECT_EQ(rules::rate_text("2.0000000000"), "2");
    EXPECT_EQ(rules::rate_text("0.0377358491"), "0.0377358491");
}

}  // namespace
