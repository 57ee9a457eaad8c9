// context.hpp: what the identity handlers share: configuration, the token
// verifier (a cache of public keys), the data key and a way to wake the mail
// sender. Nothing here is state another tier process would need.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "config.hpp"
#include "router.hpp"
#include "token_verifier.hpp"

namespace corebank::httpd::auth {

struct Context {
    Config config;
    std::shared_ptr<TokenVerifier> verifier;
    std::string data_key;           // 32 bytes: seals mail bodies at rest
    std::string openapi_document;   // served by GET /openapi.json
    std::function<void()> wake_mail_sender = [] {};
    // Evicts this process's cached session checks at once after a
    // revocation it made ("session:<id>", "user:<id>"): the other processes
    // hear of it by NOTIFY (docs/design/hot-path.md).
    std::function<void(const std::string& event)> hot_path_event = [](const std::string&) {};
};

// The identity service's routes (docs/identity.md lists them).
Router make_router(std::shared_ptr<const Context> context);

// Whether a route's handler runs argon2id: those run on the password lane
// (password_lane.hpp), not on the shared worker pool.
bool runs_argon2(const Route& route);

// Renders the token pair from the database's token block plus the plaintext
// refresh token that only the tier ever held.
nlohmann::json token_pair(const nlohmann::json& token_block, const std::string& refresh_token);

bool is_uuid(const std::string& text);

}  // namespace corebank::httpd::auth
