// retired.cpp: C symbols that older release scripts name and a later release
// dropped.
//
// A database is installed by running the release scripts in order (1.0, then
// each upgrade), and CREATE FUNCTION ... LANGUAGE C looks its symbol up in
// the library at once. So a function that 1.4 created and 1.8 drops still
// needs its symbol here for the install to reach 1.8, although no installed
// function calls it afterwards. Each raises if anything ever does.
#include "core/errors.hpp"
#include "entry/entry.hpp"

namespace {

[[noreturn]] void retired(const char* function, const char* since, const char* instead) {
    throw corebank::core::CoreError(corebank::core::sqlstate_internal,
                                    std::string(function) + " was dropped in " + since + ": use " + instead);
}

}  // namespace

/* Created by 1.4, dropped by 1.8 (the money engine claims its keys itself). */
COREBANK_FUNCTION(money_idempotency_claim) {
    retired("corebank_internal.money_idempotency_claim", "1.8", "corebank.core_deposit and the other money faces");
}

/* Created by 1.4, dropped by 1.8. */
COREBANK_FUNCTION(money_idempotency_complete) {
    retired("corebank_internal.money_idempotency_complete", "1.8", "corebank.core_deposit and the other money faces");
}

/* Created by 1.5, dropped by 1.8. */
COREBANK_FUNCTION(money_idempotency_store) {
    retired("corebank_internal.money_idempotency_store", "1.8", "corebank.core_deposit and the other money faces");
}
