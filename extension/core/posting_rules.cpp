// posting_rules.cpp: see posting_rules.hpp.
#include "core/posting_rules.hpp"

#include <utility>

#include "core/errors.hpp"
#include "core/interest.hpp"

namespace corebank::core::posting_rules {

namespace {

// An invariant the database guarantees; breaking it is a programmer error,
// surfaced as an internal error rather than a refusal.
void invariant(bool condition, const char* what) {
    if (!condition) throw CoreError(sqlstate_internal, std::string("corebank invariant violated: ") + what);
}

Decision unprocessable(std::string message) { return Decision::refuse(sqlstate_unprocessable, std::move(message)); }

}  // namespace

Decision Decision::refuse(const char* sqlstate, std::string message) {
    invariant(sqlstate != nullptr && !message.empty(), "a refusal has a SQLSTATE and a message");
    Decision decision;
    decision.sqlstate = sqlstate;
    decision.message = std::move(message);
    return decision;
}

void require(const Decision& decision) {
    if (!decision.ok()) throw CoreError(decision.sqlstate, decision.message);
}

Direction direction_of(std::int64_t delta) { return delta < 0 ? Direction::debit : Direction::credit; }

/*---- ledger accounts ----*/

Decision account_found(bool found, const std::string& field) {
    if (!found) return Decision::refuse(sqlstate_not_found, field + ": account not found");
    return Decision::allow();
}

Decision ledger_account_active(const AccountFacts& account) {
    if (account.status != "ACTIVE") return unprocessable("account " + account.number + " is " + account.status);
    return Decision::allow();
}

Decision account_currency(const std::string& field, const std::string& number, const std::string& account_currency,
                          const std::string& line_currency) {
    if (line_currency != account_currency) {
        return unprocessable(field + ": account " + number + " is in " + account_currency);
    }
    return Decision::allow();
}

Decision control_account(const std::string& field, const std::string& number, const std::string& account_gl_id,
                         const std::string& line_gl_id) {
    if (line_gl_id != account_gl_id) {
        return unprocessable(field + ": glAccountId is not the control account of account " + number);
    }
    return Decision::allow();
}

Decision balance_limit(const AccountFacts& account, std::int64_t delta) {
    invariant(account.allow_overdraft_minor >= 0, "allow_overdraft_minor >= 0");
    std::int64_t balance_after = 0;
    if (__builtin_add_overflow(account.balance_minor, delta, &balance_after)) {
        return unprocessable("the posting would overflow account " + account.number);
    }
    // -allow_overdraft_minor cannot overflow: the limit is not negative.
    if (direction_of(delta) == Direction::debit && balance_after < -account.allow_overdraft_minor) {
        return unprocessable("insufficient funds in account " + account.number);
    }
    return Decision::allow();
}

/*---- deposit accounts ----*/

Decision account_state(const AccountFacts& account, Direction direction, bool customer_initiated) {
    const std::string& number = account.number;
    const bool debit = direction == Direction::debit;
    if (account.status == "PENDING_ACTIVATION") {
        return unprocessable("account " + number + " is not activated yet (PENDING_ACTIVATION)");
    }
    if (account.status == "CLOSED") return unprocessable("account " + number + " is CLOSED");
    if (account.status == "FROZEN" && debit) return unprocessable("account " + number + " is FROZEN: debits are refused");
    if (account.status == "DORMANT" && debit && !customer_initiated) {
        return unprocessable("account " + number + " is DORMANT: only a customer-initiated posting reactivates it");
    }
    return Decision::allow();
}

bool reactivates(const AccountFacts& account, bool customer_initiated) {
    return account.status == "DORMANT" && customer_initiated;
}

bool same_customer(const std::optional<std::string>& from_customer_id,
                   const std::optional<std::string>& to_customer_id) {
    return from_customer_id.has_value() && from_customer_id == to_customer_id;
}

std::string minor_text(std::int64_t minor) {
    const bool negative = minor < 0;
    // Unsigned negation: INT64_MIN has no positive int64.
    const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(minor) : static_cast<std::uint64_t>(minor);
    std::string cents = std::to_string(magnitude % 100);
    if (cents.size() < 2) cents.insert(0, "0");
    return (negative ? "-" : "") + std::to_string(magnitude / 100) + "." + cents;
}

Decision minimum_balance(const AccountFacts& account, std::int64_t delta, std::int64_t minimum, bool keep_minimum) {
    if (direction_of(delta) != Direction::debit || minimum <= 0 || !keep_minimum) return Decision::allow();
    std::int64_t balance_after = 0;
    // A debit that leaves the bigint range ends below any positive minimum.
    const bool below = __builtin_add_overflow(account.balance_minor, delta, &balance_after) || balance_after < minimum;
    if (below) {
        return unprocessable("the posting would take account " + account.number + " below its minimum balance of " +
                             minor_text(minimum));
    }
    return Decision::allow();
}

DepositOutcome deposit_account(const AccountFacts& account, std::int64_t delta,
                               const std::optional<std::int64_t>& minimum, bool customer_initiated,
                               bool keep_minimum) {
    // A bare ledger account: the ledger's rule.
    if (!minimum) return DepositOutcome{ledger_account_active(account), false};
    Decision decision = account_state(account, direction_of(delta), customer_initiated);
    if (!decision.ok()) return DepositOutcome{std::move(decision), false};
    decision = minimum_balance(account, delta, *minimum, keep_minimum);
    if (!decision.ok()) return DepositOutcome{std::move(decision), false};
    return DepositOutcome{Decision::allow(), reactivates(account, customer_initiated)};
}

/*---- GL accounts ----*/

Decision gl_found(bool found, const std::string& field) {
    if (!found) return Decision::refuse(sqlstate_not_found, field + ".glAccountId: GL account not found");
    return Decision::allow();
}

namespace {
std::string gl_label(const GlFacts& gl) { return "GL account " + gl.code + " (" + gl.currency + ")"; }
}  // namespace

Decision gl_active(const GlFacts& gl) {
    if (!gl.active) return unprocessable(gl_label(gl) + " is inactive");
    return Decision::allow();
}

Decision gl_currency(const std::string& field, const GlFacts& gl, const std::string& line_currency) {
    if (line_currency != gl.currency) return unprocessable(field + ": " + gl_label(gl) + " does not take " + line_currency);
    return Decision::allow();
}

Decision gl_manual(const GlFacts& gl) {
    if (!gl.allow_manual) return unprocessable(gl_label(gl) + " does not allow manual posting");
    return Decision::allow();
}

/*---- branch ----*/

Decision branch_found(bool found) {
    if (!found) return Decision::refuse(sqlstate_not_found, "branchId: branch not found");
    return Decision::allow();
}

Decision branch_active(const std::string& code, bool active) {
    if (!active) return unprocessable("branch " + code + " is inactive");
    return Decision::allow();
}

/*---- the transaction ----*/

Decision value_date_not_after(const std::string& value_date, const std::string& business_date) {
    invariant(ledger::is_iso_date(value_date) && ledger::is_iso_date(business_date), "dates are YYYY-MM-DD");
    if (value_date > business_date) {
        return unprocessable("valueDate must not be after the business date " + business_date);
    }
    return Decision::allow();
}

Decision balanced(const std::vector<ledger::Line>& lines) {
    if (const std::optional<std::string> currency = ledger::unbalanced_currency(lines)) {
        return unprocessable("transaction is not balanced in " + *currency);
    }
    return Decision::allow();
}

/*---- what a batch of transfers does not take ----*/

Decision batch_same_currency(const std::string& from_number, const std::string& from_currency,
                             const std::string& to_number, const std::string& to_currency) {
    if (from_currency != to_currency) {
        return unprocessable("cross-currency transfers are not taken in a batch: use POST /v1/transfers (account " +
                             from_number + " is in " + from_currency + ", " + to_number + " in " + to_currency + ")");
    }
    return Decision::allow();
}

Decision batch_not_fixed_deposit(const std::string& number, const std::string& account_type) {
    if (account_type == "FIXED_DEPOSIT") {
        return unprocessable("fixed deposit accounts are not taken in a batch: use POST /v1/transfers (account " +
                             number + ")");
    }
    return Decision::allow();
}

/*---- the money operations ----*/

Decision distinct_accounts(const std::string& from_account_id, const std::string& to_account_id) {
    if (from_account_id == to_account_id) {
        return Decision::refuse(sqlstate_validation, "toAccountId: must differ from fromAccountId");
    }
    return Decision::allow();
}

Decision requested_currency(const std::optional<std::string>& given, const std::string& number,
                            const std::string& account_currency) {
    if (given && *given != account_currency) {
        return unprocessable("currency: account " + number + " is in " + account_currency);
    }
    return Decision::allow();
}

Decision not_internal(bool internal) {
    if (internal) return unprocessable("Internal accounts move money by transfer only");
    return Decision::allow();
}

Decision fixed_deposit_unfunded(const std::string& account_type, bool has_entries, const std::string& number) {
    if (account_type == "FIXED_DEPOSIT" && has_entries) {
        return unprocessable("Fixed deposit " + number + " takes a single deposit");
    }
    return Decision::allow();
}

std::int64_t early_withdrawal_penalty(const std::string& account_type, const std::optional<std::string>& maturity_date,
                                      std::int32_t penalty_bp, std::int64_t amount_minor,
                                      const std::string& business_date) {
    // YYYY-MM-DD compare as the dates they name.
    if (account_type != "FIXED_DEPOSIT" || !maturity_date || !(business_date < *maturity_date)) return 0;
    invariant(penalty_bp >= 0 && amount_minor >= 0, "a penalty applies a non-negative rate to an amount");
    return interest::apply_bp(amount_minor, penalty_bp);
}

Decision gl_of_type(const GlTypeFacts& gl, const std::string& field, const std::string& code,
                    const std::string& currency, const std::string& wanted_type) {
    if (!gl.found) {
        return Decision::refuse(sqlstate_not_found,
                                field + ": GL account " + code + " (" + currency + ") not found");
    }
    if (gl.type != wanted_type || !gl.active) {
        return unprocessable(field + ": GL account " + code + " (" + currency + ") must be an active " + wanted_type +
                             " account");
    }
    return Decision::allow();
}

Decision fx_rate_found(bool found, const std::string& from_currency, const std::string& to_currency,
                       const std::string& value_date) {
    if (!found) return unprocessable("No exchange rate from " + from_currency + " to " + to_currency + " on " + value_date);
    return Decision::allow();
}

Decision fx_converted(const std::optional<std::int64_t>& converted) {
    if (!converted || *converted <= 0) return unprocessable("The converted amount is zero or too large");
    return Decision::allow();
}

std::string rate_text(const std::string& rate) {
    std::string text = rate;
    while (!text.empty() && text.back() == '0') text.pop_back();
    while (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

}  // namespace corebank::core::posting_rules
