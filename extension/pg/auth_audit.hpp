// auth_audit.hpp: appending to corebank.auth_audit from C++ (needs SPI connected).
#pragma once

#include <optional>
#include <string>

#include "pg/values.hpp"

namespace corebank::pg::auth_audit {

// Events must be one of the auth_audit.event check constraint's values.
// `detail_json` is a constant JSON object literal or std::nullopt; never
// build it from input.
void record(const char* event, const std::optional<Uuid>& user_id, const std::optional<std::string>& channel,
            const std::optional<std::string>& ip, const char* detail_json = nullptr);

// An event about an OAuth client (no user): detail {"clientId": client_id}.
void record_for_client(const char* event, const std::string& client_id);

}  // namespace corebank::pg::auth_audit
