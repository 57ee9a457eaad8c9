// datums.cpp: see datums.hpp.
#include "pg/datums.hpp"

#include <string>

#include "core/ledger.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"

namespace corebank::pg {

Datum jsonb_from_literal(const char* json_literal) {
    CB_CHECK(json_literal != nullptr && json_literal[0] == '{');
    return pg_guard([&]() noexcept { return DirectFunctionCall1(jsonb_in, CStringGetDatum(json_literal)); });
}

Datum text_datum(std::string_view value) {
    CB_CHECK(value.size() < MaxAllocSize - VARHDRSZ);
    const char* data = value.data();
    const int length = static_cast<int>(value.size());
    return pg_guard([&]() noexcept { return PointerGetDatum(cstring_to_text_with_len(data, length)); });
}

Datum uuid_datum(std::string_view canonical) {
    const std::optional<std::string> checked = core::ledger::canonical_uuid(canonical);
    CB_CHECK(checked.has_value());
    const char* text = checked->c_str();
    return pg_guard([&]() noexcept { return DirectFunctionCall1(uuid_in, CStringGetDatum(text)); });
}

}  // namespace corebank::pg
