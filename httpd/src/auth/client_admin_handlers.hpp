// client_admin_handlers.hpp: OAuth client administration for staff with
// admin (docs/identity.md, "Client administration and suspension"). Every
// rule (who may, what is valid, the audit) is the database's; these read
// the request, make and hash secrets, and render.
#pragma once

#include "auth/context.hpp"
#include "db.hpp"
#include "http_types.hpp"

namespace corebank::httpd::auth {

HttpResponse handle_client_admin_list(const Context& context, const HttpRequest& request, Db& db);
HttpResponse handle_client_admin_get(const Context& context, const HttpRequest& request, Db& db);
// Runs argon2id (the new secret's hash): on the password lane.
HttpResponse handle_client_admin_create(const Context& context, const HttpRequest& request, Db& db);
HttpResponse handle_client_admin_update(const Context& context, const HttpRequest& request, Db& db);
// Runs argon2id: on the password lane.
HttpResponse handle_client_admin_rotate(const Context& context, const HttpRequest& request, Db& db);
HttpResponse handle_client_admin_disable(const Context& context, const HttpRequest& request, Db& db);

}  // namespace corebank::httpd::auth
