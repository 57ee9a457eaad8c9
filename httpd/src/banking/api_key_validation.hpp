// api_key_validation.hpp: the body of POST /v1/api-keys (conventions:
// fields.hpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

nlohmann::json parse_api_key_create(const std::string& body);  // CreateApiKeyRequest

}  // namespace corebank::httpd::core_banking
