// transfer_decider.cpp: see transfer_decider.hpp.
//
// Variable-length inputs reach SQL as arrays (spi::Arg::text_column), so
// that every statement is a static, parameterised string.
#include "pg/transfer_decider.hpp"

#include <utility>

#include "core/errors.hpp"
#include "pg/check.hpp"
#include "pg/deposits_posting.hpp"
#include "pg/ledger_common.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::transfer_decider {

namespace {

using core::transfer_batch::Transfer;
namespace rules = core::posting_rules;

// The business date as a sub-SELECT: an InitPlan, run once per statement
// (business_today() is a SQL function that is not inlined, and in the
// select list it ran once per row).
constexpr const char deposit_facts_sql[] =
    "SELECT d.id::text, a.branch_id::text, d.customer_id::text, d.account_type, coalesce(p.internal, false), "
    "       p.minimum_balance_minor, "
    "       coalesce(d.last_customer_activity_on >= (SELECT corebank_internal.business_today()), false) "
    "FROM corebank.deposit_accounts d "
    "JOIN corebank.ledger_accounts a ON a.id = d.id "
    "JOIN corebank.deposit_products p ON p.id = d.product_id "
    "WHERE d.id = ANY ($1::uuid[])";

constexpr const char gl_accounts_sql[] =
    "SELECT g.id::text, g.code, g.currency::text, g.active, g.first_posted_at IS NULL, g.name, c.minor_units "
    "FROM corebank.gl_accounts g JOIN corebank.currencies c ON c.code = g.currency "
    "WHERE g.id = ANY ($1::uuid[])";

constexpr const char branches_sql[] =
    "SELECT b.id::text, b.code, b.active FROM corebank.branches b "
    "WHERE b.id = ANY ($1::uuid[])";

spi::Arg id_list(const std::set<std::string>& ids) { return spi::Arg::uuid_column({ids.begin(), ids.end()}); }

posting::Line line(std::int64_t line_no, const AccountState& state, const std::string& account_id, char side,
                   std::int64_t amount, const std::string& narrative) {
    posting::Line item;
    item.line_no = line_no;
    item.gl_account_id = state.ledger.gl_account_id;
    item.account_id = account_id;
    item.currency = state.ledger.currency;
    item.side = side;
    item.amount_minor = amount;
    item.narrative = narrative;
    return item;
}

}  // namespace

void read_deposit_facts(const std::set<std::string>& ids, AccountStates& accounts) {
    if (ids.empty()) return;
    const std::uint64_t rows = spi::execute_generic(deposit_facts_sql, {id_list(ids)});
    for (std::uint64_t row = 0; row < rows; ++row) {
        const auto found = accounts.find(spi::get_text(row, 1).value());
        if (found == accounts.end()) continue;  // not loaded by the caller (absent from the ledger side)
        AccountState& state = found->second;
        state.branch_id = spi::get_text(row, 2).value();
        state.deposit = true;
        state.customer_id = spi::get_text(row, 3);
        state.account_type = spi::get_text(row, 4).value();
        state.internal = spi::get_bool(row, 5).value();
        state.minimum_balance = spi::get_int(row, 6);
        CB_CHECK(state.minimum_balance.has_value());  // minimum_balance_minor is NOT NULL
        state.stamped_today = spi::get_bool(row, 7).value();
    }
}

GlStates read_gl_accounts(const AccountStates& accounts) {
    std::set<std::string> ids;
    for (const auto& entry : accounts) ids.insert(entry.second.ledger.gl_account_id);
    GlStates gls;
    if (ids.empty()) return gls;
    const std::uint64_t rows = spi::execute_generic(gl_accounts_sql, {id_list(ids)});
    for (std::uint64_t row = 0; row < rows; ++row) {
        gls[spi::get_text(row, 1).value()] =
            GlState{rules::GlFacts{spi::get_text(row, 2).value(), spi::get_text(row, 3).value(),
                                   spi::get_bool(row, 4).value(), false},
                    spi::get_bool(row, 5).value(), spi::get_text(row, 6).value(), spi::get_int(row, 7).value()};
    }
    return gls;
}

BranchStates read_branches(const std::set<std::string>& ids) {
    BranchStates branches;
    if (ids.empty()) return branches;
    const std::uint64_t rows = spi::execute_generic(branches_sql, {id_list(ids)});
    for (std::uint64_t row = 0; row < rows; ++row) {
        branches[spi::get_text(row, 1).value()] = BranchState{spi::get_text(row, 2).value(), spi::get_bool(row, 3).value()};
    }
    return branches;
}

Posted Decider::decide(const Transfer& t, std::size_t index, const Origin& origin) {
    AccountState& source = account(t.from_account_id, "fromAccountId");
    AccountState& target = account(t.to_account_id, "toAccountId");
    const std::string& from_number = source.ledger.account_number;
    const std::string& to_number = target.ledger.account_number;
    // The rules of core/posting_rules.hpp, in this engine's order.
    if (t.currency) {
        rules::require(rules::account_currency("currency", from_number, source.ledger.currency, *t.currency));
    }
    rules::require(rules::batch_same_currency(from_number, source.ledger.currency, to_number, target.ledger.currency));
    for (const AccountState* side : {&source, &target}) {
        rules::require(rules::batch_not_fixed_deposit(side->ledger.account_number, side->account_type));
    }
    const std::string branch_id = origin.actor_branch.value_or(source.branch_id);
    check_branch(branch_id);
    check_gl(source);
    check_gl(target);

    const bool target_customer = rules::same_customer(source.customer_id, target.customer_id);
    const rules::AccountFacts source_facts = posting::account_facts(source.ledger);
    const rules::AccountFacts target_facts = posting::account_facts(target.ledger);
    const rules::DepositOutcome source_outcome =
        rules::deposit_account(source_facts, -t.amount_minor, source.minimum_balance, true, !source.internal);
    rules::require(source_outcome.decision);
    const rules::DepositOutcome target_outcome =
        rules::deposit_account(target_facts, t.amount_minor, target.minimum_balance, target_customer, false);
    rules::require(target_outcome.decision);
    rules::require(rules::balance_limit(source_facts, -t.amount_minor));
    rules::require(rules::balance_limit(target_facts, t.amount_minor));

    saved_.emplace(t.from_account_id, source);
    saved_.emplace(t.to_account_id, target);
    // Cannot overflow: balance_limit allowed both movements.
    source.ledger.balance_minor -= t.amount_minor;
    target.ledger.balance_minor += t.amount_minor;
    for (auto [state, reactivate] :
         {std::pair{&source, source_outcome.reactivate}, std::pair{&target, target_outcome.reactivate}}) {
        if (!reactivate) continue;
        state->ledger.status = "ACTIVE";
        state->reactivated_by = origin.actor_id;
    }
    source.customer_activity = true;
    if (target_customer) target.customer_activity = true;

    Posted posted;
    posted.index = index;
    posted.reference = t.reference;
    posted.origin = origin;
    posted.branch_id = branch_id;
    const std::string narrative = t.narrative.value_or("Transfer " + from_number + " to " + to_number);
    posted.lines.push_back(line(1, source, t.from_account_id, 'D', t.amount_minor, narrative));
    posted.lines.push_back(line(2, target, t.to_account_id, 'C', t.amount_minor, narrative));
    return posted;
}

void Decider::undo_chain() {
    for (auto& [id, state] : saved_) accounts_.at(id) = std::move(state);
    saved_.clear();
}

AccountState& Decider::account(const std::string& id, const char* field) {
    const auto found = accounts_.find(id);
    rules::require(rules::account_found(found != accounts_.end() && found->second.deposit, field));
    return found->second;
}

void Decider::check_branch(const std::string& branch_id) const {
    const auto found = branches_.find(branch_id);
    CB_CHECK(found != branches_.end());  // read for every branch a transfer can use
    rules::require(rules::branch_active(found->second.code, found->second.active));
}

void Decider::check_gl(const AccountState& state) const {
    const auto found = gls_.find(state.ledger.gl_account_id);
    CB_CHECK(found != gls_.end());  // a foreign key of ledger_accounts
    const rules::GlFacts& gl = found->second.facts;
    rules::require(rules::gl_active(gl));
    CB_CHECK(gl.currency == state.ledger.currency);  // the composite foreign key
}

void write(std::vector<Posted>& posted, const AccountStates& accounts, const GlStates& gls,
           const posting::ValueDate& dated, const posting::Accounts& locked, std::vector<posting::ChainLink>* links) {
    CB_CHECK(!posted.empty());
    // Reactivations first, as a single posting does them before it posts.
    std::vector<std::string> active_customer_accounts;
    for (const auto& [id, state] : accounts) {
        if (state.reactivated_by) deposits::reactivate_account(id, *state.reactivated_by);
        // An account its owner already used today needs no stamp, and then
        // no statement at all (business_today() is fixed within a
        // transaction: it reads now()).
        if (state.customer_activity && !state.stamped_today) active_customer_accounts.push_back(id);
    }

    std::size_t unnumbered = 0;
    for (const Posted& p : posted) unnumbered += p.reference ? 0 : 1;
    const std::vector<std::string> numbers = ledger::next_transaction_numbers(unnumbered);
    std::size_t next_number = 0;
    std::vector<posting::Line> all_lines;
    all_lines.reserve(posted.size() * 2);
    bool first_posting = false;
    for (Posted& p : posted) {
        p.header.id = p.origin.transaction_id ? *p.origin.transaction_id : ledger::random_uuid();
        p.header.type = "TRANSFER";
        p.header.reference = p.reference ? *p.reference : numbers.at(next_number++);
        p.header.description = p.origin.description;
        p.header.value_date = dated.value_date;
        p.header.branch_id = p.branch_id;
        p.header.channel = p.origin.channel;
        p.header.operator_id = p.origin.actor_id;
        p.header.maker_id = p.origin.actor_id;
        for (const posting::Line& l : p.lines) {
            all_lines.push_back(l);
            first_posting = first_posting || gls.at(l.gl_account_id).never_posted;
        }
    }
    CB_CHECK(next_number == numbers.size());

    if (first_posting) posting::mark_first_postings(all_lines);
    // The one writer of every posting (pg/ledger_posting.hpp).
    std::vector<posting::Posting> postings;
    postings.reserve(posted.size());
    for (const Posted& p : posted) {  // copied: the caller reads the headers afterwards
        CB_CHECK(p.lines.size() == 2 && p.lines[0].line_no == 1 && p.lines[1].line_no == 2);
        postings.push_back(posting::Posting{p.header, p.lines});
    }
    posting::write(postings, dated, locked, links);
    deposits::record_customer_activity(active_customer_accounts);
}

}  // namespace corebank::pg::transfer_decider
