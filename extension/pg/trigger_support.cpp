// trigger_support.cpp: see trigger_support.hpp.
#include "pg/trigger_support.hpp"

#include <cstdio>
#include <cstring>

#include "pg/check.hpp"
#include "pg/guard.hpp"

extern "C" {
#include "access/tableam.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
}

namespace corebank::pg::trigger {

namespace {

int attnum_of(const TriggerData* trigger, const char* column) {
    const TupleDesc descriptor = trigger->tg_relation->rd_att;
    const int attnum = pg_guard([&]() noexcept { return SPI_fnumber(descriptor, column); });
    CB_CHECK(attnum > 0);  // a column the trigger's own table must have
    return attnum;
}

Datum value_at(const TriggerData* trigger, HeapTuple row, int attnum, bool* is_null) {
    const TupleDesc descriptor = trigger->tg_relation->rd_att;
    return pg_guard([&]() noexcept { return SPI_getbinval(row, descriptor, attnum, is_null); });
}

// The value of `column`, whose declared type must be `type` (the trigger's own
// table: a mismatch is a programming error); nullopt for NULL.
std::optional<Datum> value_of_type(const TriggerData* trigger, HeapTuple row, const char* column, Oid type) {
    const int attnum = attnum_of(trigger, column);
    CB_CHECK(TupleDescAttr(trigger->tg_relation->rd_att, attnum - 1)->atttypid == type);
    bool is_null = true;
    const Datum value = value_at(trigger, row, attnum, &is_null);
    if (is_null) return std::nullopt;
    return value;
}

}  // namespace

TriggerData* require(FunctionCallInfo fcinfo, const char* function_name) {
    if (!CALLED_AS_TRIGGER(fcinfo)) {
        throw core::CoreError(core::sqlstate_internal, std::string(function_name) + " must be called as a trigger");
    }
    return reinterpret_cast<TriggerData*>(fcinfo->context);
}

bool is_insert(const TriggerData* trigger) { return TRIGGER_FIRED_BY_INSERT(trigger->tg_event); }
bool is_update(const TriggerData* trigger) { return TRIGGER_FIRED_BY_UPDATE(trigger->tg_event); }
bool is_delete(const TriggerData* trigger) { return TRIGGER_FIRED_BY_DELETE(trigger->tg_event); }
bool is_truncate(const TriggerData* trigger) { return TRIGGER_FIRED_BY_TRUNCATE(trigger->tg_event); }

Datum row_result(const TriggerData* trigger) {
    if (!TRIGGER_FIRED_FOR_ROW(trigger->tg_event) || TRIGGER_FIRED_AFTER(trigger->tg_event)) {
        return PointerGetDatum(nullptr);
    }
    if (is_update(trigger)) return PointerGetDatum(trigger->tg_newtuple);
    return PointerGetDatum(trigger->tg_trigtuple);
}

HeapTuple new_row(const TriggerData* trigger) {
    CB_CHECK(TRIGGER_FIRED_FOR_ROW(trigger->tg_event));
    return is_update(trigger) ? trigger->tg_newtuple : trigger->tg_trigtuple;
}

HeapTuple old_row(const TriggerData* trigger) {
    CB_CHECK(TRIGGER_FIRED_FOR_ROW(trigger->tg_event) && !is_insert(trigger));
    return trigger->tg_trigtuple;
}

std::string table_name(const TriggerData* trigger) {
    return std::string(NameStr(trigger->tg_relation->rd_rel->relname));
}

std::optional<std::string> text(const TriggerData* trigger, HeapTuple row, const char* column) {
    const int attnum = attnum_of(trigger, column);
    const TupleDesc descriptor = trigger->tg_relation->rd_att;
    const char* value = pg_guard([&]() noexcept { return static_cast<const char*>(SPI_getvalue(row, descriptor, attnum)); });
    if (value == nullptr) return std::nullopt;
    return std::string(value);
}

std::optional<std::int64_t> integer(const TriggerData* trigger, HeapTuple row, const char* column) {
    const int attnum = attnum_of(trigger, column);
    bool is_null = true;
    const Datum value = value_at(trigger, row, attnum, &is_null);
    if (is_null) return std::nullopt;
    // A domain column (corebank.amount_minor) holds its base type's values;
    // the catalog is read only for a type that is not a plain integer.
    Oid type = TupleDescAttr(trigger->tg_relation->rd_att, attnum - 1)->atttypid;
    if (type != INT2OID && type != INT4OID && type != INT8OID) type = pg_guard([&]() noexcept { return getBaseType(type); });
    switch (type) {
        case INT2OID:
            return DatumGetInt16(value);
        case INT4OID:
            return DatumGetInt32(value);
        case INT8OID:
            return DatumGetInt64(value);
        default:
            break;
    }
    CB_CHECK(!"integer(): column is not an integer");
    return std::nullopt;
}

std::optional<bool> boolean(const TriggerData* trigger, HeapTuple row, const char* column) {
    const std::optional<Datum> value = value_of_type(trigger, row, column, BOOLOID);
    if (!value) return std::nullopt;
    return DatumGetBool(*value);
}

std::optional<pg_uuid_t> uuid(const TriggerData* trigger, HeapTuple row, const char* column) {
    const std::optional<Datum> value = value_of_type(trigger, row, column, UUIDOID);
    if (!value) return std::nullopt;
    return *DatumGetUUIDP(*value);
}

bool row_still_current(const TriggerData* trigger) {
    CB_CHECK(TRIGGER_FIRED_FOR_ROW(trigger->tg_event) && TRIGGER_FIRED_AFTER(trigger->tg_event) &&
             !is_delete(trigger));
    TupleTableSlot* const slot = is_update(trigger) ? trigger->tg_newslot : trigger->tg_trigslot;
    CB_CHECK(slot != nullptr);
    return pg_guard([&]() noexcept {
        return table_tuple_satisfies_snapshot(trigger->tg_relation, slot, SnapshotSelf);
    });
}

std::optional<std::int32_t> date_days(const TriggerData* trigger, HeapTuple row, const char* column) {
    const std::optional<Datum> value = value_of_type(trigger, row, column, DATEOID);
    if (!value) return std::nullopt;
    return static_cast<std::int32_t>(DatumGetDateADT(*value));
}

std::optional<std::string> date_period(const TriggerData* trigger, HeapTuple row, const char* column) {
    const std::optional<Datum> value = value_of_type(trigger, row, column, DATEOID);
    if (!value) return std::nullopt;
    const DateADT date = DatumGetDateADT(*value);
    // Infinite dates have no period; the CHECKs of the journal keep them out.
    CB_CHECK(!DATE_NOT_FINITE(date));
    int year = 0;
    int month = 0;
    int day = 0;
    j2date(date + POSTGRES_EPOCH_JDATE, &year, &month, &day);
    CB_CHECK(year >= 1 && year <= 9999 && month >= 1 && month <= 12);
    char period[8];
    snprintf(period, sizeof period, "%04d-%02d", year, month);  // PostgreSQL's snprintf (port.h)
    return std::string(period);
}

const char* operation_name(const TriggerData* trigger) {
    if (is_truncate(trigger)) return "TRUNCATE";
    if (is_delete(trigger)) return "DELETE";
    if (is_insert(trigger)) return "INSERT";
    CB_CHECK(is_update(trigger));
    return "UPDATE";
}

bool listed(ColumnList names, std::string_view name) {
    for (const std::string_view candidate : names) {
        if (candidate == name) return true;
    }
    return false;
}

namespace {

// Refuses the first changed column that is (refuse_listed) or is not in
// `columns`.
void refuse_changed_columns(const TriggerData* trigger, ColumnList columns, bool refuse_listed,
                            const std::string& what) {
    for_each_changed(trigger, [&](const char* column) {
        if (listed(columns, column) == refuse_listed) {
            throw core::CoreError(core::sqlstate_unprocessable, what + std::string(column) + " cannot change");
        }
    });
}

}  // namespace

void frozen(const TriggerData* trigger, ColumnList columns, const std::string& what) {
    refuse_changed_columns(trigger, columns, true, what);
}

void only_changes(const TriggerData* trigger, ColumnList allowed, const std::string& what) {
    refuse_changed_columns(trigger, allowed, false, what);
}

void refuse_append_only(const TriggerData* trigger, const std::string& note) {
    const Oid schema = RelationGetNamespace(trigger->tg_relation);
    const char* schema_name = pg_guard([&]() noexcept { return static_cast<const char*>(get_namespace_name(schema)); });
    CB_CHECK(schema_name != nullptr);  // the table's own schema exists while its trigger runs
    const std::string table = std::string(schema_name) + "." + table_name(trigger);
    std::string detail = std::string(operation_name(trigger)) + " refused";
    if (!note.empty()) detail += "; " + note;
    throw core::CoreError(append_only_sqlstate, table + " is append-only", std::move(detail));
}

bool changed(const TriggerData* trigger, const char* column) {
    return detail::changed_at(trigger, attnum_of(trigger, column));
}

namespace detail {

int column_count(const TriggerData* trigger) { return trigger->tg_relation->rd_att->natts; }

const char* column_name(const TriggerData* trigger, int attnum) {
    const Form_pg_attribute attribute = TupleDescAttr(trigger->tg_relation->rd_att, attnum - 1);
    if (attribute->attisdropped) return nullptr;
    return NameStr(attribute->attname);
}

bool changed_at(const TriggerData* trigger, int attnum) {
    CB_CHECK(is_update(trigger));
    const Form_pg_attribute attribute = TupleDescAttr(trigger->tg_relation->rd_att, attnum - 1);
    bool old_null = true;
    bool new_null = true;
    const Datum old_value = value_at(trigger, trigger->tg_trigtuple, attnum, &old_null);
    const Datum new_value = value_at(trigger, trigger->tg_newtuple, attnum, &new_null);
    if (old_null || new_null) return old_null != new_null;
    const bool by_value = attribute->attbyval;
    const int16 length = attribute->attlen;
    return pg_guard([&]() noexcept {
        if (length == -1) {
            // Detoasted bytes: the same value stored compressed or not is equal.
            struct varlena* a = pg_detoast_datum_packed(reinterpret_cast<struct varlena*>(DatumGetPointer(old_value)));
            struct varlena* b = pg_detoast_datum_packed(reinterpret_cast<struct varlena*>(DatumGetPointer(new_value)));
            return VARSIZE_ANY_EXHDR(a) != VARSIZE_ANY_EXHDR(b) ||
                   std::memcmp(VARDATA_ANY(a), VARDATA_ANY(b), VARSIZE_ANY_EXHDR(a)) != 0;
        }
        return !datumIsEqual(old_value, new_value, by_value, length);
    });
}

}  // namespace detail

}  // namespace corebank::pg::trigger
