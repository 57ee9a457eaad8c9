// account_handlers.cpp: register, login, refresh, logout, sessions, me,
// deactivate. Each handler: validate, do the slow crypto here on the worker
// (argon2id), then one call to one extension function that decides the rule.
#include "auth/account_handlers.hpp"

#include "api_error.hpp"
#include "auth/bearer.hpp"
#include "auth/mfa_handlers.hpp"
#include "auth/requests.hpp"
#include "auth/statements.hpp"
#include "auth/suspension_handlers.hpp"
#include "core/crypto.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "password_hash.hpp"

namespace corebank::httpd::auth {

namespace {

Param optional_param(const std::optional<std::string>& value) { return value ? Param(*value) : Param(); }

Param user_agent_of(const HttpRequest& request) {
    auto agent = request.header("user-agent");
    if (agent && agent->size() > 512) agent->resize(512);
    return optional_param(agent);
}

ApiError login_rate_limited(int window_s) {
    return rate_limited("Too many login attempts for this account; try again later", window_s);
}

}  // namespace

void require_reentered_password(const Context& context, const HttpRequest& request, Db& db,
                                const std::string& user_id, const std::string& password) {
    const auto begin = parse_db_json(db.exec(sql::password_reenter_begin, {user_id}).scalar());
    const std::string outcome = json_string(begin, "outcome");
    if (outcome == "rate_limited") throw login_rate_limited(context.config.login_rate_window_s);
    if (outcome != "proceed") throw account_locked();
    // The database compares the proof with the stored hash (never handed out).
    const std::string proof = password_proof(password, begin.at("argon2"));
    const auto counted = parse_db_json(
        db.exec(sql::password_reenter_finish, {user_id, bytea_param(proof), request.client_ip}).scalar());
    const std::string result = json_string(counted, "outcome");
    if (result == "locked") throw account_locked();
    if (result != "ok") throw invalid_credentials();
}

nlohmann::json token_pair(const nlohmann::json& token_block, const std::string& refresh_token) {
    return nlohmann::json{{"accessToken", token_block.at("accessToken")},
                          {"refreshToken", refresh_token},
                          {"tokenType", "Bearer"},
                          {"expiresIn", token_block.at("expiresIn")},
                          {"user", token_block.at("user")}};
}

HttpResponse handle_register(const Context&, const HttpRequest& request, Db& db) {
    const RegisterRequest body = parse_register(request.body);
    const std::string hash = password_hash(body.password);
    const std::string refresh_token = core::random_token();
    const auto block = parse_db_json(
        db.exec(sql::register_user,
                {optional_param(body.email), optional_param(body.phone), hash, optional_param(body.first_name),
                 optional_param(body.last_name), optional_param(body.client_id), optional_param(body.channel),
                 request.client_ip, user_agent_of(request), bytea_param(core::sha256(refresh_token))})
            .scalar());
    return json_response(201, token_pair(block, refresh_token));
}

HttpResponse handle_login(const Context& context, const HttpRequest& request, Db& db) {
    const LoginRequest body = parse_login(request.body);
    const auto begin = parse_db_json(
        db.exec(sql::login_begin, {body.identifier_kind, body.identifier, optional_param(body.client_id)}).scalar());
    const std::string outcome = json_string(begin, "outcome");
    if (outcome == "rate_limited") throw login_rate_limited(context.config.login_rate_window_s);
    if (outcome == "locked") throw account_locked();
    // The proof: the database compares it with the stored hash, which it
    // never hands out. An unknown account gets parameters too, so it costs
    // the same argon2id time as a real check.
    const std::string proof = password_proof(body.password, begin.at("argon2"));
    if (outcome != "proceed") throw invalid_credentials();
    const std::string user_id = json_string(begin, "userId");
    const std::string refresh_token = core::random_token();
    const auto finish = parse_db_json(
        login_finish(db,
                     {user_id, bytea_param(proof), optional_param(body.client_id), optional_param(body.channel),
                      request.client_ip, user_agent_of(request), bytea_param(core::sha256(refresh_token))},
                     body.totp_code, body.recovery_code));
    const std::string result = json_string(finish, "outcome");
    if (result == "locked") throw account_locked();
    if (result == "suspended") throw account_suspended();
    if (result == "mfa_required") throw mfa_required();
    if (result != "ok") throw invalid_credentials();
    return json_response(200, token_pair(finish.at("tokens"), refresh_token));
}

HttpResponse handle_refresh(const Context&, const HttpRequest& request, Db& db) {
    const std::string presented = parse_refresh(request.body);
    const std::string next = core::random_token();
    const auto result = parse_db_json(db.exec(sql::refresh, {bytea_param(core::sha256(presented)),
                                                            bytea_param(core::sha256(next)), request.client_ip,
                                                            user_agent_of(request)})
                                          .scalar());
    const std::string outcome = json_string(result, "outcome");
    if (outcome == "locked") throw account_locked();
    // "replayed" revoked every session of the user in the database already.
    if (outcome != "ok") throw invalid_credentials();
    return json_response(200, token_pair(result.at("tokens"), next));
}

HttpResponse handle_logout(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    expect_no_body(request.body);
    db.exec(sql::logout, {caller.user_id, caller.session_id});
    context.hot_path_event("session:" + caller.session_id);
    return message_response("Logged out");
}

HttpResponse handle_logout_all(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    expect_no_body(request.body);
    db.exec(sql::logout_all, {caller.user_id});
    context.hot_path_event("user:" + caller.user_id);
    return message_response("Logged out of all sessions");
}

HttpResponse handle_me(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    return json_response(200, parse_db_json(db.exec(sql::me, {caller.user_id}).scalar()));
}

HttpResponse handle_sessions(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    auto sessions = parse_db_json(db.exec(sql::sessions_list, {caller.user_id}).scalar());
    if (!sessions.is_array()) sessions = nlohmann::json::array();
    for (auto& session : sessions) session["current"] = json_string(session, "id") == caller.session_id;
    return json_response(200, sessions);
}

HttpResponse handle_session_revoke(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string id = request.path_params.at("id");
    if (!is_uuid(id)) throw bad_request("Session id must be a UUID");
    db.exec(sql::logout, {caller.user_id, id});
    context.hot_path_event("session:" + id);
    return message_response("Session revoked");
}

HttpResponse handle_deactivate(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string password = parse_deactivate(request.body);
    require_reentered_password(context, request, db, caller.user_id, password);
    db.exec(sql::deactivate, {caller.user_id});
    context.hot_path_event("user:" + caller.user_id);
    return message_response("Your account has been deactivated");
}

}  // namespace corebank::httpd::auth
