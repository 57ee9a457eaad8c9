// money_request.hpp: the members of a money request (deposit, withdrawal,
// transfer, fee), read in pure C++ with the rules and messages the SQL
// faces have always answered (docs/deposits.md, "Money").
//
// A request arrives as jsonb. The adapter (pg/jsonb_members.hpp) hands each
// member over as a Member: its JSON kind and its text as PostgreSQL prints it
// (a number as numeric_out writes it: 1e3 is "1000", 12.30 stays "12.30"),
// so these readers decide exactly what the SQL readers they replace decided
// (corebank_internal.json_string, json_int, json_uuid, json_date,
// json_amount_minor, json_channel). Each throws CoreError CBV00
// "<member>: <reason>" for the first bad member it reads; the engine reads
// members in the order the SQL functions did, so a request with two faults
// names the same one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corebank::core::money_request {

struct Member {
    enum class Kind { absent, null, string, number, boolean, object, array };
    Kind kind = Kind::absent;
    std::string text;  // string: its value; number: numeric_out's text; else empty
};

// Bounds of the money members (the SQL faces' own).
inline constexpr std::size_t idempotency_key_length_max = 128;
inline constexpr std::size_t reference_length_max = 80;   // the ledger then takes at most 64
inline constexpr std::size_t description_length_max = 500;
inline constexpr std::size_t narrative_length_max = 500;
inline constexpr std::size_t transfer_narrative_length_max = 400;
inline constexpr std::size_t currency_length_max = 3;
inline constexpr std::size_t gl_code_length_max = 20;
inline constexpr std::size_t branch_code_length_max = 10;
inline constexpr std::size_t channel_length_max = 32;
inline constexpr std::size_t uuid_length = 36;
inline constexpr std::size_t date_length = 10;

// A string member: nullopt when absent, null or ""; CBV00 "<name>: must be a
// string" for another kind, "<name>: must be at most <n> characters" when
// longer (characters, before any trimming).
std::optional<std::string> text(const Member& member, std::string_view name, std::size_t length_max);

// text() with spaces trimmed from both ends; nullopt when nothing is left.
std::optional<std::string> trimmed(const Member& member, std::string_view name, std::size_t length_max);

// A UUID in its canonical lower-case form: CBV00 "<name>: must be a UUID".
std::optional<std::string> uuid(const Member& member, std::string_view name);

// A calendar date YYYY-MM-DD (years 0001..9999): CBV00 "<name>: must be a date YYYY-MM-DD".
std::optional<std::string> date(const Member& member, std::string_view name);

// The channel, upper-cased; "BRANCH" when absent:
// CBV00 "channel: must be 1 to 32 of A-Z a-z 0-9 _ . -".
std::string channel(const Member& member);

// The amount in minor units, from amountMinor (an integer 0..amount_minor_max,
// as a number or a string of digits) or else amount (a decimal "12.34" with at
// most 13 integer digits and 2 decimals, as a number or a string); it must
// be present and positive:
//   "amountMinor: must be an integer from 0 to <max>"
//   "amount: must be a decimal amount with at most 2 decimals"
//   "amountMinor: is required (or amount)"
//   "amountMinor: must be greater than zero"
std::int64_t positive_amount(const Member& amount_minor, const Member& amount);

}  // namespace corebank::core::money_request
