// token_verifier.hpp: RS256 access-token verification in the tier.
//
// Public keys come from the database's JWKS (corebank.auth_jwks()); they are
// a cache, not state: any tier process rebuilds them. An unknown kid triggers
// a reload (at most once per second), so a key rotated in by another process
// is picked up at once. Revocation is decided by the database afterwards
// (auth_authenticate), not here.
//
// A token whose signature verified is remembered (by its SHA-256) until the
// key set changes: a client sends the same access token with every request
// for its lifetime, and the RSA operation was the dearest step of a request
// in the tier (27 % of corebankd's CPU under the postings benchmark,
// docs/performance.md). What can change with time (exp, iat, nbf) is checked
// again on every use; what cannot (signature, issuer, jti, sub) is not. At
// most verified_cache_max tokens (by default); a full cache first drops the
// expired ones, then everything.
#pragma once

#include <cassert>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/rsa_key.hpp"

namespace corebank::httpd {

class Db;

struct VerifiedToken {
    // The token's payload, shared with the verifier's cache of verified
    // tokens: every request of a known token gets it without a copy. Never null.
    std::shared_ptr<const nlohmann::json> claims;
    std::string jti;
    std::string subject;
    bool is_client_token = false;
};

class TokenVerifier {
public:
    // Enough for every live access token of a busy process (a token lives 15
    // minutes); each entry is one token's claims.
    static constexpr std::size_t verified_cache_max = 4096;

    // verified_max: how many verified tokens are remembered (tests make it small).
    explicit TokenVerifier(std::string issuer, std::size_t verified_max = verified_cache_max)
        : issuer_(std::move(issuer)), verified_max_(verified_max) {
        assert(verified_max_ >= 1);
    }

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
    // Tokens whose signature is remembered (for tests and the bound).
    std::size_t verified_count() const;

private:
    // A token that passed every check but the clock's, with its times.
    struct Verified {
        VerifiedToken token;
        std::int64_t exp = 0;
        std::int64_t iat = 0;
        std::optional<std::int64_t> nbf;
    };

    std::shared_ptr<const core::RsaPublicKey> key_for(const std::string& kid) const;
    // The checks that do not depend on the clock; nullopt when one fails.
    std::optional<Verified> verify_signed(const std::string& token, Db* db);
    static std::optional<VerifiedToken> check_clock(const Verified& verified, std::int64_t now_unix);
    // Keeps a verified token unless the key set changed since `generation`.
    void remember(std::string digest, Verified verified, std::int64_t now_unix, std::uint64_t generation);

    std::string issuer_;
    std::size_t verified_max_;
    mutable std::shared_mutex mutex_;
    std::map<std::string, std::shared_ptr<const core::RsaPublicKey>> keys_;
    nlohmann::json jwks_ = nlohmann::json{{"keys", nlohmann::json::array()}};
    // SHA-256 of the token -> what verified; guarded by mutex_, emptied with
    // every new key set (a removed key's tokens must be refused at once).
    std::unordered_map<std::string, std::shared_ptr<const Verified>> verified_;
    std::uint64_t key_generation_ = 0;  // guarded by mutex_; counts key sets that differed
    std::mutex reload_mutex_;
    std::chrono::steady_clock::time_point last_reload_{};
};

// Clock skew tolerated on iat/nbf.
inline constexpr std::int64_t token_clock_skew_s = 30;

}  // namespace corebank::httpd
