#include "banking/staff/roles_validation.hpp"

#include "json_body.hpp"

namespace corebank::httpd::core_banking {

namespace {

const char* const key_rule = "must be 2 to 40 characters: a lower-case letter, then lower-case letters, digits or _";

// permissions: an array of permission keys (their existence is the database's to judge).
void read_permissions(JsonBody& body, nlohmann::json& out) {
    const auto permissions = body.array("permissions", false, 0, staff_role_permissions_max);
    if (!permissions) return;
    for (const auto& p : *permissions) {
        if (!p.is_string() || p.get<std::string>().empty() ||
            p.get<std::string>().size() > staff_permission_key_length_max) {
            body.problem("permissions", "must be an array of permission keys");
            return;
        }
    }
    out["permissions"] = *permissions;
}

void read_name(JsonBody& body, nlohmann::json& out, bool required) {
    const auto name = body.text("name", TextRule{required, 1, staff_role_name_length_max, true, false});
    if (name) out["name"] = *name;
}

}  // namespace

bool is_staff_role_key(const std::string& text) {
    if (text.size() < staff_role_key_length_min || text.size() > staff_role_key_length_max) return false;
    if (text[0] < 'a' || text[0] > 'z') return false;
    for (const char c : text)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

nlohmann::json parse_staff_role_create(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    const auto key = body.text("key", TextRule{true, 1, staff_role_key_length_max + 1, false, false});
    if (key && !is_staff_role_key(*key)) body.problem("key", key_rule);
    if (key) out["key"] = *key;
    read_name(body, out, true);
    read_permissions(body, out);
    const auto read_only = body.boolean("readOnly", false);
    if (read_only) out["readOnly"] = *read_only;
    body.finish();
    return out;
}

nlohmann::json parse_staff_role_update(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    const auto key = body.text("key", TextRule{false, 1, staff_role_key_length_max + 1, false, false});
    if (key) out["key"] = *key;
    read_name(body, out, false);
    read_permissions(body, out);
    const auto read_only = body.boolean("readOnly", false);
    if (read_only) out["readOnly"] = *read_only;
    body.finish();
    return out;
}

}  // namespace corebank::httpd::core_banking
