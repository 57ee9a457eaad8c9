// key_probe.hpp: does a row with this uuid primary key exist? One probe of
// the table's primary-key index, without SPI.
//
// What the row-level foreign keys of the posting path did with one SPI query
// per row and key (an executor start, and a FOR KEY SHARE lock that wrote WAL
// and, on the one head-office branch every transaction names, a MultiXact),
// the reference triggers (entry/ledger_references.cpp) do with this probe.
// No lock is taken, so the probed tables must keep their rows in place by
// guard: they refuse DELETE and TRUNCATE and freeze the key column (see each
// table's guard, listed in ledger_references.cpp).
//
// Visibility is SnapshotSelf, the foreign keys' own test of a referenced row:
// rows committed by anyone, and rows written earlier by this transaction,
// are found; a row another transaction has not yet committed is not.
#pragma once

#include "pg/postgres.hpp"

namespace corebank::pg::key_probe {

// The tables the probe serves, each in schema corebank with a uuid primary
// key of one column named id.
enum class Table { branches, parked_changes, transactions };

// True when `table` holds a row whose id is `id`.
bool exists(Table table, const pg_uuid_t& id);

}  // namespace corebank::pg::key_probe
