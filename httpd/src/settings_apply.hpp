// settings_apply.hpp: `corebankd settings apply`, the one way the settings
// that decide security inside the database reach it (Side::database rows of
// core/settings_table.hpp: token lifetimes, rate limits, signing-key age).
// Their GUCs are superuser-only, so no tier connection and no app-role
// session can change them (docs/architecture.md, "Trust boundary"); this
// command, connected as a superuser (./corebank up and start run it with the
// embedded cluster's superuser), stores corebank.conf's values with ALTER
// DATABASE, where every new session of that database finds them.
#pragma once

#include <string>
#include <vector>

#include "config.hpp"

namespace corebank::httpd {

// settings apply [--config FILE]: prints each "corebank.<name> = <value>"
// it stored; exit 0, or 2 with the database's error (for example a
// connection that is not a superuser's: 42501).
int run_settings_apply(const Config& config, const std::vector<std::string>& args);

}  // namespace corebank::httpd
