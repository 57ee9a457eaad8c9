// router.cpp: every route of the identity service in one place.
#include "auth/account_handlers.hpp"
#include "auth/client_admin_handlers.hpp"
#include "auth/context.hpp"
#include "auth/kyc_handlers.hpp"
#include "auth/me_handlers.hpp"
#include "auth/mfa_handlers.hpp"
#include "auth/suspension_handlers.hpp"

namespace corebank::httpd::auth {

namespace {

Route worker(const char* method, const char* pattern, HttpResponse (*handler)(const Context&, const HttpRequest&, Db&),
             std::shared_ptr<const Context> context) {
    return worker_route(method, pattern, handler, std::move(context));
}

Route reactor(const char* method, const char* pattern, HttpResponse (*handler)(const Context&, const HttpRequest&),
              std::shared_ptr<const Context> context) {
    return reactor_route(method, pattern, handler, std::move(context));
}

// The routes whose handlers run argon2id (hash or verify), on the password
// lane: a new handler that calls password_hash or password_verify belongs here.
constexpr const char* argon2_routes[][2] = {
    {"POST", "/auth/register"},        {"POST", "/auth/login"},        {"POST", "/auth/password/change"},
    {"POST", "/auth/password/reset"},  {"POST", "/auth/deactivate"},   {"POST", "/oauth/token"},
    {"POST", "/oauth/introspect"},     {"POST", "/admin/clients"},
    {"POST", "/admin/clients/:clientId/rotate-secret"},
    {"POST", "/auth/me/email"},        {"POST", "/auth/me/phone"},
};

}  // namespace

bool runs_argon2(const Route& route) {
    for (const auto& [method, pattern] : argon2_routes)
        if (route.method == method && route.pattern == pattern) return true;
    return false;
}

Router make_router(std::shared_ptr<const Context> c) {
    Router r;
    r.add(worker("POST", "/auth/register", handle_register, c));
    r.add(worker("POST", "/auth/login", handle_login, c));
    r.add(worker("POST", "/auth/token/refresh", handle_refresh, c));
    r.add(worker("POST", "/auth/password/change", handle_password_change, c));
    r.add(worker("POST", "/auth/password/forgot", handle_password_forgot, c));
    r.add(worker("POST", "/auth/password/reset", handle_password_reset, c));
    r.add(reactor("GET", "/auth/password/reset-form", handle_reset_form, c));
    r.add(worker("POST", "/auth/deactivate", handle_deactivate, c));
    r.add(worker("POST", "/auth/logout", handle_logout, c));
    r.add(worker("POST", "/auth/logout/all", handle_logout_all, c));
    r.add(worker("GET", "/auth/me", handle_me, c));
    r.add(worker("PATCH", "/auth/me", handle_me_update, c));
    r.add(worker("POST", "/auth/me/email", handle_me_email_claim, c));
    r.add(worker("POST", "/auth/me/email/confirm", handle_me_email_confirm, c));
    r.add(worker("POST", "/auth/me/phone", handle_me_phone_claim, c));
    r.add(worker("POST", "/auth/me/phone/confirm", handle_me_phone_confirm, c));
    r.add(worker("GET", "/auth/sessions", handle_sessions, c));
    r.add(worker("DELETE", "/auth/sessions/:id", handle_session_revoke, c));
    r.add(worker("GET", "/auth/kyc", handle_kyc_get, c));
    r.add(worker("POST", "/auth/kyc/sessions", handle_kyc_session_start, c));
    r.add(worker("GET", "/auth/mfa", handle_mfa_state, c));
    r.add(worker("POST", "/auth/mfa/totp", handle_mfa_totp_begin, c));
    r.add(worker("DELETE", "/auth/mfa/totp", handle_mfa_totp_disable, c));
    r.add(worker("POST", "/auth/mfa/totp/confirm", handle_mfa_totp_confirm, c));
    r.add(worker("POST", "/auth/mfa/recovery-codes", handle_mfa_recovery_codes, c));
    r.add(worker("GET", "/admin/clients", handle_client_admin_list, c));
    r.add(worker("POST", "/admin/clients", handle_client_admin_create, c));
    r.add(worker("GET", "/admin/clients/:clientId", handle_client_admin_get, c));
    r.add(worker("PATCH", "/admin/clients/:clientId", handle_client_admin_update, c));
    r.add(worker("POST", "/admin/clients/:clientId/rotate-secret", handle_client_admin_rotate, c));
    r.add(worker("POST", "/admin/clients/:clientId/disable", handle_client_admin_disable, c));
    r.add(worker("GET", "/admin/users/:id", handle_user_get, c));
    r.add(worker("POST", "/admin/users/:id/suspend", handle_user_suspend, c));
    r.add(worker("POST", "/admin/users/:id/reinstate", handle_user_reinstate, c));
    r.add(worker("POST", "/oauth/token", handle_oauth_token, c));
    r.add(worker("POST", "/oauth/introspect", handle_introspect, c));
    r.add(worker("GET", "/.well-known/jwks.json", handle_jwks, c));
    r.add(reactor("GET", "/.well-known/openid-configuration", handle_openid_configuration, c));
    r.add(worker("GET", "/health", handle_health, c));
    r.add(openapi_route(c));
    return r;
}

}  // namespace corebank::httpd::auth
