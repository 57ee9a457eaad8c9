// auth.cpp: who may call the verification service.
//
// The caller's backend sends "Authorization: Bearer <API key>"; only the
// key's SHA-256 reaches the database (corebank.core_api_key_authenticate,
// service 'verify'), which also counts the key's per-minute limit across all
// tier processes. The hosted page sends "Authorization: Bearer <client
// token>" instead; its SHA-256 is compared inside the extension. Neither
// credential works in the other's place: an API key is not any session's
// client token, and a client token is no API key.
#include "api_error.hpp"
#include "auth/requests.hpp"
#include "core/crypto.hpp"
#include "json_util.hpp"
#include "verify/context.hpp"
#include "verify/statements.hpp"

namespace corebank::httpd::verify {

namespace {

inline constexpr std::size_t credential_length_max = 200;

ApiError verify_unauthorized(const std::string& message) {
    // The verification service stamps every error body (00-decisions.md).
    ApiError e{401, "UNAUTHORIZED", message};
    e.headers.emplace_back("WWW-Authenticate", "Bearer");
    return e;
}

}  // namespace

std::string hosted_url(const Context& context, const std::string& session_id) {
    return context.public_url + "/hosted/sessions/" + session_id;
}

std::string public_url_of(const Config& config) {
    if (!config.verify_public_url.empty()) {
        std::string url = config.verify_public_url;
        while (!url.empty() && url.back() == '/') url.pop_back();
        return url;
    }
    std::string host = config.listen;
    if (host.empty() || host == "0.0.0.0" || host == "::" || host == "[::]") host = "127.0.0.1";
    if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
    return "http://" + host + ":" + std::to_string(config.verify_port);
}

std::string authorize(const HttpRequest& request, Db& db, const char* scope) {
    const auto header = request.header("authorization");
    if (!header || header->empty()) {
        throw verify_unauthorized("An API key is required: send Authorization: Bearer <API key>");
    }
    const auto key = auth::parse_bearer(*header);
    if (!key) throw verify_unauthorized("Authorization header must be: Bearer <API key>");
    if (key->size() > credential_length_max) throw verify_unauthorized("Invalid API key");
    const auto found =
        parse_db_json(db.exec(sql::api_key_authenticate, {bytea_param(core::sha256(*key)), "verify"}).scalar());
    if (!found.contains("id")) throw verify_unauthorized("Invalid API key");
    if (found.contains("allowed") && found["allowed"] == false) {
        throw rate_limited("API key rate limit exceeded; retry after the current minute", 60);
    }
    bool has_scope = false;
    if (found.contains("scopes") && found["scopes"].is_array())
        for (const auto& s : found["scopes"]) has_scope = has_scope || (s.is_string() && s.get<std::string>() == scope);
    if (!has_scope) throw ApiError{403, "FORBIDDEN", std::string("This API key lacks the '") + scope + "' scope"};
    return json_string(found, "id");
}

std::string client_token_hash(const HttpRequest& request) {
    const auto header = request.header("authorization");
    if (!header || header->empty()) {
        throw verify_unauthorized("A client token is required: send Authorization: Bearer <client token>");
    }
    const auto token = auth::parse_bearer(*header);
    if (!token || token->size() > credential_length_max) throw verify_unauthorized("Client token is invalid or expired");
    return core::sha256(*token);
}

}  // namespace corebank::httpd::verify
