// deposits/standing_orders_validation.hpp: creating a standing order
// (docs/design/deposits.md). Conventions: banking/fields.hpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

const std::vector<std::string>& standing_order_frequencies();

nlohmann::json parse_standing_order_create(const std::string& body);    // CreateStandingOrderRequest

}  // namespace corebank::httpd::core_banking
