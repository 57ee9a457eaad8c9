// transfer_batch.hpp: the engine of a batch of transfers
// (docs/design/batch-transfers.md).
//
// run() decides every transfer of a parsed batch in request order against
// running balances held in memory, chain by chain (a linked chain posts all
// or nothing), and writes the posted ones set-based: one statement each for
// the numbers, the transaction rows, the journal entries, the balances, the
// GL balance stripes and the chain head. It decides and writes through the
// one decider of transfers (pg/transfer_decider.hpp), which the group of
// single transfer requests (pg/posting_group.hpp) uses too: the rules of a
// single customer-initiated transfer (the account state table and minimum
// balance of pg/deposits_posting.hpp, the ledger's overdraft limit, active
// GL accounts and branches), and the period lock. The journal triggers run
// on every row as for any posting.
//
// Locks, in the posting engine's order: the accounts (one statement, id
// order), the period row (FOR SHARE), GL accounts posted to for the first
// time, the GL balance stripes (gl order), the chain head of the backend's
// stripe.
#pragma once

#include <string>

#include "core/transfer_batch.hpp"

namespace corebank::pg::transfer_batch {

// Runs inside the caller's SPI connection and transaction; returns the
// TransferBatchResponse as JSON text. CB422 for the whole batch when the
// business date's period is closed.
std::string run(const core::transfer_batch::TransferBatch& batch, const std::string& actor_id);

}  // namespace corebank::pg::transfer_batch
