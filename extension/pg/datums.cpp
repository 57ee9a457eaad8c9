// datums.cpp: see datums.hpp.
#include "pg/datums.hpp"

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

}  // namespace corebank::pg
