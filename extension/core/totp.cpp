// totp.cpp: see totp.hpp.
#include "core/totp.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>

#include "core/crypto.hpp"
#include "core/errors.hpp"

namespace corebank::core::totp {

namespace {

constexpr std::string_view base32_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
constexpr int digits_min = 6;
constexpr int digits_max = 8;
// Random bytes drawn per attempt at a recovery code: 8 of 256 byte values are
// rejected (recovery_code_from), so 64 bytes run short of 10 symbols with a
// probability far below 1e-40; a short draw simply draws again.
constexpr std::size_t recovery_random_bytes = 64;
constexpr int recovery_draws_max = 16;

std::string hmac_sha1(std::string_view key, std::string_view data) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
    unsigned int length = 0;
    if (HMAC(EVP_sha1(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
             data.size(), out.data(), &length) == nullptr || length != 20)
        throw CoreError(sqlstate_internal, "HMAC-SHA-1 failed");
    return std::string(reinterpret_cast<const char*>(out.data()), length);
}

// RFC 3986 unreserved characters stay; everything else is %XX.
std::string percent_encode(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 0x0f];
        }
    }
    return out;
}

}  // namespace

std::string hotp(std::string_view key, std::uint64_t counter, int code_digits) {
    if (key.empty()) throw CoreError(sqlstate_internal, "HOTP needs a key");
    if (code_digits < digits_min || code_digits > digits_max)
        throw CoreError(sqlstate_internal, "HOTP digits must be 6 to 8");
    std::string message(8, '\0');
    for (int i = 7; i >= 0; --i) {
        message[static_cast<std::size_t>(i)] = static_cast<char>(counter & 0xff);
        counter >>= 8;
    }
    const std::string mac = hmac_sha1(key, message);
    // Dynamic truncation (RFC 4226 section 5.3).
    const std::size_t offset = static_cast<unsigned char>(mac[19]) & 0x0f;
    const std::uint32_t binary = (static_cast<std::uint32_t>(static_cast<unsigned char>(mac[offset]) & 0x7f) << 24) |
                                 (static_cast<std::uint32_t>(static_cast<unsigned char>(mac[offset + 1])) << 16) |
                                 (static_cast<std::uint32_t>(static_cast<unsigned char>(mac[offset + 2])) << 8) |
                                 static_cast<std::uint32_t>(static_cast<unsigned char>(mac[offset + 3]));
    std::uint32_t modulus = 1;
    for (int i = 0; i < code_digits; ++i) modulus *= 10;
    std::string code = std::to_string(binary % modulus);
    code.insert(0, static_cast<std::size_t>(code_digits) - code.size(), '0');
    return code;
}

std::int64_t step_of(std::int64_t unix_seconds) {
    // floor division: a time before 1970 has a negative step, never step 0 twice.
    return unix_seconds >= 0 ? unix_seconds / step_seconds : -((-unix_seconds + step_seconds - 1) / step_seconds);
}

std::string code_at(std::string_view key, std::int64_t step, int code_digits) {
    return hotp(key, static_cast<std::uint64_t>(step), code_digits);
}

bool is_code_format(std::string_view code) {
    if (code.size() != static_cast<std::size_t>(digits)) return false;
    for (const char c : code)
        if (c < '0' || c > '9') return false;
    return true;
}

std::optional<std::int64_t> match(std::string_view key, std::string_view code, std::int64_t now_step,
                                  std::optional<std::int64_t> last_accepted_step) {
    if (!is_code_format(code)) return std::nullopt;
    std::optional<std::int64_t> found;
    // Every candidate is computed and compared, so the time taken does not
    // tell which step (if any) matched.
    for (std::int64_t step = now_step - window_steps; step <= now_step + window_steps; ++step) {
        const bool equal = constant_time_equal(code_at(key, step), code);
        const bool fresh = !last_accepted_step || step > *last_accepted_step;
        if (equal && fresh && !found) found = step;
    }
    return found;
}

std::string base32_encode(std::string_view bytes) {
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const char c : bytes) {
        buffer = (buffer << 8) | static_cast<unsigned char>(c);
        bits += 8;
        while (bits >= 5) {
            out += base32_alphabet[(buffer >> (bits - 5)) & 0x1f];
            bits -= 5;
        }
    }
    if (bits > 0) out += base32_alphabet[(buffer << (5 - bits)) & 0x1f];
    return out;
}

std::optional<std::string> base32_decode(std::string_view text) {
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const char c : text) {
        if (c == ' ' || c == '=') continue;
        const char upper = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
        const std::size_t value = base32_alphabet.find(upper);
        if (value == std::string_view::npos) return std::nullopt;
        buffer = (buffer << 5) | static_cast<std::uint32_t>(value);
        bits += 5;
        if (bits >= 8) {
            out += static_cast<char>((buffer >> (bits - 8)) & 0xff);
            bits -= 8;
        }
        buffer &= (1u << bits) - 1;
    }
    if (bits >= 5 || buffer != 0) return std::nullopt;  // a stray symbol, or non-zero padding bits
    return out;
}

std::string otpauth_uri(std::string_view issuer, std::string_view account, std::string_view key) {
    if (issuer.empty() || account.empty() || issuer.size() > uri_label_length_max ||
        account.size() > uri_label_length_max)
        throw CoreError(sqlstate_internal, "otpauth URI: issuer and account must be 1 to 254 bytes");
    const std::string encoded_issuer = percent_encode(issuer);
    return "otpauth://totp/" + encoded_issuer + ":" + percent_encode(account) + "?secret=" + base32_encode(key) +
           "&issuer=" + encoded_issuer + "&algorithm=SHA1&digits=" + std::to_string(digits) +
           "&period=" + std::to_string(step_seconds);
}

std::optional<std::string> recovery_code_from(std::string_view random) {
    // The largest multiple of the alphabet size that fits a byte: bytes at or
    // above it are skipped, so byte % 31 is uniform.
    const unsigned limit = 256 - 256 % recovery_alphabet.size();
    std::string code;
    for (const char c : random) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= limit) continue;
        code += recovery_alphabet[byte % recovery_alphabet.size()];
        if (code.size() == recovery_code_length) return code;
    }
    return std::nullopt;
}

std::string recovery_code() {
    for (int draw = 0; draw < recovery_draws_max; ++draw)
        if (auto code = recovery_code_from(random_bytes(recovery_random_bytes))) return *code;
    throw CoreError(sqlstate_internal, "could not draw a recovery code");
}

std::string recovery_code_display(std::string_view code) {
    const std::size_t half = code.size() / 2;
    return std::string(code.substr(0, half)) + "-" + std::string(code.substr(half));
}

std::optional<std::string> recovery_code_normalise(std::string_view typed) {
    if (typed.size() > 2 * recovery_code_length) return std::nullopt;
    std::string code;
    for (const char c : typed) {
        if (c == '-' || c == ' ') continue;
        const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        if (recovery_alphabet.find(lower) == std::string_view::npos) return std::nullopt;
        code += lower;
    }
    if (code.size() != recovery_code_length) return std::nullopt;
    return code;
}

}  // namespace corebank::core::totp
