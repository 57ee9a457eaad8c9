// auth_clients.cpp: see auth_clients.hpp.
#include "pg/auth_clients.hpp"

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

namespace corebank::pg::auth_clients {

namespace {

constexpr const char select_client_active_sql[] =
    "SELECT status = 'ACTIVE' FROM corebank.auth_oauth_clients WHERE client_id = $1";

}  // namespace

void require_active_or_absent(const std::optional<std::string>& client_id) {
    if (!client_id) return;
    // An over-long id cannot exist (check constraint); answer like any unknown id.
    bool active = false;
    if (!client_id->empty() && utf8_length(*client_id) <= core::limits::auth::client_id_length_max) {
        const std::uint64_t rows = spi::execute(select_client_active_sql, {spi::Arg::text(*client_id)});
        active = rows == 1 && spi::get_bool(0, 1).value_or(false);
    }
    if (!active) throw core::CoreError(core::sqlstate_bad_request, "Unknown clientId");
}

}  // namespace corebank::pg::auth_clients
