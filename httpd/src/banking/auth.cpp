// auth.cpp: the core-banking authentication filter.
#include "api_error.hpp"
#include "banking/context.hpp"
#include "banking/statements.hpp"
#include "clock.hpp"
#include "core/crypto.hpp"
#include "identity/requests.hpp"
#include "json_util.hpp"

namespace corebank::httpd::core_banking {

namespace {

inline constexpr std::size_t api_key_length_max = 200;

const char* scope_name(KeyScope scope) {
    switch (scope) {
        case KeyScope::read: return "read";
        case KeyScope::write: return "write";
        case KeyScope::admin: return "admin";
    }
    return "admin";
}

ApiError core_unauthorized(const std::string& message) {
    // The core service always stamps its error bodies (00-decisions.md).
    ApiError e{401, "UNAUTHORIZED", message};
    return e;
}

// The staff person from the identity service's access token: RS256, issuer,
// expiry, and revocation (their session still live), as 00-decisions.md fixes.
void authenticate_actor(const Context& context, const HttpRequest& request, Db& db, const OperationRule& rule,
                        Caller& caller) {
    const auto header = request.header("authorization");
    if (!header) {
        if (rule.actor == ActorRule::optional) return;
        throw core_unauthorized("This operation records the acting staff member: send Authorization: Bearer <access token>");
    }
    const auto token = identity::parse_bearer(*header);
    if (!token) throw core_unauthorized("Authorization header must be: Bearer <access token>");
    const auto verified = context.verifier->verify(*token, &db, unix_now());
    if (!verified || verified->is_client_token) throw core_unauthorized("Staff access token is invalid or expired");
    const auto state = parse_db_json(db.exec(sql::staff_authenticate, {verified->jti}).scalar());
    if (!(state.contains("active") && state["active"] == true) || json_string(state, "userId") != verified->subject)
        throw core_unauthorized("Staff access token has been revoked");
    std::vector<std::string> roles;
    if (verified->claims.contains("roles") && verified->claims["roles"].is_array())
        for (const auto& r : verified->claims["roles"])
            if (r.is_string()) roles.push_back(r.get<std::string>());
    bool permitted = rule.roles.empty();
    for (const auto& r : roles) permitted = permitted || rule.roles.count(r) > 0;
    if (!permitted) {
        std::string names;
        for (const auto& r : rule.roles) names += (names.empty() ? "" : ", ") + r;
        throw ApiError{403, "FORBIDDEN", "This operation needs a staff member with one of the roles: " + names};
    }
    caller.actor_id = verified->subject;
    caller.actor_roles = std::move(roles);
}

}  // namespace

Caller authorize(const Context& context, const HttpRequest& request, Db& db, const std::string& operation) {
    const OperationRule& rule = context.policy.rule(operation);
    const auto key = request.header("x-api-key");
    if (!key || key->empty()) throw core_unauthorized("An API key is required: send the X-API-Key header");
    if (key->size() > api_key_length_max) throw core_unauthorized("Invalid API key");
    const auto found = parse_db_json(db.exec(sql::api_key_authenticate, {bytea_param(core::sha256(*key)), "core"}).scalar());
    if (!found.contains("id")) throw core_unauthorized("Invalid API key");
    if (found.contains("allowed") && found["allowed"] == false) {
        ApiError limited = rate_limited("API key rate limit exceeded; retry after the current minute", 60);
        throw limited;
    }
    Caller caller;
    caller.key_id = json_string(found, "id");
    if (found.contains("scopes") && found["scopes"].is_array())
        for (const auto& s : found["scopes"])
            if (s.is_string()) caller.key_scopes.insert(s.get<std::string>());
    if (!scope_allows(caller.key_scopes, rule.scope))
        throw ApiError{403, "FORBIDDEN", std::string("This API key lacks the '") + scope_name(rule.scope) + "' scope"};
    if (rule.actor != ActorRule::none) authenticate_actor(context, request, db, rule, caller);
    return caller;
}

}  // namespace corebank::httpd::core_banking
