// kyc_handlers.cpp: see kyc_handlers.hpp.
//
// Both services share the database, so starting a session is one call of
// corebank.auth_kyc_session_start, which creates the session with the
// verification service's own function (verify_session_create) and makes the
// user its owner. The tier does what the verification tier does at
// creation: a random session id and client token, the token's SHA-256 for
// the database and a copy sealed under the data key for idempotent replays,
// the token in the hostedUrl's fragment.
#include "auth/kyc_handlers.hpp"

#include "api_error.hpp"
#include "auth/bearer.hpp"
#include "core/crypto.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "log.hpp"
#include "verify/context.hpp"
#include "verify/keys.hpp"

namespace corebank::httpd::auth {

namespace {

using nlohmann::json;

constexpr std::size_t redirect_url_chars_max = 2048;
constexpr std::size_t idempotency_key_chars_max = 255;

const Statement kyc_get_sql{"auth_kyc_get", "SELECT corebank.auth_kyc_get($1::uuid)::text", 1};
const Statement kyc_session_start_sql{
    "auth_kyc_session_start",
    "SELECT corebank.auth_kyc_session_start($1::uuid, $2, $3::bytea, $4::uuid, $5, $6::bytea, $7::bytea, $8::int, "
    "$9::int)::text",
    9};

// Optional, as on Stripe: without one each request starts a new session.
std::string idempotency_key_of(const HttpRequest& request) {
    const auto key = request.header("idempotency-key");
    if (!key) return "kyc-" + verify::new_session_id();
    bool printable = !key->empty() && key->size() <= idempotency_key_chars_max;
    for (const char c : *key) printable = printable && c >= '!' && c <= '~';
    if (!printable) {
        throw validation_error("Idempotency-Key: must be 1 to 255 printable ASCII characters without spaces");
    }
    return *key;
}

// The optional body {redirectUrl}; an empty body is no redirect.
std::optional<std::string> redirect_url_of(const std::string& text) {
    if (text.empty()) return std::nullopt;
    JsonBody body(text);
    const auto url = body.text("redirectUrl", TextRule{false, 1, redirect_url_chars_max, true, true});
    if (url && url->rfind("https://", 0) != 0 && url->rfind("http://", 0) != 0) {
        body.problem("redirectUrl", "must be an absolute http(s) URL");
    }
    body.finish();
    return url;
}

}  // namespace

HttpResponse handle_kyc_get(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    return json_response(200, parse_db_json(db.exec(kyc_get_sql, {caller.user_id}).scalar()));
}

HttpResponse handle_kyc_session_start(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authenticate_user(context, request, db);
    const std::string idempotency_key = idempotency_key_of(request);
    const std::optional<std::string> redirect_url = redirect_url_of(request.body);

    const verify::VerifyKeys keys = verify::derive_keys(context.data_key);
    const std::string session_id = verify::new_session_id();
    const std::string client_token = verify::new_client_token();
    const std::string hash = verify::request_hash(keys, "kyc.session", caller.user_id, redirect_url.value_or(""));
    const json result = parse_db_json(
        db.exec(kyc_session_start_sql,
                {caller.user_id, idempotency_key, bytea_param(hash), session_id, redirect_url,
                 bytea_param(core::sha256(client_token)),
                 bytea_param(verify::seal_client_token(keys, session_id, client_token)),
                 std::to_string(context.config.verify_session_lifetime_s),
                 std::to_string(context.config.verify_client_token_ttl_s)})
            .scalar());
    json body = result.at("body");
    const std::string created_id = json_string(body, "sessionId");
    // A replay answers with the first request's session and token.
    const auto sealed = verify::bytes_from_hex(json_string(result, "clientTokenSealed"));
    const auto token = sealed ? verify::open_client_token(keys, created_id, *sealed) : std::nullopt;
    if (!token) {
        log_error("stored client token does not open with this data key", {{"session_id", created_id}});
        throw internal_error();
    }
    body["clientToken"] = *token;
    // The token travels in the fragment: browsers never send it to a server.
    body["hostedUrl"] = verify::public_url_of(context.config) + "/hosted/sessions/" + created_id + "#token=" + *token;
    HttpResponse response = json_response(result.value("status", 201), body);
    if (result.value("replayed", false)) response.headers.emplace_back("Idempotent-Replayed", "true");
    return response;
}

}  // namespace corebank::httpd::auth
