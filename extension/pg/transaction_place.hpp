// transaction_place.hpp: where in the transaction tree a backend-local fact
// was recorded, so that it is trusted only there.
//
// The extension keeps a few facts between statements in backend memory (a
// period row locked open, the engine's promise to add a statement's day
// totals, the balanced checks already made). A row lock or a write taken in
// a subtransaction that rolled back is gone, and a new transaction starts
// with none of them, so each such fact is recorded with the local
// transaction and subtransaction it belongs to, and counts only while both
// are current.
#pragma once

#include "pg/postgres.hpp"

extern "C" {
#include "access/xact.h"
#include "storage/proc.h"
}

namespace corebank::pg {

struct TransactionPlace {
    LocalTransactionId local_xid = InvalidLocalTransactionId;
    SubTransactionId subxid = InvalidSubTransactionId;

    // The (sub)transaction running now.
    static TransactionPlace current() noexcept { return {MyProc->lxid, GetCurrentSubTransactionId()}; }
    // Whether this is the (sub)transaction running now (never for an unset place).
    bool is_current() const noexcept {
        return local_xid != InvalidLocalTransactionId && local_xid == MyProc->lxid &&
               subxid == GetCurrentSubTransactionId();
    }
};

}  // namespace corebank::pg
