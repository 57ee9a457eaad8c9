// platform_info.hpp: the public platform documents of the core
// banking service (01-core-banking.md: /v1/platform, /compliance,
// /architecture, /faq, /banks). No API key; only /banks reads the database.
#pragma once

#include <nlohmann/json.hpp>

#include "banking/context.hpp"
#include "config.hpp"

namespace corebank::httpd::core_banking {

// Built from the configuration: the services' ports, the KYC provider mode.
nlohmann::json platform_overview(const Config& config);
nlohmann::json platform_compliance(const Config& config);
const nlohmann::json& platform_architecture();
const nlohmann::json& platform_faq();
// GET /v1/platform/banks: the commercial banks of the home market with their
// SWIFT/BIC, from the database (corebank.banks, filled by migrations/). Public.
HttpResponse platform_banks(const Context&, const HttpRequest&, Db& db);

}  // namespace corebank::httpd::core_banking
