// datums.hpp: return values built without a query, in CurrentMemoryContext
// (call them after spi::finish(), so the value lives in the caller's context).
#pragma once

#include <string_view>

#include "pg/postgres.hpp"

namespace corebank::pg {

// Parses a constant JSON literal (e.g. {"outcome":"locked"}) into jsonb. Only
// for literals written in the source: values from input go through SQL
// parameters.
Datum jsonb_from_literal(const char* json_literal);

// A text Datum holding `value`.
Datum text_datum(std::string_view value);

// A uuid Datum from its canonical text (8-4-4-4-12 hex digits).
Datum uuid_datum(std::string_view canonical);

}  // namespace corebank::pg
