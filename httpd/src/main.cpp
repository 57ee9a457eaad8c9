// main.cpp: corebankd. "serve" runs the four services; the other
// subcommands are one-shot administration used by ./corebank.
#include <csignal>
#include <iostream>
#include <pthread.h>
#include <string>
#include <vector>

#include "admin_commands.hpp"
#include "config.hpp"
#include "log.hpp"
#include "server.hpp"

namespace {

void usage() {
    std::cerr << "usage: corebankd serve [--config FILE]\n"
                 "       corebankd staff-create --email E --password P --roles r1,r2 [--branch CODE] [--config FILE]\n"
                 "       corebankd client-create --id ID --secret SECRET --scopes \"a b\" [--config FILE]\n";
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
    if (command == "staff-create") return run_staff_create(config, args);
    if (command == "client-create") return run_client_create(config, args);
    usage();
    return 2;
}
