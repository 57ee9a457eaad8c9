// events_spi.hpp: statements of the event service's hot path, with Datum
// parameters.
//
// pg/spi.hpp copies every parameter through a C++ value; ingest instead
// passes the batch's own jsonb to each event's INSERT by reference (the
// statement picks the event's identity and payload out of it), so nothing
// of a 1 MiB batch is copied or re-parsed per event. The rules are those of
// spi.hpp: static SQL only, planned once per backend (keyed by the address of
// the text), every PostgreSQL call through pg_guard. Results are read with
// pg::spi's getters, then free_result() releases the tuple table, so that 500
// events do not keep 500 tuple tables until SPI_finish.
//
// Parameter Datums are built in the context set by ParamContext (the
// per-event context of the ingest loop), never in SPI's procedure context.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pg/postgres.hpp"
#include "pg/values.hpp"

namespace corebank::pg::events_spi {

struct Param {
    Oid type;
    Datum value;
    bool is_null;
};

// While alive, parameter builders allocate in `context`.
class ParamContext {
public:
    explicit ParamContext(MemoryContext context) noexcept;
    ~ParamContext();
    ParamContext(const ParamContext&) = delete;
    ParamContext& operator=(const ParamContext&) = delete;

private:
    MemoryContext previous_;
};

Param text(std::string_view value);
Param text_or_null(const std::optional<std::string>& value);
Param uuid(const Uuid& value);
Param uuid_or_null(const std::optional<Uuid>& value);
Param int4(std::int32_t value);
Param int8(std::int64_t value);
Param boolean(bool value);
Param jsonb(Datum value);  // an existing jsonb Datum, by reference
Param text_array(const std::vector<std::string>& values);
Param int4_array(const std::vector<std::int32_t>& values);

// Executes a static statement; returns the rows processed (SPI_processed).
std::uint64_t execute(const char* sql, std::initializer_list<Param> params);

// Releases the last statement's tuple table (if any).
void free_result();

}  // namespace corebank::pg::events_spi
