// api_key_rotation.cpp: POST /v1/api-keys/{id}/rotate and PUT
// /v1/api-keys/{id} (docs/core-banking.md, API keys). Both are authorised as
// api_keys.create: a rotation makes a key, and a PUT can give a key more (a
// higher limit, a later expiry), so neither needs less than creating one.
// The database decides every rule (core_api_key_rotate, core_api_key_update);
// this process drops its cached answer for the key before replying, the
// other processes on the row trigger's NOTIFY.
#include "banking/api_key_rotation.hpp"

#include "banking/api_key_validation.hpp"
#include "banking/handlers.hpp"
#include "banking/hot_path.hpp"
#include "core/crypto.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

const Statement rotate_statement{
    "core_api_key_rotate",
    "SELECT corebank.core_api_key_rotate($1::uuid, $2, $3::int, $4::bytea, $5, $6::uuid)::text", 6};
const Statement update_statement{
    "core_api_key_update",
    "SELECT corebank.core_api_key_update($1::uuid, $2, $3, $4::int, $5::boolean, $6::timestamptz, $7::uuid)::text", 7};

Param optional_param(const std::optional<std::string>& value) { return value ? Param(*value) : Param(); }

void forget_key_here(const Context& context, const std::string& id) {
    if (context.hot_path) context.hot_path->apply_event("api_key:" + id);
}

}  // namespace

nlohmann::json rotate_api_key(Db& db, const std::string& id, const std::string& service,
                              std::optional<std::int64_t> overlap_seconds, const std::optional<std::string>& actor) {
    const NewApiKey key = generate_api_key(service);  // its text names the service: cb_<service>_...
    auto rotated = parse_db_json(
        db.exec(rotate_statement,
                {id, service, overlap_seconds ? Param(std::to_string(*overlap_seconds)) : Param(),
                 bytea_param(core::sha256(key.key)), key.prefix, optional_param(actor)})
            .scalar());
    rotated["key"] = key.key;  // the only time the new key is ever shown
    return rotated;
}

HttpResponse api_key_rotate(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "api_keys.create");
    const std::string id = path_uuid(request, "id");
    const auto body = parse_api_key_rotate(request.body);
    std::optional<std::int64_t> overlap;
    if (body.contains("overlapSeconds")) overlap = body.at("overlapSeconds").get<std::int64_t>();
    auto rotated = rotate_api_key(db, id, "core", overlap, caller.actor_id);
    forget_key_here(context, id);
    return json_response(201, rotated);
}

HttpResponse api_key_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "api_keys.create");
    const std::string id = path_uuid(request, "id");
    const auto body = parse_api_key_update(request.body);
    const bool set_expiry = body.contains("expiresAt");
    auto updated =
        db.exec(update_statement,
                {id, "core", body.contains("name") ? Param(body.at("name").get<std::string>()) : Param(),
                 body.contains("rateLimitPerMinute") ? Param(std::to_string(body.at("rateLimitPerMinute").get<std::int64_t>()))
                                                     : Param(),
                 set_expiry ? "true" : "false",
                 set_expiry && !body.at("expiresAt").is_null() ? Param(body.at("expiresAt").get<std::string>()) : Param(),
                 optional_param(caller.actor_id)})
            .scalar();
    forget_key_here(context, id);
    return pass_through(updated);
}

}  // namespace corebank::httpd::core_banking
