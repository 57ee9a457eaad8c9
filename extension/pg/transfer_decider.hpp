// transfer_decider.hpp: deciding N transfers against running balances, and
// writing the posted ones set-based: the one place where both the batch of
// transfers (pg/transfer_batch.hpp) and a group of single transfer requests
// (pg/posting_group.hpp) decide (docs/design/posting-engine.md, section 1).
//
// The rules are those of a single customer-initiated transfer, from
// core/posting_rules.hpp: the requested currency, the account state table and
// minimum balance (deposit_account, as pg/deposits_posting.hpp applies them),
// the ledger's overdraft limit, active GL accounts and branches. A transfer
// between two currencies or touching a fixed deposit is refused here
// (batch_same_currency, batch_not_fixed_deposit): the batch answers it as a
// failed item, the group posts it alone through the single path, whose FX
// and fixed-deposit rules apply.
//
// decide() changes the running state only after every check of a transfer
// passed, saving what it changes first, so that undo_chain() can take back a
// whole linked chain of the batch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/posting_rules.hpp"
#include "core/transfer_batch.hpp"
#include "pg/ledger_posting.hpp"

namespace corebank::pg::transfer_decider {

// A ledger account with what the money rules read of its deposit row and product.
struct AccountState {
    posting::Account ledger;                 // number, status, currency, control GL, balance, overdraft
    std::string branch_id;
    bool deposit = false;                    // has a deposit row (the money functions take only these)
    std::optional<std::string> customer_id;
    std::string account_type;
    bool internal = false;
    std::optional<std::int64_t> minimum_balance;
    std::optional<std::string> reactivated_by;  // DORMANT, reactivated by a posted transfer of this actor
    bool customer_activity = false;             // a posted transfer was its owner's doing
    bool stamped_today = false;                 // last_customer_activity_on is already the business date
};
using AccountStates = std::map<std::string, AccountState>;

struct GlState {
    core::posting_rules::GlFacts facts;  // code, currency, active (allow_manual unused: transfers are not manual journals)
    bool never_posted = false;
    std::string name;                    // for a response rendered from memory
    std::int64_t minor_units = 0;        // of its currency
};
using GlStates = std::map<std::string, GlState>;

struct BranchState {
    std::string code;
    bool active = false;
};
using BranchStates = std::map<std::string, BranchState>;

// Who asks for a transfer and how it is recorded (a batch: the same for all).
struct Origin {
    std::string actor_id;
    std::optional<std::string> actor_branch;  // the acting staff member's active branch, if any
    std::string channel;
    std::optional<std::string> description;
    // The transaction's id when the caller chose it before the decision (the
    // posting group claims a request's idempotency key with it); nullopt: a
    // new one at write().
    std::optional<std::string> transaction_id;
};

// A transfer that passed: what the writes need.
struct Posted {
    std::size_t index = 0;          // in the caller's list
    std::optional<std::string> reference;  // nullopt: the next transaction number
    Origin origin;
    std::string branch_id;
    posting::Header header;         // filled by write()
    std::vector<posting::Line> lines;
};

// The deposit facts (deposit row, product) of `ids`, merged into `accounts`,
// whose ledger side the caller has loaded and locked. Accounts without a
// deposit row keep deposit = false.
void read_deposit_facts(const std::set<std::string>& ids, AccountStates& accounts);

// The control GL accounts of `accounts`, and the branches named by `ids`.
GlStates read_gl_accounts(const AccountStates& accounts);
BranchStates read_branches(const std::set<std::string>& ids);

class Decider {
public:
    Decider(AccountStates& accounts, const GlStates& gls, const BranchStates& branches)
        : accounts_(accounts), gls_(gls), branches_(branches) {}

    // Throws CoreError (CB404, CB422) when the transfer is refused; else
    // applies it to the running state and returns its posting.
    Posted decide(const core::transfer_batch::Transfer& transfer, std::size_t index, const Origin& origin);

    // A chain starts: the states it changes are saved on first change.
    void begin_chain() { saved_.clear(); }
    // The chain failed: every state it changed goes back.
    void undo_chain();

private:
    AccountState& account(const std::string& id, const char* field);
    void check_branch(const std::string& branch_id) const;
    void check_gl(const AccountState& state) const;

    AccountStates& accounts_;
    const GlStates& gls_;
    const BranchStates& branches_;
    AccountStates saved_;  // emplace keeps the first (pre-chain) state
};

// Writes the posted transfers, in order, through the one writer
// (posting::write): reactivations first (as a single posting does them),
// the transaction numbers of those without a reference (one statement),
// the GL accounts' first postings, the journal, the balances (in place, or
// into a credit stripe for an account `locked` holds with credit_stripe),
// and the customers' activity dates. Fills each Posted's header.
// links, when given, gets each posting's place in the hash chain, in order.
void write(std::vector<Posted>& posted, const AccountStates& accounts, const GlStates& gls,
           const posting::ValueDate& dated, const posting::Accounts& locked,
           std::vector<posting::ChainLink>* links = nullptr);

}  // namespace corebank::pg::transfer_decider
