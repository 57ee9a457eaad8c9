// kyc_identity_handlers.cpp: see kyc_identity_handlers.hpp. The bodies are
// checked for shape here; every rule of the tiers is the database's
// (sql/deposits/kyc_identity_*).
#include "banking/deposits/kyc_identity_handlers.hpp"

#include "banking/fields.hpp"
#include "banking/handlers.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

namespace {

using nlohmann::json;

const Statement kyc_identity_tier_request_sql{
    "kyc_identity_tier_request", "SELECT corebank.kyc_identity_tier_request($1::uuid, $2::jsonb, $3::uuid)::text", 3};
const Statement kyc_identity_link_request_sql{
    "core_customers_kyc_identity_link_request",
    "SELECT corebank.core_customers_kyc_identity_link_request($1::uuid, $2::jsonb, $3::uuid)::text", 3};

json parse_kyc_tier_request(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "tier", read_enum(body, "tier", {"NONE", "BASIC", "STANDARD", "ENHANCED"}, true));
    put(out, "reason", read_text(body, "reason", 500));
    body.finish();
    return out;
}

json parse_identity_link(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "userId", read_uuid(body, "userId", true));
    body.finish();
    return out;
}

}  // namespace

HttpResponse identity_user_kyc_tier_request(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "identity_users.kyc_tier.request", kyc_identity_tier_request_sql,
                        parse_kyc_tier_request);
}

HttpResponse customer_identity_user_link(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "customers.identity_user.link", kyc_identity_link_request_sql,
                        parse_identity_link);
}

}  // namespace corebank::httpd::core_banking
