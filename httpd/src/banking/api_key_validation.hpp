// api_key_validation.hpp: the bodies of POST /v1/api-keys, of a rotation
// and of PUT /v1/api-keys/{id} (conventions: fields.hpp).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

nlohmann::json parse_api_key_create(const std::string& body);  // CreateApiKeyRequest

}  // namespace corebank::httpd::core_banking

namespace corebank::httpd::core_banking {

// The longest overlap a rotation may leave the old key (30 days).
inline constexpr std::int64_t api_key_overlap_seconds_max = 2'592'000;

// RotateApiKeyRequest: an empty body or {overlapSeconds?} (0..30 days).
nlohmann::json parse_api_key_rotate(const std::string& body);
// UpdateApiKeyRequest: {name?, rateLimitPerMinute?, expiresAt?}, at least one;
// expiresAt an RFC 3339 date-time with a zone, or null for no expiry.
nlohmann::json parse_api_key_update(const std::string& body);

}  // namespace corebank::httpd::core_banking
