// events_spi.cpp: see events_spi.hpp.
#include "pg/events_spi.hpp"

#include <cstring>

#include "core/errors.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"

namespace corebank::pg::events_spi {

namespace {

constexpr int statement_params_max = 12;
// The event service's statements; the bound catches SQL built at run time.
constexpr int cached_plans_max = 64;
constexpr std::size_t array_elements_max = 4096;

struct CachedPlan {
    const char* sql;
    SPIPlanPtr plan;
    int param_count;
    Oid param_types[statement_params_max];
};

CachedPlan cached_plans[cached_plans_max];
int cached_plan_count = 0;

// Where builders allocate; null means CurrentMemoryContext.
MemoryContext param_context = nullptr;

template <typename Body>
Datum build(Body&& body) {
    MemoryContext const target = param_context;
    return pg_guard([&]() noexcept {
        MemoryContext const previous = target != nullptr ? MemoryContextSwitchTo(target) : CurrentMemoryContext;
        const Datum value = body();
        MemoryContextSwitchTo(previous);
        return value;
    });
}

const CachedPlan& plan_for(const char* sql, const Oid* types, int count) {
    CB_CHECK(sql != nullptr && count >= 0 && count <= statement_params_max);
    for (int index = 0; index < cached_plan_count; ++index) {
        const CachedPlan& cached = cached_plans[index];
        if (cached.sql != sql) continue;
        CB_CHECK(cached.param_count == count);
        CB_CHECK(std::memcmp(cached.param_types, types, sizeof(Oid) * static_cast<std::size_t>(count)) == 0);
        return cached;
    }
    CB_CHECK(cached_plan_count < cached_plans_max);
    Oid plan_types[statement_params_max] = {};
    std::memcpy(plan_types, types, sizeof(Oid) * static_cast<std::size_t>(count));
    const SPIPlanPtr plan = pg_guard([&]() noexcept -> SPIPlanPtr {
        SPIPlanPtr prepared = SPI_prepare(sql, count, plan_types);
        if (prepared != nullptr && SPI_keepplan(prepared) != 0) return nullptr;
        return prepared;
    });
    if (plan == nullptr) throw core::CoreError(core::sqlstate_internal, "SPI_prepare failed", sql);
    CachedPlan& entry = cached_plans[cached_plan_count];
    entry.sql = sql;
    entry.plan = plan;
    entry.param_count = count;
    std::memcpy(entry.param_types, plan_types, sizeof plan_types);
    ++cached_plan_count;
    return entry;
}

}  // namespace

ParamContext::ParamContext(MemoryContext context) noexcept : previous_(param_context) { param_context = context; }

ParamContext::~ParamContext() { param_context = previous_; }

Param text(std::string_view value) {
    const char* data = value.data();
    const int length = static_cast<int>(value.size());
    CB_CHECK(value.size() < MaxAllocSize);
    return Param{TEXTOID, build([&]() noexcept { return PointerGetDatum(cstring_to_text_with_len(data, length)); }),
                 false};
}

Param text_or_null(const std::optional<std::string>& value) {
    if (!value) return Param{TEXTOID, static_cast<Datum>(0), true};
    return text(*value);
}

Param uuid(const Uuid& value) {
    const unsigned char* data = value.bytes.data();
    return Param{UUIDOID, build([&]() noexcept {
                     pg_uuid_t* out = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
                     std::memcpy(out->data, data, UUID_LEN);
                     return UUIDPGetDatum(out);
                 }),
                 false};
}

Param uuid_or_null(const std::optional<Uuid>& value) {
    if (!value) return Param{UUIDOID, static_cast<Datum>(0), true};
    return uuid(*value);
}

Param int4(std::int32_t value) { return Param{INT4OID, Int32GetDatum(value), false}; }

Param int8(std::int64_t value) { return Param{INT8OID, Int64GetDatum(value), false}; }

Param boolean(bool value) { return Param{BOOLOID, BoolGetDatum(value), false}; }

Param jsonb(Datum value) { return Param{JSONBOID, value, false}; }

Param text_array(const std::vector<std::string>& values) {
    CB_CHECK(values.size() <= array_elements_max);
    const std::string* elements = values.data();
    const int count = static_cast<int>(values.size());
    return Param{TEXTARRAYOID, build([&]() noexcept {
                     Datum* datums = static_cast<Datum*>(palloc(sizeof(Datum) * static_cast<std::size_t>(count + 1)));
                     for (int index = 0; index < count; ++index)
                         datums[index] = PointerGetDatum(cstring_to_text_with_len(
                             elements[index].data(), static_cast<int>(elements[index].size())));
                     return PointerGetDatum(construct_array(datums, count, TEXTOID, -1, false, TYPALIGN_INT));
                 }),
                 false};
}

Param int4_array(const std::vector<std::int32_t>& values) {
    CB_CHECK(values.size() <= array_elements_max);
    const std::int32_t* elements = values.data();
    const int count = static_cast<int>(values.size());
    return Param{INT4ARRAYOID, build([&]() noexcept {
                     Datum* datums = static_cast<Datum*>(palloc(sizeof(Datum) * static_cast<std::size_t>(count + 1)));
                     for (int index = 0; index < count; ++index) datums[index] = Int32GetDatum(elements[index]);
                     return PointerGetDatum(construct_array(datums, count, INT4OID, 4, true, TYPALIGN_INT));
                 }),
                 false};
}

std::uint64_t execute(const char* sql, std::initializer_list<Param> params) {
    const int count = static_cast<int>(params.size());
    CB_CHECK(count <= statement_params_max);
    Oid types[statement_params_max] = {};
    Datum values[statement_params_max] = {};
    char nulls[statement_params_max + 1] = {};
    int index = 0;
    for (const Param& param : params) {
        types[index] = param.type;
        values[index] = param.value;
        nulls[index] = param.is_null ? 'n' : ' ';
        ++index;
    }
    const SPIPlanPtr plan = plan_for(sql, types, count).plan;
    // read_only = false: a fresh snapshot per statement, so a statement that
    // waited on a row or index entry sees what the other transaction committed.
    const int result = pg_guard([&]() noexcept { return SPI_execute_plan(plan, values, nulls, false, 0); });
    if (result < 0) throw core::CoreError(core::sqlstate_internal, "SPI_execute_plan failed", sql);
    return SPI_processed;
}

void free_result() {
    pg_guard([]() noexcept {
        if (SPI_tuptable != nullptr) SPI_freetuptable(SPI_tuptable);
        SPI_tuptable = nullptr;
    });
}

}  // namespace corebank::pg::events_spi
