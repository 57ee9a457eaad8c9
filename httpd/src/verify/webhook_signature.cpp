// webhook_signature.cpp: see webhook_signature.hpp.
#include "verify/webhook_signature.hpp"

#include <vector>

#include "core/crypto.hpp"

namespace corebank::httpd::verify {

namespace {

constexpr std::size_t header_length_max = 1024;
constexpr std::size_t timestamp_digits_max = 12;
constexpr std::size_t signatures_max = 8;

std::string expected_digest(std::string_view secret, std::string_view timestamp, std::string_view body) {
    std::string payload;
    payload.reserve(timestamp.size() + 1 + body.size());
    payload.append(timestamp).push_back('.');
    payload.append(body);
    return core::hex_encode(core::hmac_sha256(secret, payload));
}

bool all_digits(std::string_view text) {
    if (text.empty()) return false;
    for (const char c : text)
        if (c < '0' || c > '9') return false;
    return true;
}

bool lower_hex_64(std::string_view text) {
    if (text.size() != 64) return false;
    for (const char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace

std::string webhook_signature_header(std::string_view secret, std::int64_t timestamp, std::string_view body) {
    const std::string t = std::to_string(timestamp);
    return "t=" + t + ",v1=" + expected_digest(secret, t, body);
}

std::string webhook_signature_header(std::string_view secret, std::string_view previous_secret,
                                     std::int64_t timestamp, std::string_view body) {
    const std::string t = std::to_string(timestamp);
    return "t=" + t + ",v1=" + expected_digest(secret, t, body) + ",v1=" + expected_digest(previous_secret, t, body);
}

const char* signature_check_name(SignatureCheck check) {
    switch (check) {
        case SignatureCheck::valid: return "valid";
        case SignatureCheck::malformed_header: return "malformed_header";
        case SignatureCheck::stale_timestamp: return "stale_timestamp";
        case SignatureCheck::mismatch: return "mismatch";
    }
    return "mismatch";
}

SignatureCheck verify_webhook_signature(std::string_view secret, std::string_view header, std::string_view body,
                                        std::int64_t now_unix, std::int64_t tolerance_s) {
    if (header.empty() || header.size() > header_length_max) return SignatureCheck::malformed_header;
    std::string_view timestamp;
    std::vector<std::string_view> signatures;
    std::size_t start = 0;
    while (start <= header.size()) {
        const std::size_t comma = header.find(',', start);
        std::string_view item = header.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) return SignatureCheck::malformed_header;
        const std::string_view key = item.substr(0, eq);
        const std::string_view value = item.substr(eq + 1);
        if (key == "t") {
            if (!timestamp.empty() || !all_digits(value) || value.size() > timestamp_digits_max) {
                return SignatureCheck::malformed_header;
            }
            timestamp = value;
        } else if (key == "v1") {
            if (!lower_hex_64(value) || signatures.size() >= signatures_max) return SignatureCheck::malformed_header;
            signatures.push_back(value);
        }
        // Other schemes (v0, a future v2) are ignored, as receivers should.
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    if (timestamp.empty() || signatures.empty()) return SignatureCheck::malformed_header;
    const std::int64_t t = std::stoll(std::string(timestamp));
    // The distance in unsigned arithmetic: no signed overflow for any clock value.
    const std::uint64_t skew = now_unix > t ? static_cast<std::uint64_t>(now_unix) - static_cast<std::uint64_t>(t)
                                            : static_cast<std::uint64_t>(t) - static_cast<std::uint64_t>(now_unix);
    if (tolerance_s < 0 || skew > static_cast<std::uint64_t>(tolerance_s)) return SignatureCheck::stale_timestamp;
    const std::string expected = expected_digest(secret, timestamp, body);
    bool matched = false;
    // Every candidate is compared, so the time does not tell which matched.
    for (const std::string_view candidate : signatures) matched = core::constant_time_equal(expected, candidate) || matched;
    return matched ? SignatureCheck::valid : SignatureCheck::mismatch;
}

}  // namespace corebank::httpd::verify
