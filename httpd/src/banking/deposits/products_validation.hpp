// deposits/products_validation.hpp: the body of PUT /v1/deposit-products/{id}
// (docs/design/deposits.md). Conventions: banking/fields.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd::core_banking {

// Bounds shared with the extension (sql/releases/corebank--1.3--1.4.sql.in).
inline constexpr std::int64_t rate_bp_max = 100'000;
inline constexpr std::int64_t penalty_bp_max = 10'000;
inline constexpr std::int64_t term_days_max = 3660;
inline constexpr std::size_t product_tiers_max = 16;

nlohmann::json parse_product_update(const std::string& body);           // UpdateDepositProductRequest

}  // namespace corebank::httpd::core_banking
