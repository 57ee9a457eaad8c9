// trigger_support.hpp: reading a trigger's rows from C++, and the checks
// every trigger file shares.
//
// The helpers read columns by name from the trigger's OLD or NEW tuple and
// compare OLD with NEW, every PostgreSQL call through pg_guard. Values come
// back as C++ values (text as its output form, which for uuid is the
// canonical lower-case form; dates as the day number PostgreSQL stores, so
// that no DateStyle setting can change them).
//
// The shared checks (operation_name, listed, frozen, only_changes,
// refuse_append_only) live here once; entry/*_triggers.cpp and
// entry/append_only_trigger.cpp call them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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
// A date column as PostgreSQL's day number (DateStyle cannot change it).
std::optional<std::int32_t> date_days(const TriggerData* trigger, HeapTuple row, const char* column);
// A uuid column's value; nullopt for NULL.
std::optional<pg_uuid_t> uuid(const TriggerData* trigger, HeapTuple row, const char* column);
// For an AFTER row trigger fired later (deferred): false when the row has
// since been deleted or updated, as a foreign key's check would skip it.
bool row_still_current(const TriggerData* trigger);
// A date column as "YYYY-MM" (its accounting period).
std::optional<std::string> date_period(const TriggerData* trigger, HeapTuple row, const char* column);

// True when column `column` differs between OLD and NEW of an UPDATE
// (binary comparison after detoasting; NULL equals NULL).
bool changed(const TriggerData* trigger, const char* column);

// Calls `visit(name)` for every column that differs between OLD and NEW.
template <typename Visit>
void for_each_changed(const TriggerData* trigger, Visit&& visit);

// "INSERT", "UPDATE", "DELETE" or "TRUNCATE", for messages.
const char* operation_name(const TriggerData* trigger);

// A fixed list of column names: a view of a constexpr std::array of
// string_view (the list outlives every call, being static).
class ColumnList {
public:
    template <std::size_t N>
    constexpr ColumnList(const std::array<std::string_view, N>& names) : names_(names.data()), count_(N) {}
    const std::string_view* begin() const { return names_; }
    const std::string_view* end() const { return names_ + count_; }

private:
    const std::string_view* names_;
    std::size_t count_;
};

// True when `name` is one of `names`.
bool listed(ColumnList names, std::string_view name);

// Refuses (CB422, "<what><column> cannot change") an UPDATE that changes a
// column of `columns`: the row's frozen part.
void frozen(const TriggerData* trigger, ColumnList columns, const std::string& what);

// Refuses (CB422, "<what><column> cannot change") an UPDATE that changes a
// column not in `allowed`.
void only_changes(const TriggerData* trigger, ColumnList allowed, const std::string& what);

// The one SQLSTATE of an append-only table's refusal: 42501
// (insufficient_privilege). Changing history is refused to everyone, the
// owner and superusers included, so it is a privilege nobody holds: the same
// code PostgreSQL raises when a role lacks UPDATE or DELETE on the table (as
// corebank_app does). It is not of the class "CB" on purpose: no request can
// cause it (no API function updates or deletes these rows), so if one ever
// reaches the tier it is a server fault, which the tier answers 500 and logs,
// rather than a client error shown verbatim.
inline constexpr const char* append_only_sqlstate = "42501";

// Raises the append-only refusal of the trigger's table:
//   message  "<schema>.<table> is append-only"
//   detail   "<OPERATION> refused" or "<OPERATION> refused; <note>"
[[noreturn]] void refuse_append_only(const TriggerData* trigger, const std::string& note = {});

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
