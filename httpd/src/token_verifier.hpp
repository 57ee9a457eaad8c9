// token_verifier.hpp: RS256 access-token verification in the tier.
//
// Public keys come from the database's JWKS (corebank.auth_jwks()); they are
// a cache, not state: any tier process rebuilds them. An unknown kid triggers
// a reload (at most once per second), so a key rotated in by another process
// is picked up at once. Revocation is decided by the database afterwards
// (auth_authenticate), not here.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/rsa_key.hpp"

namespace corebank::httpd {

class Db;

struct VerifiedToken {
    nlohmann::json claims;
    std::string jti;
    std::string subject;
    bool is_client_token = false;
};

class TokenVerifier {
public:
    explicit TokenVerifier(std::string issuer) : issuer_(std::move(issuer)) {}

    // Replaces the key set from a JWKS document; keys that fail to parse are skipped.
    void load_jwks(const nlohmann::json& jwks);
    // Reloads from the database.
    void refresh(Db& db);
    // Signature (RS256 only, kid required), iss, exp (and iat/nbf sanity). nullopt
    // when anything is wrong. db may be null (no reload on unknown kid).
    std::optional<VerifiedToken> verify(const std::string& token, Db* db, std::int64_t now_unix);
    // The JWKS as last loaded (served by /.well-known/jwks.json).
    nlohmann::json jwks() const;
    std::size_t key_count() const;

private:
    std::shared_ptr<const core::RsaPublicKey> key_for(const std::string& kid) const;

    std::string issuer_;
    mutable std::shared_mutex mutex_;
    std::map<std::string, std::shared_ptr<const core::RsaPublicKey>> keys_;
    nlohmann::json jwks_ = nlohmann::json{{"keys", nlohmann::json::array()}};
    std::mutex reload_mutex_;
    std::chrono::steady_clock::time_point last_reload_{};
};

// Clock skew tolerated on iat/nbf.
inline constexpr std::int64_t token_clock_skew_s = 30;

}  // namespace corebank::httpd
