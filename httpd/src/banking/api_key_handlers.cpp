// api_key_handlers.cpp: /v1/api-keys. A key is shown once, at creation; the
// database keeps only its SHA-256. Rotation with zero downtime: create a new
// key with the same scopes, move the clients, then revoke the old one; both
// are valid in between.
#include "banking/api_key_validation.hpp"
#include "banking/handlers.hpp"
#include "banking/statements.hpp"
#include "core/crypto.hpp"
#include "core/limits.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

inline constexpr std::size_t key_prefix_length = 12;

}  // namespace

NewApiKey generate_api_key(const std::string& service) {
    NewApiKey out;
    out.key = "cb_" + service + "_" + core::random_token();
    out.prefix = out.key.substr(0, key_prefix_length);
    return out;
}

HttpResponse api_keys_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "api_keys.list");
    return pass_through(db.exec(sql::api_keys_list, {"core"}).scalar());
}

HttpResponse api_key_create(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "api_keys.create");
    const auto body = parse_api_key_create(request.body);
    std::vector<std::string> scopes;
    for (const auto& s : body.at("scopes")) scopes.push_back(s.get<std::string>());
    const NewApiKey key = generate_api_key("core");
    auto created = parse_db_json(
        db.exec(sql::api_key_create,
                {"core", body.at("name").get<std::string>(), text_array_param(scopes), Param(),
                 std::to_string(body.value("rateLimitPerMinute", core::limits::api_key_requests_per_minute_default)),
                 bytea_param(core::sha256(key.key)), key.prefix, caller.actor_id ? Param(*caller.actor_id) : Param()})
            .scalar());
    created["key"] = key.key;  // the only time the key is ever shown
    return json_response(201, created);
}

HttpResponse api_key_revoke(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "api_keys.revoke");
    const std::string id = path_uuid(request, "id");
    expect_no_body(request.body);
    auto revoked = db.exec(sql::api_key_revoke, {id, caller.actor_id ? Param(*caller.actor_id) : Param()}).scalar();
    // This process forgets the key before answering; the others by NOTIFY.
    if (context.hot_path) context.hot_path->apply_event("api_key:" + id);
    return pass_through(revoked);
}

}  // namespace corebank::httpd::core_banking
