// fuzz_webhook_signature: the reference verifier of the verification
// service's webhooks (httpd/src/verify/webhook_signature.hpp).
// Input: "<secret>\n<header>\n<body>"; the first byte picks the clock.
#include <cstdint>

#include "fuzz_common.hpp"
#include "verify/webhook_signature.hpp"

using namespace corebank::httpd::verify;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto [selector, text] = corebank::fuzz::select(data, size);
    const auto [secret, rest] = corebank::fuzz::split_line(text);
    const auto [header, body] = corebank::fuzz::split_line(rest);
    const std::int64_t now = 1700000000 + static_cast<std::int64_t>(selector) * 7;

    // Whatever the header says, the verifier answers and names its answer.
    const SignatureCheck check = verify_webhook_signature(secret, header, body, now);
    FUZZ_CHECK(signature_check_name(check) != nullptr);
    // Clocks from 1970 to year ~36812 (a receiver's clock, not attacker input:
    // now_unix near INT64_MIN/MAX would overflow |now - t|, see the report).
    (void)verify_webhook_signature(secret, header, body, (selector & 1) ? (std::int64_t{1} << 40) : 0, 300);
    (void)verify_webhook_signature(secret, header, body, now, (selector & 2) ? 0 : INT64_MAX);

    // What the sender signs verifies, and a tampered body does not.
    const std::string signed_header = webhook_signature_header(secret, now - 10, body);
    FUZZ_CHECK(verify_webhook_signature(secret, signed_header, body, now) == SignatureCheck::valid);
    FUZZ_CHECK(verify_webhook_signature(secret, signed_header, body + "x", now) == SignatureCheck::mismatch);
    FUZZ_CHECK(verify_webhook_signature(secret, signed_header, body, now + 100000) == SignatureCheck::stale_timestamp);
    return 0;
}
