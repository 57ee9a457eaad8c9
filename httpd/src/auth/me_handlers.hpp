// me_handlers.hpp: the signed-in user changes their own account
// (docs/identity.md, "The current user and contact claims"): names at once,
// an email or a phone only through a code sent to it.
#pragma once

#include "auth/context.hpp"
#include "db.hpp"
#include "http_types.hpp"

namespace corebank::httpd::auth {

// PATCH /auth/me {firstName?, lastName?}: 200, the user as GET /auth/me.
HttpResponse handle_me_update(const Context&, const HttpRequest&, Db&);

// POST /auth/me/email {email} and /auth/me/phone {phone}: 202, a claim
// pending until its code is confirmed; 409 when another account holds it.
HttpResponse handle_me_email_claim(const Context&, const HttpRequest&, Db&);
HttpResponse handle_me_phone_claim(const Context&, const HttpRequest&, Db&);

// POST /auth/me/email/confirm and /auth/me/phone/confirm {code}: 200, the
// user with the new, verified value.
HttpResponse handle_me_email_confirm(const Context&, const HttpRequest&, Db&);
HttpResponse handle_me_phone_confirm(const Context&, const HttpRequest&, Db&);

}  // namespace corebank::httpd::auth
