// webhook_signature.hpp: the signature of the verification service's
// webhooks, and the reference verifier receivers can copy.
//
// Header:   Verify-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>
// Digest:   HMAC-SHA256 keyed with the endpoint's signing secret (the whole
//           "whsec_..." string as printed by `./corebank webhook add`, as
//           UTF-8 bytes) over "<t>.<raw body>", lower-case hex.
// A receiver must verify the raw body bytes as received (not re-serialised
// JSON), compare in constant time, and refuse a timestamp more than the
// tolerance (300 s) away from its clock, which bounds replays. Several v1
// entries may appear (during a secret rotation's overlap the header carries
// the new secret's v1 first, then the old one's); any match is enough.
// docs/verification.md has the same verifier in Python.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace corebank::httpd::verify {

inline constexpr std::int64_t webhook_tolerance_s_default = 300;

// "t=<timestamp>,v1=<hex>"
std::string webhook_signature_header(std::string_view secret, std::int64_t timestamp, std::string_view body);
// "t=<timestamp>,v1=<hex of secret>,v1=<hex of previous_secret>": a rotation's overlap.
std::string webhook_signature_header(std::string_view secret, std::string_view previous_secret,
                                     std::int64_t timestamp, std::string_view body);

enum class SignatureCheck {
    valid,
    malformed_header,      // not "t=<digits>,v1=<64 hex>" pairs
    stale_timestamp,       // |now - t| > tolerance
    mismatch,              // no v1 matches: tampered body, wrong secret, other t
};
const char* signature_check_name(SignatureCheck check);

// The reference verifier: constant-time comparison, tolerance in seconds.
SignatureCheck verify_webhook_signature(std::string_view secret, std::string_view header, std::string_view body,
                                        std::int64_t now_unix, std::int64_t tolerance_s = webhook_tolerance_s_default);

}  // namespace corebank::httpd::verify
