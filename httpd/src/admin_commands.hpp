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
// key-list [--service S] | key-rotate --id ID [--service S] [--overlap-seconds N] | key-revoke --id ID
// (api_key_commands.cpp): the HTTP API's database functions; key-rotate prints
// the new key, and nothing else, on stdout.
int run_key_list(const Config& config, const std::vector<std::string>& args);
int run_key_rotate(const Config& config, const std::vector<std::string>& args);
int run_key_revoke(const Config& config, const std::vector<std::string>& args);
// webhook-add --url URL: registers a verification webhook endpoint and prints
// its signing secret, and nothing else, on stdout (verify/admin.cpp).
int run_webhook_add(const Config& config, const std::vector<std::string>& args);
// webhook-list: the endpoints as JSON; webhook-disable --id ID: stops one.
int run_webhook_list(const Config& config, const std::vector<std::string>& args);
int run_webhook_disable(const Config& config, const std::vector<std::string>& args);

}  // namespace corebank::httpd
