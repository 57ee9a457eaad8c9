// bearer.hpp: the authentication filter of the identity service's protected
// endpoints: a valid RS256 user token whose session is still live.
#pragma once

#include <string>

#include "auth/context.hpp"
#include "http_types.hpp"

namespace corebank::httpd::auth {

struct Caller {
    std::string user_id;
    std::string session_id;
    std::string jti;
};

// Throws ApiError 401 UNAUTHORIZED (no timestamp) when the token is missing,
// malformed, badly signed, expired, revoked, or not a user token.
Caller authenticate_user(const Context& context, const HttpRequest& request, Db& db);

}  // namespace corebank::httpd::auth
