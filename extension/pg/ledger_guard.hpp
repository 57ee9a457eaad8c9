// ledger_guard.hpp: the posting engine's writer scope.
//
// Customer balances (ledger_accounts.balance_minor, version), the GL
// balance stripes and the chain heads are derived from the journal. Their
// triggers refuse any write that does not happen inside a WriterScope, which
// only the C++ posting engine opens: the flag is a static of this module, so
// no SQL statement, setting or role can raise it. A superuser can still
// disable the triggers; ledger_check_balances and ledger_verify_chain then
// report the difference.
//
// The scope is a counter (scopes nest) restored by the destructor when an
// error unwinds through it, and reset by a transaction-abort callback as a
// second line of defence.
#pragma once

namespace corebank::pg::ledger_guard {

class WriterScope {
public:
    WriterScope();
    ~WriterScope();
    WriterScope(const WriterScope&) = delete;
    WriterScope& operator=(const WriterScope&) = delete;
};

bool writer_active() noexcept;

}  // namespace corebank::pg::ledger_guard
