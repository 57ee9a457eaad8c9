// trigger_support.hpp: reading a trigger's rows from C++.
//
// The helpers read columns by name from the trigger's OLD or NEW tuple and
// compare OLD with NEW, every PostgreSQL call through pg_guard. Values come
// back as C++ values (text as its output form, which for uuid is the
// canonical lower-case form; dates as the day number PostgreSQL stores, so
// that no DateStyle setting can change them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pg/postgres.hpp"

extern "C" {
#include "commands/trigger.h"
#include "utils/rel.h"
}

namespace corebank::pg::trigger {

// The TriggerData of a call; an internal error if not called as a trigger.
TriggerData* require(FunctionCallInfo fcinfo, const char* function_name);

bool is_insert(const TriggerData* trigger);
bool is_update(const TriggerData* trigger);
bool is_delete(const TriggerData* trigger);
bool is_truncate(const TriggerData* trigger);

// The row the trigger returns: NEW for INSERT/UPDATE, OLD for DELETE, NULL
// for statement-level and AFTER triggers (whose result is ignored).
Datum row_result(const TriggerData* trigger);

// The new row (INSERT, UPDATE) or the old one (DELETE).
HeapTuple new_row(const TriggerData* trigger);
HeapTuple old_row(const TriggerData* trigger);

// Name of the trigger's table, for messages.
std::string table_name(const TriggerData* trigger);

std::optional<std::string> text(const TriggerData* trigger, HeapTuple row, const char* column);
std::optional<std::int64_t> integer(const TriggerData* trigger, HeapTuple row, const char* column);
std::optional<bool> boolean(const TriggerData* trigger, HeapTuple row, const char* column);
// A date column as "YYYY-MM" (its accounting period).
std::optional<std::string> date_period(const TriggerData* trigger, HeapTuple row, const char* column);

// True when column `column` differs between OLD and NEW of an UPDATE
// (binary comparison after detoasting; NULL equals NULL).
bool changed(const TriggerData* trigger, const char* column);

// Calls `visit(name)` for every column that differs between OLD and NEW.
template <typename Visit>
void for_each_changed(const TriggerData* trigger, Visit&& visit);

namespace detail {
int column_count(const TriggerData* trigger);
// Name of column `attnum` (1-based), or nullptr when dropped.
const char* column_name(const TriggerData* trigger, int attnum);
bool changed_at(const TriggerData* trigger, int attnum);
}  // namespace detail

template <typename Visit>
void for_each_changed(const TriggerData* trigger, Visit&& visit) {
    const int count = detail::column_count(trigger);
    for (int attnum = 1; attnum <= count; ++attnum) {
        const char* name = detail::column_name(trigger, attnum);
        if (name != nullptr && detail::changed_at(trigger, attnum)) visit(name);
    }
}

}  // namespace corebank::pg::trigger
