// main.cpp: corebankd. "serve" runs the four services; the other
// subcommands are one-shot administration used by ./corebank.
#include <csignal>
#include <iostream>
#include <pthread.h>
#include <string>
#include <vector>

#include "admin_commands.hpp"
#include "auth/context.hpp"
#include "banking/context.hpp"
#include "banking/operations/jobs_command.hpp"
#include "config.hpp"
#include "core/settings_render.hpp"
#include "events/context.hpp"
#include "log.hpp"
#include "server.hpp"
#include "settings_apply.hpp"
#include "verify/context.hpp"

namespace {

void usage() {
    std::cerr << "usage: corebankd serve [--config FILE]\n"
                 "       corebankd staff-create --email E (--password P | --password - | --password-env VAR) --roles r1,r2\n"
                 "                 [--branch CODE] [--config FILE]   (-: one line of standard input)\n"
                 "       corebankd client-create --id ID [--secret SECRET | --secret - | --secret-env VAR] --scopes \"a b\"\n"
                 "                 [--config FILE]\n"
                 "       corebankd routes\n"
                 "       corebankd key-create --service core|events|verify --scopes a,b [--name N] [--caller ID]\n"
                 "       corebankd key-list [--service S] | key-rotate --id ID [--service S] [--overlap-seconds N]\n"
                 "                 | key-revoke --id ID\n"
                 "       corebankd webhook-add --url URL | webhook-list | webhook-disable --id ID\n"
                 "       corebankd jobs [run] [--date D] [--job NAME] [--state S] [--size N] [--json]\n"
                 "       corebankd settings conf|markdown|pgtap | settings apply [--config FILE]\n";
}

// Prints a file generated from the settings table: corebank.conf, the key
// table of docs/configuration.md, pgtap/settings_ranges.sql.
int print_settings(const std::vector<std::string>& args) {
    namespace render = corebank::core::settings_render;
    if (args.size() == 1 && args[0] == "conf") std::cout << render::conf();
    else if (args.size() == 1 && args[0] == "markdown") std::cout << render::markdown();
    else if (args.size() == 1 && args[0] == "pgtap") std::cout << render::pgtap();
    else {
        usage();
        return 2;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace corebank::httpd;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "help" || args[0] == "--help") {
        usage();
        return args.empty() ? 2 : 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    // Needs no configuration: it prints what the configuration file is made from.
    if (command == "settings" && (args.empty() || args[0] != "apply")) return print_settings(args);
    std::string config_path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--config" && i + 1 < args.size()) {
            config_path = args[i + 1];
            args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
            break;
        }
    }
    Config config;
    try {
        config = load_config(config_path, current_environment());
    } catch (const std::exception& e) {
        std::cerr << "corebankd: " << e.what() << "\n";
        return 2;
    }
    if (command == "serve") {
        if (!args.empty()) {
            usage();
            return 2;
        }
        return run_server(config);
    }
    if (command == "routes") {
        // Every route each service serves, as "service METHOD /path/{param}":
        // the e2e suite checks each one against the OpenAPI document.
        auto print = [](const char* service, const Router& router) {
            for (const auto& route : router.routes()) {
                std::string path;
                std::size_t i = 0;
                while (i < route.pattern.size()) {
                    if (route.pattern[i] == ':') {
                        const std::size_t end = route.pattern.find('/', i);
                        const std::size_t stop = end == std::string::npos ? route.pattern.size() : end;
                        path += "{" + route.pattern.substr(i + 1, stop - i - 1) + "}";
                        i = stop;
                    } else {
                        path.push_back(route.pattern[i++]);
                    }
                }
                std::cout << service << " " << route.method << " " << path << "\n";
            }
        };
        print("identity", auth::make_router(std::make_shared<auth::Context>()));
        print("core", core_banking::make_router(std::make_shared<core_banking::Context>()));
        print("events", events::make_router(std::make_shared<events::Context>()));
        print("verify", verify::make_router(std::make_shared<verify::Context>()));
        return 0;
    }
    if (command == "staff-create") return run_staff_create(config, args);
    if (command == "client-create") return run_client_create(config, args);
    if (command == "key-create") return run_key_create(config, args);
    if (command == "key-list") return run_key_list(config, args);
    if (command == "key-rotate") return run_key_rotate(config, args);
    if (command == "key-revoke") return run_key_revoke(config, args);
    if (command == "webhook-add") return run_webhook_add(config, args);
    if (command == "webhook-list") return run_webhook_list(config, args);
    if (command == "webhook-disable") return run_webhook_disable(config, args);
    if (command == "jobs") return core_banking::run_jobs_command(config, args);
    if (command == "settings") return run_settings_apply(config, std::vector<std::string>(args.begin() + 1, args.end()));
    usage();
    return 2;
}
