// webhook_endpoints.hpp: registering a webhook endpoint and rotating its
// signing secret, shared by the CLI (`corebankd webhook-add`, admin.cpp) and
// the HTTP API (webhook_endpoint_handlers.cpp), so both refuse the same URLs
// and make secrets the same way.
//
// A secret is "whsec_" + 43 base64url characters (32 random bytes), shown
// once to whoever registered or rotated, and stored only sealed under the
// data key with the URL as associated data: the sender must sign with it,
// so it is encrypted rather than hashed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "db.hpp"

namespace corebank::httpd::verify {

inline constexpr std::size_t webhook_url_length_max = 2048;
inline constexpr std::size_t webhook_description_length_max = 500;
// A rotation's overlap: the old secret signs beside the new one for this long.
inline constexpr int webhook_overlap_s_default = 24 * 3600;
inline constexpr int webhook_overlap_s_max = 7 * 24 * 3600;

struct IssuedSecret {
    nlohmann::json endpoint;  // the endpoint as the API shows it (no secret)
    std::string secret;       // the new signing secret, to be shown once
};

// The event types an endpoint may subscribe to (`events`); none given: all.
// The identity.* types are the identity service's (docs/identity.md,
// "Outbound events"); the database checks the same list.
inline const std::vector<std::string> webhook_event_types{
    "session.completed",           "session.cancelled",        "session.expired",
    "identity.user.registered",    "identity.user.suspended",  "identity.user.reinstated",
    "identity.user.deactivated",   "identity.user.locked",     "identity.user.email_changed",
    "identity.user.phone_changed", "identity.user.kyc_tier_changed", "identity.password.changed",
    "identity.mfa.enabled",        "identity.mfa.disabled"};

// Checks the URL (absolute http(s), at most 2048 characters; unless
// allow_private, every address of its host public), then stores the endpoint
// with a new sealed secret. Throws ApiError 400 VALIDATION_ERROR "url: ..."
// for a refused URL. `events`: the types it receives (nullopt: every type).
IssuedSecret register_webhook_endpoint(Db& db, const std::string& data_key, bool allow_private,
                                       const std::string& url, const std::optional<std::string>& description,
                                       const std::optional<std::vector<std::string>>& events = std::nullopt);

// A new secret for an existing endpoint; the old one keeps signing for
// overlap_s seconds. Throws ApiError 404 for an unknown endpoint and 409
// (from the database) for a disabled one.
IssuedSecret rotate_webhook_secret(Db& db, const std::string& data_key, const std::string& endpoint_id, int overlap_s);

}  // namespace corebank::httpd::verify
