// money_request.cpp: see money_request.hpp.
#include "core/money_request.hpp"

#include <cctype>

#include "core/errors.hpp"
#include "core/ledger.hpp"
#include "core/limits.hpp"
#include "core/utf8.hpp"

namespace corebank::core::money_request {

namespace {

[[noreturn]] void refuse(std::string_view name, std::string_view reason) {
    throw CoreError(sqlstate_validation, std::string(name) + ": " + std::string(reason));
}

bool all_digits(std::string_view text) {
    if (text.empty()) return false;
    for (const char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
    return true;
}

// "-?[0-9]{1,18}" within [minimum, maximum] (json_int's rule).
std::optional<std::int64_t> bounded_integer(std::string_view digits, std::int64_t minimum, std::int64_t maximum) {
    const bool negative = !digits.empty() && digits.front() == '-';
    const std::string_view body = negative ? digits.substr(1) : digits;
    if (body.size() > 18 || !all_digits(body)) return std::nullopt;
    std::int64_t value = 0;
    for (const char c : body) value = value * 10 + (c - '0');  // 18 digits fit in int64
    if (negative) value = -value;
    if (value < minimum || value > maximum) return std::nullopt;
    return value;
}

// "[0-9]{1,13}(\.[0-9]{1,2})?" in minor units (json_amount_minor's rule): the
// ledger's decimal rule with at most 13 integer digits.
std::optional<std::int64_t> decimal_minor(std::string_view text) {
    constexpr std::size_t whole_digits_max = 13;
    if (text.substr(0, text.find('.')).size() > whole_digits_max) return std::nullopt;
    return ledger::decimal_to_minor(text, 2);
}

}  // namespace

std::optional<std::string> text(const Member& member, std::string_view name, std::size_t length_max) {
    if (member.kind == Member::Kind::absent || member.kind == Member::Kind::null) return std::nullopt;
    if (member.kind != Member::Kind::string) refuse(name, "must be a string");
    if (utf8_length(member.text) > length_max) {
        refuse(name, "must be at most " + std::to_string(length_max) + " characters");
    }
    if (member.text.empty()) return std::nullopt;
    return member.text;
}

std::optional<std::string> trimmed(const Member& member, std::string_view name, std::size_t length_max) {
    const std::optional<std::string> value = text(member, name, length_max);
    if (!value) return std::nullopt;
    const std::size_t first = value->find_first_not_of(' ');
    if (first == std::string::npos) return std::nullopt;
    const std::size_t last = value->find_last_not_of(' ');
    return value->substr(first, last - first + 1);
}

std::optional<std::string> uuid(const Member& member, std::string_view name) {
    const std::optional<std::string> value = text(member, name, uuid_length);
    if (!value) return std::nullopt;
    std::optional<std::string> canonical = ledger::canonical_uuid(*value);  // the 8-4-4-4-12 form only
    if (!canonical) refuse(name, "must be a UUID");
    return canonical;
}

std::optional<std::string> date(const Member& member, std::string_view name) {
    const std::optional<std::string> value = text(member, name, date_length);
    if (!value) return std::nullopt;
    if (!ledger::is_iso_date(*value, 1)) refuse(name, "must be a date YYYY-MM-DD");
    return value;
}

std::string channel(const Member& member) {
    const std::string value = text(member, "channel", channel_length_max).value_or("BRANCH");
    if (!ledger::is_code_text(value, channel_length_max)) refuse("channel", "must be 1 to 32 of A-Z a-z 0-9 _ . -");
    return ledger::upper_ascii(value);
}

std::int64_t positive_amount(const Member& amount_minor, const Member& amount) {
    std::optional<std::int64_t> minor;
    if (amount_minor.kind != Member::Kind::absent && amount_minor.kind != Member::Kind::null) {
        const bool readable = amount_minor.kind == Member::Kind::number || amount_minor.kind == Member::Kind::string;
        minor = readable ? bounded_integer(amount_minor.text, 0, limits::amount_minor_max) : std::nullopt;
        if (!minor) refuse("amountMinor", "must be an integer from 0 to " + std::to_string(limits::amount_minor_max));
    } else if (amount.kind == Member::Kind::number || amount.kind == Member::Kind::string) {
        minor = decimal_minor(amount.text);
        if (!minor) refuse("amount", "must be a decimal amount with at most 2 decimals");
    }
    if (!minor) refuse("amountMinor", "is required (or amount)");
    if (*minor <= 0) refuse("amountMinor", "must be greater than zero");
    return *minor;
}

}  // namespace corebank::core::money_request
