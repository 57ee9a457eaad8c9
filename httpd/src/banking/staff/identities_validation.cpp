#include "banking/staff/identities_validation.hpp"

#include <algorithm>

#include "api_error.hpp"
#include "auth/requests.hpp"
#include "banking/staff/roles_validation.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

namespace {

const char* const username_rule = "must be 3 to 254 characters: lower-case letters, digits, . _ @ + -";

void read_email(JsonBody& body, nlohmann::json& out, bool required) {
    const auto email = body.text("email", TextRule{required, 3, 254, true, false});
    if (!email) return;
    if (!auth::is_valid_email(*email)) {
        body.problem("email", "must be a valid email address");
        return;
    }
    out["email"] = auth::normalise_email(*email);
}

void read_display_name(JsonBody& body, nlohmann::json& out) {
    const auto name = body.text("displayName", TextRule{false, 1, staff_display_name_length_max, true, false});
    if (name) out["displayName"] = *name;
}

void read_roles(JsonBody& body, nlohmann::json& out, bool required) {
    const auto roles = body.array("roles", required, required ? 1 : 0, staff_identity_roles_max);
    if (!roles) return;
    for (const auto& role : *roles) {
        if (!role.is_string() || !is_staff_role_key(role.get<std::string>())) {
            body.problem("roles", "must be an array of role keys (GET /v1/staff/roles)");
            return;
        }
    }
    if (roles->empty()) {
        body.problem("roles", "must name at least one role");
        return;
    }
    out["roles"] = *roles;
}

bool is_branch_code(const std::string& code) {
    return code.size() >= 2 && code.size() <= staff_branch_code_length_max &&
           std::all_of(code.begin(), code.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); });
}

}  // namespace

bool is_staff_username(const std::string& text) {
    if (text.size() < staff_username_length_min || text.size() > staff_username_length_max) return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '@' || c == '+' ||
               c == '-';
    });
}

nlohmann::json parse_staff_identity_create(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    read_email(body, out, true);
    read_roles(body, out, true);
    read_display_name(body, out);
    const auto username = body.text("username", TextRule{false, 1, staff_username_length_max + 1, true, false});
    if (username) {
        std::string lower = *username;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; });
        if (!is_staff_username(lower))
            body.problem("username", username_rule);
        else
            out["username"] = lower;
    } else if (out.contains("email") && !is_staff_username(out["email"].get<std::string>())) {
        body.problem("username", "is required: the email holds characters a username may not");
    }
    const auto branch = body.text("branchCode", TextRule{false, 1, 20, false, false});
    if (branch) {
        if (!is_branch_code(*branch))
            body.problem("branchCode", "must be 2 to 10 upper-case letters or digits");
        else
            out["branchCode"] = *branch;
    }
    body.finish();
    return out;
}

nlohmann::json parse_staff_identity_update(const std::string& text) {
    JsonBody body(text);
    nlohmann::json out = nlohmann::json::object();
    read_email(body, out, false);
    read_roles(body, out, false);
    read_display_name(body, out);
    const auto status = body.one_of("status", false, {"ACTIVE", "DISABLED"});
    if (status) out["status"] = *status;
    body.finish();
    if (out.empty()) throw validation_error("The request changes nothing: give email, displayName, roles or status");
    return out;
}

nlohmann::json parse_staff_branch_update(const std::string& text) {
    const nlohmann::json json = parse_request_json(text);
    if (!json.is_object()) throw bad_request("Malformed JSON request body");
    if (!json.contains("branchCode"))
        throw validation_error("branchCode: is required: a branch code, or null for head office");
    for (const auto& item : json.items())
        if (item.key() != "branchCode") throw validation_error(item.key().substr(0, 64) + ": unknown field");
    const auto& code = json["branchCode"];
    if (code.is_null()) return nlohmann::json{{"branchCode", nullptr}};
    if (!code.is_string() || !is_branch_code(code.get<std::string>()))
        throw validation_error("branchCode: must be 2 to 10 upper-case letters or digits, or null for head office");
    return nlohmann::json{{"branchCode", code}};
}

}  // namespace corebank::httpd::core_banking
