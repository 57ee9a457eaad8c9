#include "banking/parameters.hpp"

#include "api_error.hpp"
#include "banking/fields.hpp"
#include "core/limits.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

std::optional<std::string> query_enum_ci(const HttpRequest& request, const std::string& name,
                                         const std::vector<std::string>& allowed) {
    auto value = query_text(request, name, 64);
    if (!value) return value;
    const std::string wanted = upper(trim_ascii(*value));
    if (contains(allowed, wanted)) return wanted;
    throw bad_request(name + ": must be one of " + joined(allowed));
}

std::string query_required_date(const HttpRequest& request, const std::string& name) {
    const auto value = query_date(request, name);
    if (!value) throw bad_request(name + ": is required (YYYY-MM-DD)");
    return *value;
}

std::optional<bool> query_bool(const HttpRequest& request, const std::string& name) {
    const auto value = query_text(request, name, 5);
    if (!value) return std::nullopt;
    if (*value == "true") return true;
    if (*value == "false") return false;
    throw bad_request(name + ": must be true or false");
}

std::int64_t days_from_civil_text(const std::string& date) {
    // Howard Hinnant's days_from_civil.
    std::int64_t y = std::stoll(date.substr(0, 4));
    const unsigned m = static_cast<unsigned>(std::stoi(date.substr(5, 2)));
    const unsigned d = static_cast<unsigned>(std::stoi(date.substr(8, 2)));
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void check_date_range(const std::optional<std::string>& from, const std::optional<std::string>& to,
                      std::int64_t max_days) {
    if (!from || !to) return;
    const std::int64_t span = days_from_civil_text(*to) - days_from_civil_text(*from);
    if (span < 0) throw bad_request("from: must not be after to");
    if (span > max_days) throw bad_request("to: must be at most " + std::to_string(max_days) + " days after from");
}

PageRequest query_page(const HttpRequest& request) {
    const auto page = query_int(request, "page", 0, 0, 1000000);
    const auto size = query_int(request, "size", core::limits::page_size_default, core::limits::page_size_min,
                                core::limits::page_size_max);
    return PageRequest{page, size};
}

DatePeriod query_statement_period(const HttpRequest& request) {
    DatePeriod period{query_date(request, "from"), std::nullopt};
    period.to = query_date(request, "to");
    check_date_range(period.from, period.to, statement_days_max);
    return period;
}

std::string path_currency(const HttpRequest& request, const std::string& name) {
    const auto it = request.path_params.find(name);
    const std::string value = it == request.path_params.end() ? "" : upper(it->second);
    if (!contains(currencies(), value)) throw bad_request(name + " must be one of " + joined(currencies()));
    return value;
}

}  // namespace corebank::httpd::core_banking
