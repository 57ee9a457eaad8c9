// webhook_endpoints.cpp: see webhook_endpoints.hpp.
#include "verify/webhook_endpoints.hpp"

#include <stdexcept>

#include "api_error.hpp"
#include "json_util.hpp"
#include "pg/verify_rules.hpp"
#include "verify/keys.hpp"
#include "verify/statements.hpp"
#include "verify/webhook_address.hpp"

namespace corebank::httpd::verify {

IssuedSecret register_webhook_endpoint(Db& db, const std::string& data_key, bool allow_private,
                                       const std::string& url, const std::optional<std::string>& description,
                                       const std::optional<std::vector<std::string>>& events) {
    if (!corebank::verify::http_url_valid(url, webhook_url_length_max)) {
        throw validation_error("url: must be an absolute http or https URL of at most 2048 characters");
    }
    if (!allow_private) {
        try {
            refuse_non_public_webhook(url);
        } catch (const std::runtime_error& e) {
            throw validation_error(std::string("url: ") + e.what());
        }
    }
    IssuedSecret issued;
    issued.secret = new_webhook_secret();
    issued.endpoint = parse_db_json(
        db.exec(sql::webhook_endpoint_add,
                {url, description ? Param(*description) : Param(), events ? Param(text_array_param(*events)) : Param(),
                 bytea_param(seal_webhook_secret(data_key, url, issued.secret))})
            .scalar());
    return issued;
}

IssuedSecret rotate_webhook_secret(Db& db, const std::string& data_key, const std::string& endpoint_id, int overlap_s) {
    const auto found = db.exec(sql::webhook_endpoint_get, {endpoint_id}).scalar();
    if (!found) throw not_found("Webhook endpoint not found");
    // The URL never changes, so the seal made for it here opens at delivery.
    const std::string url = json_string(parse_db_json(found), "url");
    IssuedSecret issued;
    issued.secret = new_webhook_secret();
    issued.endpoint = parse_db_json(
        db.exec(sql::webhook_endpoint_rotate, {endpoint_id, bytea_param(seal_webhook_secret(data_key, url, issued.secret)),
                                                std::to_string(overlap_s)})
            .scalar());
    return issued;
}

}  // namespace corebank::httpd::verify
