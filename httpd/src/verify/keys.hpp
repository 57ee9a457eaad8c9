// keys.hpp: the verification service's secrets and identifiers.
//
// Everything personal that the database stores about a session is sealed
// here, in the tier, with AES-256-GCM under the deployment's data key
// (data_key.hpp): the subject, the captured images, the client token kept
// for idempotent replays, the webhook signing secrets. Each seal binds its
// place as associated data ("verify.subject:<session id>", ...), so a sealed
// value copied into another row does not open. Two more keys are derived
// from the data key with HMAC-SHA256 and a fixed label, never stored:
//   lookup key   -> the subject's lookup token: HMAC of the normalised ID
//                   number, so equal ID numbers can be found without
//                   storing them;
//   request key  -> the idempotency request hash: HMAC of the operation, its
//                   target and the canonical request body, so the stored
//                   hash says nothing about a subject to anyone without keys.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace corebank::httpd::verify {

struct VerifyKeys {
    std::string data_key;     // 32 bytes
    std::string lookup_key;   // 32 bytes, derived
    std::string request_key;  // 32 bytes, derived
};

VerifyKeys derive_keys(const std::string& data_key);

// Upper-case ASCII letters and digits only: "ab-12 345" and "AB12345" are one ID.
std::string normalise_id_number(std::string_view id_number);
// 32 bytes.
std::string subject_lookup(const VerifyKeys& keys, std::string_view id_number);
// 32 bytes: HMAC(request key, operation \n target \n canonical).
std::string request_hash(const VerifyKeys& keys, std::string_view operation, std::string_view target,
                         std::string_view canonical);

// A random (version 4) UUID in canonical text form.
std::string new_session_id();
// "vct_" + 43 base64url characters (32 random bytes).
std::string new_client_token();
// "whsec_" + 43 base64url characters.
std::string new_webhook_secret();

std::string seal_subject(const VerifyKeys& keys, const std::string& session_id, const std::string& subject_json);
std::optional<std::string> open_subject(const VerifyKeys& keys, const std::string& session_id, const std::string& sealed);
std::string seal_client_token(const VerifyKeys& keys, const std::string& session_id, const std::string& token);
std::optional<std::string> open_client_token(const VerifyKeys& keys, const std::string& session_id,
                                             const std::string& sealed);
std::string seal_image(const VerifyKeys& keys, const std::string& session_id, const std::string& kind,
                       const std::string& image);
std::optional<std::string> open_image(const VerifyKeys& keys, const std::string& session_id, const std::string& kind,
                                      const std::string& sealed);
std::string seal_webhook_secret(const std::string& data_key, const std::string& url, const std::string& secret);
std::optional<std::string> open_webhook_secret(const std::string& data_key, const std::string& url,
                                               const std::string& sealed);

// bytea in PostgreSQL's text output ("\x0a0b..") or plain hex ("0a0b..") to
// bytes; nullopt when malformed.
std::optional<std::string> bytes_from_hex(std::string_view text);

}  // namespace corebank::httpd::verify
