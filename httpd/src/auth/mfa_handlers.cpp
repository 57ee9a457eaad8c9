// mfa_handlers.cpp: see mfa_handlers.hpp.
//
// A malformed code is refused here (400) and never reaches the database, so
// it is not counted; a well-formed wrong one to disable the factor or to get
// new recovery codes is a failed login of the user there (401, and the 5th
// locks the account), as a re-entered password is.
#include "auth/mfa_handlers.hpp"
#include "auth/mfa_requests.hpp"

#include "api_error.hpp"
#include "auth/bearer.hpp"
#include "auth/statements.hpp"
#include "core/totp.hpp"
#include "json_body.hpp"
#include "json_util.hpp"

namespace corebank::httpd::auth {

namespace {

const Statement mfa_state{"auth_mfa_state", "SELECT corebank.auth_mfa_state($1::uuid)::text", 1};
const Statement mfa_totp_begin{"auth_mfa_totp_begin", "SELECT corebank.auth_mfa_totp_begin($1::uuid, $2)::text", 2};
const Statement mfa_totp_confirm{"auth_mfa_totp_confirm", "SELECT corebank.auth_mfa_totp_confirm($1::uuid, $2)::text",
                                 2};
const Statement mfa_totp_disable{"auth_mfa_totp_disable", "SELECT corebank.auth_mfa_totp_disable($1::uuid, $2)::text",
                                 2};
const Statement login_finish_with_factor{
    "auth_login_finish_with_factor",
    "SELECT corebank.auth_login_finish_with_factor($1::uuid, $2::bytea, $3, $4, $5, $6, $7::bytea, $8, $9)::text", 9};
const Statement mfa_recovery_codes{"auth_mfa_recovery_codes",
                                   "SELECT corebank.auth_mfa_recovery_codes($1::uuid, $2)::text", 2};

// The database's outcome of a counted check: ok, or the answer to give.
void require_ok(const nlohmann::json& result) {
    const std::string outcome = json_string(result, "outcome");
    if (outcome == "locked") throw account_locked();
    if (outcome != "ok") throw invalid_credentials();
}

nlohmann::json recovery_codes_of(const nlohmann::json& result) {
    return nlohmann::json{{"recoveryCodes", result.at("recoveryCodes")}};
}

}  // namespace

std::optional<std::string> login_finish(Db& db, std::vector<Param> params, const std::optional<std::string>& totp_code,
                                        const std::optional<std::string>& recovery_code) {
    if (!totp_code && !recovery_code) return db.exec(sql::login_finish, params).scalar();
    params.push_back(totp_code ? Param(*totp_code) : Param());
    params.push_back(recovery_code ? Param(*recovery_code) : Param());
    return db.exec(login_finish_with_factor, params).scalar();
}

HttpResponse handle_mfa_state(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    return json_response(200, parse_db_json(db.exec(mfa_state, {caller.user_id}).scalar()));
}

HttpResponse handle_mfa_totp_begin(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    expect_no_body(request.body);
    return json_response(201, parse_db_json(db.exec(mfa_totp_begin, {caller.user_id, context.config.app_name}).scalar()));
}

HttpResponse handle_mfa_totp_confirm(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string code = parse_mfa_code(request.body, true);
    return json_response(200, recovery_codes_of(parse_db_json(db.exec(mfa_totp_confirm, {caller.user_id, code}).scalar())));
}

HttpResponse handle_mfa_totp_disable(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string code = parse_mfa_code(request.body, false);
    require_ok(parse_db_json(db.exec(mfa_totp_disable, {caller.user_id, code}).scalar()));
    return message_response("Two-factor authentication has been turned off");
}

HttpResponse handle_mfa_recovery_codes(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string code = parse_mfa_code(request.body, false);
    const nlohmann::json result = parse_db_json(db.exec(mfa_recovery_codes, {caller.user_id, code}).scalar());
    require_ok(result);
    return json_response(200, recovery_codes_of(result));
}

}  // namespace corebank::httpd::auth
