// api_key_rotation.hpp: rotating and changing an API key, shared by the HTTP
// API (POST /v1/api-keys/{id}/rotate, PUT /v1/api-keys/{id}) and the CLI
// (corebankd key-rotate), so both go through one database function each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "banking/context.hpp"

namespace corebank::httpd::core_banking {

// A new key for key `id` of `service` (another service's key is 404), the
// old one valid for overlap_seconds more (empty: the default, 86400). Answers
// the new key's ApiKeyResponse with `key` (its only showing) and `previous`.
nlohmann::json rotate_api_key(Db& db, const std::string& id, const std::string& service,
                              std::optional<std::int64_t> overlap_seconds, const std::optional<std::string>& actor);

HttpResponse api_key_rotate(const Context&, const HttpRequest&, Db&);
HttpResponse api_key_update(const Context&, const HttpRequest&, Db&);

}  // namespace corebank::httpd::core_banking
