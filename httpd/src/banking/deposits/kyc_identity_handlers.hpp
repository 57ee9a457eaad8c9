// kyc_identity_handlers.hpp: core banking's side of the KYC tiers of
// identity users (docs/core-banking.md, "Identity users and KYC tiers"):
// both parked through maker-checker.
#pragma once

#include "banking/context.hpp"
#include "db.hpp"
#include "http_types.hpp"

namespace corebank::httpd::core_banking {

// POST /v1/identity-users/{id}/kyc-tier {tier, reason?}: parks
// identity.kyc_tier.set (ENHANCED, or a fall with a reason); a compliance
// officer other than the maker approves it.
HttpResponse identity_user_kyc_tier_request(const Context&, const HttpRequest&, Db&);

// PUT /v1/customers/{id}/identity-user {userId}: parks
// customer.identity_user.link.
HttpResponse customer_identity_user_link(const Context&, const HttpRequest&, Db&);

}  // namespace corebank::httpd::core_banking
