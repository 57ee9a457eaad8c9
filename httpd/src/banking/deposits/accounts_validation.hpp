// deposits/accounts_validation.hpp: opening an account and the bodies of its
// lifecycle (docs/design/deposits.md). Conventions: banking/fields.hpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

const std::vector<std::string>& account_types();          // the 10 of 01-core-banking.md
const std::vector<std::string>& account_statuses();       // PENDING_ACTIVATION, ACTIVE, FROZEN, DORMANT, CLOSED

nlohmann::json parse_account_open(const std::string& body);             // OpenAccountRequest
// {reason}: required for freeze, optional elsewhere; an empty body is {}.
nlohmann::json parse_lifecycle_reason(const std::string& body, bool reason_required);  // AccountLifecycleRequest

}  // namespace corebank::httpd::core_banking
