// transfer_batch.cpp: see transfer_batch.hpp.
//
// Variable-length inputs reach SQL as arrays (spi::Arg::text_column and
// int8_column, up to 65,536 values: a batch names up to 16,000 accounts and
// writes up to 16,000 entries), so that every statement is a static,
// parameterised string.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "pg/transfer_batch.hpp"

#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "pg/check.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_posting.hpp"
#include "pg/spi.hpp"
#include "pg/transfer_decider.hpp"

namespace corebank::pg::transfer_batch {

namespace {

using core::transfer_batch::Transfer;
using core::transfer_batch::TransferBatch;
using namespace transfer_decider;
using nlohmann::json;

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

/*---- state ----*/

struct Failure {
    std::string error;    // NOT_FOUND, UNPROCESSABLE, LINKED_EVENT_FAILED, LINKED_EVENT_CHAIN_OPEN
    std::string message;
};

AccountStates lock_accounts(const std::vector<Transfer>& transfers) {
    std::set<std::string> ids;
    for (const Transfer& t : transfers) {
        ids.insert(t.from_account_id);
        ids.insert(t.to_account_id);
    }
    const std::uint64_t rows =
        spi::execute_generic(lock_accounts_sql, {spi::Arg::uuid_column({ids.begin(), ids.end()})});
    AccountStates accounts;
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

Failure failure_of(const core::CoreError& error) {
    const bool missing = std::string(error.sqlstate()) == core::sqlstate_not_found;
    return Failure{missing ? "NOT_FOUND" : "UNPROCESSABLE", error.what()};
}

}  // namespace

std::string run(const TransferBatch& batch, const std::string& actor_id) {
    const std::vector<Transfer>& transfers = batch.transfers;
    CB_CHECK(!transfers.empty() && transfers.size() <= core::transfer_batch::transfers_max);

    AccountStates accounts = lock_accounts(transfers);
    // The business date's period, FOR SHARE (CB422 for the batch when closed).
    const posting::ValueDate dated = posting::check_value_date(std::nullopt, true);
    const GlStates gls = read_gl_accounts(accounts);
    const Origin origin{actor_id, ledger::actor_branch(actor_id), batch.channel, std::nullopt, std::nullopt};
    std::set<std::string> branch_ids;
    if (origin.actor_branch) branch_ids.insert(*origin.actor_branch);
    for (const auto& entry : accounts) branch_ids.insert(entry.second.branch_id);
    const BranchStates branches = read_branches(branch_ids);

    std::vector<std::optional<Failure>> failures(transfers.size());
    std::vector<Posted> posted;
    Decider decider(accounts, gls, branches);
    for (const core::transfer_batch::Chain& chain : core::transfer_batch::linked_chains(transfers)) {
        decider.begin_chain();
        std::vector<Posted> chain_posted;
        std::optional<std::size_t> failed_at;
        for (std::size_t index = chain.first; index <= chain.last && !failed_at; ++index) {
            try {
                chain_posted.push_back(decider.decide(transfers[index], index, origin));
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

    // Every row is held FOR UPDATE here, so every balance moves in place (no
    // account loaded with credit_stripe).
    if (!posted.empty()) write(posted, accounts, gls, dated, posting::Accounts{});

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
