// verify_args.hpp: the arguments every verification function shares (the
// idempotency key, SHA-256 values, a consent), read and checked once.
// Refusals are CBV00 with the "field: reason" message the tier passes on.
#pragma once

#include <optional>
#include <string>

#include "pg/postgres.hpp"

namespace corebank::pg::verify_args {

// A 32-byte bytea argument (a SHA-256 or HMAC-SHA256 value); required.
std::string require_hash(FunctionCallInfo fcinfo, int index, const char* name);

// The Idempotency-Key argument: 1 to 255 printable ASCII characters.
std::string require_idempotency_key(FunctionCallInfo fcinfo, int index);

struct ConsentRequest {
    bool granted = false;
    std::string version;                     // of the consent text shown
    std::optional<std::string> text_sha256;  // SHA-256 of that text
    std::optional<std::string> ip;
    std::optional<std::string> user_agent;   // cut to 512 bytes: evidence, not input to refuse
};

// Reads granted, version, text_sha256, ip, user_agent from consecutive
// arguments starting at `first`.
ConsentRequest read_consent(FunctionCallInfo fcinfo, int first);

}  // namespace corebank::pg::verify_args
