// auth.cpp: the core-banking authentication filter.
#include "api_error.hpp"
#include "auth/requests.hpp"
#include "banking/context.hpp"
#include "banking/statements.hpp"
#include "clock.hpp"
#include "core/crypto.hpp"
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

// The staff token, checked in the tier before the database is asked:
// RS256, issuer, expiry (00-decisions.md). Its revocation (the session still
// live) is checked by the same database call as the API key. Either the
// verified token, or the error to answer once the key has passed.
struct StaffToken {
    std::optional<VerifiedToken> verified;
    std::optional<ApiError> error;
};

StaffToken verify_staff_token(const Context& context, const HttpRequest& request, Db& db, const OperationRule& rule) {
    StaffToken staff;
    if (rule.actor == ActorRule::none) return staff;
    const auto header = request.header("authorization");
    if (!header) {
        if (rule.actor == ActorRule::required)
            staff.error = core_unauthorized(
                "This operation records the acting staff member: send Authorization: Bearer <access token>");
        return staff;
    }
    const auto token = auth::parse_bearer(*header);
    if (!token) {
        staff.error = core_unauthorized("Authorization header must be: Bearer <access token>");
        return staff;
    }
    staff.verified = context.verifier->verify(*token, &db, unix_now());
    if (!staff.verified || staff.verified->is_client_token) {
        staff.verified.reset();
        staff.error = core_unauthorized("Staff access token is invalid or expired");
    }
    return staff;
}

// The staff member's revocation state (from the database) and role.
void authorize_actor(const nlohmann::json& state, const VerifiedToken& verified, const OperationRule& rule,
                     Caller& caller) {
    if (!(state.is_object() && state.contains("active") && state["active"] == true) ||
        json_string(state, "userId") != verified.subject)
        throw core_unauthorized("Staff access token has been revoked");
    std::vector<std::string> roles;
    if (verified.claims.contains("roles") && verified.claims["roles"].is_array())
        for (const auto& r : verified.claims["roles"])
            if (r.is_string()) roles.push_back(r.get<std::string>());
    bool permitted = rule.roles.empty();
    for (const auto& r : roles) permitted = permitted || rule.roles.count(r) > 0;
    if (!permitted) {
        std::string names;
        for (const auto& r : rule.roles) names += (names.empty() ? "" : ", ") + r;
        throw ApiError{403, "FORBIDDEN", "This operation needs a staff member with one of the roles: " + names};
    }
    caller.actor_id = verified.subject;
    caller.actor_roles = std::move(roles);
}

}  // namespace

// One database round trip (corebank.core_authorize) answers both the API
// key (hash lookup, revocation, per-key rate limit across all tier
// processes) and the staff token's revocation. The answers are judged in
// the order of before: key, rate limit, scope, then the staff token.
Caller authorize(const Context& context, const HttpRequest& request, Db& db, const std::string& operation) {
    const OperationRule& rule = context.policy.rule(operation);
    const auto key = request.header("x-api-key");
    if (!key || key->empty()) throw core_unauthorized("An API key is required: send the X-API-Key header");
    if (key->size() > api_key_length_max) throw core_unauthorized("Invalid API key");
    const StaffToken staff = verify_staff_token(context, request, db, rule);
    const auto found = parse_db_json(
        db.exec(sql::authorize, {bytea_param(core::sha256(*key)), "core",
                                 staff.verified ? Param(staff.verified->jti) : Param()})
            .scalar());
    const nlohmann::json& api_key = found.contains("key") ? found["key"] : found;
    if (!api_key.is_object() || !api_key.contains("id")) throw core_unauthorized("Invalid API key");
    if (api_key.contains("allowed") && api_key["allowed"] == false) {
        ApiError limited = rate_limited("API key rate limit exceeded; retry after the current minute", 60);
        throw limited;
    }
    Caller caller;
    caller.key_id = json_string(api_key, "id");
    if (api_key.contains("scopes") && api_key["scopes"].is_array())
        for (const auto& s : api_key["scopes"])
            if (s.is_string()) caller.key_scopes.insert(s.get<std::string>());
    if (!scope_allows(caller.key_scopes, rule.scope))
        throw ApiError{403, "FORBIDDEN", std::string("This API key lacks the '") + scope_name(rule.scope) + "' scope"};
    if (staff.error) throw *staff.error;
    if (staff.verified) authorize_actor(found.contains("staff") ? found["staff"] : nlohmann::json(), *staff.verified, rule, caller);
    return caller;
}

}  // namespace corebank::httpd::core_banking
