// phone_e164.hpp: phone numbers to E.164, home-country aware (docs/events.md,
// "Identity resolution").
//
// The event service keys customers by phone, so "0771 234 567",
// "+263 77 123 4567", "00263771234567" and "263771234567" must become the same
// "+263771234567" when the home country calling code is 263. Rules, in order:
//   1. strip spaces, tabs, '-', '.', '(' and ')'; any other character that is
//      not a digit or one leading '+' makes the number unusable;
//   2. "00" prefix -> "+" (international dialling prefix);
//   3. a leading single "0" (trunk prefix) -> "+<home>" without the "0";
//   4. digits without '+' that start with the home code -> "+" prefix;
//   5. "+<home>0..." drops that "0" ("+263 (0)77 ..." is common);
//   6. the result must match ^\+[1-9][0-9]{7,14}$ (E.164: at most 15 digits).
// Anything else is not a phone number: std::nullopt. Pure C++; no locale.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace corebank::core {

// Longest raw input looked at; longer text is refused before any work.
inline constexpr std::size_t phone_input_length_max = 64;

// A country calling code: 1 to 3 digits, not starting with 0 (ITU E.164).
bool calling_code_valid(std::string_view calling_code);

// E.164 form of `raw`, or std::nullopt. `home_calling_code` must be valid.
std::optional<std::string> phone_to_e164(std::string_view raw, std::string_view home_calling_code);

}  // namespace corebank::core
