// args.hpp: reading a SQL function's arguments into C++ values, and the input
// checks every API function applies to them.
//
// Getters copy out of the (possibly toasted) Datum through pg_guard; a NULL
// argument is std::nullopt. The require_* / check_* helpers throw CoreError
// with SQLSTATE CBV00 and the "name: reason" message the tier passes on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pg/postgres.hpp"
#include "pg/values.hpp"

namespace corebank::pg::args {

std::optional<std::string> text(FunctionCallInfo fcinfo, int index);
std::optional<std::string> bytea(FunctionCallInfo fcinfo, int index);
std::optional<Uuid> uuid(FunctionCallInfo fcinfo, int index);
std::optional<bool> boolean(FunctionCallInfo fcinfo, int index);
std::optional<std::int32_t> int4(FunctionCallInfo fcinfo, int index);
// At most `elements_max` elements, none NULL (CBV00 otherwise).
std::optional<std::vector<std::string>> text_array(FunctionCallInfo fcinfo, int index, const char* name,
                                                   std::size_t elements_max);
// A uuid[] argument as canonical UUID texts, a NULL element as nullopt; at
// most `elements_max` elements (CBV00 otherwise).
std::optional<std::vector<std::optional<std::string>>> uuid_array(FunctionCallInfo fcinfo, int index, const char* name,
                                                                   std::size_t elements_max);
// The jsonb argument as JSON text.
std::optional<std::string> jsonb_text(FunctionCallInfo fcinfo, int index);

[[noreturn]] void throw_validation(const std::string& message);

// CBV00 "<name>: is required" when absent.
template <typename T>
T require(std::optional<T> value, const char* name) {
    if (!value) throw_validation(std::string(name) + ": is required");
    return std::move(*value);
}

// CBV00 "<name>: must be at most N characters" (UTF-8 characters).
void check_length(const std::optional<std::string>& value, const char* name, std::size_t characters_max);

// CBV00 "<name>: must be a SHA-256 hash (32 bytes)".
void check_sha256(const std::optional<std::string>& value, const char* name);

// An empty or all-blank text is treated as absent (the tier sends NULL, but a
// "" must not become an identity).
std::optional<std::string> blank_to_null(std::optional<std::string> value);

}  // namespace corebank::pg::args
