// ledger_day_totals.cpp: the trigger that keeps the per-day totals of
// customer and GL accounts (corebank.account_day_totals, gl_day_totals;
// docs/design/posting-engine.md section 4) in the transaction that inserts
// the entries, whoever inserts them (single postings, batches, reversals,
// interest, a superuser in psql).
//
//   journal_day_totals_add  AFTER INSERT ON journal_entries REFERENCING NEW
//                           TABLE AS new_entries FOR EACH STATEMENT
//
// One statement per table, grouped by account and value date, rows in key
// order so concurrent postings lock rows in the same order; into this
// backend's stripe (the rule of the GL stripes and the hash chain), so
// credits to one hot account from other backends never wait on one row.
// The trigger is a writer of the two tables: it opens the posting engine's
// WriterScope, whose guard refuses every other write. The posting engine's
// own write statement adds the totals of its entries itself (the same rows,
// in the same statement) and tells the trigger so (EngineDayTotals), so
// that its INSERT costs no statements here.
#include <cstdint>

#include "entry/trigger.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"
#include "pg/ledger_common.hpp"
#include "pg/ledger_guard.hpp"
#include "pg/spi.hpp"

namespace {

namespace spi = corebank::pg::spi;

constexpr const char account_totals_sql[] =
    "INSERT INTO corebank.account_day_totals AS t (account_id, day, stripe, debit_minor, credit_minor) "
    "SELECT e.ledger_account_id, e.value_date, $1::smallint, "
    "       sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE 0 END), "
    "       sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE 0 END) "
    "FROM new_entries e WHERE e.ledger_account_id IS NOT NULL "
    "GROUP BY e.ledger_account_id, e.value_date ORDER BY e.ledger_account_id, e.value_date "
    "ON CONFLICT (account_id, day, stripe) DO UPDATE "
    "SET debit_minor = t.debit_minor + excluded.debit_minor, credit_minor = t.credit_minor + excluded.credit_minor";

constexpr const char gl_totals_sql[] =
    "INSERT INTO corebank.gl_day_totals AS t (gl_account_id, day, stripe, debit_minor, credit_minor) "
    "SELECT e.gl_account_id, e.value_date, $1::smallint, "
    "       sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE 0 END), "
    "       sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE 0 END) "
    "FROM new_entries e "
    "GROUP BY e.gl_account_id, e.value_date ORDER BY e.gl_account_id, e.value_date "
    "ON CONFLICT (gl_account_id, day, stripe) DO UPDATE "
    "SET debit_minor = t.debit_minor + excluded.debit_minor, credit_minor = t.credit_minor + excluded.credit_minor";

}  // namespace

/* trigger function: corebank_internal.journal_day_totals_add() (AFTER INSERT ON journal_entries, FOR EACH STATEMENT) */
COREBANK_TRIGGER(journal_day_totals_add) {
    CB_CHECK(corebank::pg::trigger::is_insert(trigger) && !TRIGGER_FIRED_FOR_ROW(trigger->tg_event) &&
             trigger->tg_newtable != nullptr);
    // The posting engine's write statement adds its own entries' totals in
    // the same statement (pg/ledger_common.hpp, EngineDayTotals).
    const std::int64_t entries = corebank::pg::pg_guard(
        [&]() noexcept { return static_cast<std::int64_t>(tuplestore_tuple_count(trigger->tg_newtable)); });
    if (corebank::pg::ledger::engine_adds_day_totals(entries)) return PointerGetDatum(nullptr);
    const int stripe = corebank::pg::ledger::backend_stripe();
    corebank::pg::ledger_guard::WriterScope writer;
    spi::connect_with_transition_tables(trigger);  // new_entries
    spi::execute(account_totals_sql, {spi::Arg::int4(stripe)});
    spi::execute(gl_totals_sql, {spi::Arg::int4(stripe)});
    spi::finish();
    return PointerGetDatum(nullptr);
}
