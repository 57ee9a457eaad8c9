// query_params.hpp: typed, bounded reads of query and path parameters. Each
// throws ApiError 400 BAD_REQUEST naming the parameter when it is malformed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "http_types.hpp"

namespace corebank::httpd {

bool is_iso_date(const std::string& text);        // YYYY-MM-DD, a real calendar day
bool is_year_month(const std::string& text);      // YYYY-MM
bool is_uuid_text(const std::string& text);

std::optional<std::string> query_text(const HttpRequest& request, const std::string& name, std::size_t max_chars);
std::optional<std::string> query_date(const HttpRequest& request, const std::string& name);
std::optional<std::string> query_enum(const HttpRequest& request, const std::string& name,
                                      const std::vector<std::string>& allowed);
std::optional<std::string> query_uuid(const HttpRequest& request, const std::string& name);
std::int64_t query_int(const HttpRequest& request, const std::string& name, std::int64_t fallback, std::int64_t min,
                       std::int64_t max);
// A path parameter that must be a UUID.
std::string path_uuid(const HttpRequest& request, const std::string& name);

}  // namespace corebank::httpd
