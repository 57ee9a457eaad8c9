// password_proof.cpp: see password_proof.hpp. The base64, the HMAC and the
// constant-time comparison are OpenSSL's (core/base64url, core/crypto).
#include "core/password_proof.hpp"

#include <stdexcept>

#include "core/base64url.hpp"
#include "core/crypto.hpp"

namespace corebank::core::password_proof {

namespace {

constexpr std::string_view phc_prefix = "$argon2id$v=19$";

// Consumes "<name>=<decimal>" from the front of `text`; the decimal has no
// sign and no leading zero, and lies in [1, max].
std::optional<std::uint32_t> take_parameter(std::string_view& text, char name, std::uint32_t max) {
    if (text.size() < 3 || text[0] != name || text[1] != '=') return std::nullopt;
    text.remove_prefix(2);
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0 || digits > 10 || (digits > 1 && text[0] == '0')) return std::nullopt;
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < digits; ++i) value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
    text.remove_prefix(digits);
    if (value < 1 || value > max) return std::nullopt;
    return static_cast<std::uint32_t>(value);
}

bool take_char(std::string_view& text, char expected) {
    if (text.empty() || text[0] != expected) return false;
    text.remove_prefix(1);
    return true;
}

}  // namespace

std::string phc_b64_encode(std::string_view bytes) {
    std::string out = base64_encode(bytes);
    while (!out.empty() && out.back() == '=') out.pop_back();
    return out;
}

std::optional<std::string> phc_b64_decode(std::string_view text) {
    if (text.size() % 4 == 1) return std::nullopt;
    for (char c : text) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                        c == '+' || c == '/';
        if (!ok) return std::nullopt;
    }
    std::string padded(text);
    while (padded.size() % 4 != 0) padded.push_back('=');
    std::optional<std::string> bytes = base64_decode(padded);
    // Canonical only: unused low bits of the last character must be zero,
    // so one hash has one spelling.
    if (!bytes || phc_b64_encode(*bytes) != text) return std::nullopt;
    return bytes;
}

std::optional<StoredHash> parse_phc(std::string_view encoded) {
    if (encoded.size() > encoded_length_max || encoded.substr(0, phc_prefix.size()) != phc_prefix)
        return std::nullopt;
    std::string_view rest = encoded.substr(phc_prefix.size());
    StoredHash stored;
    const auto m = take_parameter(rest, 'm', memory_kib_max);
    if (!m || !take_char(rest, ',')) return std::nullopt;
    const auto t = take_parameter(rest, 't', time_cost_max);
    if (!t || !take_char(rest, ',')) return std::nullopt;
    const auto p = take_parameter(rest, 'p', parallelism_max);
    if (!p || !take_char(rest, '$')) return std::nullopt;
    // argon2 needs at least 8 KiB per lane.
    if (*m < 8 * *p) return std::nullopt;
    const std::size_t dollar = rest.find('$');
    if (dollar == std::string_view::npos) return std::nullopt;
    auto salt = phc_b64_decode(rest.substr(0, dollar));
    auto hash = phc_b64_decode(rest.substr(dollar + 1));
    if (!salt || salt->size() < salt_bytes_min || salt->size() > salt_bytes_max) return std::nullopt;
    if (!hash || hash->size() < hash_bytes_min || hash->size() > hash_bytes_max) return std::nullopt;
    stored.params = Params{*m, *t, *p, std::move(*salt)};
    stored.hash = std::move(*hash);
    return stored;
}

bool proof_matches(const StoredHash& stored, std::string_view proof) {
    if (proof.size() != proof_bytes || stored.hash.size() != proof_bytes) return false;
    return constant_time_equal(stored.hash, proof);
}

Params unknown_params(std::string_view key, std::string_view identifier) {
    if (key.empty()) throw std::invalid_argument("password_proof::unknown_params: empty key");
    return Params{default_memory_kib, default_time_cost, default_parallelism,
                  hmac_sha256(key, identifier).substr(0, salt_bytes)};
}

std::string params_json(const Params& params) {
    return "{\"m\":" + std::to_string(params.memory_kib) + ",\"t\":" + std::to_string(params.time_cost) +
           ",\"p\":" + std::to_string(params.parallelism) + ",\"salt\":\"" + phc_b64_encode(params.salt) + "\"}";
}

}  // namespace corebank::core::password_proof
