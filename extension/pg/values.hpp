// values.hpp: plain C++ values that cross between Datums and the extension's
// logic: a UUID, and the small text rules (email normalisation, phone key,
// length in characters) shared by every function that takes those inputs.
// Pure C++: no PostgreSQL calls, so safe to use anywhere.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/utf8.hpp"

namespace corebank::pg {

// A UUID as its 16 bytes (the layout of PostgreSQL's pg_uuid_t).
struct Uuid {
    std::array<unsigned char, 16> bytes{};
};

// Canonical 8-4-4-4-12 lower-case text.
std::string uuid_to_string(const Uuid& uuid);

// A random (version 4, RFC 4122 variant) UUID from the CSPRNG: the ids the
// extension assigns itself (transactions, event customers).
Uuid random_uuid_v4();

// Emails are compared trimmed (ASCII whitespace) and ASCII lower-cased. ASCII
// only on purpose: the result must not depend on the database's collation,
// and the same function backs the SQL helper corebank_internal.normalize_email.
std::string normalize_email(std::string_view email);

// The digits of a phone number: "+263771234567" and "263771234567" share the
// key "263771234567". Matches the phone_key generated column
// (regexp_replace(phone, '[^0-9]', '', 'g')).
std::string phone_key(std::string_view phone);

// ^\+?[0-9]{10,15}$ (the specification's phone format).
bool phone_valid(std::string_view phone);

// Number of UTF-8 characters (core/utf8.hpp).
using core::utf8_length;

// A password hash the tier produced: an argon2id PHC string. Checked so that
// a bug in the tier can never store a plaintext password.
bool password_hash_valid(std::string_view password_hash);

}  // namespace corebank::pg
