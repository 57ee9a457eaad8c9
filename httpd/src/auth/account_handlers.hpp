// account_handlers.hpp: handlers of the identity service (docs/identity.md).
// Each runs on a worker thread with that worker's database connection.
#pragma once

#include "auth/context.hpp"
#include "db.hpp"
#include "http_types.hpp"

namespace corebank::httpd::auth {

HttpResponse handle_register(const Context&, const HttpRequest&, Db&);
HttpResponse handle_login(const Context&, const HttpRequest&, Db&);
HttpResponse handle_refresh(const Context&, const HttpRequest&, Db&);
HttpResponse handle_logout(const Context&, const HttpRequest&, Db&);
HttpResponse handle_logout_all(const Context&, const HttpRequest&, Db&);
HttpResponse handle_me(const Context&, const HttpRequest&, Db&);
HttpResponse handle_sessions(const Context&, const HttpRequest&, Db&);
HttpResponse handle_session_revoke(const Context&, const HttpRequest&, Db&);
HttpResponse handle_deactivate(const Context&, const HttpRequest&, Db&);

// A password a signed-in user re-enters (change, deactivate) is checked like
// a login: rate-limited, refused while the account is locked (403), and a
// wrong one counted toward the lock (401). Returns when it is right.
void require_reentered_password(const Context&, const HttpRequest&, Db&, const std::string& user_id,
                                const std::string& password);

// password_handlers.cpp
HttpResponse handle_password_change(const Context&, const HttpRequest&, Db&);
HttpResponse handle_password_forgot(const Context&, const HttpRequest&, Db&);
HttpResponse handle_password_reset(const Context&, const HttpRequest&, Db&);

// oauth_handlers.cpp
HttpResponse handle_oauth_token(const Context&, const HttpRequest&, Db&);
HttpResponse handle_introspect(const Context&, const HttpRequest&, Db&);

// discovery_handlers.cpp
HttpResponse handle_jwks(const Context&, const HttpRequest&, Db&);
HttpResponse handle_health(const Context&, const HttpRequest&, Db&);
HttpResponse handle_openid_configuration(const Context&, const HttpRequest&);
HttpResponse handle_reset_form(const Context&, const HttpRequest&);

}  // namespace corebank::httpd::auth
