// suspension_handlers.hpp: staff with admin or compliance_officer read one
// user, and suspend and reinstate a user with a reason (docs/identity.md,
// "Client administration and suspension"); the database decides who may and
// revokes the sessions in the same transaction.
#pragma once

#include "api_error.hpp"
#include "auth/context.hpp"
#include "db.hpp"
#include "http_types.hpp"

namespace corebank::httpd::auth {

// Login of a suspended user who gave the right password: the spec's
// ACCOUNT_LOCKED code, with a message of its own.
inline ApiError account_suspended() {
    return {403, "ACCOUNT_LOCKED", "Account is suspended; contact support to have it reinstated"};
}

// GET /admin/users/{id}: the user as GET /auth/me shows it (what an identity
// webhook's receiver fetches: docs/identity.md, "Outbound events").
HttpResponse handle_user_get(const Context& context, const HttpRequest& request, Db& db);
HttpResponse handle_user_suspend(const Context& context, const HttpRequest& request, Db& db);
HttpResponse handle_user_reinstate(const Context& context, const HttpRequest& request, Db& db);

}  // namespace corebank::httpd::auth
