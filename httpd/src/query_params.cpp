#include "query_params.hpp"

#include <charconv>
#include <regex>

#include "api_error.hpp"

namespace corebank::httpd {

namespace {

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int to_int(const std::string& s) {
    int v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

}  // namespace

bool is_iso_date(const std::string& text) {
    static const std::regex shape(R"(^\d{4}-\d{2}-\d{2}$)");
    if (!std::regex_match(text, shape)) return false;
    const int year = to_int(text.substr(0, 4)), month = to_int(text.substr(5, 2)), day = to_int(text.substr(8, 2));
    static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1900 || month < 1 || month > 12 || day < 1) return false;
    const int last = days[month - 1] + (month == 2 && leap(year) ? 1 : 0);
    return day <= last;
}

bool is_year_month(const std::string& text) {
    static const std::regex shape(R"(^\d{4}-(0[1-9]|1[0-2])$)");
    return std::regex_match(text, shape) && to_int(text.substr(0, 4)) >= 1900;
}

bool is_uuid_text(const std::string& text) {
    static const std::regex pattern("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");
    return text.size() == 36 && std::regex_match(text, pattern);
}

std::optional<std::string> query_text(const HttpRequest& request, const std::string& name, std::size_t max_chars) {
    const auto it = request.query.find(name);
    if (it == request.query.end() || it->second.empty()) return std::nullopt;
    if (it->second.size() > max_chars)
        throw bad_request(name + ": must be at most " + std::to_string(max_chars) + " characters");
    if (it->second.find('\0') != std::string::npos) throw bad_request(name + ": must not contain NUL characters");
    return it->second;
}

std::optional<std::string> query_date(const HttpRequest& request, const std::string& name) {
    auto value = query_text(request, name, 10);
    if (value && !is_iso_date(*value)) throw bad_request(name + ": must be a date (YYYY-MM-DD)");
    return value;
}

std::optional<std::string> query_enum(const HttpRequest& request, const std::string& name,
                                      const std::vector<std::string>& allowed) {
    auto value = query_text(request, name, 64);
    if (!value) return value;
    for (const auto& a : allowed)
        if (*value == a) return value;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw bad_request(name + ": must be one of " + list);
}

std::optional<std::string> query_uuid(const HttpRequest& request, const std::string& name) {
    auto value = query_text(request, name, 36);
    if (value && !is_uuid_text(*value)) throw bad_request(name + ": must be a UUID");
    return value;
}

std::int64_t query_int(const HttpRequest& request, const std::string& name, std::int64_t fallback, std::int64_t min,
                       std::int64_t max) {
    const auto text = query_text(request, name, 20);
    if (!text) return fallback;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (ec != std::errc() || end != text->data() + text->size() || value < min || value > max)
        throw bad_request(name + ": must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
    return value;
}

std::string path_uuid(const HttpRequest& request, const std::string& name) {
    const auto it = request.path_params.find(name);
    if (it == request.path_params.end() || !is_uuid_text(it->second)) throw bad_request(name + " must be a UUID");
    return it->second;
}

}  // namespace corebank::httpd
