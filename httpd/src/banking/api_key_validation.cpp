#include "banking/api_key_validation.hpp"

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
