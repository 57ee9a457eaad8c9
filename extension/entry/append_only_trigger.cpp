// append_only_trigger.cpp: the one trigger function of every append-only
// table (docs/ledger.md, "Append-only tables"; sql/corebank--1.5--1.6.sql
// attaches it).
//
//   refuse_change  BEFORE UPDATE OR DELETE (row) and BEFORE TRUNCATE
//                  (statement): refused with SQLSTATE 42501, message
//                  "corebank.<table> is append-only", detail "<OPERATION>
//                  refused" (pg/trigger_support.hpp, refuse_append_only).
//
// Trigger arguments name the columns an UPDATE may still change, for a table
// whose rows are history but carry one pointer that may move: corebank.events
// is attached with refuse_change('customer_id'), as a customer merge moves
// the events of the merged customers. An UPDATE that changes only listed
// columns passes; any other change is refused, with the listed columns named
// in the detail.
#include <string>

#include "entry/trigger.hpp"
#include "pg/check.hpp"

namespace {

namespace trigger = corebank::pg::trigger;

// Bounds the arguments a CREATE TRIGGER may pass (each names a column).
constexpr int allowed_columns_max = 8;

bool only_allowed_columns_changed(const TriggerData* data) {
    const Trigger* definition = data->tg_trigger;
    CB_CHECK(definition->tgnargs >= 0 && definition->tgnargs <= allowed_columns_max);
    bool only_allowed = true;
    trigger::for_each_changed(data, [&](const char* column) {
        bool allowed = false;
        for (int index = 0; index < definition->tgnargs; ++index) {
            allowed = allowed || std::string(definition->tgargs[index]) == column;
        }
        only_allowed = only_allowed && allowed;
    });
    return only_allowed;
}

// "only customer_id may change" from the trigger's arguments; empty without.
std::string allowed_columns_note(const TriggerData* data) {
    const Trigger* definition = data->tg_trigger;
    if (definition->tgnargs == 0) return {};
    std::string columns;
    for (int index = 0; index < definition->tgnargs; ++index) {
        if (index > 0) columns += ", ";
        columns += definition->tgargs[index];
    }
    return "only " + columns + " may change";
}

Datum refuse_change_of(TriggerData* data) {
    if (trigger::is_update(data) && data->tg_trigger->tgnargs > 0 && only_allowed_columns_changed(data)) {
        return trigger::row_result(data);
    }
    trigger::refuse_append_only(data, allowed_columns_note(data));
}

}  // namespace

/* trigger function: corebank_internal.refuse_change(allowed columns...) (BEFORE UPDATE OR DELETE, BEFORE TRUNCATE) */
COREBANK_TRIGGER(refuse_change) { return refuse_change_of(trigger); }

// The C symbols of the trigger functions refuse_change replaced in 1.6.
// Released scripts still name them at CREATE time (corebank--1.0--1.1.sql:
// journal_immutable; corebank--1.3--1.4.sql: deposits_append_only), and
// CREATE EXTENSION runs those scripts before 1.6 drops the SQL functions, so
// the symbols stay, as aliases of refuse_change.

/* trigger function: corebank_internal.journal_immutable() (until 1.6) */
COREBANK_TRIGGER(journal_immutable) { return refuse_change_of(trigger); }

/* trigger function: corebank_internal.deposits_append_only() (until 1.6) */
COREBANK_TRIGGER(deposits_append_only) { return refuse_change_of(trigger); }
