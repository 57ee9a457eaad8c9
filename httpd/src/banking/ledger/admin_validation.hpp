// ledger/admin_validation.hpp: the bodies of the ledger's administration:
// platform config, branch scoping, numbering, GL accounts and budgets,
// branches. Conventions: banking/fields.hpp.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

nlohmann::json parse_platform_config_update(const std::string& body); // UpdatePlatformConfigRequest
nlohmann::json parse_branch_scoping_update(const std::string& body);  // UpdateBranchScopingRequest
nlohmann::json parse_numbering_update(const std::string& body);       // UpdateNumberingConfigRequest
nlohmann::json parse_gl_account_create(const std::string& body);     // CreateGlAccountRequest
nlohmann::json parse_gl_account_update(const std::string& body);     // UpdateGlAccountRequest
nlohmann::json parse_gl_budget_upsert(const std::string& body);      // UpsertGlBudgetRequest
nlohmann::json parse_branch_update(const std::string& body);         // UpdateBranchRequest

}  // namespace corebank::httpd::core_banking
