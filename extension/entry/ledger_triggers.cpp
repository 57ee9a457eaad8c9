// ledger_triggers.cpp: the triggers that keep the ledger's invariants
// whoever writes (docs/design/ledger.md; sql/releases/corebank--1.0--1.1.sql.in attaches
// them).
//
//   gl_account_mirror     AFTER INSERT/UPDATE on gl_accounts: a USD account
//                         gets its ZWG mirror; code, name, type and active
//                         follow it
//   gl_account_freeze     BEFORE UPDATE on gl_accounts: code and type frozen
//                         once posted to; id, currency and mirror never change
//   journal_period_lock   BEFORE INSERT on journal_entries: no value date in
//                         a CLOSED period
//   journal_balanced      deferred constraint trigger on journal_entries: at
//                         commit, each transaction is balanced per currency
//   transaction_guard     BEFORE UPDATE/DELETE/TRUNCATE on transactions: only
//                         the status moves of the contract; posted fields
//                         frozen
//   ledger_writer_guard   gl_balance_stripes, chain_heads, the credit stripes
//                         and the day totals: written only by the posting
//                         engine (1.8: BEFORE each statement, not each row;
//                         the answer is the same for every row)
//   ledger_account_guard  ledger_accounts: balances change only by posting
//   parked_change_guard   parked_changes: decided once, proposal frozen
// Errors are CB422 (a refused business rule) unless stated otherwise.
// The journal and the proposed lines are append-only: refuse_change
// (entry/append_only_trigger.cpp) refuses their UPDATE, DELETE and TRUNCATE.
#include <array>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "entry/trigger.hpp"
#include "pg/check.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_guard.hpp"
#include "pg/spi.hpp"
#include "pg/transaction_place.hpp"

extern "C" {
#include "access/xact.h"
#include "storage/proc.h"
}

namespace {

using namespace corebank;
namespace trigger = corebank::pg::trigger;
namespace spi = corebank::pg::spi;
using corebank::pg::ledger::fail;
using core::sqlstate_conflict;
using core::sqlstate_unprocessable;

/*---- gl_accounts ----*/

constexpr const char mirror_insert_sql[] =
    "INSERT INTO corebank.gl_accounts (code, name, type, currency, mirror_of, allow_manual, active, created_by, "
    "    updated_by) "
    "SELECT u.code, u.name, u.type, 'ZWG', u.id, u.allow_manual, u.active, u.created_by, u.updated_by "
    "FROM corebank.gl_accounts u WHERE u.id = $1::uuid "
    "ON CONFLICT (code, currency) DO NOTHING";

constexpr const char mirror_update_sql[] =
    "UPDATE corebank.gl_accounts m "
    "SET code = u.code, name = u.name, type = u.type, active = u.active, updated_at = now(), updated_by = u.updated_by "
    "FROM corebank.gl_accounts u "
    "WHERE u.id = $1::uuid AND m.mirror_of = u.id "
    "  AND (m.code, m.name, m.type, m.active) IS DISTINCT FROM (u.code, u.name, u.type, u.active)";

// Columns of a GL account that never change (code and type freeze once
// posted to, checked apart).
constexpr std::array<std::string_view, 4> gl_account_frozen = {"id", "currency", "mirror_of", "created_at"};

/*---- journal ----*/

// The same for many transactions at once ($1: their ids).
constexpr const char balances_sql[] =
    "SELECT e.transaction_id::text, e.currency::text, "
    "       sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE 0 END)::bigint, "
    "       sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE 0 END)::bigint, "
    "       max(e.id) "
    "FROM corebank.journal_entries e "
    "WHERE e.transaction_id = ANY ($1::uuid[]) "
    "GROUP BY e.transaction_id, e.currency ORDER BY e.transaction_id, e.currency";

constexpr const char balance_sql[] =
    "SELECT e.currency::text, "
    "       sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE 0 END)::bigint, "
    "       sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE 0 END)::bigint, "
    "       max(e.id) "
    "FROM corebank.journal_entries e WHERE e.transaction_id = $1::uuid "
    "GROUP BY e.currency ORDER BY e.currency";

// Transactions found balanced, so that the check runs once per transaction
// rather than once per entry, and, for a statement that wrote many
// transactions (a batch of transfers), once for all of them. A check covers
// the entries with id up to its max_entry_id that were visible in the same
// (sub)transaction: entries are never updated or deleted, so a later event
// of one of them needs no new check, while an entry inserted after the check
// (larger id) or a rolled-back subtransaction (other subxid) triggers a new
// one. Everything here is per backend and forgotten when the local
// transaction id changes.
struct BalancedChecks {
    pg::TransactionPlace place;
    std::unordered_map<std::string, std::int64_t> max_entry_id;  // transaction id -> covered up to
};
BalancedChecks balanced_checks;

// Transaction ids of the entries inserted in this local transaction
// (journal_period_lock records them), not yet checked: the first deferred
// check takes them all in one query. Bounded: past the bound, transactions
// are checked one by one.
constexpr std::size_t pending_checks_max = 20000;
struct PendingChecks {
    LocalTransactionId local_xid = InvalidLocalTransactionId;
    std::vector<std::string> transaction_ids;
    bool overflowed = false;
};
PendingChecks pending_checks;

void note_pending_check(const std::string& transaction_id) {
    if (pending_checks.local_xid != MyProc->lxid) {
        pending_checks.local_xid = MyProc->lxid;
        pending_checks.transaction_ids.clear();
        pending_checks.overflowed = false;
    }
    if (pending_checks.overflowed) return;
    if (!pending_checks.transaction_ids.empty() && pending_checks.transaction_ids.back() == transaction_id) return;
    if (pending_checks.transaction_ids.size() >= pending_checks_max) {
        pending_checks.overflowed = true;
        pending_checks.transaction_ids.clear();
        return;
    }
    pending_checks.transaction_ids.push_back(transaction_id);
}

BalancedChecks& current_checks() {
    if (!balanced_checks.place.is_current()) {
        balanced_checks.place = pg::TransactionPlace::current();
        balanced_checks.max_entry_id.clear();
    }
    return balanced_checks;
}

bool covered_by_check(const std::string& transaction_id, std::int64_t entry_id) {
    const BalancedChecks& checks = current_checks();
    const auto found = checks.max_entry_id.find(transaction_id);
    return found != checks.max_entry_id.end() && entry_id <= found->second;
}

/*---- transactions ----*/

constexpr const char reversal_exists_sql[] =
    "SELECT 1 FROM corebank.transactions r "
    "WHERE r.id = $1::uuid AND r.reverses_id = $2::uuid AND r.status = 'POSTED'";

// Columns each status move may change (everything else is frozen).
constexpr std::array<std::string_view, 2> pending_changes = {"released", "parked_change_id"};
constexpr std::array<std::string_view, 7> posting_changes = {"status",   "operator_id", "chain_stripe", "chain_seq",
                                                             "prev_hash", "hash",        "posted_at"};
constexpr std::array<std::string_view, 1> cancel_changes = {"status"};
constexpr std::array<std::string_view, 2> reversal_changes = {"status", "reversed_by_id"};

void check_frozen(const TriggerData* data, bool posted, const std::string& from, const std::string& to) {
    auto allowed = [&](std::string_view column) {
        if (from == "PENDING" && to == "PENDING") return trigger::listed(pending_changes, column);
        if (from == "PENDING" && to == "POSTED") return trigger::listed(posting_changes, column);
        if (from == "PENDING" && to == "CANCELLED") return trigger::listed(cancel_changes, column);
        if (from == "POSTED" && to == "REVERSED") return trigger::listed(reversal_changes, column);
        return false;
    };
    trigger::for_each_changed(data, [&](const char* column) {
        if (allowed(column)) return;
        if (posted) {
            fail(sqlstate_unprocessable, "posted transactions are immutable; correct them with a reversal",
                 std::string("column ") + column);
        }
        fail(sqlstate_unprocessable, std::string("a transaction's ") + column + " cannot change");
    });
}

void check_pending_update(const TriggerData* data) {
    const HeapTuple old_row = trigger::old_row(data);
    if (trigger::changed(data, "released") && trigger::boolean(data, old_row, "released").value()) {
        fail(sqlstate_unprocessable, "a released transaction cannot be unreleased");
    }
    if (trigger::changed(data, "parked_change_id") && trigger::text(data, old_row, "parked_change_id")) {
        fail(sqlstate_unprocessable, "a transaction's approval cannot be replaced");
    }
}

void check_reversal(const TriggerData* data) {
    const HeapTuple new_row = trigger::new_row(data);
    const std::optional<std::string> reversed_by = trigger::text(data, new_row, "reversed_by_id");
    const std::string id = trigger::text(data, new_row, "id").value();
    if (!reversed_by) fail(sqlstate_unprocessable, "a reversed transaction needs its reversal");
    spi::connect();
    const std::uint64_t rows = spi::execute(reversal_exists_sql, {spi::Arg::text(reversed_by), spi::Arg::text(id)});
    spi::finish();
    if (rows != 1) fail(sqlstate_unprocessable, "a transaction is reversed only by a posted reversal of it");
}

/*---- ledger_accounts ----*/

constexpr std::array<std::string_view, 3> ledger_account_frozen = {"id", "currency", "created_at"};

// The journal's entries name their account's GL account (1.8: checked by
// journal_references_check instead of a foreign key), so the GL account of
// an account with entries is frozen. The check runs after PostgreSQL has
// locked the row: a posting that holds it (FOR KEY SHARE at least) has
// committed, and its entries are seen.
constexpr const char account_has_entries_sql[] =
    "SELECT FROM corebank.journal_entries e WHERE e.ledger_account_id = $1::uuid AND e.gl_account_id = $2::uuid "
    "LIMIT 1";

void check_gl_account_change(const TriggerData* data) {
    if (!trigger::changed(data, "gl_account_id")) return;
    const HeapTuple old_row = trigger::old_row(data);
    const std::optional<std::string> id = trigger::text(data, old_row, "id");
    const std::optional<std::string> gl_account_id = trigger::text(data, old_row, "gl_account_id");
    spi::connect();
    const std::uint64_t rows = spi::execute(account_has_entries_sql, {spi::Arg::text(id), spi::Arg::text(gl_account_id)});
    spi::finish();
    if (rows != 0) fail(sqlstate_unprocessable, "an account's GL account cannot change once it has entries");
}

/*---- parked_changes ----*/

constexpr std::array<std::string_view, 11> proposal_columns = {
    "id", "operation", "entity_type", "entity_id", "payload", "summary", "maker_id", "created_at", "expires_at",
    "target_before", "branch_id"};

}  // namespace

/* trigger function: corebank_internal.gl_account_mirror() (AFTER INSERT OR UPDATE ON gl_accounts) */
COREBANK_TRIGGER(gl_account_mirror) {
    const HeapTuple row = trigger::new_row(trigger);
    // Mirrors are made of USD accounts only (a mirror has mirror_of set and
    // is in ZWG, so this never recurses).
    if (trigger::text(trigger, row, "currency") != std::optional<std::string>("USD")) return trigger::row_result(trigger);
    const std::string id = trigger::text(trigger, row, "id").value();
    if (trigger::is_insert(trigger)) {
        spi::connect();
        const std::uint64_t rows = spi::execute(mirror_insert_sql, {spi::Arg::text(id)});
        spi::finish();
        if (rows != 1) {
            fail(sqlstate_conflict,
                 "a ZWG GL account with code " + trigger::text(trigger, row, "code").value() + " already exists");
        }
        return trigger::row_result(trigger);
    }
    if (trigger::changed(trigger, "code") || trigger::changed(trigger, "name") || trigger::changed(trigger, "type") ||
        trigger::changed(trigger, "active")) {
        spi::connect();
        spi::execute(mirror_update_sql, {spi::Arg::text(id)});
        spi::finish();
    }
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.gl_account_freeze() (BEFORE UPDATE ON gl_accounts) */
COREBANK_TRIGGER(gl_account_freeze) {
    trigger::frozen(trigger, gl_account_frozen, "a GL account's ");
    const bool posted = trigger::text(trigger, trigger::old_row(trigger), "first_posted_at").has_value();
    if (posted && (trigger::changed(trigger, "code") || trigger::changed(trigger, "type"))) {
        fail(sqlstate_unprocessable, "GL account code and type are frozen once posted to");
    }
    if (posted && trigger::changed(trigger, "first_posted_at")) {
        fail(sqlstate_unprocessable, "a GL account's first posting cannot change");
    }
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.journal_period_lock() (BEFORE INSERT ON journal_entries) */
COREBANK_TRIGGER(journal_period_lock) {
    const HeapTuple row = trigger::new_row(trigger);
    const std::optional<std::string> period = trigger::date_period(trigger, row, "value_date");
    CB_CHECK(period.has_value());  // value_date is NOT NULL
    note_pending_check(trigger::text(trigger, row, "transaction_id").value());
    pg::ledger::hold_open_period_for_statement(*period);
    return trigger::row_result(trigger);
}

namespace {

// Checks every pending transaction in one query; the first unbalanced one
// (in id order) fails the commit.
void check_pending_balances() {
    std::vector<std::string> ids;
    ids.swap(pending_checks.transaction_ids);
    BalancedChecks& checks = current_checks();
    spi::connect();
    // Generic: with an array of ids a custom plan always looked cheaper, and
    // was planned anew at every commit (75 µs).
    const std::uint64_t rows = spi::execute_generic(balances_sql, {spi::Arg::uuid_column(std::move(ids))});
    std::optional<std::pair<std::string, std::string>> unbalanced;  // transaction, currency
    for (std::uint64_t index = 0; index < rows; ++index) {
        const std::string transaction_id = spi::get_text(index, 1).value();
        if (!unbalanced && spi::get_int(index, 3).value() != spi::get_int(index, 4).value()) {
            unbalanced = std::pair{transaction_id, spi::get_text(index, 2).value()};
        }
        std::int64_t& covered = checks.max_entry_id[transaction_id];
        covered = std::max(covered, spi::get_int(index, 5).value());
    }
    spi::finish();
    if (unbalanced) {
        fail(sqlstate_unprocessable, "transaction is not balanced in " + unbalanced->second,
             "transaction " + unbalanced->first);
    }
}

}  // namespace

/* trigger function: corebank_internal.journal_balanced() (AFTER INSERT ON journal_entries, DEFERRABLE INITIALLY DEFERRED) */
COREBANK_TRIGGER(journal_balanced) {
    const HeapTuple row = trigger::new_row(trigger);
    const std::string transaction_id = trigger::text(trigger, row, "transaction_id").value();
    const std::int64_t entry_id = trigger::integer(trigger, row, "id").value();
    if (covered_by_check(transaction_id, entry_id)) return trigger::row_result(trigger);
    if (pending_checks.local_xid == MyProc->lxid && pending_checks.transaction_ids.size() > 1) {
        check_pending_balances();
        if (covered_by_check(transaction_id, entry_id)) return trigger::row_result(trigger);
    }

    spi::connect();
    const std::uint64_t rows = spi::execute(balance_sql, {spi::Arg::text(transaction_id)});
    std::optional<std::string> unbalanced;
    std::int64_t max_entry_id = entry_id;
    for (std::uint64_t index = 0; index < rows; ++index) {
        if (!unbalanced && spi::get_int(index, 2).value() != spi::get_int(index, 3).value()) {
            unbalanced = spi::get_text(index, 1).value();
        }
        max_entry_id = std::max(max_entry_id, spi::get_int(index, 4).value());
    }
    spi::finish();
    if (unbalanced) {
        fail(sqlstate_unprocessable, "transaction is not balanced in " + *unbalanced, "transaction " + transaction_id);
    }
    std::int64_t& covered = current_checks().max_entry_id[transaction_id];
    covered = std::max(covered, max_entry_id);
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.transaction_guard() (BEFORE UPDATE OR DELETE, BEFORE TRUNCATE ON transactions) */
COREBANK_TRIGGER(transaction_guard) {
    if (trigger::is_truncate(trigger) || trigger::is_delete(trigger)) {
        fail(sqlstate_unprocessable, "transactions cannot be deleted; reverse a posted transaction instead",
             std::string(trigger::operation_name(trigger)) + " on transactions refused");
    }
    const std::string from = trigger::text(trigger, trigger::old_row(trigger), "status").value();
    const std::string to = trigger::text(trigger, trigger::new_row(trigger), "status").value();
    const bool moves = (from == "PENDING" && (to == "PENDING" || to == "POSTED" || to == "CANCELLED")) ||
                       (from == "POSTED" && to == "REVERSED");
    const bool posted = from == "POSTED" || from == "REVERSED";
    if (!moves && from != to) {
        fail(sqlstate_unprocessable, "transaction status cannot move from " + from + " to " + to);
    }
    check_frozen(trigger, posted, from, to);
    if (from == "PENDING" && to == "PENDING") check_pending_update(trigger);
    if (from == "POSTED" && to == "REVERSED") check_reversal(trigger);
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.ledger_writer_guard() (BEFORE INSERT/UPDATE/DELETE/TRUNCATE, FOR EACH STATEMENT, on gl_balance_stripes, chain_heads, account_credit_stripes, account_day_totals, gl_day_totals) */
COREBANK_TRIGGER(ledger_writer_guard) {
    if (trigger::is_truncate(trigger) || !pg::ledger_guard::writer_active()) {
        fail(sqlstate_unprocessable, trigger::table_name(trigger) + " is maintained by the posting engine only",
             std::string(trigger::operation_name(trigger)) + " refused");
    }
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.ledger_account_guard() (BEFORE INSERT OR UPDATE ON ledger_accounts) */
COREBANK_TRIGGER(ledger_account_guard) {
    if (trigger::is_update(trigger)) check_gl_account_change(trigger);
    if (pg::ledger_guard::writer_active()) return trigger::row_result(trigger);
    if (trigger::is_insert(trigger)) {
        const HeapTuple row = trigger::new_row(trigger);
        if (trigger::integer(trigger, row, "balance_minor") != std::optional<std::int64_t>(0) ||
            trigger::integer(trigger, row, "version") != std::optional<std::int64_t>(0)) {
            fail(sqlstate_unprocessable, "a new account starts with a zero balance; post to it instead");
        }
        return trigger::row_result(trigger);
    }
    trigger::frozen(trigger, ledger_account_frozen, "an account's ");
    if (trigger::changed(trigger, "balance_minor") || trigger::changed(trigger, "version")) {
        fail(sqlstate_unprocessable, "account balances change only by posting");
    }
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.parked_change_guard() (BEFORE UPDATE OR DELETE, BEFORE TRUNCATE ON parked_changes) */
COREBANK_TRIGGER(parked_change_guard) {
    if (trigger::is_truncate(trigger) || trigger::is_delete(trigger)) {
        fail(sqlstate_unprocessable, "parked changes cannot be deleted",
             std::string(trigger::operation_name(trigger)) + " on parked_changes refused");
    }
    if (trigger::text(trigger, trigger::old_row(trigger), "status") != std::optional<std::string>("PENDING")) {
        // One exception: the approval records its result once, in the same
        // transaction, after the change is marked APPROVED (so the result
        // renders the entity as approved). Nothing else of a decided change moves.
        bool only_result = trigger::is_update(trigger) &&
                           !trigger::text(trigger, trigger::old_row(trigger), "result").has_value();
        trigger::for_each_changed(trigger, [&](const char* column) {
            only_result = only_result && std::string_view(column) == "result";
        });
        if (!only_result) fail(sqlstate_conflict, "a decided change cannot be modified");
        return trigger::row_result(trigger);
    }
    trigger::frozen(trigger, proposal_columns, "a parked change's ");
    return trigger::row_result(trigger);
}
