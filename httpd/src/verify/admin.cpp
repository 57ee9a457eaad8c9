// admin.cpp: `corebankd webhook-add | webhook-list | webhook-disable`, the
// verification service's webhook endpoints (./corebank webhook add --url URL).
//
// webhook-add generates the endpoint's signing secret here, prints it once
// on stdout (and nothing else), and stores it sealed under the data key:
// the sender must sign with it, so it is encrypted rather than hashed.
#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>

#include "admin_commands.hpp"
#include "data_key.hpp"
#include "db.hpp"
#include "db_errors.hpp"
#include "json_util.hpp"
#include "pg/verify_rules.hpp"
#include "verify/keys.hpp"
#include "verify/requests.hpp"
#include "verify/statements.hpp"
#include "verify/webhook_address.hpp"

namespace corebank::httpd {

namespace {

std::map<std::string, std::string> flags_of(const std::vector<std::string>& args, const std::vector<std::string>& allowed) {
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < args.size(); i += 2) {
        bool known = false;
        for (const auto& a : allowed) known = known || args[i] == "--" + a;
        if (!known) throw std::runtime_error("unknown option " + args[i]);
        if (i + 1 >= args.size()) throw std::runtime_error(args[i] + " needs a value");
        out[args[i].substr(2)] = args[i + 1];
    }
    return out;
}

int refuse(const std::string& message) {
    std::cerr << "corebankd: " << message << "\n";
    return 2;
}

template <typename Body>
int guarded(Body body) {
    try {
        return body();
    } catch (const DbError& e) {
        return refuse(api_error_from_db(e).what());
    } catch (const std::exception& e) {
        return refuse(e.what());
    }
}

}  // namespace

int run_webhook_add(const Config& config, const std::vector<std::string>& args) {
    return guarded([&] {
        const auto flags = flags_of(args, {"url"});
        if (!flags.count("url")) return refuse("usage: webhook-add --url URL");
        const std::string& url = flags.at("url");
        if (!corebank::verify::http_url_valid(url, 2048)) {
            return refuse("--url must be an absolute http or https URL of at most 2048 characters");
        }
        if (!config.verify_webhook_allow_private) verify::refuse_non_public_webhook(url);
        // The server's key, never a new one: a secret sealed under another key
        // could not be opened by the sender.
        if (!std::filesystem::exists(config.data_key_file)) {
            return refuse("the data key " + config.data_key_file +
                          " does not exist yet; start the services once (./corebank start) to create it");
        }
        const std::string data_key = load_or_create_data_key(config.data_key_file);
        const std::string secret = verify::new_webhook_secret();
        Db db(config.database_url, {});
        const auto created = parse_db_json(
            db.exec(verify::sql::webhook_endpoint_add, {url, bytea_param(verify::seal_webhook_secret(data_key, url, secret))})
                .scalar());
        std::cerr << "webhook endpoint " << json_string(created, "id") << " registered for " << url << "\n";
        std::cout << secret << "\n";
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
