// args.cpp: see args.hpp.
#include "pg/args.hpp"

#include <algorithm>
#include <cstring>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "pg/check.hpp"
#include "pg/guard.hpp"

namespace corebank::pg::args {

namespace {

struct Bytes {
    const char* data;
    std::size_t length;
};

// Detoasts the varlena argument `index` (text or bytea) and points at it.
Bytes varlena_argument(FunctionCallInfo fcinfo, int index) {
    return pg_guard([&]() noexcept {
        struct varlena* value = PG_GETARG_VARLENA_PP(index);
        return Bytes{VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value)};
    });
}

void check_index(FunctionCallInfo fcinfo, int index) {
    CB_CHECK(index >= 0 && index < PG_NARGS());
}

}  // namespace

void throw_validation(const std::string& message) {
    throw core::CoreError(core::sqlstate_validation, message);
}

std::optional<std::string> text(FunctionCallInfo fcinfo, int index) {
    check_index(fcinfo, index);
    if (PG_ARGISNULL(index)) return std::nullopt;
    const Bytes bytes = varlena_argument(fcinfo, index);
    return std::string(bytes.data, bytes.length);
}

std::optional<std::string> bytea(FunctionCallInfo fcinfo, int index) {
    return text(fcinfo, index);  // same varlena layout; bytes are copied verbatim
}

std::optional<Uuid> uuid(FunctionCallInfo fcinfo, int index) {
    check_index(fcinfo, index);
    if (PG_ARGISNULL(index)) return std::nullopt;
    Uuid value;
    std::memcpy(value.bytes.data(), PG_GETARG_UUID_P(index)->data, UUID_LEN);
    return value;
}

std::optional<bool> boolean(FunctionCallInfo fcinfo, int index) {
    check_index(fcinfo, index);
    if (PG_ARGISNULL(index)) return std::nullopt;
    return static_cast<bool>(PG_GETARG_BOOL(index));
}

std::optional<std::int32_t> int4(FunctionCallInfo fcinfo, int index) {
    check_index(fcinfo, index);
    if (PG_ARGISNULL(index)) return std::nullopt;
    return static_cast<std::int32_t>(PG_GETARG_INT32(index));
}

namespace {

// The elements of a one-dimensional array argument (not NULL), at most
// `elements_max` of them (CBV00 otherwise); the Datums point into the
// argument's detoasted copy.
struct ArrayElements {
    Datum* datums;
    bool* nulls;
    int count;
};

ArrayElements array_elements(FunctionCallInfo fcinfo, int index, const char* name, std::size_t elements_max,
                             Oid element_type, int element_length, char element_align) {
    struct Deconstructed {
        ArrayElements elements;
        int dimensions;
    };
    const Deconstructed out = pg_guard([&]() noexcept {
        Deconstructed result{{nullptr, nullptr, 0}, 0};
        ArrayType* array = PG_GETARG_ARRAYTYPE_P(index);
        result.dimensions = ARR_NDIM(array);
        deconstruct_array(array, element_type, element_length, false, element_align, &result.elements.datums,
                          &result.elements.nulls, &result.elements.count);
        return result;
    });
    if (out.dimensions > 1) throw_validation(std::string(name) + ": must be a one-dimensional array");
    if (static_cast<std::size_t>(out.elements.count) > elements_max) {
        throw_validation(std::string(name) + ": must have at most " + std::to_string(elements_max) + " elements");
    }
    return out.elements;
}

}  // namespace

std::optional<std::vector<std::string>> text_array(FunctionCallInfo fcinfo, int index, const char* name,
                                                   std::size_t elements_max) {
    check_index(fcinfo, index);
    if (PG_ARGISNULL(index)) return std::nullopt;
    const ArrayElements elements = array_elements(fcinfo, index, name, elements_max, TEXTOID, -1, TYPALIGN_INT);
    std::vector<std::string> strings;
    strings.reserve(static_cast<std::size_t>(elements.count));
    for (int element = 0; element < elements.count; ++element) {
        if (elements.nulls[element]) throw_validation(std::string(name) + ": must not contain null");
        const struct varlena* value = reinterpret_cast<const struct varlena*>(DatumGetPointer(elements.datums[element]));
        strings.emplace_back(VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value));
    }
    return strings;
}

std::optional<std::vector<std::optional<std::string>>> uuid_array(FunctionCallInfo fcinfo, int index, const char* name,
                                                                   std::size_t elements_max) {
    check_index(fcinfo, index);
    if (PG_ARGISNULL(index)) return std::nullopt;
    const ArrayElements elements =
        array_elements(fcinfo, index, name, elements_max, UUIDOID, UUID_LEN, TYPALIGN_CHAR);
    std::vector<std::optional<std::string>> uuids;
    uuids.reserve(static_cast<std::size_t>(elements.count));
    for (int element = 0; element < elements.count; ++element) {
        if (elements.nulls[element]) {
            uuids.emplace_back(std::nullopt);
            continue;
        }
        Uuid value{};
        const auto* bytes = reinterpret_cast<const unsigned char*>(DatumGetPointer(elements.datums[element]));
        std::copy(bytes, bytes + UUID_LEN, value.bytes.begin());
        uuids.emplace_back(uuid_to_string(value));
    }
    return uuids;
}

std::optional<std::string> jsonb_text(FunctionCallInfo fcinfo, int index) {
    check_index(fcinfo, index);
    if (PG_ARGISNULL(index)) return std::nullopt;
    const char* json_text = pg_guard([&]() noexcept {
        Jsonb* value = PG_GETARG_JSONB_P(index);
        return static_cast<const char*>(JsonbToCString(nullptr, &value->root, VARSIZE(value)));
    });
    return std::string(json_text);
}

void check_length(const std::optional<std::string>& value, const char* name, std::size_t characters_max) {
    if (value && utf8_length(*value) > characters_max) {
        throw_validation(std::string(name) + ": must be at most " + std::to_string(characters_max) + " characters");
    }
}

void check_sha256(const std::optional<std::string>& value, const char* name) {
    if (value && value->size() != core::sha256_bytes) {
        throw_validation(std::string(name) + ": must be a SHA-256 hash (32 bytes)");
    }
}

std::optional<std::string> blank_to_null(std::optional<std::string> value) {
    if (value && value->find_first_not_of(" \t\r\n\f\v") == std::string::npos) return std::nullopt;
    return value;
}

}  // namespace corebank::pg::args
