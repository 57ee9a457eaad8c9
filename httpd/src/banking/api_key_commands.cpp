// api_key_commands.cpp: `corebankd key-list | key-rotate | key-revoke`
// (./corebank key list|rotate|revoke), for operators with shell access. They
// call the database functions of GET, POST .../rotate and DELETE
// /v1/api-keys, so the same rules hold (the last admin key, one live
// successor, the overlap's bounds); the actor is NULL, like key-create's,
// and api_key_events records the database user instead.
#include <iostream>
#include <map>
#include <stdexcept>

#include "admin_commands.hpp"
#include "banking/api_key_rotation.hpp"
#include "banking/api_key_validation.hpp"
#include "db.hpp"
#include "cli_flags.hpp"
#include "db_errors.hpp"
#include "json_util.hpp"
#include "query_params.hpp"

namespace corebank::httpd {

namespace {

const Statement list_statement{"core_api_keys_list", "SELECT corebank.core_api_keys_list($1)::text", 1};
const Statement revoke_statement{"core_api_key_revoke", "SELECT corebank.core_api_key_revoke($1::uuid, NULL)::text", 1};

using cli::flags_of;
using cli::guarded;
using cli::refuse;

bool is_service(const std::string& text) { return text == "core" || text == "events" || text == "verify"; }

}  // namespace

int run_key_list(const Config& config, const std::vector<std::string>& args) {
    return guarded([&] {
        const auto flags = flags_of(args, {"service"});
        if (flags.count("service") && !is_service(flags.at("service")))
            return refuse("--service must be core, events or verify");
        Db db(config.database_url, {});
        std::cout << db.exec(list_statement, {flags.count("service") ? Param(flags.at("service")) : Param()})
                         .scalar()
                         .value_or("[]")
                  << "\n";
        return 0;
    });
}

int run_key_rotate(const Config& config, const std::vector<std::string>& args) {
    return guarded([&] {
        const auto flags = flags_of(args, {"id", "service", "overlap-seconds"});
        if (!flags.count("id")) return refuse("usage: key-rotate --id ID [--service S] [--overlap-seconds N]");
        if (!is_uuid_text(flags.at("id"))) return refuse("--id must be a UUID");
        const std::string service = flags.count("service") ? flags.at("service") : "core";
        if (!is_service(service)) return refuse("--service must be core, events or verify");
        std::optional<std::int64_t> overlap;
        if (flags.count("overlap-seconds")) {
            const std::string& text = flags.at("overlap-seconds");
            if (text.empty() || text.size() > 7 || text.find_first_not_of("0123456789") != std::string::npos ||
                std::stoll(text) > core_banking::api_key_overlap_seconds_max)
                return refuse("--overlap-seconds must be 0 to " +
                              std::to_string(core_banking::api_key_overlap_seconds_max));
            overlap = std::stoll(text);
        }
        Db db(config.database_url, {});
        const auto rotated = core_banking::rotate_api_key(db, flags.at("id"), service, overlap, std::nullopt);
        const auto& until = rotated["previous"]["expiresAt"];
        std::cerr << "key " << json_string(rotated, "id") << " replaces " << flags.at("id") << ", which stays valid until "
                  << (until.is_string() ? until.get<std::string>() : std::string("revoked")) << "\n";
        std::cout << json_string(rotated, "key") << "\n";
        return 0;
    });
}

int run_key_revoke(const Config& config, const std::vector<std::string>& args) {
    return guarded([&] {
        const auto flags = flags_of(args, {"id"});
        if (!flags.count("id")) return refuse("usage: key-revoke --id ID");
        if (!is_uuid_text(flags.at("id"))) return refuse("--id must be a UUID");
        Db db(config.database_url, {});
        std::cout << db.exec(revoke_statement, {flags.at("id")}).scalar().value_or("") << "\n";
        return 0;
    });
}

}  // namespace corebank::httpd
