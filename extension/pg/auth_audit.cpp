// auth_audit.cpp: see auth_audit.hpp. The table is append-only (a trigger refuses
// UPDATE and DELETE), so this INSERT is the only write it ever sees.
#include "pg/auth_audit.hpp"

#include "pg/spi.hpp"

namespace corebank::pg::auth_audit {

namespace {

constexpr const char insert_audit_sql[] =
    "INSERT INTO corebank.auth_audit (at, user_id, event, channel, ip, detail) "
    "VALUES (now(), $1, $2, $3, $4, $5)";

constexpr const char insert_client_audit_sql[] =
    "INSERT INTO corebank.auth_audit (at, user_id, event, channel, ip, detail) "
    "VALUES (now(), NULL, $1, NULL, NULL, jsonb_build_object('clientId', $2::text))";

}  // namespace

void record(const char* event, const std::optional<Uuid>& user_id, const std::optional<std::string>& channel,
            const std::optional<std::string>& ip, const char* detail_json) {
    const std::optional<std::string_view> detail =
        detail_json == nullptr ? std::nullopt : std::optional<std::string_view>(detail_json);
    spi::execute(insert_audit_sql, {spi::Arg::uuid(user_id), spi::Arg::text(std::string_view(event)),
                                    spi::Arg::text(channel), spi::Arg::text(ip), spi::Arg::jsonb(detail)});
}

void record_for_client(const char* event, const std::string& client_id) {
    spi::execute(insert_client_audit_sql, {spi::Arg::text(std::string_view(event)), spi::Arg::text(client_id)});
}

}  // namespace corebank::pg::auth_audit
