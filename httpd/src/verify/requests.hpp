// requests.hpp: validation of the verification service's requests.
//
// Every parser lists all problems of a body at once, as one 400
// VALIDATION_ERROR "field: reason; field: reason" (the identity service's
// convention); a body that is not a JSON object is 400 BAD_REQUEST
// "Malformed JSON request body". JSON null counts as absent; unknown fields
// are refused. Each parsed request carries `canonical`, the body re-serialised
// with sorted keys: its HMAC is the idempotency request hash, so a retry that
// only reorders keys or changes white space is the same request.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "http_types.hpp"

namespace corebank::httpd::verify {

inline constexpr std::size_t json_body_bytes_max = 64 * 1024;
inline constexpr std::size_t subject_name_length_max = 200;
inline constexpr std::size_t subject_part_length_max = 100;
inline constexpr std::size_t id_number_length_max = 64;
inline constexpr std::size_t consent_text_length_max = 20000;
inline constexpr int search_limit_max = 100;

struct CreateSessionRequest {
    std::string flow;                       // canonical
    std::optional<std::string> reference;
    std::optional<nlohmann::json> subject;  // the validated subject object (sealed before storage)
    std::optional<std::string> id_number;   // subject.idNumber, for the lookup token
    std::optional<std::string> redirect_url;
    std::optional<nlohmann::json> metadata;
    std::string canonical;
};
CreateSessionRequest parse_create_session(const std::string& body);

struct CancelSessionRequest {
    std::optional<std::string> reason;
    std::string canonical;
};
// An empty body is {}.
CancelSessionRequest parse_cancel_session(const std::string& body);

struct ConsentRequest {
    bool granted = false;
    std::string version;
    std::optional<std::string> text;        // the consent text shown; only its SHA-256 is stored
    std::optional<std::string> ip;
    std::optional<std::string> user_agent;
    std::string canonical;
};
// POST /v1/sessions/{id}/consent: {granted, version, text?, ip?, userAgent?}.
ConsentRequest parse_api_consent(const std::string& body);
// The hosted page's consent: {granted}; the version and text are the page's own.
ConsentRequest parse_hosted_consent(const std::string& body);

struct SearchSessionsRequest {
    std::optional<std::string> id_number;
    std::optional<std::string> reference;
    std::optional<std::string> status;
    std::optional<std::string> created_before;  // ISO 8601 as given
    int limit = 20;
};
// POST /v1/sessions/search.
SearchSessionsRequest parse_search_sessions(const std::string& body);

// The Idempotency-Key header: required on every write, 1 to 255 printable
// ASCII characters without spaces (400 VALIDATION_ERROR otherwise).
std::string require_idempotency_key(const HttpRequest& request);

// A canonical lower-case UUID, or nullopt.
std::optional<std::string> canonical_uuid(const std::string& text);

// 413 PAYLOAD_TOO_LARGE when a JSON body exceeds json_body_bytes_max.
void check_json_body_size(const std::string& body);

}  // namespace corebank::httpd::verify
