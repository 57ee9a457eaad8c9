// me_handlers.cpp: see me_handlers.hpp.
//
// The code of a claim is made here and reaches the database only as its
// HMAC (auth/contact_claim_code.hpp); the message that carries it is sealed
// under the data key before it enters the outbox, as a reset link is. Every
// rule (ownership, one pending claim, attempts, expiry, the race between two
// users) is decided by the database functions auth_contact_claim_*.
//
// A claim moves the login identifier, so it needs the password re-entered
// (and a TOTP or recovery code when TOTP is enabled): the tier sends the
// argon2id proof and the database checks it in the statement that writes
// the claim, counting a wrong one as a failed login (the 5-failure lock).
#include "auth/me_handlers.hpp"

#include "api_error.hpp"
#include "auth/bearer.hpp"
#include "auth/contact_claim_code.hpp"
#include "auth/mfa_handlers.hpp"
#include "auth/requests.hpp"
#include "auth/statements.hpp"
#include "core/crypto.hpp"
#include "core/limits.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "password_hash.hpp"

namespace corebank::httpd::auth {

namespace {

using nlohmann::json;

const Statement me_update_sql{"auth_me_update", "SELECT corebank.auth_me_update($1::uuid, $2, $3)::text", 3};
const Statement claim_start_sql{
    "auth_contact_claim_start",
    "SELECT corebank.auth_contact_claim_start($1::uuid, $2, $3, $4::bytea, $5::bytea, $6, $7)::text", 7};
const Statement claim_confirm_sql{"auth_contact_claim_confirm",
                                  "SELECT corebank.auth_contact_claim_confirm($1::uuid, $2, $3::bytea)::text", 3};

constexpr int claims_window_s = 3600;  // auth_contact_claim_start: 5 claims per user and hour

const TextRule name_rule{false, 1, core::limits::auth::name_length_max, true, false};
const TextRule email_rule{true, 1, core::limits::auth::email_length_max, true, false};
const TextRule phone_rule{true, 1, 32, false, false};
const TextRule code_rule{true, 1, 16, true, false};
const TextRule current_password_rule{true, 1, core::limits::auth::login_password_length_max, false, false};

// Seals a message under the data key (bound to its recipient) and queues it.
void send_message(const Context& context, Db& db, const std::string& recipient, const std::string& subject,
                  const std::string& text) {
    const std::string sealed = core::aead_seal(context.data_key, text, recipient);
    db.exec(sql::mail_enqueue, {recipient, subject, bytea_param(sealed)});
    context.wake_mail_sender();
}

std::string code_message(const Context& context, const std::string& kind, const std::string& code) {
    const std::string& app = context.config.app_name;
    if (kind == "phone") return app + " code: " + code + ". It confirms this phone for your account within 15 minutes.";
    return "Hello,\r\n\r\nYour code to confirm this email for your " + app + " account is\r\n\r\n    " + code +
           "\r\n\r\nEnter it within 15 minutes; it works once. If you did not ask for this, ignore this message: "
           "nothing changes without the code.\r\n";
}

std::string changed_message(const Context& context, const std::string& kind, const std::string& now) {
    const std::string& app = context.config.app_name;
    if (kind == "phone") return app + ": the phone of your account was changed to " + now + ". Not you? Contact us.";
    return "Hello,\r\n\r\nThe email of your " + app + " account was changed to " + now +
           ". You will no longer sign in with this address.\r\n\r\nIf you did not make this change, contact us at once."
           "\r\n";
}

HttpResponse start_claim(const Context& context, const HttpRequest& request, Db& db, const std::string& kind) {
    const Caller caller = authenticate_user(context, request, db);
    JsonBody body(request.body);
    std::optional<std::string> value = body.text(kind, kind == "email" ? email_rule : phone_rule);
    if (value && kind == "email") {
        if (is_valid_email(*value)) {
            value = normalise_email(*value);
        } else {
            body.problem("email", "must be a valid email address");
        }
    }
    if (value && kind == "phone" && !is_valid_phone(*value)) body.problem("phone", "must match ^\\+?[0-9]{10,15}$");
    const std::optional<std::string> password = body.text("currentPassword", current_password_rule);
    std::optional<std::string> totp_code, recovery_code;
    read_login_second_factor(body, totp_code, recovery_code);
    body.finish();

    // The first half of the re-entered password (auth_password_reenter_begin):
    // the login rate limit, and the stored hash's parameters and salt.
    const json begin = parse_db_json(db.exec(sql::password_reenter_begin, {caller.user_id}).scalar());
    const std::string begun = json_string(begin, "outcome");
    if (begun == "rate_limited") {
        throw rate_limited("Too many login attempts for this account; try again later",
                           context.config.login_rate_window_s);
    }
    if (begun != "proceed") throw account_locked();
    const std::string proof = password_proof(*password, begin.at("argon2"));
    const std::optional<std::string>& factor = totp_code ? totp_code : recovery_code;

    const std::string code = new_contact_claim_code();
    const std::string hash = contact_claim_code_hash(context.data_key, caller.user_id, kind, code);
    json result = parse_db_json(db.exec(claim_start_sql, {caller.user_id, kind, *value, bytea_param(hash),
                                                          bytea_param(proof), factor ? Param(*factor) : Param(),
                                                          request.client_ip})
                                    .scalar());
    const std::string refused = result.value("outcome", "");
    if (refused == "invalid") throw invalid_credentials();
    if (refused == "locked") throw account_locked();
    if (refused == "mfa_required") throw mfa_required();
    if (!refused.empty()) throw internal_error();
    if (result.value("rateLimited", false)) {
        throw rate_limited("Too many email and phone claims for this account; try again later", claims_window_s);
    }
    const std::string recipient = json_string(result, "value");
    send_message(context, db, recipient, "Confirm your " + kind + " for " + context.config.app_name,
                 code_message(context, kind, code));
    result.erase("claimId");
    result["message"] = "A 6-digit code was sent to that " + kind + "; confirm it within 15 minutes";
    return json_response(202, result);
}

HttpResponse confirm_claim(const Context& context, const HttpRequest& request, Db& db, const std::string& kind) {
    const Caller caller = authenticate_user(context, request, db);
    JsonBody body(request.body);
    std::optional<std::string> code = body.text("code", code_rule);
    // A malformed code never reaches the database, so it is not an attempt.
    if (code && !is_contact_claim_code(*code)) body.problem("code", "must be 6 digits");
    body.finish();

    const std::string hash = contact_claim_code_hash(context.data_key, caller.user_id, kind, *code);
    const json result = parse_db_json(db.exec(claim_confirm_sql, {caller.user_id, kind, bytea_param(hash)}).scalar());
    const std::string outcome = json_string(result, "outcome");
    if (outcome == "none") {
        throw ApiError(409, "CONFLICT", "No " + kind + " claim is pending: POST /auth/me/" + kind + " first");
    }
    if (outcome == "expired" || outcome == "locked") {
        throw bad_request("The code has expired or was entered wrong too many times; ask for a new one");
    }
    if (outcome == "wrong_code") {
        const int left = result.value("attemptsLeft", 0);
        throw validation_error("code: does not match (" + std::to_string(left) +
                               (left == 1 ? " attempt" : " attempts") + " left)");
    }
    if (outcome == "conflict") throw ApiError(409, "CONFLICT", "That " + kind + " belongs to another account");
    if (outcome != "confirmed") throw internal_error();

    const json user = result.at("user");
    const std::string previous = json_string(result, "previous");
    if (!previous.empty()) {
        send_message(context, db, previous, "Your " + context.config.app_name + " " + kind + " was changed",
                     changed_message(context, kind, json_string(user, kind.c_str())));
    }
    return json_response(200, user);
}

}  // namespace

HttpResponse handle_me_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    JsonBody body(request.body);
    const auto first_name = body.text("firstName", name_rule);
    const auto last_name = body.text("lastName", name_rule);
    if (!first_name && !last_name && !body.has_problem("firstName") && !body.has_problem("lastName")) {
        body.problem("firstName", "send firstName, lastName or both");
    }
    body.finish();
    const auto param = [](const std::optional<std::string>& v) { return v ? Param(*v) : Param(); };
    return json_response(200, parse_db_json(db.exec(me_update_sql, {caller.user_id, param(first_name),
                                                                    param(last_name)})
                                                .scalar()));
}

HttpResponse handle_me_email_claim(const Context& c, const HttpRequest& r, Db& db) {
    return start_claim(c, r, db, "email");
}
HttpResponse handle_me_phone_claim(const Context& c, const HttpRequest& r, Db& db) {
    return start_claim(c, r, db, "phone");
}
HttpResponse handle_me_email_confirm(const Context& c, const HttpRequest& r, Db& db) {
    return confirm_claim(c, r, db, "email");
}
HttpResponse handle_me_phone_confirm(const Context& c, const HttpRequest& r, Db& db) {
    return confirm_claim(c, r, db, "phone");
}

}  // namespace corebank::httpd::auth
