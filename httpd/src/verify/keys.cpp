// keys.cpp: see keys.hpp.
#include "verify/keys.hpp"

#include <stdexcept>

#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "hex_digit.hpp"

namespace corebank::httpd::verify {

namespace {

constexpr std::size_t token_random_bytes = 32;

}  // namespace

VerifyKeys derive_keys(const std::string& data_key) {
    if (data_key.size() != core::data_key_bytes) throw std::invalid_argument("the data key must be 32 bytes");
    return VerifyKeys{data_key, core::hmac_sha256(data_key, "corebank/verify/subject-lookup/v1"),
                      core::hmac_sha256(data_key, "corebank/verify/idempotency-request/v1")};
}

std::string normalise_id_number(std::string_view id_number) {
    std::string out;
    for (const char c : id_number) {
        if (c >= 'a' && c <= 'z') out.push_back(static_cast<char>(c - 'a' + 'A'));
        else if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) out.push_back(c);
    }
    return out;
}

std::string subject_lookup(const VerifyKeys& keys, std::string_view id_number) {
    return core::hmac_sha256(keys.lookup_key, "idNumber:" + normalise_id_number(id_number));
}

std::string request_hash(const VerifyKeys& keys, std::string_view operation, std::string_view target,
                         std::string_view canonical) {
    std::string message;
    message.reserve(operation.size() + target.size() + canonical.size() + 2);
    message.append(operation).push_back('\n');
    message.append(target).push_back('\n');
    message.append(canonical);
    return core::hmac_sha256(keys.request_key, message);
}

std::string new_session_id() {
    const std::string hex = core::hex_encode(core::random_uuid_v4_bytes());
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
           hex.substr(20, 12);
}

std::string new_client_token() { return "vct_" + core::base64url_encode(core::random_bytes(token_random_bytes)); }
std::string new_webhook_secret() { return "whsec_" + core::base64url_encode(core::random_bytes(token_random_bytes)); }

std::string seal_subject(const VerifyKeys& keys, const std::string& session_id, const std::string& subject_json) {
    return core::aead_seal(keys.data_key, subject_json, "verify.subject:" + session_id);
}

std::optional<std::string> open_subject(const VerifyKeys& keys, const std::string& session_id, const std::string& sealed) {
    return core::aead_open(keys.data_key, sealed, "verify.subject:" + session_id);
}

std::string seal_client_token(const VerifyKeys& keys, const std::string& session_id, const std::string& token) {
    return core::aead_seal(keys.data_key, token, "verify.client_token:" + session_id);
}

std::optional<std::string> open_client_token(const VerifyKeys& keys, const std::string& session_id,
                                             const std::string& sealed) {
    return core::aead_open(keys.data_key, sealed, "verify.client_token:" + session_id);
}

std::string seal_image(const VerifyKeys& keys, const std::string& session_id, const std::string& kind,
                       const std::string& image) {
    return core::aead_seal(keys.data_key, image, "verify.capture:" + session_id + ":" + kind);
}

std::optional<std::string> open_image(const VerifyKeys& keys, const std::string& session_id, const std::string& kind,
                                      const std::string& sealed) {
    return core::aead_open(keys.data_key, sealed, "verify.capture:" + session_id + ":" + kind);
}

std::string seal_webhook_secret(const std::string& data_key, const std::string& url, const std::string& secret) {
    return core::aead_seal(data_key, secret, "verify.webhook_secret:" + url);
}

std::optional<std::string> open_webhook_secret(const std::string& data_key, const std::string& url,
                                               const std::string& sealed) {
    return core::aead_open(data_key, sealed, "verify.webhook_secret:" + url);
}

std::optional<std::string> bytes_from_hex(std::string_view text) {
    if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') text.remove_prefix(2);
    if (text.size() % 2 != 0) return std::nullopt;
    std::string out;
    out.reserve(text.size() / 2);
    for (std::size_t i = 0; i < text.size(); i += 2) {
        const int high = hex_digit_value(text[i]);
        const int low = hex_digit_value(text[i + 1]);
        if (high < 0 || low < 0) return std::nullopt;
        out.push_back(static_cast<char>(high * 16 + low));
    }
    return out;
}

}  // namespace corebank::httpd::verify
