// phone_e164.cpp: see phone_e164.hpp.
#include "core/phone_e164.hpp"

#include <cassert>

namespace corebank::core {

namespace {

constexpr std::size_t e164_digits_min = 8;
constexpr std::size_t e164_digits_max = 15;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_separator(char c) { return c == ' ' || c == '\t' || c == '-' || c == '.' || c == '(' || c == ')'; }

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

// Step 1: digits, with an optional leading '+'; nullopt on any other character.
std::optional<std::string> strip_separators(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for (const char c : raw) {
        if (is_digit(c)) {
            out.push_back(c);
        } else if (c == '+' && out.empty()) {
            out.push_back(c);
        } else if (!is_separator(c)) {
            return std::nullopt;
        }
    }
    return out;
}

// ^\+[1-9][0-9]{7,14}$
bool e164_valid(const std::string& phone) {
    if (phone.size() < 1 + e164_digits_min || phone.size() > 1 + e164_digits_max) return false;
    if (phone[0] != '+' || phone[1] == '0') return false;
    for (std::size_t index = 1; index < phone.size(); ++index)
        if (!is_digit(phone[index])) return false;
    return true;
}

}  // namespace

bool calling_code_valid(std::string_view calling_code) {
    if (calling_code.empty() || calling_code.size() > 3 || calling_code[0] == '0') return false;
    for (const char c : calling_code)
        if (!is_digit(c)) return false;
    return true;
}

std::optional<std::string> phone_to_e164(std::string_view raw, std::string_view home_calling_code) {
    assert(calling_code_valid(home_calling_code));
    if (raw.size() > phone_input_length_max) return std::nullopt;
    std::optional<std::string> stripped = strip_separators(raw);
    if (!stripped || stripped->empty()) return std::nullopt;
    std::string number = std::move(*stripped);

    if (starts_with(number, "00")) {
        number = "+" + number.substr(2);
    } else if (starts_with(number, "0")) {
        number = "+" + std::string(home_calling_code) + number.substr(1);
    } else if (number[0] != '+') {
        // Digits only and no trunk prefix: usable only when they already
        // carry the home country code.
        if (!starts_with(number, home_calling_code)) return std::nullopt;
        number = "+" + number;
    }
    const std::string home_with_trunk = "+" + std::string(home_calling_code) + "0";
    if (starts_with(number, home_with_trunk)) number.erase(home_with_trunk.size() - 1, 1);

    if (!e164_valid(number)) return std::nullopt;
    assert(number[0] == '+' && number.size() <= 1 + e164_digits_max);
    return number;
}

}  // namespace corebank::core
