// auth.cpp: the core-banking authentication filter.
#include <algorithm>
#include <cassert>
#include <memory>
#include <optional>
#include <set>

#include "api_error.hpp"
#include "auth/requests.hpp"
#include "banking/context.hpp"
#include "banking/rate_flusher.hpp"
#include "banking/staff_mfa.hpp"
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
    const std::vector<std::string>* mfa_roles = nullptr;  // the configuration's staff_mfa_roles
};

StaffToken verify_staff_token(const Context& context, const HttpRequest& request, Db& db, const OperationRule& rule) {
    StaffToken staff;
    staff.mfa_roles = &context.config.staff_mfa_roles;
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

std::vector<std::string> strings_of(const nlohmann::json& state, const char* member) {
    std::vector<std::string> values;
    if (state.contains(member) && state[member].is_array())
        for (const auto& v : state[member])
            if (v.is_string()) values.push_back(v.get<std::string>());
    return values;
}

// The staff member's live session and, read with it from the database
// (corebank_internal.staff_session), the member's roles as they are now and
// the permissions those roles hold: a role granted or withdrawn, or a role's
// permissions amended, acts on the next request, not at the token's renewal.
// The token's own roles claim is not read. An empty rule.permission is the
// approvals' check permission, which the database judges. `session` is null
// when the token's session is not live (revoked, expired, logged out).
void authorize_actor(const CachedStaff* session, const VerifiedToken& verified, const OperationRule& rule,
                     Caller& caller) {
    if (session == nullptr || session->user_id != verified.subject)
        throw core_unauthorized("Staff access token has been revoked");
    const std::vector<std::string>& permissions = session->permissions;
    if (!rule.permission.empty() && std::find(permissions.begin(), permissions.end(), rule.permission) == permissions.end())
        throw ApiError{403, "FORBIDDEN",
                       "This operation needs a staff member whose roles hold the permission " + rule.permission +
                           " (GET /v1/staff/roles lists the roles)"};
    caller.actor_id = verified.subject;
    caller.actor_roles = session->roles;
}

// The database's answer for a staff token (the "staff" member of
// core_authorize's or core_authorize_lookup's answer: auth_authenticate
// joined with staff_session) as the session the tier judges: none unless it
// says active.
std::optional<CachedStaff> live_session_of(const nlohmann::json& found) {
    if (!found.contains("staff")) return std::nullopt;
    const nlohmann::json& state = found["staff"];
    if (!(state.is_object() && state.contains("active") && state["active"] == true)) return std::nullopt;
    return CachedStaff{json_string(state, "userId"), json_string(state, "sessionId"), json_string(state, "clientId"),
                       strings_of(state, "roles"), strings_of(state, "permissions")};
}

// The key's answer as the tier judges it, from either path (the scopes are
// the cache's or the database answer's, alive for the call).
struct KeyAnswer {
    const std::string& id;
    const std::set<std::string>& scopes;
    bool limited = false;
};

// After the key's answer: scope, then the staff token (its error, then its
// session state and role), the order of every path.
Caller judge(const KeyAnswer& key, const StaffToken& staff, const CachedStaff* session, const OperationRule& rule) {
    if (key.limited) {
        ApiError limited = rate_limited("API key rate limit exceeded; retry after the current minute", 60);
        throw limited;
    }
    Caller caller;
    caller.key_id = key.id;
    caller.key_scopes = key.scopes;
    if (!scope_allows(caller.key_scopes, rule.scope))
        throw ApiError{403, "FORBIDDEN", std::string("This API key lacks the '") + scope_name(rule.scope) + "' scope"};
    if (staff.error) throw *staff.error;
    if (staff.verified) {
        authorize_actor(session, *staff.verified, rule, caller);
        // The roles the member acts with, if any is in staff_mfa_roles, need
        // a token issued after a second factor (docs/identity.md).
        if (auto refusal = second_factor_refusal(caller.actor_roles, *staff.verified->claims, *staff.mfa_roles))
            throw *refusal;
    }
    return caller;
}

std::set<std::string> scopes_of(const nlohmann::json& api_key) {
    std::set<std::string> scopes;
    if (api_key.contains("scopes") && api_key["scopes"].is_array())
        for (const auto& s : api_key["scopes"])
            if (s.is_string()) scopes.insert(s.get<std::string>());
    return scopes;
}

// One database round trip (corebank.core_authorize) answers both the API
// key (hash lookup, revocation, per-key rate limit counted in the database)
// and the staff token's revocation: the path without the caches.
Caller authorize_in_database(const std::string& key_hash, const StaffToken& staff, Db& db, const OperationRule& rule) {
    const auto found = parse_db_json(
        db.exec(sql::authorize, {bytea_param(key_hash), "core", staff.verified ? Param(staff.verified->jti) : Param()})
            .scalar());
    const nlohmann::json& api_key = found.contains("key") ? found["key"] : found;
    if (!api_key.is_object() || !api_key.contains("id")) throw core_unauthorized("Invalid API key");
    const std::string id = json_string(api_key, "id");
    const std::set<std::string> scopes = scopes_of(api_key);
    const KeyAnswer key{id, scopes, api_key.contains("allowed") && api_key["allowed"] == false};
    const std::optional<CachedStaff> session = live_session_of(found);
    return judge(key, staff, session ? &*session : nullptr, rule);
}

// What the caches lack, in one round trip (core_authorize_lookup), stored
// under the generations taken before the call: an eviction that raced the
// call wins. An unknown key or an inactive session is never cached.
void fill_from_database(HotPath& hot_path, const std::string& key_hash, const StaffToken& staff, Db& db,
                        std::shared_ptr<const CachedKey>& key, std::shared_ptr<const CachedStaff>& session) {
    const std::uint64_t key_generation = hot_path.keys.generation();
    const std::uint64_t staff_generation = hot_path.staff.generation();
    const bool ask_staff = staff.verified && !session;
    const auto found = parse_db_json(db.exec(sql::authorize_lookup,
                                             {key ? Param() : Param(bytea_param(key_hash)), "core",
                                              ask_staff ? Param(staff.verified->jti) : Param()})
                                         .scalar());
    if (!key) {
        const nlohmann::json& api_key = found.contains("key") ? found["key"] : nlohmann::json();
        if (!api_key.is_object() || !api_key.contains("id")) throw core_unauthorized("Invalid API key");
        auto answer = std::make_shared<const CachedKey>(
            CachedKey{json_string(api_key, "id"), scopes_of(api_key), json_int64(api_key, "rateLimitPerMinute")});
        if (answer->rate_limit_per_minute < 1) throw core_unauthorized("Invalid API key");
        hot_path.rates.observe(answer->id, json_int64(api_key, "windowStartS") / 60, json_int64(api_key, "windowHits"));
        hot_path.keys.put(core::hex_encode(key_hash), answer, {"api_key:" + answer->id}, key_generation);
        key = std::move(answer);
    }
    if (!ask_staff) return;
    std::optional<CachedStaff> live = live_session_of(found);
    if (!live) return;  // not live: judged as revoked, never cached
    session = std::make_shared<const CachedStaff>(std::move(*live));
    std::vector<std::string> tags{"session:" + session->session_id, "user:" + session->user_id};
    if (!session->client_id.empty()) tags.push_back("client:" + session->client_id);
    hot_path.staff.put(staff.verified->jti, session, std::move(tags), staff_generation);
}

// The key and the staff token's session come from the process's caches when
// they are there (no database call) and from one round trip
// (core_authorize_lookup) when not; the key's request counts in this
// process (RateAccounting) and reaches the database with the next flush. With
// the caches off or bypassed (the listener is down), corebank.core_authorize
// answers and counts as before. Judged in the order of before: key, rate
// limit, scope, then the staff token.
Caller authorize_caller(const Context& context, const HttpRequest& request, Db& db, const std::string& operation) {
    const OperationRule& rule = context.policy.rule(operation);
    const auto key_text = request.header("x-api-key");
    if (!key_text || key_text->empty()) throw core_unauthorized("An API key is required: send the X-API-Key header");
    if (key_text->size() > api_key_length_max) throw core_unauthorized("Invalid API key");
    const StaffToken staff = verify_staff_token(context, request, db, rule);
    const std::string key_hash = core::sha256(*key_text);
    HotPath* hot_path = context.hot_path.get();
    if (hot_path == nullptr || !hot_path->keys.enabled()) return authorize_in_database(key_hash, staff, db, rule);
    std::shared_ptr<const CachedKey> key = hot_path->keys.get(core::hex_encode(key_hash));
    std::shared_ptr<const CachedStaff> session;
    if (staff.verified) session = hot_path->staff.get(staff.verified->jti);
    if (!key || (staff.verified && !session)) fill_from_database(*hot_path, key_hash, staff, db, key, session);
    assert(key != nullptr);  // fill_from_database answers the key or throws 401
    const Admission admission = hot_path->rates.admit(key->id, key->rate_limit_per_minute, wall_now_ms());
    // The table of keys is full (more live keys than entries_max in one
    // minute): this request is counted by the database instead.
    if (admission == Admission::untracked) return authorize_in_database(key_hash, staff, db, rule);
    return judge(KeyAnswer{key->id, key->scopes, admission == Admission::limited}, staff, session.get(), rule);
}

}  // namespace

// Every call the handler makes after this one is scoped to the staff
// member's branch in the database (Db::scope_to); an application key alone
// acts for the institution, unscoped.
Caller authorize(const Context& context, const HttpRequest& request, Db& db, const std::string& operation) {
    Caller caller = authorize_caller(context, request, db, operation);
    db.scope_to(caller.actor_id);
    return caller;
}

}  // namespace corebank::httpd::core_banking
