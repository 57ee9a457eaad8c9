// admin_commands.hpp: corebankd's one-shot subcommands, called by ./corebank
// (staff create, client create). They hash secrets here, as the server does.
#pragma once

#include <string>
#include <vector>

#include "config.hpp"

namespace corebank::httpd {

// Each returns the process exit code; output on stdout, errors on stderr.
int run_staff_create(const Config& config, const std::vector<std::string>& args);
int run_client_create(const Config& config, const std::vector<std::string>& args);
// key-create --service core|events|verify --scopes a,b [--name N] [--caller ID] [--rate-limit N]:
// prints the new key, and nothing else, on stdout.
int run_key_create(const Config& config, const std::vector<std::string>& args);

}  // namespace corebank::httpd
