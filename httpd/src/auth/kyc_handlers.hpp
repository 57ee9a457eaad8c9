// kyc_handlers.hpp: the signed-in user's KYC tier (docs/identity.md, "KYC
// tiers"): GET /auth/kyc and POST /auth/kyc/sessions.
#pragma once

#include "auth/context.hpp"
#include "db.hpp"
#include "http_types.hpp"

namespace corebank::httpd::auth {

// 200: the tier, the evidence behind it, what the next tier needs, the
// recent tier changes and verification sessions.
HttpResponse handle_kyc_get(const Context&, const HttpRequest&, Db&);

// 201: a verification session (liveness, face match, document) for the
// signed-in user, created by the verification service's database function
// in this request (no HTTP hop), with its hostedUrl and client token.
// Optional body {redirectUrl}; optional Idempotency-Key header.
HttpResponse handle_kyc_session_start(const Context&, const HttpRequest&, Db&);

}  // namespace corebank::httpd::auth
