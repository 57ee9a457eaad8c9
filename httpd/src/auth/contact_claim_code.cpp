// contact_claim_code.cpp: see contact_claim_code.hpp.
#include "auth/contact_claim_code.hpp"

#include <cstdint>

#include "core/crypto.hpp"

namespace corebank::httpd::auth {

namespace {

constexpr std::uint32_t code_space = 1000000;
// The largest multiple of 10^6 that fits in 32 bits: values at or above it
// are drawn again, so every code is equally likely.
constexpr std::uint32_t draw_limit = (UINT32_MAX / code_space) * code_space;

}  // namespace

std::string new_contact_claim_code() {
    for (;;) {
        const std::string bytes = core::random_bytes(4);
        std::uint32_t value = 0;
        for (const char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
        if (value >= draw_limit) continue;
        std::string code = std::to_string(value % code_space);
        return std::string(6 - code.size(), '0') + code;
    }
}

bool is_contact_claim_code(const std::string& code) {
    if (code.size() != 6) return false;
    for (const char c : code)
        if (c < '0' || c > '9') return false;
    return true;
}

std::string contact_claim_code_hash(const std::string& data_key, const std::string& user_id, const std::string& kind,
                                    const std::string& code) {
    // A key of its own purpose: the data key also seals mail bodies.
    const std::string key = core::hmac_sha256(data_key, "corebank contact claim code v1");
    return core::hmac_sha256(key, user_id + ":" + kind + ":" + code);
}

}  // namespace corebank::httpd::auth
