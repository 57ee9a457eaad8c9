// oauth_handlers.cpp: OAuth2 client credentials (RFC 6749 4.4) and token
// introspection (RFC 7662). Clients authenticate with HTTP Basic or with form
// fields, never both (RFC 6749 2.3).
#include <sstream>

#include "api_error.hpp"
#include "auth/account_handlers.hpp"
#include "auth/requests.hpp"
#include "auth/statements.hpp"
#include "clock.hpp"
#include "core/crypto.hpp"
#include "core/limits.hpp"
#include "json_util.hpp"
#include "password_hash.hpp"

namespace corebank::httpd::auth {

namespace {

inline constexpr std::size_t scopes_max = 50;
inline constexpr std::size_t scope_length_max = 100;

ApiError invalid_client() {
    ApiError e{401, "INVALID_CREDENTIALS", "Invalid client credentials"};
    e.headers.emplace_back("WWW-Authenticate", "Basic realm=\"corebank\"");
    return e;
}

FormFields read_form(const HttpRequest& request) {
    const auto type = request.header("content-type");
    if (!type || type->find("application/x-www-form-urlencoded") == std::string::npos)
        throw bad_request("Content-Type must be application/x-www-form-urlencoded");
    return parse_form(request.body);
}

// A client id locked by repeated failed authentications (issue 13), known
// or not: the answer login gives a locked account.
ApiError client_locked() {
    return ApiError{403, "ACCOUNT_LOCKED", "Client locked after repeated failed authentications; try again later"};
}

// Proves the client's secret (argon2id, run for unknown clients too, so
// timing does not tell which client ids exist) between the two halves in the
// database (auth_guessing.cpp): a locked id is refused before any hashing;
// the database compares the proof with the stored hash, which it never hands
// out, and counts every wrong secret. Returns the client's row (clientId,
// status, scopes) as corebank.auth_client_auth_begin gives it.
nlohmann::json authenticate_client(const HttpRequest& request, const FormFields& form, Db& db) {
    std::optional<BasicCredentials> credentials;
    if (const auto header = request.header("authorization")) {
        credentials = parse_basic_authorization(*header);
        if (!credentials) throw invalid_client();
    }
    const auto form_id = form.get("client_id");
    const auto form_secret = form.get("client_secret");
    if (credentials && (form_secret || (form_id && *form_id != credentials->user)))
        throw bad_request("Send client credentials either with HTTP Basic or as form fields, not both");
    if (!credentials) {
        // RFC 6749 5.2: a request without client authentication is invalid_client (401).
        if (!form_id || !form_secret) throw invalid_client();
        credentials = BasicCredentials{*form_id, *form_secret};
    }
    const std::string& secret = credentials->password;
    // An id no client can have (empty, over-long) is not counted: there is nothing to lock.
    if (credentials->user.empty() || credentials->user.size() > core::limits::auth::client_id_length_max) {
        password_verify(password_dummy_hash(), secret.substr(0, client_secret_length_max));
        throw invalid_client();
    }
    const auto client = parse_db_json(db.exec(sql::client_auth_begin, {credentials->user}).scalar());
    if (json_string(client, "outcome") == "locked") throw client_locked();
    // An over-long secret is hashed cut (the same time) but never sent: a
    // proof no hash holds stands for it, so it is counted as wrong.
    const bool too_long = secret.size() > client_secret_length_max;
    std::string proof = password_proof(secret.substr(0, client_secret_length_max), client.at("argon2"));
    if (too_long) proof = core::random_bytes(proof.size());
    const auto counted =
        parse_db_json(db.exec(sql::client_auth_finish, {credentials->user, bytea_param(proof)}).scalar());
    const std::string outcome = json_string(counted, "outcome");
    if (outcome == "locked") throw client_locked();
    if (outcome != "ok" || json_string(client, "status") != "ACTIVE") throw invalid_client();
    return client;
}

// Introspection tells who a token belongs to (sub, username, scopes): only a
// client granted this scope may ask (issue 13), not every client that can
// get a token.
inline constexpr const char* introspect_scope = "introspect";

void require_scope(const nlohmann::json& client, const char* scope) {
    const auto scopes = client.find("scopes");
    if (scopes != client.end() && scopes->is_array())
        for (const auto& granted : *scopes)
            if (granted.is_string() && granted.get<std::string>() == scope) return;
    throw ApiError{403, "FORBIDDEN", std::string("The client lacks the ") + scope + " scope"};
}

std::vector<std::string> split_scopes(const std::string& text) {
    std::vector<std::string> scopes;
    std::istringstream in(text);
    std::string scope;
    while (in >> scope) {
        if (scope.size() > scope_length_max) throw bad_request("scope: each scope is at most 100 characters");
        if (scopes.size() >= scopes_max) throw bad_request("scope: at most 50 scopes");
        scopes.push_back(scope);
    }
    return scopes;
}

std::string join_scopes(const nlohmann::json& scopes) {
    std::string out;
    if (!scopes.is_array()) return out;
    for (const auto& s : scopes)
        if (s.is_string()) out += (out.empty() ? "" : " ") + s.get<std::string>();
    return out;
}

}  // namespace



HttpResponse handle_oauth_token(const Context&, const HttpRequest& request, Db& db) {
    const FormFields form = read_form(request);
    const auto grant = form.get("grant_type");
    if (!grant) throw bad_request("grant_type is required");
    if (*grant != "client_credentials") throw bad_request("Unsupported grant_type; use client_credentials");
    const std::vector<std::string> scopes = split_scopes(form.get("scope").value_or(""));
    const std::string client_id = json_string(authenticate_client(request, form, db), "clientId");
    const auto token = parse_db_json(db.exec(sql::client_token, {client_id, text_array_param(scopes)}).scalar());
    // The spec's camelCase fields, and RFC 6749 section 5.1's beside them
    // (the RFC allows more members), so that both the spec's clients and
    // standard OAuth libraries read the answer (issue 14, part 6).
    HttpResponse response = json_response(200, nlohmann::json{{"accessToken", token.at("accessToken")},
                                                              {"tokenType", "Bearer"},
                                                              {"expiresIn", token.at("expiresIn")},
                                                              {"access_token", token.at("accessToken")},
                                                              {"token_type", "Bearer"},
                                                              {"expires_in", token.at("expiresIn")},
                                                              {"scope", token.at("scope")}});
    // RFC 6749 section 5.1: a token answer is never cached.
    response.headers.emplace_back("Cache-Control", "no-store");
    response.headers.emplace_back("Pragma", "no-cache");
    return response;
}

HttpResponse handle_introspect(const Context& context, const HttpRequest& request, Db& db) {
    const FormFields form = read_form(request);
    const nlohmann::json client = authenticate_client(request, form, db);
    require_scope(client, introspect_scope);
    const auto token = form.get("token");
    if (!token || token->empty()) throw bad_request("token is required");
    const nlohmann::json inactive{{"active", false}};
    const auto verified = context.verifier->verify(*token, &db, unix_now());
    if (!verified || !is_uuid(verified->jti)) return json_response(200, inactive);
    const auto state = parse_db_json(db.exec(sql::introspect, {verified->jti}).scalar());
    if (!(state.contains("active") && state["active"] == true)) return json_response(200, inactive);
    const nlohmann::json& claims = *verified->claims;
    // A client given audiences (PATCH /admin/clients/{clientId}) learns only
    // of user tokens issued for one of them; the rest are inactive to it
    // (RFC 7662 section 4: the server may limit what a caller is told).
    const auto audiences = client.find("audiences");
    if (audiences != client.end() && audiences->is_array() && !audiences->empty()) {
        const std::string aud = verified->is_client_token ? std::string() : json_string(claims, "aud");
        bool allowed = false;
        for (const auto& a : *audiences)
            allowed = allowed || (a.is_string() && !aud.empty() && a.get<std::string>() == aud);
        if (!allowed) return json_response(200, inactive);
    }
    nlohmann::json out{{"active", true},
                       {"sub", claims.at("sub")},
                       {"iss", claims.at("iss")},
                       {"iat", claims.at("iat")},
                       {"exp", claims.at("exp")},
                       {"jti", claims.at("jti")},
                       {"token_type", verified->is_client_token ? "client" : "access"},
                       {"scope", join_scopes(claims.value("scopes", nlohmann::json::array()))}};
    if (verified->is_client_token) {
        out["client_id"] = claims.value("client_id", "");
    } else {
        out["aud"] = claims.value("aud", "");
        const std::string username = json_string(claims, "email", json_string(claims, "phone"));
        if (!username.empty()) out["username"] = username;
    }
    return json_response(200, out);
}

}  // namespace corebank::httpd::auth
