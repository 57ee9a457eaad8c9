// operations/jobs_command.hpp: `corebankd jobs` (./corebank jobs): where the
// end-of-day runner stands and its jobs, for an operator at a terminal.
#pragma once

#include <string>
#include <vector>

#include "config.hpp"

namespace corebank::httpd::core_banking {

// jobs [run] [--date D] [--job J] [--state S] [--size N] [--json]
//   (no verb): the runner's position and the newest jobs, one line each;
//   run: drive the runner now (the steps of POST /v1/jobs/run) until there
//        is nothing to do, then print the same.
// Exit 0; 2 on bad arguments or a database error (stderr says which).
int run_jobs_command(const Config& config, const std::vector<std::string>& args);

}  // namespace corebank::httpd::core_banking
