#include "auth/bearer.hpp"

#include "api_error.hpp"
#include "auth/requests.hpp"
#include "auth/statements.hpp"
#include "clock.hpp"
#include "json_util.hpp"

namespace corebank::httpd::auth {

Caller authenticate_user(const Context& context, const HttpRequest& request, Db& db) {
    const auto header = request.header("authorization");
    if (!header) throw unauthorized("Authentication required: send Authorization: Bearer <access token>");
    const auto token = parse_bearer(*header);
    if (!token) throw unauthorized("Authorization header must be: Bearer <access token>");
    const auto verified = context.verifier->verify(*token, &db, unix_now());
    if (!verified || verified->is_client_token || !is_uuid(verified->subject) || !is_uuid(verified->jti))
        throw unauthorized("Access token is invalid or expired");
    const auto state = parse_db_json(db.exec(sql::authenticate, {verified->jti}).scalar());
    const bool active = state.contains("active") && state["active"] == true;
    if (!active || json_string(state, "userId") != verified->subject)
        throw unauthorized("Access token has been revoked");
    return Caller{verified->subject, json_string(state, "sessionId"), verified->jti};
}

}  // namespace corebank::httpd::auth
