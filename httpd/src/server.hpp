// server.hpp: assembles and runs the four services until SIGINT/SIGTERM.
#pragma once

#include "config.hpp"

namespace corebank::httpd {

int run_server(const Config& config);

}  // namespace corebank::httpd
