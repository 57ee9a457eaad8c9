// deposits/passbooks_validation.hpp: reprinting a passbook and confirming a
// print (docs/design/deposits.md). Conventions: banking/fields.hpp.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

// Lines of GET /v1/passbooks/{id}/unprinted.
inline constexpr std::int64_t passbook_lines_max = 500;
inline constexpr std::int64_t passbook_lines_default = 100;

nlohmann::json parse_passbook_reprint(const std::string& body);         // ReprintPassbookRequest
nlohmann::json parse_print_confirm(const std::string& body);            // PrintConfirmRequest

}  // namespace corebank::httpd::core_banking
