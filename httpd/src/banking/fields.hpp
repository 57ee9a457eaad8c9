// fields.hpp: the field readers every core-banking request body shares, and
// the values more than one domain checks (currencies, the deposits' money and
// text bounds). The request parsers are one file per resource, next to their
// handlers: ledger/*_validation.hpp, deposits/*_validation.hpp,
// api_key_validation.hpp.
//
// Conventions: unknown fields are refused (VALIDATION_ERROR "x: unknown
// field"), text is trimmed, money is an integer `amountMinor` (never a float),
// dates are YYYY-MM-DD, ids are UUIDs. Enumerations are case-insensitive on
// input and passed on in upper case. The database checks everything again;
// this is the first, cheap line that turns bad input into a 400 naming every
// failing field.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

const std::vector<std::string>& currencies();  // USD, ZWG

// Bounds shared with the extension (sql/releases/corebank--1.3--1.4.sql.in and the ledger);
// the amount cap is core::limits::amount_minor_max.
inline constexpr std::size_t reference_max = 64;
inline constexpr std::size_t description_max = 500;
inline constexpr std::size_t narrative_max = 400;
inline constexpr std::size_t gl_code_max = 20;
inline constexpr std::size_t branch_code_max = 10;
inline constexpr std::size_t idempotency_key_max = 128;
inline constexpr std::size_t reason_max = 500;

std::string upper(std::string text);
std::string joined(const std::vector<std::string>& items);  // "A, B, C"
bool contains(const std::vector<std::string>& items, const std::string& item);
bool matches(const std::string& text, const char* pattern);  // the whole text

// Sets out[name] when the value is present.
void put(nlohmann::json& out, const char* name, const std::optional<std::string>& value);
void put(nlohmann::json& out, const char* name, const std::optional<std::int64_t>& value);
void put(nlohmann::json& out, const char* name, const std::optional<bool>& value);

// How a blank text ("" after trimming) counts: the deposits requests take it
// as not given; the ledger's requests refuse it as shorter than 1 character.
enum class Blank { absent, refused };

// Trimmed text of 1..max characters; blank counts as not given.
std::optional<std::string> read_text(JsonBody& body, const std::string& name, std::size_t max, bool required = false);
std::optional<std::string> read_uuid(JsonBody& body, const std::string& name, bool required = false,
                                     Blank blank = Blank::absent);
std::optional<std::string> read_date(JsonBody& body, const std::string& name, bool required = false,
                                     Blank blank = Blank::absent);
// An enumeration, case-insensitive; upper case out.
std::optional<std::string> read_enum(JsonBody& body, const std::string& name, const std::vector<std::string>& allowed,
                                     bool required = false);
std::optional<std::string> read_pattern(JsonBody& body, const std::string& name, std::size_t max, const char* pattern,
                                        const std::string& reason, bool required = false);
// ISO 3166 alpha-2, upper case out.
std::optional<std::string> read_country(JsonBody& body, const std::string& name);
std::optional<std::string> read_currency(JsonBody& body, const std::string& name, bool required = false);
// amountMinor (required by default); `amount` is refused with a hint.
std::optional<std::int64_t> read_amount(JsonBody& body, const nlohmann::json& raw, bool required = true);
// branchId or branchCode (upper case out), not both.
void read_branch(JsonBody& body, nlohmann::json& out);
std::optional<std::string> read_gl_code(JsonBody& body, const std::string& name);
// {reason} of at most reason_max characters.
std::optional<std::string> read_reason(JsonBody& body, bool required);

// A parsed body object (malformed JSON: 400 BAD_REQUEST, as JsonBody).
nlohmann::json raw_object(const std::string& text);
// A JsonBody over the request without the members a caller reads itself
// (problems found there are added to it with problem()).
JsonBody body_without(const nlohmann::json& raw, std::initializer_list<const char*> names);
// An empty body counts as {} for operations whose every member is optional.
std::string or_empty_object(const std::string& text);

}  // namespace corebank::httpd::core_banking
