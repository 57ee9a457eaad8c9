// transfer_batch.cpp: see transfer_batch.hpp.
//
// Variable-length inputs reach SQL as arrays (spi::Arg::text_column and
// int8_column, up to 65,536 values: a batch names up to 16,000 accounts and
// writes up to 16,000 entries), so that every statement is a static,
// parameterised string.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "pg/transfer_batch.hpp"

#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "core/ledger_chain.hpp"
#include "core/posting_rules.hpp"
#include "pg/check.hpp"
#include "pg/deposits_posting.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_guard.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::transfer_batch {

namespace {

using core::transfer_batch::Transfer;
using core::transfer_batch::TransferBatch;
using nlohmann::json;
namespace rules = core::posting_rules;

/*---- statements ----*/

// Every account of the batch, locked in id order (the engine's lock order),
// with its deposit row and product when it has one.
constexpr const char lock_accounts_sql[] =
    "SELECT a.id::text, a.account_number, a.status, a.currency::text, a.gl_account_id::text, a.balance_minor, "
    "       a.allow_overdraft_minor, a.branch_id::text, d.id IS NOT NULL, d.customer_id::text, d.account_type, "
    "       coalesce(p.internal, false), p.minimum_balance_minor "
    "FROM corebank.ledger_accounts a "
    "LEFT JOIN corebank.deposit_accounts d ON d.id = a.id "
    "LEFT JOIN corebank.deposit_products p ON p.id = d.product_id "
    "WHERE a.id = ANY ($1::uuid[]) "
    "ORDER BY a.id FOR UPDATE OF a";

constexpr const char gl_accounts_sql[] =
    "SELECT g.id::text, g.code, g.currency::text, g.active, g.first_posted_at IS NULL "
    "FROM corebank.gl_accounts g WHERE g.id = ANY ($1::uuid[])";

constexpr const char branches_sql[] =
    "SELECT b.id::text, b.code, b.active FROM corebank.branches b "
    "WHERE b.id = ANY ($1::uuid[])";

constexpr const char numbers_sql[] =
    "SELECT corebank_internal.format_number(n.prefix, n.padding, nextval('corebank.transaction_numbers')) "
    "FROM corebank.numbering_config n CROSS JOIN generate_series(1, $1) "
    "WHERE n.entity_type = 'TRANSACTION'";

/*---- state ----*/

struct AccountState {
    posting::Account ledger;                 // number, status, currency, control GL, balance, overdraft
    std::string branch_id;
    bool deposit = false;                    // has a deposit row (the money functions take only these)
    std::optional<std::string> customer_id;
    std::string account_type;
    bool internal = false;
    std::optional<std::int64_t> minimum_balance;
    bool reactivated = false;                // DORMANT, reactivated by a posted transfer
    bool customer_activity = false;          // a posted transfer was its owner's doing
};

struct GlState {
    rules::GlFacts facts;  // code, currency, active (allow_manual unused: transfers are not manual journals)
    bool never_posted = false;
};

struct BranchState {
    std::string code;
    bool active = false;
};

struct Failure {
    std::string error;    // NOT_FOUND, UNPROCESSABLE, LINKED_EVENT_FAILED, LINKED_EVENT_CHAIN_OPEN
    std::string message;
};

// A transfer that passed: what the writes need.
struct Posted {
    std::size_t index = 0;
    std::string branch_id;
    std::string narrative;
    posting::Header header;
    std::vector<posting::Line> lines;
};

spi::Arg id_list(const std::set<std::string>& ids) { return spi::Arg::text_column({ids.begin(), ids.end()}); }

std::map<std::string, AccountState> lock_accounts(const std::vector<Transfer>& transfers) {
    std::set<std::string> ids;
    for (const Transfer& t : transfers) {
        ids.insert(t.from_account_id);
        ids.insert(t.to_account_id);
    }
    const std::uint64_t rows = spi::execute_generic(lock_accounts_sql, {id_list(ids)});
    std::map<std::string, AccountState> accounts;
    for (std::uint64_t row = 0; row < rows; ++row) {
        AccountState state;
        state.ledger = posting::Account{spi::get_text(row, 2).value(), spi::get_text(row, 3).value(),
                                        spi::get_text(row, 4).value(), spi::get_text(row, 5).value(),
                                        spi::get_int(row, 6).value(), spi::get_int(row, 7).value()};
        state.branch_id = spi::get_text(row, 8).value();
        state.deposit = spi::get_bool(row, 9).value();
        state.customer_id = spi::get_text(row, 10);
        state.account_type = spi::get_text(row, 11).value_or("");
        state.internal = spi::get_bool(row, 12).value();
        state.minimum_balance = spi::get_int(row, 13);
        CB_CHECK(!state.deposit || state.minimum_balance.has_value());  // minimum_balance_minor is NOT NULL
        accounts.emplace(spi::get_text(row, 1).value(), std::move(state));
    }
    // FOR UPDATE waited for the credits in flight; their stripes count too.
    for (const auto& [id, credits] : posting::credit_stripe_totals({ids.begin(), ids.end()})) {
        AccountState& state = accounts.at(id);
        CB_CHECK(!__builtin_add_overflow(state.ledger.balance_minor, credits, &state.ledger.balance_minor));
    }
    return accounts;
}

std::map<std::string, GlState> read_gl_accounts(const std::map<std::string, AccountState>& accounts) {
    std::set<std::string> ids;
    for (const auto& entry : accounts) ids.insert(entry.second.ledger.gl_account_id);
    std::map<std::string, GlState> gls;
    if (ids.empty()) return gls;
    const std::uint64_t rows = spi::execute_generic(gl_accounts_sql, {id_list(ids)});
    for (std::uint64_t row = 0; row < rows; ++row) {
        gls[spi::get_text(row, 1).value()] =
            GlState{rules::GlFacts{spi::get_text(row, 2).value(), spi::get_text(row, 3).value(),
                                   spi::get_bool(row, 4).value(), false},
                    spi::get_bool(row, 5).value()};
    }
    return gls;
}

std::map<std::string, BranchState> read_branches(const std::set<std::string>& ids) {
    std::map<std::string, BranchState> branches;
    if (ids.empty()) return branches;
    const std::uint64_t rows = spi::execute_generic(branches_sql, {id_list(ids)});
    for (std::uint64_t row = 0; row < rows; ++row) {
        branches[spi::get_text(row, 1).value()] = BranchState{spi::get_text(row, 2).value(), spi::get_bool(row, 3).value()};
    }
    return branches;
}

// Decides every transfer against the running state. decide() changes the
// state only after every check of the transfer passed, saving what it
// changes first, so that undo_chain() can take back a whole chain when one
// of its transfers fails.
class Decider {
public:
    Decider(std::map<std::string, AccountState>& accounts, const std::map<std::string, GlState>& gls,
            const std::map<std::string, BranchState>& branches, const std::optional<std::string>& actor_branch)
        : accounts_(accounts), gls_(gls), branches_(branches), actor_branch_(actor_branch) {}

    // Throws CoreError (CB404, CB422) when the transfer is refused; else
    // applies it to the state and returns its posting.
    Posted decide(const Transfer& t, std::size_t index) {
        AccountState& source = account(t.from_account_id, "fromAccountId");
        AccountState& target = account(t.to_account_id, "toAccountId");
        const std::string& from_number = source.ledger.account_number;
        const std::string& to_number = target.ledger.account_number;
        // The rules of core/posting_rules.hpp, in this engine's order.
        if (t.currency) {
            rules::require(rules::account_currency("currency", from_number, source.ledger.currency, *t.currency));
        }
        rules::require(
            rules::batch_same_currency(from_number, source.ledger.currency, to_number, target.ledger.currency));
        for (const AccountState* side : {&source, &target}) {
            rules::require(rules::batch_not_fixed_deposit(side->ledger.account_number, side->account_type));
        }
        const std::string branch_id = actor_branch_.value_or(source.branch_id);
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
        const bool reactivate_source = source_outcome.reactivate;
        const bool reactivate_target = target_outcome.reactivate;
        rules::require(rules::balance_limit(source_facts, -t.amount_minor));
        rules::require(rules::balance_limit(target_facts, t.amount_minor));

        remember(t.from_account_id, source);
        remember(t.to_account_id, target);
        // Cannot overflow: balance_limit allowed both movements.
        source.ledger.balance_minor -= t.amount_minor;
        target.ledger.balance_minor += t.amount_minor;
        for (auto [state, reactivate] : {std::pair{&source, reactivate_source}, std::pair{&target, reactivate_target}}) {
            if (!reactivate) continue;
            state->ledger.status = "ACTIVE";
            state->reactivated = true;
        }
        source.customer_activity = true;
        if (target_customer) target.customer_activity = true;

        Posted posted;
        posted.index = index;
        posted.branch_id = branch_id;
        posted.narrative = t.narrative.value_or("Transfer " + from_number + " to " + to_number);
        posted.lines.push_back(line(1, source, t.from_account_id, 'D', t.amount_minor, posted.narrative));
        posted.lines.push_back(line(2, target, t.to_account_id, 'C', t.amount_minor, posted.narrative));
        return posted;
    }

    // A chain starts: the states it changes are saved on first change.
    void begin_chain() { saved_.clear(); }
    // The chain failed: every state it changed goes back.
    void undo_chain() {
        for (auto& [id, state] : saved_) accounts_.at(id) = std::move(state);
        saved_.clear();
    }

private:
    AccountState& account(const std::string& id, const char* field) {
        const auto found = accounts_.find(id);
        rules::require(rules::account_found(found != accounts_.end() && found->second.deposit, field));
        return found->second;
    }

    void check_branch(const std::string& branch_id) const {
        const auto found = branches_.find(branch_id);
        CB_CHECK(found != branches_.end());  // read for every branch a transfer can use
        rules::require(rules::branch_active(found->second.code, found->second.active));
    }

    void check_gl(const AccountState& state) const {
        const auto found = gls_.find(state.ledger.gl_account_id);
        CB_CHECK(found != gls_.end());  // a foreign key of ledger_accounts
        const rules::GlFacts& gl = found->second.facts;
        rules::require(rules::gl_active(gl));
        CB_CHECK(gl.currency == state.ledger.currency);  // the composite foreign key
    }

    void remember(const std::string& id, const AccountState& state) { saved_.emplace(id, state); }

    static posting::Line line(std::int64_t line_no, const AccountState& state, const std::string& account_id, char side,
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

    std::map<std::string, AccountState>& accounts_;
    const std::map<std::string, GlState>& gls_;
    const std::map<std::string, BranchState>& branches_;
    const std::optional<std::string>& actor_branch_;
    std::map<std::string, AccountState> saved_;  // emplace keeps the first (pre-chain) state
};

Failure failure_of(const core::CoreError& error) {
    const bool missing = std::string(error.sqlstate()) == core::sqlstate_not_found;
    return Failure{missing ? "NOT_FOUND" : "UNPROCESSABLE", error.what()};
}

std::vector<std::string> take_numbers(std::size_t count) {
    std::vector<std::string> numbers;
    if (count == 0) return numbers;
    CB_CHECK(count <= core::transfer_batch::transfers_max);
    const std::uint64_t rows = spi::execute_generic(numbers_sql, {spi::Arg::int4(static_cast<std::int32_t>(count))});
    CB_CHECK(rows == count);  // the TRANSACTION numbering row is seeded and cannot be deleted
    numbers.reserve(count);
    for (std::uint64_t row = 0; row < rows; ++row) numbers.push_back(spi::get_text(row, 1).value());
    return numbers;
}

void write(std::vector<Posted>& posted, const std::map<std::string, AccountState>& accounts,
           const std::map<std::string, GlState>& gls, const std::string& channel, const std::string& actor_id,
           const posting::ValueDate& dated, const std::vector<Transfer>& transfers) {
    // Reactivations first, as a single posting does them before it posts.
    std::vector<std::string> active_customer_accounts;
    for (const auto& [id, state] : accounts) {
        if (state.reactivated) deposits::reactivate_account(id, actor_id);
        if (state.customer_activity) active_customer_accounts.push_back(id);
    }

    std::size_t unnumbered = 0;
    for (const Posted& p : posted) unnumbered += transfers[p.index].reference ? 0 : 1;
    const std::vector<std::string> numbers = take_numbers(unnumbered);
    std::size_t next_number = 0;
    std::vector<posting::Line> all_lines;
    all_lines.reserve(posted.size() * 2);
    bool first_posting = false;
    for (Posted& p : posted) {
        const Transfer& t = transfers[p.index];
        p.header.id = ledger::random_uuid();
        p.header.type = "TRANSFER";
        p.header.reference = t.reference ? *t.reference : numbers.at(next_number++);
        p.header.value_date = dated.value_date;
        p.header.branch_id = p.branch_id;
        p.header.channel = channel;
        p.header.operator_id = actor_id;
        p.header.maker_id = actor_id;
        for (const posting::Line& l : p.lines) {
            all_lines.push_back(l);
            first_posting = first_posting || gls.at(l.gl_account_id).never_posted;
        }
    }
    CB_CHECK(next_number == numbers.size());

    if (first_posting) posting::mark_first_postings(all_lines);
    // The one writer of every posting (pg/ledger_posting.hpp). Every row is
    // held FOR UPDATE here, so every balance moves in place (no accounts
    // loaded with credit_stripe).
    std::vector<posting::Posting> postings;
    postings.reserve(posted.size());
    for (const Posted& p : posted) {  // copied: the response reads the headers afterwards
        CB_CHECK(p.lines.size() == 2 && p.lines[0].line_no == 1 && p.lines[1].line_no == 2);
        postings.push_back(posting::Posting{p.header, p.lines});
    }
    posting::write(postings, dated, {});
    deposits::record_customer_activity(active_customer_accounts);
}

}  // namespace

std::string run(const TransferBatch& batch, const std::string& actor_id) {
    const std::vector<Transfer>& transfers = batch.transfers;
    CB_CHECK(!transfers.empty() && transfers.size() <= core::transfer_batch::transfers_max);

    std::map<std::string, AccountState> accounts = lock_accounts(transfers);
    // The business date's period, FOR SHARE (CB422 for the batch when closed).
    const posting::ValueDate dated = posting::check_value_date(std::nullopt, true);
    const std::map<std::string, GlState> gls = read_gl_accounts(accounts);
    const std::optional<std::string> branch_of_actor = ledger::actor_branch(actor_id);
    std::set<std::string> branch_ids;
    if (branch_of_actor) branch_ids.insert(*branch_of_actor);
    for (const auto& entry : accounts) branch_ids.insert(entry.second.branch_id);
    const std::map<std::string, BranchState> branches = read_branches(branch_ids);

    std::vector<std::optional<Failure>> failures(transfers.size());
    std::vector<Posted> posted;
    Decider decider(accounts, gls, branches, branch_of_actor);
    for (const core::transfer_batch::Chain& chain : core::transfer_batch::linked_chains(transfers)) {
        decider.begin_chain();
        std::vector<Posted> chain_posted;
        std::optional<std::size_t> failed_at;
        for (std::size_t index = chain.first; index <= chain.last && !failed_at; ++index) {
            try {
                chain_posted.push_back(decider.decide(transfers[index], index));
            } catch (const core::CoreError& error) {
                failures[index] = failure_of(error);
                failed_at = index;
            }
        }
        if (!failed_at && !chain.open) {
            for (Posted& p : chain_posted) posted.push_back(std::move(p));
            continue;
        }
        decider.undo_chain();
        for (std::size_t index = chain.first; index <= chain.last; ++index) {
            if (failed_at && index == *failed_at) continue;
            failures[index] = chain.open && !failed_at
                                  ? Failure{"LINKED_EVENT_CHAIN_OPEN",
                                            "the linked chain from transfers[" + std::to_string(chain.first) +
                                                "] is not closed: the last transfer of a batch must not be linked"}
                                  : Failure{"LINKED_EVENT_FAILED", "transfers[" + std::to_string(*failed_at) +
                                                                       "] of the same linked chain failed"};
        }
    }

    if (!posted.empty()) write(posted, accounts, gls, batch.channel, actor_id, dated, transfers);

    json results = json::array();
    std::size_t next_posted = 0;
    for (std::size_t index = 0; index < transfers.size(); ++index) {
        if (failures[index]) {
            results.push_back({{"index", index}, {"status", "FAILED"}, {"error", failures[index]->error},
                               {"message", failures[index]->message}});
            continue;
        }
        CB_CHECK(next_posted < posted.size() && posted[next_posted].index == index);
        const Posted& p = posted[next_posted++];
        results.push_back({{"index", index}, {"status", "POSTED"}, {"transactionId", p.header.id},
                           {"reference", p.header.reference}});
    }
    CB_CHECK(next_posted == posted.size());
    return json{{"postedCount", posted.size()}, {"failedCount", transfers.size() - posted.size()},
                {"results", std::move(results)}}
        .dump();
}

}  // namespace corebank::pg::transfer_batch
