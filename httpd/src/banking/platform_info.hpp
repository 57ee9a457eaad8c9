// platform_info.hpp: the public platform documents of the core
// banking service (01-core-banking.md: /v1/platform, /compliance,
// /architecture, /faq, /banks). No API key; no database.
#pragma once

#include <nlohmann/json.hpp>

#include "config.hpp"

namespace corebank::httpd::core_banking {

// Built from the configuration: the services' ports, the KYC provider mode.
nlohmann::json platform_overview(const Config& config);
nlohmann::json platform_compliance(const Config& config);
const nlohmann::json& platform_architecture();
const nlohmann::json& platform_faq();
// The 15 commercial banks of the home market with SWIFT/BIC reference codes.
const nlohmann::json& platform_banks();

}  // namespace corebank::httpd::core_banking
