// client_admin_handlers.cpp: see client_admin_handlers.hpp.
#include "auth/client_admin_handlers.hpp"

#include <regex>

#include "api_error.hpp"
#include "auth/bearer.hpp"
#include "auth/client_admin_secret.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "password_hash.hpp"

namespace corebank::httpd::auth {

namespace {

using nlohmann::json;

// A rotation's overlap: a day unless the request says (0 ends the old
// secret at once, for a leaked one); at most 7 days.
constexpr std::int64_t overlap_default_s = 86400;
constexpr std::int64_t overlap_max_s = 604800;
constexpr std::size_t scopes_max = 100;
constexpr std::size_t audiences_max = 20;

const Statement list_sql{"auth_client_admin_list",
                         "SELECT corebank.auth_client_admin_list($1::uuid, $2::uuid, $3)::text", 3};
const Statement create_sql{
    "auth_client_admin_create",
    "SELECT corebank.auth_client_admin_create($1::uuid, $2::uuid, $3, $4, $5::text[], $6::text[], $7)::text", 7};
const Statement update_sql{
    "auth_client_admin_update",
    "SELECT corebank.auth_client_admin_update($1::uuid, $2::uuid, $3, $4::text[], $5::text[], $6)::text", 6};
const Statement rotate_begin_sql{"auth_client_admin_rotate_begin",
                                 "SELECT corebank.auth_client_admin_rotate_begin($1::uuid, $2::uuid, $3)::text", 3};
const Statement rotate_sql{"auth_client_admin_rotate",
                           "SELECT corebank.auth_client_admin_rotate($1::uuid, $2::uuid, $3, $4, $5::int)::text", 5};
const Statement disable_sql{"auth_client_admin_disable",
                            "SELECT corebank.auth_client_admin_disable($1::uuid, $2::uuid, $3)::text", 3};

const std::regex client_id_pattern{"^[A-Za-z0-9._-]{1,100}$"};
const std::regex scope_pattern{"^[!#-\\[\\]-~]{1,100}$"};

std::string client_id_of(const HttpRequest& request) {
    const std::string id = request.path_params.at("clientId");
    if (!std::regex_match(id, client_id_pattern)) throw bad_request("clientId must be 1 to 100 of A-Z a-z 0-9 . _ -");
    return id;
}

// An array field of strings each matching `pattern`; nullopt when absent.
std::optional<std::vector<std::string>> strings_of(JsonBody& body, const char* name, std::size_t max_items,
                                                   const std::regex& pattern, const char* rule) {
    const auto items = body.array(name, false, 0, max_items);
    if (!items) return std::nullopt;
    std::vector<std::string> out;
    for (const json& item : *items) {
        if (!item.is_string() || !std::regex_match(item.get<std::string>(), pattern)) {
            body.problem(name, rule);
            return std::nullopt;
        }
        out.push_back(item.get<std::string>());
    }
    return out;
}

std::optional<std::vector<std::string>> scopes_of(JsonBody& body) {
    return strings_of(body, "scopes", scopes_max, scope_pattern,
                      "must be an array of at most 100 scopes of 1 to 100 printable characters without spaces");
}

std::optional<std::vector<std::string>> audiences_of(JsonBody& body) {
    return strings_of(body, "audiences", audiences_max, client_id_pattern,
                      "must be an array of at most 20 client ids (1 to 100 of A-Z a-z 0-9 . _ -)");
}

Param array_param(const std::optional<std::vector<std::string>>& items) {
    return items ? Param(text_array_param(*items)) : Param();
}

json with_secret(json client, const std::string& secret) {
    client["clientSecret"] = secret;
    return client;
}

}  // namespace

HttpResponse handle_client_admin_list(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    return json_response(200, parse_db_json(db.exec(list_sql, {caller.user_id, caller.session_id, Param()}).scalar()));
}

HttpResponse handle_client_admin_get(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string client_id = client_id_of(request);
    return json_response(200,
                         parse_db_json(db.exec(list_sql, {caller.user_id, caller.session_id, client_id}).scalar()));
}

HttpResponse handle_client_admin_create(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    JsonBody body(request.body);
    const auto client_id = body.text("clientId", TextRule{true, 1, 100});
    if (client_id && !std::regex_match(*client_id, client_id_pattern))
        body.problem("clientId", "must be 1 to 100 of A-Z a-z 0-9 . _ -");
    const auto scopes = scopes_of(body);
    const auto audiences = audiences_of(body);
    const auto name = body.text("name", TextRule{false, 1, 200, true, true});
    body.finish();
    // Made here, shown once in this answer; the database keeps its hash.
    const std::string secret = new_client_secret();
    const json created = parse_db_json(
        db.exec(create_sql, {caller.user_id, caller.session_id, *client_id, password_hash(secret),
                             text_array_param(scopes.value_or(std::vector<std::string>{})), array_param(audiences),
                             name ? Param(*name) : Param()})
            .scalar());
    HttpResponse response = json_response(201, with_secret(created, secret));
    response.headers.emplace_back("Cache-Control", "no-store");
    return response;
}

HttpResponse handle_client_admin_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string client_id = client_id_of(request);
    JsonBody body(request.body);
    const auto scopes = scopes_of(body);
    const auto audiences = audiences_of(body);
    const auto name = body.text("name", TextRule{false, 1, 200, true, false});
    if (!scopes && !audiences && !name && !body.has_problem("scopes") && !body.has_problem("audiences") &&
        !body.has_problem("name"))
        body.problem("scopes", "give at least one of scopes, audiences and name");
    body.finish();
    return json_response(200, parse_db_json(db.exec(update_sql, {caller.user_id, caller.session_id, client_id,
                                                                 array_param(scopes), array_param(audiences),
                                                                 name ? Param(*name) : Param()})
                                                .scalar()));
}

HttpResponse handle_client_admin_rotate(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string client_id = client_id_of(request);
    std::int64_t overlap = overlap_default_s;
    if (!request.body.empty()) {
        JsonBody body(request.body);
        overlap = body.integer("overlapSeconds", false, 0, overlap_max_s).value_or(overlap_default_s);
        body.finish();
    }
    const json argon2 =
        parse_db_json(db.exec(rotate_begin_sql, {caller.user_id, caller.session_id, client_id}).scalar());
    const std::string secret = new_client_secret();
    const json rotated =
        parse_db_json(db.exec(rotate_sql, {caller.user_id, caller.session_id, client_id,
                                           client_secret_hash_with(secret, argon2), std::to_string(overlap)})
                          .scalar());
    HttpResponse response = json_response(200, with_secret(rotated, secret));
    response.headers.emplace_back("Cache-Control", "no-store");
    return response;
}

HttpResponse handle_client_admin_disable(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string client_id = client_id_of(request);
    expect_no_body(request.body);
    const json disabled = parse_db_json(db.exec(disable_sql, {caller.user_id, caller.session_id, client_id}).scalar());
    context.hot_path_event("client:" + client_id);
    return json_response(200, disabled);
}

}  // namespace corebank::httpd::auth
