// admin.cpp: `corebankd webhook-add | webhook-list | webhook-disable`, the
// verification service's webhook endpoints (./corebank webhook add --url URL).
//
// webhook-add registers through the same function as POST
// /v1/webhook-endpoints (webhook_endpoints.hpp): the same URL checks, the
// secret printed once on stdout (and nothing else), stored sealed under the
// data key.
#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>

#include "admin_commands.hpp"
#include "data_key.hpp"
#include "db.hpp"
#include "cli_flags.hpp"
#include "db_errors.hpp"
#include "json_util.hpp"
#include "pg/verify_rules.hpp"
#include "verify/keys.hpp"
#include "verify/requests.hpp"
#include "verify/statements.hpp"
#include "verify/webhook_endpoints.hpp"

namespace corebank::httpd {

namespace {

using cli::flags_of;
using cli::guarded;
using cli::refuse;

}  // namespace

int run_webhook_add(const Config& config, const std::vector<std::string>& args) {
    return guarded([&] {
        const auto flags = flags_of(args, {"url", "description"});
        if (!flags.count("url")) return refuse("usage: webhook-add --url URL [--description TEXT]");
        const std::string& url = flags.at("url");
        // The server's key, never a new one: a secret sealed under another key
        // could not be opened by the sender.
        if (!std::filesystem::exists(config.data_key_file)) {
            return refuse("the data key " + config.data_key_file +
                          " does not exist yet; start the services once (./corebank start) to create it");
        }
        const std::string data_key = load_or_create_data_key(config.data_key_file);
        Db db(config.database_url, {});
        const auto issued = verify::register_webhook_endpoint(
            db, data_key, config.verify_webhook_allow_private, url,
            flags.count("description") ? std::optional<std::string>(flags.at("description")) : std::nullopt);
        std::cerr << "webhook endpoint " << json_string(issued.endpoint, "id") << " registered for " << url << "\n";
        std::cout << issued.secret << "\n";
        return 0;
    });
}

int run_webhook_list(const Config& config, const std::vector<std::string>& args) {
    return guarded([&] {
        flags_of(args, {});
        Db db(config.database_url, {});
        std::cout << db.exec(verify::sql::webhook_endpoints_list, {}).scalar().value_or("[]") << "\n";
        return 0;
    });
}

int run_webhook_disable(const Config& config, const std::vector<std::string>& args) {
    return guarded([&] {
        const auto flags = flags_of(args, {"id"});
        if (!flags.count("id")) return refuse("usage: webhook-disable --id ENDPOINT_ID");
        const auto id = verify::canonical_uuid(flags.at("id"));
        if (!id) return refuse("--id must be a UUID");
        Db db(config.database_url, {});
        std::cout << db.exec(verify::sql::webhook_endpoint_disable, {*id}).scalar().value_or("") << "\n";
        return 0;
    });
}

}  // namespace corebank::httpd
