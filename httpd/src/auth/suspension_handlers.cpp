// suspension_handlers.cpp: see suspension_handlers.hpp.
#include "auth/suspension_handlers.hpp"

#include "auth/bearer.hpp"
#include "json_body.hpp"
#include "json_util.hpp"

namespace corebank::httpd::auth {

namespace {

constexpr std::size_t reason_chars_max = 500;

const Statement suspend_sql{"auth_user_suspend",
                            "SELECT corebank.auth_user_suspend($1::uuid, $2::uuid, $3::uuid, $4)::text", 4};
const Statement get_sql{"auth_user_admin_get", "SELECT corebank.auth_user_admin_get($1::uuid, $2::uuid, $3::uuid)::text",
                        3};
const Statement reinstate_sql{"auth_user_reinstate",
                              "SELECT corebank.auth_user_reinstate($1::uuid, $2::uuid, $3::uuid, $4)::text", 4};

// The path's user id; a malformed one is 400 before the database is asked.
std::string path_user_id(const HttpRequest& request) {
    const std::string user_id = request.path_params.at("id");
    if (!is_uuid(user_id)) throw bad_request("User id must be a UUID");
    return user_id;
}

HttpResponse change(const Statement& statement, const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string user_id = path_user_id(request);
    JsonBody body(request.body);
    const auto reason = body.text("reason", TextRule{true, 1, reason_chars_max, true, true});
    body.finish();
    const auto result =
        parse_db_json(db.exec(statement, {caller.user_id, caller.session_id, user_id, *reason}).scalar());
    // This process drops its cached checks of the user's sessions at once;
    // the others hear of it by NOTIFY.
    context.hot_path_event("user:" + user_id);
    return json_response(200, result);
}

}  // namespace

HttpResponse handle_user_get(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string user_id = path_user_id(request);
    return json_response(200, parse_db_json(db.exec(get_sql, {caller.user_id, caller.session_id, user_id}).scalar()));
}

HttpResponse handle_user_suspend(const Context& context, const HttpRequest& request, Db& db) {
    return change(suspend_sql, context, request, db);
}

HttpResponse handle_user_reinstate(const Context& context, const HttpRequest& request, Db& db) {
    return change(reinstate_sql, context, request, db);
}

}  // namespace corebank::httpd::auth
