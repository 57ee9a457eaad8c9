// password_handlers.cpp: change, forgot and reset.
//
// Reset tokens are generated here and stored only as SHA-256 hashes; the mail
// that carries the link is sealed (AES-256-GCM, data key) before it reaches
// the outbox table, so the database never holds a usable link.
#include "api_error.hpp"
#include "auth/account_handlers.hpp"
#include "auth/bearer.hpp"
#include "auth/requests.hpp"
#include "auth/statements.hpp"
#include "core/crypto.hpp"
#include "json_util.hpp"
#include "password_hash.hpp"

namespace corebank::httpd::auth {

namespace {

const char* const forgot_message = "If an account exists for that email, a password reset link has been sent";
const char* const same_password = "newPassword: must differ from the current password";

// The token goes in the fragment (issue 13): a browser never sends a
// fragment to a server, so it stays out of access logs, proxies and the
// Referer header; the reset form reads it from location.hash. A base that
// already has a fragment (a single-page app's route) gets it as a parameter.
std::string reset_link(const std::string& base, const std::string& token) {
    return base + (base.find('#') == std::string::npos ? "#" : "&") + "token=" + token;
}

std::string reset_mail_body(const std::string& app_name, const std::string& link, int ttl_s) {
    return "Hello,\r\n\r\nA password reset was requested for your " + app_name +
           " account. Open this link within " + std::to_string(ttl_s / 60) +
           " minutes to choose a new password:\r\n\r\n" + link +
           "\r\n\r\nThe link works once. If you did not ask for this, ignore this message; your password stays as "
           "it is.\r\n";
}

}  // namespace

HttpResponse handle_password_change(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const PasswordChangeRequest body = parse_password_change(request.body);
    // The current password is verified first (02-identity.md rule 7), and
    // counted like a login attempt (issue 13).
    require_reentered_password(context, request, db, caller.user_id, body.current_password);
    if (core::constant_time_equal(body.current_password, body.new_password)) throw validation_error(same_password);
    db.exec(sql::password_change, {caller.user_id, password_hash(body.new_password)});
    context.hot_path_event("user:" + caller.user_id);
    return message_response("Your password has been changed; all sessions have been signed out");
}

HttpResponse handle_password_forgot(const Context& context, const HttpRequest& request, Db& db) {
    const PasswordForgotRequest body = parse_password_forgot(request.body);
    const std::string token = core::random_token();
    const auto result = parse_db_json(db.exec(sql::password_forgot,
                                              {body.email, body.client_id ? Param(*body.client_id) : Param(),
                                               request.client_ip, bytea_param(core::sha256(token))})
                                          .scalar());
    if (result.contains("rateLimited") && result["rateLimited"] == true)
        throw rate_limited("Too many password reset requests from this address; try again later",
                           context.config.reset_rate_window_s);
    if (result.contains("send") && result["send"] == true) {
        const std::string base = json_string(result, "linkBase", context.config.reset_link_base);
        const std::string app = json_string(result, "appName", context.config.app_name);
        const std::string subject = "Reset your " + app + " password";
        const std::string body_text =
            reset_mail_body(app, reset_link(base, token), context.config.reset_token_ttl_s);
        const std::string recipient = json_string(result, "recipient");
        const std::string sealed = core::aead_seal(context.data_key, body_text, recipient);
        db.exec(sql::mail_enqueue, {recipient, subject, bytea_param(sealed)});
        context.wake_mail_sender();
    }
    return message_response(forgot_message);
}

HttpResponse handle_password_reset(const Context&, const HttpRequest& request, Db& db) {
    const PasswordResetRequest body = parse_password_reset(request.body);
    const std::string token_hash = bytea_param(core::sha256(body.token));
    const auto begin = parse_db_json(db.exec(sql::reset_begin, {token_hash}).scalar());
    // The new password's proof under the current hash's parameters and salt:
    // the database refuses it when it equals the current hash.
    const std::string proof = password_proof(body.new_password, begin.at("argon2"));
    db.exec(sql::reset_finish, {token_hash, password_hash(body.new_password), bytea_param(proof)});
    return message_response("Your password has been reset");
}

}  // namespace corebank::httpd::auth
