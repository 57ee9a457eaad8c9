// trigger.hpp: how a trigger function enters C++ (COREBANK_FUNCTION for
// triggers).
//
//     /* trigger function: corebank_internal.refuse_change() */
//     COREBANK_TRIGGER(refuse_change) {
//         ... C++, may throw; `trigger` is the TriggerData ...
//         return corebank::pg::trigger::row_result(trigger);
//     }
//
// COREBANK_TRIGGER(name) emits the V1 function `name` through
// COREBANK_FUNCTION (so the same error boundary, run_guarded, applies), checks
// that PostgreSQL called it as a trigger, and passes the TriggerData to the
// body that follows the macro. The checks triggers share (operation_name,
// listed, frozen, only_changes, refuse_append_only) are in
// pg/trigger_support.hpp, included here.
#pragma once

#include "entry/entry.hpp"
#include "pg/trigger_support.hpp"

#define COREBANK_TRIGGER(name)                                                              \
    static Datum name##_trigger(TriggerData* trigger);                                      \
    COREBANK_FUNCTION(name) {                                                               \
        return name##_trigger(corebank::pg::trigger::require(fcinfo, #name));               \
    }                                                                                       \
    static Datum name##_trigger([[maybe_unused]] TriggerData* trigger)
