// ledger_guard.cpp: see ledger_guard.hpp.
#include "pg/ledger_guard.hpp"

#include "pg/check.hpp"
#include "pg/guard.hpp"
#include "pg/postgres.hpp"

extern "C" {
#include "access/xact.h"
}

namespace corebank::pg::ledger_guard {

namespace {

int writer_depth = 0;
bool abort_callback_registered = false;

// Any abort ends every scope of the transaction.
void reset_on_abort(XactEvent event, void* /*argument*/) {
    if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT) writer_depth = 0;
}

}  // namespace

WriterScope::WriterScope() {
    if (!abort_callback_registered) {
        pg_guard([]() noexcept { RegisterXactCallback(reset_on_abort, nullptr); });
        abort_callback_registered = true;
    }
    CB_CHECK(writer_depth >= 0 && writer_depth < 8);
    ++writer_depth;
}

WriterScope::~WriterScope() {
    if (writer_depth > 0) --writer_depth;
}

bool writer_active() noexcept { return writer_depth > 0; }

}  // namespace corebank::pg::ledger_guard
