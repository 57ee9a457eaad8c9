// transaction_type.cpp: the SQL face of core::ledger::is_transaction_type,
// so that the CHECK transactions_type reads the spec's transaction types
// from the one C++ list the manual journal's parser uses.
//
//   corebank_internal.transaction_type_known(text) -> boolean
//
// Why a function and not `type IN (...)`: PostgreSQL 15 reads a table's
// CHECK expressions back from their stored node text at the start of every
// statement that writes the table, and the list of 22 types was 4.5 KB of
// it, a third of the transactions table's constraints (docs/performance.md).
// IMMUTABLE STRICT: the list changes only with a new build of the extension
// (and the upgrade that adds a type re-validates the CHECK); NULL is left to
// the column's NOT NULL, as it was.
#include "core/ledger.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"

/* SQL function: corebank_internal.transaction_type_known(type text) returns boolean */
COREBANK_FUNCTION(transaction_type_known) {
    const std::optional<std::string> type = corebank::pg::args::text(fcinfo, 0);
    PG_RETURN_BOOL(type.has_value() && corebank::core::ledger::is_transaction_type(*type));
}
