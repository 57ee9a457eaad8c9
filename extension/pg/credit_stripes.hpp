// credit_stripes.hpp: folding a hot account's credit stripes into its
// balance (docs/design/posting-engine.md, section 3).
//
// A credit to an account that another posting holds goes into
// corebank.account_credit_stripes (pg/ledger_posting.hpp, load_accounts), so
// credits to one account do not queue. The balance is balance_minor plus the
// stripes; fold() moves the stripes into balance_minor so that a read stays at
// most one row per stripe and the account's version moves. The maintenance
// pass (corebank.core_maintenance) calls it every minute.
#pragma once

namespace corebank::pg::credit_stripes {

// Folds the stripes of up to accounts_max accounts (1..10,000), one account
// at a time in id order: its row FOR NO KEY UPDATE SKIP LOCKED (an account a
// posting or a lifecycle move holds is left to the next pass), its non-zero
// stripes not being written by a posting set to zero and their sum added to
// balance_minor, inside the writer scope. Never waits for a lock: a fold
// holds what it folded until its commit, so waiting for a posting that then
// needs one of those stripes was a deadlock. Returns the accounts folded.
// Runs inside the caller's SPI connection and transaction.
int fold(int accounts_max);

}  // namespace corebank::pg::credit_stripes
