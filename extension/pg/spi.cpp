// spi.cpp: see spi.hpp.
//
// The plan cache is a fixed array, per backend: statements are static strings,
// so their number is bounded by the source code. A plan kept with
// SPI_keepplan is revalidated by PostgreSQL's plan cache when the objects it
// uses change (DROP/CREATE EXTENSION in the same backend included).
#include "pg/spi.hpp"

#include <cstring>

#include "core/errors.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"

namespace corebank::pg::spi {

namespace {

// The posting engine's one write statement (pg/ledger_posting.cpp write_sql)
// takes 38.
constexpr int statement_args_max = 40;
// Every static statement of the extension fits (identity and ledger hold
// about 150); the bound catches a statement text built at run time.
constexpr int cached_plans_max = 512;
constexpr std::size_t text_array_elements_max = 1000;
// Columns of a set-based write and long key lists (a batch of transfers
// writes 16,000 entries and names up to 16,000 accounts).
constexpr std::size_t column_elements_max = 65536;

enum class PlanKind { automatic, generic };

struct CachedPlan {
    const char* sql;   // the key: address of a static string
    SPIPlanPtr plan;
    PlanKind kind;
    int arg_count;
    Oid arg_types[statement_args_max];
};

CachedPlan cached_plans[cached_plans_max];
int cached_plan_count = 0;

// Where execute() builds argument Datums; null: CurrentMemoryContext.
MemoryContext arg_context = nullptr;

[[noreturn]] void throw_internal(const char* message, const char* detail) {
    throw core::CoreError(core::sqlstate_internal, message, detail == nullptr ? "" : detail);
}

// Finds or prepares the plan of `sql` for these argument types.
const CachedPlan& plan_for(const char* sql, const Oid* arg_types, int arg_count, PlanKind kind) {
    CB_CHECK(sql != nullptr);
    CB_CHECK(arg_count >= 0 && arg_count <= statement_args_max);
    for (int index = 0; index < cached_plan_count; ++index) {
        const CachedPlan& cached = cached_plans[index];
        if (cached.sql != sql) continue;
        // A static statement is always called with the same types; anything
        // else is a programming error.
        CB_CHECK(cached.arg_count == arg_count);
        CB_CHECK(std::memcmp(cached.arg_types, arg_types, sizeof(Oid) * static_cast<std::size_t>(arg_count)) == 0);
        CB_CHECK(cached.kind == kind);
        return cached;
    }
    CB_CHECK(cached_plan_count < cached_plans_max);

    Oid types[statement_args_max] = {};
    std::memcpy(types, arg_types, sizeof(Oid) * static_cast<std::size_t>(arg_count));
    const SPIPlanPtr plan = pg_guard([&]() noexcept -> SPIPlanPtr {
        // PlanKind::generic: see execute_generic() in spi.hpp.
        const int options = kind == PlanKind::generic ? CURSOR_OPT_GENERIC_PLAN : 0;
        SPIPlanPtr prepared = SPI_prepare_cursor(sql, arg_count, types, options);
        if (prepared != nullptr && SPI_keepplan(prepared) != 0) return nullptr;
        return prepared;
    });
    if (plan == nullptr) throw_internal("SPI_prepare failed", sql);

    CachedPlan& entry = cached_plans[cached_plan_count];
    entry.sql = sql;
    entry.plan = plan;
    entry.arg_count = arg_count;
    entry.kind = kind;
    std::memcpy(entry.arg_types, types, sizeof types);
    ++cached_plan_count;
    return entry;
}

// The type of a result column, a domain's being its base type's (a column
// of corebank.amount_minor holds bigints). The catalog is read only for a
// type that is not one of `expected`, so plain columns cost nothing.
Oid cell_type(int column, Oid expected_a, Oid expected_b = InvalidOid, Oid expected_c = InvalidOid) {
    const Oid type = TupleDescAttr(SPI_tuptable->tupdesc, column - 1)->atttypid;
    if (type == expected_a || type == expected_b || type == expected_c) return type;
    return pg_guard([&]() noexcept { return getBaseType(type); });
}

// Checks that the last execute() produced `row` and `column`, and that the
// column has one of the expected types (InvalidOid: any type).
void check_cell(std::uint64_t row, int column, Oid expected_a, Oid expected_b = InvalidOid,
                Oid expected_c = InvalidOid) {
    CB_CHECK(SPI_tuptable != nullptr);
    CB_CHECK(row < SPI_processed);
    CB_CHECK(column >= 1 && column <= SPI_tuptable->tupdesc->natts);
    if (expected_a == InvalidOid) return;
    const Oid type = cell_type(column, expected_a, expected_b, expected_c);
    CB_CHECK(type == expected_a || type == expected_b || type == expected_c);
}

// The binary value of a checked cell; PostgreSQL calls guarded.
Datum cell_value(std::uint64_t row, int column, bool* is_null) {
    return pg_guard([&]() noexcept {
        return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, column, is_null);
    });
}

// Copies a text/bytea Datum (possibly toasted) into a std::string.
std::string varlena_bytes(Datum value) {
    struct Bytes {
        const char* data;
        std::size_t length;
    };
    const Bytes bytes = pg_guard([&]() noexcept {
        struct varlena* detoasted = pg_detoast_datum_packed(reinterpret_cast<struct varlena*>(DatumGetPointer(value)));
        return Bytes{VARDATA_ANY(detoasted), VARSIZE_ANY_EXHDR(detoasted)};
    });
    return std::string(bytes.data, bytes.length);
}

}  // namespace

/*---- Arg ----*/

Arg Arg::of_bytes(Oid type, std::optional<std::string_view> value) {
    Arg arg(type);
    if (value) {
        arg.is_null_ = false;
        arg.bytes_ = std::string(*value);
    }
    return arg;
}

Arg Arg::of_integer(Oid type, std::optional<std::int64_t> value) {
    Arg arg(type);
    if (value) {
        arg.is_null_ = false;
        arg.integer_ = *value;
    }
    return arg;
}

Arg Arg::text(std::optional<std::string_view> value) { return of_bytes(TEXTOID, value); }

Arg Arg::bytea(std::optional<std::string_view> value) { return of_bytes(BYTEAOID, value); }

Arg Arg::jsonb(std::optional<std::string_view> json_text) { return of_bytes(JSONBOID, json_text); }

Arg Arg::jsonb_datum(Datum value) {
    CB_CHECK(DatumGetPointer(value) != nullptr);
    Arg arg(JSONBOID);
    arg.is_null_ = false;
    arg.by_reference_ = true;
    arg.datum_ = value;
    return arg;
}

Arg Arg::uuid(std::optional<Uuid> value) {
    Arg arg(UUIDOID);
    if (value) {
        arg.is_null_ = false;
        arg.uuid_ = *value;
    }
    return arg;
}

Arg Arg::boolean(std::optional<bool> value) {
    return of_integer(BOOLOID, value ? std::optional<std::int64_t>(*value ? 1 : 0) : std::nullopt);
}

Arg Arg::int4(std::optional<std::int32_t> value) {
    return of_integer(INT4OID, value ? std::optional<std::int64_t>(*value) : std::nullopt);
}

Arg Arg::int8(std::optional<std::int64_t> value) { return of_integer(INT8OID, value); }

Arg Arg::text_array(std::optional<std::vector<std::string>> values) {
    Arg arg(TEXTARRAYOID);
    if (values) {
        CB_CHECK(values->size() <= text_array_elements_max);
        arg.is_null_ = false;
        arg.elements_ = std::move(*values);
    }
    return arg;
}

Arg Arg::of_text_column(Oid type, std::vector<std::string> values) {
    CB_CHECK(values.size() <= column_elements_max);
    Arg arg(type);
    arg.is_null_ = false;
    arg.elements_ = std::move(values);
    return arg;
}

Arg Arg::text_column(std::vector<std::string> values) { return of_text_column(TEXTARRAYOID, std::move(values)); }

Arg Arg::uuid_column(std::vector<std::string> values) { return of_text_column(UUIDARRAYOID, std::move(values)); }

Arg Arg::of_integer_column(Oid type, std::vector<std::int64_t> values) {
    CB_CHECK(values.size() <= column_elements_max);
    Arg arg(type);
    arg.is_null_ = false;
    arg.integers_ = std::move(values);
    return arg;
}

Arg Arg::int8_column(std::vector<std::int64_t> values) { return of_integer_column(INT8ARRAYOID, std::move(values)); }

Arg Arg::int4_column(std::vector<std::int32_t> values) {
    return of_integer_column(INT4ARRAYOID, std::vector<std::int64_t>(values.begin(), values.end()));
}

Datum Arg::to_datum() const {
    CB_CHECK(!is_null_);
    if (by_reference_) return datum_;
    switch (type_) {
        case BOOLOID:
            return BoolGetDatum(integer_ != 0);
        case INT4OID:
            return Int32GetDatum(static_cast<int32>(integer_));
        case INT8OID:
            return Int64GetDatum(integer_);
        case TEXTOID: {
            const char* data = bytes_.data();
            const int length = static_cast<int>(bytes_.size());
            return pg_guard([&]() noexcept { return PointerGetDatum(cstring_to_text_with_len(data, length)); });
        }
        case BYTEAOID: {
            const char* data = bytes_.data();
            const std::size_t length = bytes_.size();
            return pg_guard([&]() noexcept {
                ::bytea* value = static_cast<::bytea*>(palloc(VARHDRSZ + length));
                SET_VARSIZE(value, VARHDRSZ + length);
                std::memcpy(VARDATA(value), data, length);
                return PointerGetDatum(value);
            });
        }
        case JSONBOID: {
            const char* json_text = bytes_.c_str();
            return pg_guard([&]() noexcept { return DirectFunctionCall1(jsonb_in, CStringGetDatum(json_text)); });
        }
        case UUIDOID: {
            const unsigned char* data = uuid_.bytes.data();
            return pg_guard([&]() noexcept {
                pg_uuid_t* value = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
                std::memcpy(value->data, data, UUID_LEN);
                return UUIDPGetDatum(value);
            });
        }
        case TEXTARRAYOID: {
            const std::string* elements = elements_.data();
            const int count = static_cast<int>(elements_.size());
            return pg_guard([&]() noexcept {
                Datum* datums = static_cast<Datum*>(palloc(sizeof(Datum) * static_cast<std::size_t>(count > 0 ? count : 1)));
                for (int index = 0; index < count; ++index) {
                    datums[index] = PointerGetDatum(
                        cstring_to_text_with_len(elements[index].data(), static_cast<int>(elements[index].size())));
                }
                return PointerGetDatum(construct_array(datums, count, TEXTOID, -1, false, TYPALIGN_INT));
            });
        }
        case UUIDARRAYOID: {
            const std::string* elements = elements_.data();
            const int count = static_cast<int>(elements_.size());
            return pg_guard([&]() noexcept {
                Datum* datums = static_cast<Datum*>(palloc(sizeof(Datum) * static_cast<std::size_t>(count > 0 ? count : 1)));
                for (int index = 0; index < count; ++index) {
                    datums[index] = DirectFunctionCall1(uuid_in, CStringGetDatum(elements[index].c_str()));
                }
                return PointerGetDatum(construct_array(datums, count, UUIDOID, UUID_LEN, false, TYPALIGN_CHAR));
            });
        }
        case INT4ARRAYOID:
        case INT8ARRAYOID: {
            const bool wide = type_ == INT8ARRAYOID;
            const std::int64_t* integers = integers_.data();
            const int count = static_cast<int>(integers_.size());
            return pg_guard([&]() noexcept {
                Datum* datums = static_cast<Datum*>(palloc(sizeof(Datum) * static_cast<std::size_t>(count > 0 ? count : 1)));
                for (int index = 0; index < count; ++index) {
                    datums[index] =
                        wide ? Int64GetDatum(integers[index]) : Int32GetDatum(static_cast<int32>(integers[index]));
                }
                ArrayType* array =
                    wide ? construct_array(datums, count, INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE)
                         : construct_array(datums, count, INT4OID, sizeof(int32), true, TYPALIGN_INT);
                return PointerGetDatum(array);
            });
        }
        default:
            break;
    }
    throw_internal("unsupported SPI argument type", nullptr);
}

/*---- argument context ----*/

ArgContext::ArgContext(MemoryContext context) noexcept : previous_(arg_context) { arg_context = context; }

ArgContext::~ArgContext() { arg_context = previous_; }

/*---- connection ----*/

void connect() {
    const int result = pg_guard([]() noexcept { return SPI_connect(); });
    if (result != SPI_OK_CONNECT) throw_internal("SPI_connect failed", nullptr);
}

void connect_with_transition_tables(TriggerData* trigger) {
    CB_CHECK(trigger != nullptr && (trigger->tg_newtable != nullptr || trigger->tg_oldtable != nullptr));
    connect();
    const int registered = pg_guard([&]() noexcept { return SPI_register_trigger_data(trigger); });
    if (registered != SPI_OK_TD_REGISTER) throw_internal("SPI_register_trigger_data failed", nullptr);
}

void finish() {
    const int result = pg_guard([]() noexcept { return SPI_finish(); });
    if (result != SPI_OK_FINISH) throw_internal("SPI_finish failed", nullptr);
}

/*---- execution ----*/

namespace {

// Switches to arg_context, if one is set, for the life of the scope.
// MemoryContextSwitchTo cannot fail, so the destructor may run it.
class InArgContext {
public:
    InArgContext() noexcept : previous_(arg_context != nullptr ? MemoryContextSwitchTo(arg_context) : nullptr) {}
    ~InArgContext() {
        if (previous_ != nullptr) MemoryContextSwitchTo(previous_);
    }
    InArgContext(const InArgContext&) = delete;
    InArgContext& operator=(const InArgContext&) = delete;

private:
    MemoryContext previous_;
};

// Makes sure the generic plan of `plan` is built, or rebuilt after an
// invalidation, with sequential scans and JIT off (see execute_generic in
// spi.hpp), before SPI_execute_plan runs it. Only the planning is done under
// those settings: GetCachedPlan here takes the statement's relation locks
// and accepts the invalidations they bring, so the plan SPI_execute_plan
// then finds is this one, and what the statement runs (its triggers, the
// functions it calls) plans with the session's own settings. JIT off, since
// a sequential scan that is the only path costs disable_cost (1e10), far
// above jit_above_cost. Both settings are put back on every path (an error
// leaves as PgError through pg_guard, and unwinds through KeyedPlanning).
class KeyedPlanning {
public:
    KeyedPlanning() noexcept : seqscan_was_(enable_seqscan), jit_was_(jit_enabled) {
        enable_seqscan = false;
        jit_enabled = false;
    }
    ~KeyedPlanning() {
        enable_seqscan = seqscan_was_;
        jit_enabled = jit_was_;
    }
    KeyedPlanning(const KeyedPlanning&) = delete;
    KeyedPlanning& operator=(const KeyedPlanning&) = delete;

private:
    const bool seqscan_was_;
    const bool jit_was_;
};

void plan_keyed(SPIPlanPtr plan) {
    const KeyedPlanning settings;
    pg_guard([&]() noexcept {
        ::CachedPlan* const built = SPI_plan_get_cached_plan(plan);
        if (built != nullptr) ReleaseCachedPlan(built, CurrentResourceOwner);
    });
}

std::uint64_t execute_plan(const char* sql, std::initializer_list<Arg> args, PlanKind kind) {
    const int arg_count = static_cast<int>(args.size());
    CB_CHECK(arg_count <= statement_args_max);

    Oid types[statement_args_max] = {};
    Datum values[statement_args_max] = {};
    char nulls[statement_args_max + 1] = {};
    int index = 0;
    for (const Arg& arg : args) {
        types[index] = arg.type();
        nulls[index] = arg.is_null() ? 'n' : ' ';
        ++index;
    }
    const CachedPlan& cached = plan_for(sql, types, arg_count, kind);

    {
        const InArgContext in_arg_context;
        index = 0;
        for (const Arg& arg : args) {
            if (!arg.is_null()) values[index] = arg.to_datum();
            ++index;
        }
    }

    const SPIPlanPtr plan = cached.plan;
    // read_only = false: each statement takes a fresh snapshot, so a query
    // that follows a row lock wait sees what the lock holder committed.
    if (kind == PlanKind::generic) plan_keyed(plan);
    const int result = pg_guard([&]() noexcept { return SPI_execute_plan(plan, values, nulls, false, 0); });
    if (result < 0) {
        const char* code = pg_guard([&]() noexcept { return SPI_result_code_string(result); });
        throw_internal("SPI_execute_plan failed", code);
    }
    return SPI_processed;
}

}  // namespace

std::uint64_t execute(const char* sql, std::initializer_list<Arg> args) {
    return execute_plan(sql, args, PlanKind::automatic);
}

std::uint64_t execute_generic(const char* sql, std::initializer_list<Arg> args) {
    return execute_plan(sql, args, PlanKind::generic);
}

void free_result() {
    pg_guard([]() noexcept {
        if (SPI_tuptable != nullptr) SPI_freetuptable(SPI_tuptable);
        SPI_tuptable = nullptr;
    });
}

/*---- getters ----*/

std::optional<std::string> get_text(std::uint64_t row, int column) {
    check_cell(row, column, InvalidOid);
    const char* text = pg_guard([&]() noexcept {
        return static_cast<const char*>(SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, column));
    });
    if (text == nullptr) return std::nullopt;
    return std::string(text);
}

std::optional<std::string> get_bytea(std::uint64_t row, int column) {
    check_cell(row, column, BYTEAOID);
    bool is_null = true;
    const Datum value = cell_value(row, column, &is_null);
    if (is_null) return std::nullopt;
    return varlena_bytes(value);
}

std::optional<bool> get_bool(std::uint64_t row, int column) {
    check_cell(row, column, BOOLOID);
    bool is_null = true;
    const Datum value = cell_value(row, column, &is_null);
    if (is_null) return std::nullopt;
    return DatumGetBool(value);
}

std::optional<std::int64_t> get_int(std::uint64_t row, int column) {
    check_cell(row, column, INT2OID, INT4OID, INT8OID);
    bool is_null = true;
    const Datum value = cell_value(row, column, &is_null);
    if (is_null) return std::nullopt;
    switch (cell_type(column, INT2OID, INT4OID, INT8OID)) {
        case INT2OID:
            return DatumGetInt16(value);
        case INT4OID:
            return DatumGetInt32(value);
        default:
            return DatumGetInt64(value);
    }
}

std::optional<Uuid> get_uuid(std::uint64_t row, int column) {
    check_cell(row, column, UUIDOID);
    bool is_null = true;
    const Datum value = cell_value(row, column, &is_null);
    if (is_null) return std::nullopt;
    Uuid uuid;
    std::memcpy(uuid.bytes.data(), DatumGetUUIDP(value)->data, UUID_LEN);
    return uuid;
}

std::optional<std::vector<std::string>> get_text_array(std::uint64_t row, int column) {
    check_cell(row, column, TEXTARRAYOID);
    bool is_null = true;
    const Datum value = cell_value(row, column, &is_null);
    if (is_null) return std::nullopt;

    struct Elements {
        Datum* datums;
        bool* nulls;
        int count;
    };
    const Elements elements = pg_guard([&]() noexcept {
        Elements out{nullptr, nullptr, 0};
        deconstruct_array(DatumGetArrayTypeP(value), TEXTOID, -1, false, TYPALIGN_INT, &out.datums, &out.nulls,
                          &out.count);
        return out;
    });
    CB_CHECK(elements.count >= 0 && static_cast<std::size_t>(elements.count) <= text_array_elements_max);

    std::vector<std::string> strings;
    strings.reserve(static_cast<std::size_t>(elements.count));
    for (int index = 0; index < elements.count; ++index) {
        CB_CHECK(!elements.nulls[index]);
        // Array elements are never toasted on their own; VARDATA_ANY reads
        // short and long headers alike without calling PostgreSQL.
        const struct varlena* element = reinterpret_cast<const struct varlena*>(DatumGetPointer(elements.datums[index]));
        strings.emplace_back(VARDATA_ANY(element), VARSIZE_ANY_EXHDR(element));
    }
    return strings;
}

Datum get_jsonb_for_return(std::uint64_t row, int column, bool* is_null) {
    check_cell(row, column, JSONBOID);
    const Datum value = cell_value(row, column, is_null);
    if (*is_null) return static_cast<Datum>(0);
    return pg_guard([&]() noexcept {
        // Detoast first so the caller never receives a pointer into TOAST.
        const Datum plain = PointerGetDatum(PG_DETOAST_DATUM(value));
        return SPI_datumTransfer(plain, false, -1);
    });
}

Datum get_required_jsonb_for_return(std::uint64_t row, int column) {
    bool is_null = true;
    const Datum value = get_jsonb_for_return(row, column, &is_null);
    CB_CHECK(!is_null);
    return value;
}

}  // namespace corebank::pg::spi
