// deposits/customer_profile_validation.hpp: the customer profile (email,
// phone, address, employment, declared income), changed with PATCH
// /v1/customers/{id}/profile and given with a new customer. Conventions:
// banking/fields.hpp.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "json_body.hpp"

namespace corebank::httpd::core_banking {

// PATCH: an omitted member stays out, JSON null and blank strings are kept
// (they clear), identity fields are refused.
nlohmann::json parse_profile_patch(const std::string& body);            // UpdateCustomerProfileRequest

// UpdateCustomerProfileRequest, member by member; `prefix` names the
// object in messages ("profile." inside CreateCustomerRequest). Problems go
// to `sink`.
nlohmann::json profile_patch(const nlohmann::json& patch, const std::string& prefix, JsonBody& sink);

}  // namespace corebank::httpd::core_banking
