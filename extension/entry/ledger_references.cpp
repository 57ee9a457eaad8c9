// ledger_references.cpp: the references of the posting path's rows, checked
// without row-level foreign keys (1.8, issue 12 part 5).
//
//   journal_references_check  AFTER INSERT ON journal_entries REFERENCING NEW
//                             TABLE AS new_entries FOR EACH STATEMENT: every
//                             entry's transaction, GL account in the entry's
//                             currency, branch, and customer account on that
//                             GL account in that currency exist (23503);
//                             not queried again for the posting engine's own
//                             INSERT, whose references it read and locked in
//                             the same transaction (EngineCheckedReferences)
//   transaction_references_check
//                             BEFORE INSERT OR UPDATE OF branch_id,
//                             reverses_id, reversed_by_id, parked_change_id ON
//                             transactions: each named row exists (23503)
//   idempotency_key_references_check
//                             AFTER INSERT OR UPDATE OF transaction_id ON
//                             idempotency_keys, deferred to the commit: the
//                             key's transaction exists (23503)
//   referenced_row_guard      branches and gl_accounts: never deleted or
//                             truncated, a branch's id never changes (CB422)
//
// Why not foreign keys: PostgreSQL checks a foreign key with one SPI query
// per row and key, each with its own executor start and a FOR KEY SHARE lock
// that writes WAL (and, on the head-office branch that every transaction
// names, a MultiXact once two postings hold it). On a group of six transfers
// the journal's four keys were a third of its INSERT, and the transaction's
// branch and the idempotency key's transaction cost about 7 % of the group
// call (docs/performance.md). The journal's references are one query over the
// statement's transition table; a transaction's and an idempotency key's are
// probes of the referenced primary key (pg/key_probe.hpp), without SPI.
//
// What the foreign keys also guaranteed, and what guarantees it now:
// - a referenced row is never deleted: transactions (transaction_guard),
//   ledger accounts (ledger_accounts_no_delete), GL accounts and branches
//   (referenced_row_guard here), parked changes (parked_change_guard); none
//   can be truncated;
// - a referenced key never changes: a transaction's and GL account's id and
//   currency, a parked change's id and a ledger account's id and currency are
//   frozen by their guards, a branch's id here, and a ledger account's GL
//   account cannot change once it has entries (ledger_account_guard);
// - a transaction's branch and the transaction it reverses are frozen once
//   written (transaction_guard lets an UPDATE change only the status fields,
//   reversed_by_id and parked_change_id, which are checked again when they change);
// - no race with the GL-account check: the journal's query takes the
//   customer accounts FOR KEY SHARE, as the foreign key did, so a concurrent
//   change of an account's GL account waits for this transaction and then
//   sees its entries. (The posting engine already holds these rows, and for
//   its own INSERT the query is not run: pg/ledger_common.hpp,
//   EngineCheckedReferences.)
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "entry/trigger.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"
#include "pg/key_probe.hpp"
#include "pg/ledger_common.hpp"
#include "pg/spi.hpp"

namespace {

namespace trigger = corebank::pg::trigger;
namespace spi = corebank::pg::spi;
namespace key_probe = corebank::pg::key_probe;
using corebank::pg::ledger::fail;

// The first entry with a missing reference, and which references are
// missing. Each reference is a LATERAL subquery with LIMIT 1, which the
// planner neither flattens nor turns into a hashed subplan: every entry
// costs one index probe per table, whatever the tables' size (an EXISTS
// sublink was planned as a hash of the whole table). The customer account's
// probe takes the row FOR KEY SHARE. Planned as a key statement
// (spi::execute_generic): it has no parameters, so PostgreSQL keeps the one
// plan it makes first, and a plan made while the accounts or transactions
// were one analyzed page read them whole for every entry.
constexpr const char missing_reference_sql[] =
    "SELECT e.transaction_id::text, e.line_no, e.ledger_account_id IS NOT NULL AND a.found IS NULL, "
    "       g.found IS NULL, b.found IS NULL, t.found IS NULL "
    "FROM new_entries e "
    "LEFT JOIN LATERAL (SELECT true AS found FROM corebank.ledger_accounts x "
    "                   WHERE x.id = e.ledger_account_id AND x.gl_account_id = e.gl_account_id "
    "                     AND x.currency = e.currency LIMIT 1 FOR KEY SHARE) a ON true "
    "LEFT JOIN LATERAL (SELECT true AS found FROM corebank.gl_accounts x "
    "                   WHERE x.id = e.gl_account_id AND x.currency = e.currency LIMIT 1) g ON true "
    "LEFT JOIN LATERAL (SELECT true AS found FROM corebank.branches x WHERE x.id = e.branch_id LIMIT 1) b ON true "
    "LEFT JOIN LATERAL (SELECT true AS found FROM corebank.transactions x WHERE x.id = e.transaction_id LIMIT 1) t "
    "    ON true "
    "WHERE (e.ledger_account_id IS NOT NULL AND a.found IS NULL) OR g.found IS NULL OR b.found IS NULL "
    "   OR t.found IS NULL "
    "LIMIT 1";

constexpr const char sqlstate_foreign_key_violation[] = "23503";

// A transaction's references: the column, the table it names, and what the
// message calls that row.
struct TransactionReference {
    const char* column;
    key_probe::Table table;
    const char* what;
};
constexpr std::array<TransactionReference, 4> transaction_references = {{
    {"branch_id", key_probe::Table::branches, "a branch"},
    {"reverses_id", key_probe::Table::transactions, "a reversed transaction"},
    {"reversed_by_id", key_probe::Table::transactions, "a reversing transaction"},
    {"parked_change_id", key_probe::Table::parked_changes, "a parked change"},
}};

// Columns of a branch that rows elsewhere refer to.
constexpr std::array<std::string_view, 1> branch_key = {"id"};

}  // namespace

/* trigger function: corebank_internal.journal_references_check() (AFTER INSERT ON journal_entries, FOR EACH STATEMENT) */
COREBANK_TRIGGER(journal_references_check) {
    CB_CHECK(trigger::is_insert(trigger) && !TRIGGER_FIRED_FOR_ROW(trigger->tg_event) &&
             trigger->tg_newtable != nullptr);
    // The posting engine's write statement inserts entries whose references
    // it read and locked in this transaction (pg/ledger_common.hpp,
    // EngineCheckedReferences): any other INSERT is checked here.
    const std::int64_t entries = corebank::pg::pg_guard(
        [&]() noexcept { return static_cast<std::int64_t>(tuplestore_tuple_count(trigger->tg_newtable)); });
    if (corebank::pg::ledger::engine_checked_references(entries)) return PointerGetDatum(nullptr);
    spi::connect_with_transition_tables(trigger);  // new_entries
    const std::uint64_t rows = spi::execute_generic(missing_reference_sql, {});
    CB_CHECK(rows <= 1);
    if (rows == 1) {
        const std::string transaction_id = spi::get_text(0, 1).value();
        const std::int64_t line_no = spi::get_int(0, 2).value();
        const bool account = spi::get_bool(0, 3).value();
        const bool gl_account = spi::get_bool(0, 4).value();
        const bool branch = spi::get_bool(0, 5).value();
        CB_CHECK(account || gl_account || branch || spi::get_bool(0, 6).value());  // the row's WHERE
        const char* missing = account      ? "a customer account on its GL account in its currency"
                              : gl_account ? "a GL account in its currency"
                              : branch     ? "a branch"
                                           : "a transaction";
        spi::finish();
        fail(sqlstate_foreign_key_violation, std::string("a journal entry refers to ") + missing + " that does not exist",
             "transaction " + transaction_id + ", line " + std::to_string(line_no));
    }
    spi::finish();
    return PointerGetDatum(nullptr);
}

/* trigger function: corebank_internal.transaction_references_check() (BEFORE INSERT OR UPDATE OF branch_id, reverses_id, reversed_by_id, parked_change_id ON transactions) */
COREBANK_TRIGGER(transaction_references_check) {
    const bool insert = trigger::is_insert(trigger);
    CB_CHECK(TRIGGER_FIRED_BEFORE(trigger->tg_event) && TRIGGER_FIRED_FOR_ROW(trigger->tg_event) &&
             (insert || trigger::is_update(trigger)));
    const HeapTuple row = trigger::new_row(trigger);
    for (const TransactionReference& reference : transaction_references) {
        // An UPDATE that keeps a reference needs no new probe: it was checked
        // when written, and the row it names cannot go away.
        if (!insert && !trigger::changed(trigger, reference.column)) continue;
        const std::optional<pg_uuid_t> id = trigger::uuid(trigger, row, reference.column);
        if (!id || key_probe::exists(reference.table, *id)) continue;
        fail(sqlstate_foreign_key_violation, std::string("a transaction refers to ") + reference.what +
                                                 " that does not exist",
             "transaction " + trigger::text(trigger, row, "id").value_or("") + ", " + reference.column);
    }
    return trigger::row_result(trigger);
}

/* trigger function: corebank_internal.idempotency_key_references_check() (AFTER INSERT OR UPDATE OF transaction_id ON idempotency_keys, DEFERRABLE INITIALLY DEFERRED, WHEN transaction_id IS NOT NULL) */
COREBANK_TRIGGER(idempotency_key_references_check) {
    CB_CHECK(TRIGGER_FIRED_AFTER(trigger->tg_event) && TRIGGER_FIRED_FOR_ROW(trigger->tg_event) &&
             (trigger::is_insert(trigger) || trigger::is_update(trigger)));
    // A claim taken back (deleted) or rewritten since is not this row any
    // more: the row's later version, if any, has an event of its own.
    if (!trigger::row_still_current(trigger)) return trigger::row_result(trigger);
    const HeapTuple row = trigger::new_row(trigger);
    const std::optional<pg_uuid_t> id = trigger::uuid(trigger, row, "transaction_id");
    if (!id || key_probe::exists(key_probe::Table::transactions, *id)) return trigger::row_result(trigger);
    fail(sqlstate_foreign_key_violation, "an idempotency key refers to a transaction that does not exist",
         "scope " + trigger::text(trigger, row, "scope").value_or("") + ", transaction " +
             trigger::text(trigger, row, "transaction_id").value_or(""));
}

/* trigger function: corebank_internal.referenced_row_guard() (BEFORE UPDATE OF id OR DELETE, BEFORE TRUNCATE ON branches and gl_accounts) */
COREBANK_TRIGGER(referenced_row_guard) {
    const std::string table = trigger::table_name(trigger);
    const bool branches = table == "branches";
    CB_CHECK(branches || table == "gl_accounts");
    if (trigger::is_truncate(trigger) || trigger::is_delete(trigger)) {
        fail(corebank::core::sqlstate_unprocessable,
             branches ? "branches are never deleted; deactivate the branch instead"
                      : "GL accounts are never deleted; deactivate the GL account instead",
             std::string(trigger::operation_name(trigger)) + " on " + table + " refused");
    }
    CB_CHECK(branches && trigger::is_update(trigger));
    trigger::frozen(trigger, branch_key, "a branch's ");
    return trigger::row_result(trigger);
}
