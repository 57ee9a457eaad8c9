// parameters.hpp: the query and path parameters of the core-banking
// service beyond query_params.hpp: an enumeration, case-insensitive, returned
// upper case; a required date; a boolean; a date range [from, to] of at most
// `max_days` days (400 BAD_REQUEST naming the parameter); a currency code in a
// path segment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "http_types.hpp"

namespace corebank::httpd::core_banking {

// The longest statement, accrual or profitability period, in days.
inline constexpr std::int64_t statement_days_max = 366;

std::optional<std::string> query_enum_ci(const HttpRequest& request, const std::string& name,
                                         const std::vector<std::string>& allowed);
std::string query_required_date(const HttpRequest& request, const std::string& name);
std::optional<bool> query_bool(const HttpRequest& request, const std::string& name);
void check_date_range(const std::optional<std::string>& from, const std::optional<std::string>& to,
                      std::int64_t max_days);
// ?page= (from 0) and ?size= (core::limits' page sizes), as every list reads them.
struct PageRequest {
    std::int64_t page;
    std::int64_t size;
};
PageRequest query_page(const HttpRequest& request);

// ?from= and ?to= (each optional), at most statement_days_max days apart: the
// period of a statement, an accrual list or a profitability report.
struct DatePeriod {
    std::optional<std::string> from;
    std::optional<std::string> to;
};
DatePeriod query_statement_period(const HttpRequest& request);

// A currency code in a path segment (USD or ZWG, case-insensitive).
std::string path_currency(const HttpRequest& request, const std::string& name);

// Days from 1970-01-01 of a valid YYYY-MM-DD (for range checks).
std::int64_t days_from_civil_text(const std::string& date);

}  // namespace corebank::httpd::core_banking
