// ledger_common.hpp: small shared pieces of the ledger's C++ functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"

namespace corebank::pg::ledger {

// Raises a business error with one of the CB SQLSTATEs; `message` is what a
// client reads (the tier passes it on verbatim).
[[noreturn]] inline void fail(const char* sqlstate, const std::string& message, std::string detail = {}) {
    throw core::CoreError(sqlstate, message, std::move(detail));
}

// A random (version 4) UUID in canonical text form.
std::string random_uuid();

// The backend's stripe (0..15) for GL balances and the hash chain.
int backend_stripe();

// The acting staff member's active branch (identity keeps staff branch
// codes); nullopt for none, or for no actor. The default branch of a request
// that names none, before the account's own (corebank_internal.request_branch,
// the batch of transfers). Runs inside an SPI connection.
std::optional<std::string> actor_branch(const std::optional<std::string>& actor_id);

// The next TRANSACTION number (1.5: from the sequence
// corebank.transaction_numbers, so postings never wait on the numbering row;
// unique and increasing, a rolled-back posting leaves a gap). Runs inside an
// SPI connection.
std::string next_transaction_number();
// The next `count` (0 to a batch's 8,000) TRANSACTION numbers, in order, in
// one statement. Runs inside an SPI connection.
std::vector<std::string> next_transaction_numbers(std::size_t count);

// Takes the accounting period's row FOR SHARE (creating it, OPEN, when it
// does not exist yet), so that a concurrent close waits for this transaction
// and a posting after the close sees CLOSED; fails (422) when it is CLOSED.
// `period` is YYYY-MM. Runs inside an SPI connection.
void lock_open_period(const std::string& period);

// While the posting engine writes entries into a period it has locked open
// (lock_open_period, earlier in the same engine call), it holds one of these:
// hold_open_period_for_statement then needs no query for that period. Only
// inside the engine's WriterScope and in the (sub)transaction that took the
// lock; gone when the write ends, so nothing written later trusts it.
class EngineHeldPeriod {
public:
    explicit EngineHeldPeriod(const std::string& period);
    ~EngineHeldPeriod();
    EngineHeldPeriod(const EngineHeldPeriod&) = delete;
    EngineHeldPeriod& operator=(const EngineHeldPeriod&) = delete;
};

// While the posting engine's write statement (pg/ledger_posting.cpp
// write_sql) adds the day totals of the entries it inserts itself, in the
// same statement, it holds one of these naming how many entries that is:
// journal_day_totals_add then adds nothing for that one INSERT (two
// statements and an SPI connection fewer per posting). Only inside the
// engine's WriterScope and in the (sub)transaction that made it; used once.
class EngineDayTotals {
public:
    explicit EngineDayTotals(std::int64_t entries);
    ~EngineDayTotals();
    // Whether journal_day_totals_add skipped the statement's INSERT: the
    // engine checks it after the statement, since otherwise its entries'
    // totals were added twice.
    bool used() const;
    EngineDayTotals(const EngineDayTotals&) = delete;
    EngineDayTotals& operator=(const EngineDayTotals&) = delete;
};

// While the posting engine's write statement inserts entries whose every
// reference it read in this transaction, it holds one of these naming how
// many entries that is: journal_references_check then queries nothing for
// that one INSERT. What the engine read (pg/ledger_posting.hpp, write()): each
// customer account locked by this transaction (FOR UPDATE or FOR KEY SHARE,
// as the check's probe would take it) on the entry's GL account and currency,
// each GL account in the entry's currency, the transaction's branch, and the
// transactions themselves written by the same statement; GL accounts and
// branches are never deleted nor re-keyed (referenced_row_guard). Only inside
// the engine's WriterScope and in the (sub)transaction that made it; used once.
class EngineCheckedReferences {
public:
    explicit EngineCheckedReferences(std::int64_t entries);
    ~EngineCheckedReferences();
    // Whether journal_references_check skipped the statement's INSERT.
    bool used() const;
    EngineCheckedReferences(const EngineCheckedReferences&) = delete;
    EngineCheckedReferences& operator=(const EngineCheckedReferences&) = delete;
};

// Asked by journal_references_check for an INSERT of `entries` rows: true
// when an EngineCheckedReferences of this (sub)transaction, not yet used,
// names exactly that many (it is then used); false otherwise, and the
// trigger checks them.
bool engine_checked_references(std::int64_t entries);

// Asked by journal_day_totals_add for an INSERT of `entries` rows: true when
// an EngineDayTotals of this (sub)transaction, not yet used, names exactly
// that many (it is then used); false otherwise, and the trigger adds them.
bool engine_adds_day_totals(std::int64_t entries);

// journal_period_lock's lock: `period` (YYYY-MM) held open FOR SHARE for the
// rows of the current statement. Locks it (lock_open_period, in an SPI
// connection of its own) unless an earlier row of this statement did, or the
// posting engine writing these rows holds it (EngineHeldPeriod): the rows of
// one INSERT (a batch writes thousands) need the lock once, as it is held to
// the end of the transaction and a close waits for it.
void hold_open_period_for_statement(const std::string& period);

}  // namespace corebank::pg::ledger
