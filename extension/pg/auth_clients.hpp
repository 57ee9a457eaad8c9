// auth_clients.hpp: the OAuth-client rule shared by register and login: a clientId,
// when given, must name an ACTIVE client (needs SPI connected).
#pragma once

#include <optional>
#include <string>

namespace corebank::pg::auth_clients {

// Throws CoreError CB400 "Unknown clientId" unless client_id is absent or
// names an ACTIVE client. Writes nothing, so callers run it first.
void require_active_or_absent(const std::optional<std::string>& client_id);

}  // namespace corebank::pg::auth_clients
