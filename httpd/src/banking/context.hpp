// context.hpp: what the core-banking handlers share. Configuration, the
// operation policy and the token verifier's key cache: nothing another tier
// process would need.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "banking/hot_path.hpp"
#include "banking/policy.hpp"
#include "banking/posting_group.hpp"
#include "config.hpp"
#include "db.hpp"
#include "http_types.hpp"
#include "router.hpp"
#include "token_verifier.hpp"

namespace corebank::httpd::core_banking {

struct Context {
    Config config;
    OperationPolicy policy;
    std::shared_ptr<TokenVerifier> verifier;
    std::string openapi_document;
    // The process's authentication cache and rate accounting
    // (docs/design/hot-path.md); null when auth_cache_ttl_ms is 0: every
    // request then checks its key and token in the database.
    std::shared_ptr<HotPath> hot_path;
    // Group commit of POST /v1/transfers (docs/design/posting-group.md); null
    // when posting_group_lanes is 0: every transfer is then its own call.
    std::shared_ptr<PostingGroup> transfer_group;
    // Seals statement cursors (banking/deposits/statement_cursor.hpp): 32
    // bytes derived from the data key, the same in every tier process.
    std::string statement_cursor_key;
    // The data key (32 bytes) and a way to wake the mail sender: a staff
    // identity's set-password mail is sealed and queued as the identity
    // service's reset mail is (banking/staff/identities_handlers.cpp).
    std::string data_key;
    std::function<void()> wake_mail_sender = [] {};
};

// Who is calling: the application (API key) and, when the operation records
// a person, the staff member from the verified access token.
struct Caller {
    std::string key_id;
    std::set<std::string> key_scopes;
    std::optional<std::string> actor_id;
    std::vector<std::string> actor_roles;
};

// Checks X-API-Key (hash lookup, revocation, per-key rate limit across all
// tier processes), the scope the operation needs, and the staff token and
// role when the policy asks for a person. Throws ApiError 401/403/429. With
// the hot path's caches, a key and token seen in the last few seconds cost
// no database call.
Caller authorize(const Context& context, const HttpRequest& request, Db& db, const std::string& operation);

Router make_router(std::shared_ptr<const Context> context);

}  // namespace corebank::httpd::core_banking
