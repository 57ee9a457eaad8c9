// contact_claim_code.hpp: the one-time codes of email and phone claims.
// Pure functions, no I/O.
#pragma once

#include <string>

namespace corebank::httpd::auth {

// Six decimal digits, uniform (rejection sampling over RAND_bytes).
std::string new_contact_claim_code();

// True for exactly six ASCII digits.
bool is_contact_claim_code(const std::string& code);

// What the database stores and compares: HMAC-SHA-256 of "<user>:<kind>:<code>"
// under a key derived from the data key. The database never holds that key,
// so a copy of auth_contact_claims cannot be searched for the 10^6 codes
// offline; online, a claim allows 5 attempts in 15 minutes.
std::string contact_claim_code_hash(const std::string& data_key, const std::string& user_id, const std::string& kind,
                                    const std::string& code);

}  // namespace corebank::httpd::auth
