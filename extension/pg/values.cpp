// values.cpp: see values.hpp.
#include "pg/values.hpp"

#include "core/crypto.hpp"

namespace corebank::pg {

namespace {

constexpr std::string_view ascii_whitespace = " \t\r\n\f\v";
constexpr std::size_t phone_digits_min = 10;
constexpr std::size_t phone_digits_max = 15;
constexpr std::size_t password_hash_length_max = 512;

}  // namespace

Uuid random_uuid_v4() {
    const std::string random = core::random_uuid_v4_bytes();
    Uuid uuid;
    for (std::size_t index = 0; index < uuid.bytes.size(); ++index) {
        uuid.bytes[index] = static_cast<unsigned char>(random[index]);
    }
    return uuid;
}

std::string uuid_to_string(const Uuid& uuid) {
    constexpr char hex_digits[] = "0123456789abcdef";
    std::string text;
    text.reserve(36);
    for (std::size_t index = 0; index < uuid.bytes.size(); ++index) {
        if (index == 4 || index == 6 || index == 8 || index == 10) text.push_back('-');
        text.push_back(hex_digits[uuid.bytes[index] >> 4]);
        text.push_back(hex_digits[uuid.bytes[index] & 0x0F]);
    }
    return text;
}

std::string normalize_email(std::string_view email) {
    const std::size_t first = email.find_first_not_of(ascii_whitespace);
    if (first == std::string_view::npos) return {};
    const std::size_t last = email.find_last_not_of(ascii_whitespace);
    std::string normalized(email.substr(first, last - first + 1));
    for (char& c : normalized) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return normalized;
}

std::string phone_key(std::string_view phone) {
    std::string digits;
    digits.reserve(phone.size());
    for (const char c : phone) {
        if (c >= '0' && c <= '9') digits.push_back(c);
    }
    return digits;
}

bool phone_valid(std::string_view phone) {
    if (!phone.empty() && phone.front() == '+') phone.remove_prefix(1);
    if (phone.size() < phone_digits_min || phone.size() > phone_digits_max) return false;
    for (const char c : phone) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}


bool password_hash_valid(std::string_view password_hash) {
    constexpr std::string_view argon2id_prefix = "$argon2id$";
    return password_hash.size() > argon2id_prefix.size() && password_hash.size() <= password_hash_length_max &&
           password_hash.substr(0, argon2id_prefix.size()) == argon2id_prefix;
}

}  // namespace corebank::pg
