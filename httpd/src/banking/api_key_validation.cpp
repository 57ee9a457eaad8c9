#include "banking/api_key_validation.hpp"

#include <regex>

#include "banking/fields.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

nlohmann::json parse_api_key_create(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "name", body.text("name", TextRule{true, 1, 100, true, false}));
    const auto scopes = body.array("scopes", true, 1, 3);
    if (scopes) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& s : *scopes) {
            if (!s.is_string() || (s != "read" && s != "write" && s != "admin")) {
                body.problem("scopes", "each scope must be one of read, write, admin");
                break;
            }
            list.push_back(s);
        }
        out["scopes"] = list;
    }
    put(out, "rateLimitPerMinute", body.integer("rateLimitPerMinute", false, core::limits::api_key_requests_per_minute_min,
                                                        core::limits::api_key_requests_per_minute_max));
    body.finish();
    return out;
}

}  // namespace corebank::httpd::core_banking

namespace corebank::httpd::core_banking {

namespace {

// RFC 3339 date-time with a zone; the database refuses an impossible date
// (30 February) as 400 too.
const std::regex rfc3339_date_time(
    R"(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d))");

}  // namespace

nlohmann::json parse_api_key_rotate(const std::string& text) {
    nlohmann::json out = nlohmann::json::object();
    if (trim_ascii(text).empty()) return out;
    JsonBody body(text);
    put(out, "overlapSeconds", body.integer("overlapSeconds", false, 0, api_key_overlap_seconds_max));
    body.finish();
    return out;
}

nlohmann::json parse_api_key_update(const std::string& text) {
    JsonBody body(text);
    const nlohmann::json raw = parse_request_json(text);
    nlohmann::json out = nlohmann::json::object();
    put(out, "name", body.text("name", TextRule{false, 1, 100, true, false}));
    put(out, "rateLimitPerMinute", body.integer("rateLimitPerMinute", false, core::limits::api_key_requests_per_minute_min,
                                                 core::limits::api_key_requests_per_minute_max));
    if (raw.is_object() && raw.contains("expiresAt")) {
        const auto& expires = raw.at("expiresAt");
        if (expires.is_null()) {
            out["expiresAt"] = nullptr;
            body.text("expiresAt", TextRule{false, 0, 64, false, false});  // marks the field as read
        } else {
            const auto value = body.text("expiresAt", TextRule{false, 20, 64, false, false});
            if (value && !std::regex_match(*value, rfc3339_date_time))
                body.problem("expiresAt", "must be an RFC 3339 date-time with a zone, e.g. 2027-01-31T12:00:00Z, or null");
            else if (value) out["expiresAt"] = *value;
        }
    }
    if (out.empty() && raw.is_object() && raw.size() == 0)
        body.problem("body", "give at least one of name, rateLimitPerMinute, expiresAt");
    body.finish();
    return out;
}

}  // namespace corebank::httpd::core_banking
