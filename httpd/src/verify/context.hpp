// context.hpp: what the verification service's handlers share: the
// configuration, the keys derived from the data key, the check provider and
// the hook that wakes the webhook sender. Nothing another tier process would
// need: every fact about a session is in the database.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "config.hpp"
#include "db.hpp"
#include "http_types.hpp"
#include "router.hpp"
#include "verify/checks.hpp"
#include "verify/keys.hpp"

namespace corebank::httpd::verify {

// How long a submission may stay processing before the maintenance pass
// returns it to pending (the tier that ran it died).
inline constexpr int stale_processing_s = 120;

struct Context {
    Config config;
    VerifyKeys keys;
    std::string public_url;  // base of hostedUrl, no trailing slash
    std::shared_ptr<CheckProvider> provider;
    std::string openapi_document;
    std::function<void()> wake_webhooks = [] {};
};

// The hosted page's address of a session (no token).
std::string hosted_url(const Context& context, const std::string& session_id);

// verify_public_url, or http://<listen>:<verify_port> when it is empty
// (a wildcard listen address becomes 127.0.0.1).
std::string public_url_of(const Config& config);

// The API key's id after the Bearer check (core_api_key_authenticate with
// service 'verify', revocation, per-key rate limit) and the scope check.
// Throws ApiError 401 / 403 / 429.
std::string authorize(const HttpRequest& request, Db& db, const char* scope);

// SHA-256 of the client token in "Authorization: Bearer <client token>";
// throws 401 when there is none.
std::string client_token_hash(const HttpRequest& request);

Router make_router(std::shared_ptr<const Context> context);

}  // namespace corebank::httpd::verify
