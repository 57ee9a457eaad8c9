// ledger_common.cpp: see ledger_common.hpp.
#include "pg/ledger_common.hpp"

#include <cstring>

#include "core/ledger_chain.hpp"
#include "core/transfer_batch.hpp"
#include "pg/check.hpp"
#include "pg/ledger_guard.hpp"
#include "pg/postgres.hpp"
#include "pg/spi.hpp"
#include "pg/transaction_place.hpp"
#include "pg/values.hpp"

extern "C" {
#include "miscadmin.h"
}

namespace corebank::pg::ledger {

std::string random_uuid() { return uuid_to_string(random_uuid_v4()); }

namespace {

constexpr const char period_lock_sql[] =
    "SELECT p.status FROM corebank.accounting_periods p WHERE p.period = $1::bpchar FOR SHARE";

// The numbers are drawn in a MATERIALIZED CTE so that format_number's
// argument is a column: PostgreSQL inlines a SQL function only when an
// argument used more than once is not volatile (nextval is), and the call
// not inlined cost a nested query per number.
constexpr const char transaction_numbers_sql[] =
    "WITH s AS MATERIALIZED (SELECT g.i, nextval('corebank.transaction_numbers') AS value "
    "                        FROM generate_series(1, $1) AS g(i)) "
    "SELECT corebank_internal.format_number(n.prefix, n.padding, s.value) "
    "FROM corebank.numbering_config n CROSS JOIN s WHERE n.entity_type = 'TRANSACTION' ORDER BY s.i";

constexpr const char actor_branch_sql[] =
    "SELECT b.id::text FROM corebank.branches b JOIN corebank.auth_users u ON u.branch_code = b.code "
    "WHERE u.id = $1::uuid AND b.active";

constexpr const char period_create_sql[] =
    "INSERT INTO corebank.accounting_periods (period) VALUES ($1::bpchar) ON CONFLICT (period) DO NOTHING";

// A period row locked open FOR SHARE, and where: a row lock taken in a
// subtransaction that rolled back is gone, so the lock counts only in the
// (sub)transaction that took it; `command_id` is the statement's, for the
// journal trigger's lock that serves the rows of one statement.
struct PeriodLock {
    bool set = false;
    TransactionPlace place;
    CommandId command_id = InvalidCommandId;
    char period[8] = {0};  // YYYY-MM

    bool here(const std::string& name) const { return set && place.is_current() && name == period; }
};
PeriodLock last_locked;     // by lock_open_period
PeriodLock held_period;     // by an EngineHeldPeriod
PeriodLock statement_held;  // by hold_open_period_for_statement

// An engine promise about the entries of its one write statement: their day
// totals are added (EngineDayTotals), their references were read
// (EngineCheckedReferences).
struct StatementPromise {
    bool set = false;
    bool used = false;
    TransactionPlace place;
    std::int64_t entries = 0;
};
StatementPromise day_totals_promise;
StatementPromise references_promise;

void make_promise(StatementPromise& promise, std::int64_t entries) {
    CB_CHECK(ledger_guard::writer_active());
    CB_CHECK(!promise.set);  // one write at a time
    CB_CHECK(entries >= 1);
    promise = StatementPromise{true, false, TransactionPlace::current(), entries};
}

// True (and the promise used) when it is this (sub)transaction's, unused, for
// exactly `entries` rows: the engine's statement inserts exactly its entries,
// and any other count is another INSERT, which the trigger handles itself.
bool take_promise(StatementPromise& promise, std::int64_t entries) {
    if (!promise.set || promise.used || !ledger_guard::writer_active() || !promise.place.is_current()) return false;
    if (promise.entries != entries) return false;
    promise.used = true;
    return true;
}

PeriodLock period_lock_here(const std::string& period) {
    PeriodLock lock;
    CB_CHECK(period.size() + 1 == sizeof lock.period);
    lock.set = true;
    lock.place = TransactionPlace::current();
    lock.command_id = GetCurrentCommandId(false);
    std::memcpy(lock.period, period.c_str(), period.size() + 1);
    return lock;
}

}  // namespace

void lock_open_period(const std::string& period) {
    std::uint64_t found = spi::execute(period_lock_sql, {spi::Arg::text(period)});
    if (found == 0) {
        spi::execute(period_create_sql, {spi::Arg::text(period)});
        found = spi::execute(period_lock_sql, {spi::Arg::text(period)});
        CB_CHECK(found == 1);
    }
    if (spi::get_text(0, 1).value() == "CLOSED") {
        fail(core::sqlstate_unprocessable, "accounting period " + period + " is closed");
    }
    last_locked = period_lock_here(period);
}

EngineHeldPeriod::EngineHeldPeriod(const std::string& period) {
    CB_CHECK(ledger_guard::writer_active());
    CB_CHECK(!held_period.set);  // one write at a time
    // Held only when this (sub)transaction locked it: otherwise the trigger
    // locks it itself, as for any other writer.
    if (last_locked.here(period)) held_period = period_lock_here(period);
}

EngineHeldPeriod::~EngineHeldPeriod() { held_period = PeriodLock{}; }

EngineDayTotals::EngineDayTotals(std::int64_t entries) { make_promise(day_totals_promise, entries); }

EngineDayTotals::~EngineDayTotals() { day_totals_promise = StatementPromise{}; }

bool EngineDayTotals::used() const { return day_totals_promise.set && day_totals_promise.used; }

EngineCheckedReferences::EngineCheckedReferences(std::int64_t entries) { make_promise(references_promise, entries); }

EngineCheckedReferences::~EngineCheckedReferences() { references_promise = StatementPromise{}; }

bool EngineCheckedReferences::used() const { return references_promise.set && references_promise.used; }

bool engine_checked_references(std::int64_t entries) { return take_promise(references_promise, entries); }

bool engine_adds_day_totals(std::int64_t entries) { return take_promise(day_totals_promise, entries); }

void hold_open_period_for_statement(const std::string& period) {
    if (statement_held.here(period) && statement_held.command_id == GetCurrentCommandId(false)) return;
    if (ledger_guard::writer_active() && held_period.here(period)) return;
    spi::connect();
    lock_open_period(period);
    spi::finish();
    statement_held = period_lock_here(period);
}

std::optional<std::string> actor_branch(const std::optional<std::string>& actor_id) {
    if (!actor_id) return std::nullopt;
    return spi::execute(actor_branch_sql, {spi::Arg::text(*actor_id)}) == 0 ? std::nullopt : spi::get_text(0, 1);
}

std::vector<std::string> next_transaction_numbers(std::size_t count) {
    std::vector<std::string> numbers;
    if (count == 0) return numbers;
    CB_CHECK(count <= core::transfer_batch::transfers_max);  // a batch draws the most
    const std::uint64_t rows =
        spi::execute_generic(transaction_numbers_sql, {spi::Arg::int4(static_cast<std::int32_t>(count))});
    CB_CHECK(rows == count);  // the TRANSACTION numbering row is seeded and cannot be deleted
    numbers.reserve(count);
    for (std::uint64_t row = 0; row < rows; ++row) numbers.push_back(spi::get_text(row, 1).value());
    return numbers;
}

std::string next_transaction_number() { return next_transaction_numbers(1).front(); }

int backend_stripe() {
    static_assert(core::ledger::chain_stripes == 16, "the chain_heads seed and CHECKs assume 16 stripes");
    return MyProcPid % core::ledger::chain_stripes;
}

}  // namespace corebank::pg::ledger
