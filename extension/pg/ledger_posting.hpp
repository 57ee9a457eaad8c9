// ledger_posting.hpp: the posting engine (docs/design/ledger.md, Posting).
//
// One path writes the journal: ledger_post, the posting of a released manual
// journal (core_transaction_post) and an approved reversal all call post().
// It runs, inside the caller's SPI connection and database transaction:
//   validation  GL accounts exist, are active and in the line's currency
//               (and allow manual posting for manual journals); the branch
//               is active; the value date is not after the business date;
//               balanced per currency;
//   locks       in one fixed order, so that concurrent postings never
//               deadlock: the ledger accounts (load_accounts, one statement,
//               ORDER BY id FOR UPDATE; done by the caller before post), the
//               accounting period row (FOR SHARE: a close waits for postings
//               in flight, and postings after it see CLOSED), the GL
//               accounts posted to for the first time (ORDER BY id), the GL
//               balance stripes (ORDER BY gl_account_id), the chain head of
//               the backend's stripe;
//   limits      a customer balance may not end below -allow_overdraft_minor
//               when the posting lowers it;
//   writes      the transaction row, the entries (one multi-row INSERT), the
//               customer balances, the GL balance stripes and the chain head,
//               the derived ones inside a ledger_guard::WriterScope.
// The deferred trigger journal_entries_balanced checks the balance again at
// commit, whatever wrote the entries.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/ledger.hpp"
#include "core/ledger_chain.hpp"
#include "core/posting_rules.hpp"
#include "pg/postgres.hpp"

namespace corebank::pg::posting {

struct Line {
    std::int64_t line_no = 0;                // 1-based, the order of the request
    std::string gl_account_id;               // empty until bind_accounts for account-only lines
    std::optional<std::string> account_id;   // ledger (customer) account
    std::string currency;                    // empty until known (manual journals)
    char side = 'D';                         // 'D' or 'C'
    std::int64_t amount_minor = 0;
    std::optional<std::string> narrative;
    std::string field;                       // the line in error messages ("entries[0]"); default lines[n]
};

struct Header {
    std::string id;
    std::string type;
    std::string reference;
    std::optional<std::string> description;
    std::optional<std::string> value_date;   // YYYY-MM-DD; nullopt: the business date
    std::string branch_id;
    std::string channel;
    std::string operator_id;
    std::optional<std::string> maker_id;
    std::optional<std::string> reverses_id;
    std::optional<std::string> idempotency_key;
    // Set when an existing PENDING transaction is posted (its created_at);
    // nullopt when post() inserts a new transaction row.
    std::optional<std::int64_t> created_at_us;
};

struct Account {
    std::string account_number;
    std::string status;
    std::string currency;
    std::string gl_account_id;
    std::int64_t balance_minor = 0;          // balance_minor plus the committed credit stripes
    std::int64_t allow_overdraft_minor = 0;
    // Credited through the backend's credit stripe: the row is held FOR KEY
    // SHARE because another posting held it (a hot account; section 3 of
    // docs/design/posting-engine.md).
    bool credit_stripe = false;
    // Locked by this transaction (lock_accounts: FOR UPDATE, or FOR KEY
    // SHARE when credit_stripe); load_accounts(lines, false) reads unlocked.
    bool locked = false;
};
using Accounts = std::map<std::string, Account>;

// What the rules of core/posting_rules.hpp read of an account.
core::posting_rules::AccountFacts account_facts(const Account& account);

// Customer-side deltas (credits minus debits) per account of the lines, in
// account id order: what the overdraft, state and minimum rules judge.
std::map<std::string, std::int64_t> account_deltas(const std::vector<Line>& lines);

enum class GlRule { any, manual };

// The posting lines and header of a parsed posting request (ledger_post and
// the deposits postings read the same request shape). The header gets a new
// id; its idempotency key is left to the caller, which decides whether the
// request is claimed under it.
std::vector<Line> lines_from_request(const std::vector<core::ledger::Line>& request_lines);
Header header_from_request(const core::ledger::Request& request);

// The posting lines of the last SPI result (`rows` rows), whose columns are,
// in order: line_no, gl_account_id, ledger account id, currency, side ('D'
// or 'C'), amount_minor, narrative (a stored journal's lines).
std::vector<Line> lines_from_result(std::uint64_t rows);


// The ledger accounts the lines name, with their balance (balance_minor plus
// the committed credit stripes). for_update locks them for the posting, one
// at a time in id order (the order of every locker of these rows): a debited
// account FOR NO KEY UPDATE; a credited one FOR NO KEY UPDATE when no other
// posting holds it, else FOR KEY SHARE with credit_stripe set (its credit
// goes into a stripe, so a hot account's credits do not queue). Lifecycle
// moves and the batch take FOR UPDATE and wait for both.
Accounts load_accounts(const std::vector<Line>& lines, bool for_update);

// The locking of load_accounts(lines, true) for accounts whose direction the
// caller knows: a group of postings locks an account as debited when any of
// them debits it (pg/posting_group.hpp).
Accounts lock_accounts(const std::map<std::string, core::posting_rules::Direction>& directions);

// The committed credits in stripes per account (accounts without any are
// absent). Read after the account rows are locked (see load_accounts).
std::map<std::string, std::int64_t> credit_stripe_totals(const std::vector<std::string>& account_ids);

// Completes account lines (control GL account, currency) and checks every
// named account: it exists (CB404), is ACTIVE, and the line's currency and GL
// account are its own (CB422).
void bind_accounts(std::vector<Line>& lines, const Accounts& accounts);

// Checks the GL accounts of the lines (CB404 unknown; CB422 inactive, other
// currency, no manual posting under GlRule::manual) and fills a line's
// missing currency from its GL account. True when one of them has never
// been posted to.
bool check_gl_accounts(std::vector<Line>& lines, GlRule rule);

// CB422 "transaction is not balanced in <CUR>".
void check_balanced(const std::vector<Line>& lines);

// Checks that `value_date` (default: the business date) is not after the
// business date and not in a CLOSED period; lock_period takes the period row
// FOR SHARE (postings). Returns the value date and now() in microseconds
// since the Unix epoch (the transaction's timestamps, for the hash chain).
struct ValueDate {
    std::string value_date;  // YYYY-MM-DD
    std::int64_t now_us = 0;
    bool period_locked = false;  // its period's open row is held FOR SHARE (lock_period)
};
ValueDate check_value_date(const std::optional<std::string>& value_date, bool lock_period);

// Checks that the branch exists (CB404) and is active (CB422).
void check_branch(const std::string& branch_id);

// Posts: every step listed above. The accounts must come from
// load_accounts(lines, true) and the lines from bind_accounts.
void post(const Header& header, const std::vector<Line>& lines, const Accounts& accounts, GlRule rule);

// The writes of postings already decided, N at once, in chain order, with one
// statement per table whatever N is (the N = 1 of post() and the batch of
// transfers, pg/transfer_batch.hpp, go through this one writer): the GL
// balance stripes, the chain (one head lock, the hashes in order), the
// transaction rows, the entries (the journal's triggers keep the day
// totals), the balances and credit stripes. Every posting is on
// dated.value_date; a header with created_at_us posts an existing PENDING
// transaction (N = 1 only). The lines must be bound and checked; the GL
// accounts' first postings marked by the caller. The caller has read in this
// transaction each line's GL account in the line's currency and each
// header's branch (check_gl_accounts and check_branch, or the decider's
// reads): with `accounts` locked and bound to the lines, the journal's
// reference check is then not run again for the entries
// (ledger::EngineCheckedReferences).
struct Posting {
    Header header;
    std::vector<Line> lines;
};
// Where a written posting sits in the hash chain (links, when given, gets
// one per posting, in order): what its response shows as hash and chain.
struct ChainLink {
    int stripe = 0;
    std::int64_t seq = 0;
    std::string hash;  // binary SHA-256
};
void write(const std::vector<Posting>& postings, const ValueDate& dated, const Accounts& accounts,
           std::vector<ChainLink>* links = nullptr);

// Sets first_posted_at (freezing code and type) of the lines' GL accounts
// that have none, in id order: the batch of transfers and post() call it
// before write() for the GL accounts posted to for the first time.
void mark_first_postings(const std::vector<Line>& lines);

// The TransactionResponse of a transaction, for returning (CB404 if absent).
Datum render_transaction(const std::string& transaction_id);

// Idempotency (table idempotency_keys). claim() inserts the key or, when it
// exists (waiting for a concurrent holder to commit), compares the request
// hash: the same request answers *replay with the stored response (a Datum
// for returning; for a key stored without one, the transaction rendered as
// posted), another request is CB409. complete() stores the rendered
// transaction as the key's response and returns it.
struct Claim {
    bool replay = false;
    Datum response = static_cast<Datum>(0);
};
Claim idempotency_claim(const char* scope, const std::string& key, const std::string& request_hash);
Datum idempotency_complete(const char* scope, const std::string& key, const std::string& transaction_id);
// complete() for a caller that already holds the rendered response: stores
// `response` (the transaction's TransactionResponse, a jsonb Datum) without
// rendering it again, and returns the stored copy.
Datum idempotency_store(const char* scope, const std::string& key, const std::string& transaction_id,
                        Datum response);
// For a posting answered POSTED at once (`response`, its rendered answer):
// records the key's transaction and no copy of the answer, which is 1.5 KB
// of row and WAL per posting; a replay renders the transaction as posted
// (render::transaction_response_as_posted), the same answer. Returns `response`.
Datum idempotency_record_posted(const char* scope, const std::string& key, const std::string& transaction_id,
                                Datum response);

}  // namespace corebank::pg::posting
