#include "token_verifier.hpp"

#include <cassert>
#include <iterator>

#include "core/crypto.hpp"
#include "core/jwt.hpp"
#include "db.hpp"
#include "log.hpp"

namespace corebank::httpd {

namespace {

const Statement jwks_statement{"auth_jwks", "SELECT corebank.auth_jwks()::text", 0};

bool is_number(const nlohmann::json& claims, const char* name) {
    return claims.contains(name) && claims[name].is_number_integer();
}

}  // namespace

void TokenVerifier::load_jwks(const nlohmann::json& jwks) {
    std::map<std::string, std::shared_ptr<const core::RsaPublicKey>> keys;
    if (jwks.contains("keys") && jwks["keys"].is_array()) {
        for (const auto& k : jwks["keys"]) {
            try {
                if (k.value("kty", "") != "RSA" || !k.contains("kid") || !k["kid"].is_string()) continue;
                keys[k["kid"].get<std::string>()] = std::make_shared<const core::RsaPublicKey>(
                    core::RsaPublicKey::from_jwk(k.value("n", ""), k.value("e", "")));
            } catch (const std::exception& e) {
                log_error("JWKS key skipped", {{"error", e.what()}});
            }
        }
    }
    std::unique_lock<std::shared_mutex> lock(mutex_);
    // The same document again (a reload for an unknown kid) keeps what was
    // verified; any other forgets it, so a removed key's tokens fail at once.
    if (jwks != jwks_) {
        verified_.clear();
        ++key_generation_;
    }
    keys_ = std::move(keys);
    jwks_ = jwks;
}

void TokenVerifier::refresh(Db& db) {
    const auto text = db.exec(jwks_statement, {}).scalar();
    if (!text) return;
    load_jwks(nlohmann::json::parse(*text));
    std::lock_guard<std::mutex> lock(reload_mutex_);
    last_reload_ = std::chrono::steady_clock::now();
}

nlohmann::json TokenVerifier::jwks() const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return jwks_;
}

std::size_t TokenVerifier::key_count() const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return keys_.size();
}

std::size_t TokenVerifier::verified_count() const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return verified_.size();
}

std::shared_ptr<const core::RsaPublicKey> TokenVerifier::key_for(const std::string& kid) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    const auto it = keys_.find(kid);
    return it == keys_.end() ? nullptr : it->second;
}

std::optional<VerifiedToken> TokenVerifier::verify(const std::string& token, Db* db, std::int64_t now_unix) {
    std::string digest = core::sha256(token);
    std::uint64_t generation = 0;
    {
        std::shared_lock<std::shared_mutex> lock(mutex_);
        const auto it = verified_.find(digest);
        if (it != verified_.end()) {
            const std::shared_ptr<const Verified> known = it->second;
            lock.unlock();
            return check_clock(*known, now_unix);
        }
        generation = key_generation_;
    }
    std::optional<Verified> verified = verify_signed(token, db);
    if (!verified) return std::nullopt;
    std::optional<VerifiedToken> out = check_clock(*verified, now_unix);
    // Only a token valid now is worth keeping: an expired one never will be again.
    if (out) remember(std::move(digest), std::move(*verified), now_unix, generation);
    return out;
}

std::optional<TokenVerifier::Verified> TokenVerifier::verify_signed(const std::string& token, Db* db) {
    const auto parts = core::jwt_split(token);
    if (!parts) return std::nullopt;
    const auto header = nlohmann::json::parse(parts->header_json, nullptr, false);
    if (header.is_discarded() || !header.is_object()) return std::nullopt;
    // Only RS256: "none", HS256 with the public key as secret, etc. are refused here.
    if (!header.contains("alg") || header["alg"] != "RS256") return std::nullopt;
    if (!header.contains("kid") || !header["kid"].is_string()) return std::nullopt;
    const std::string kid = header["kid"].get<std::string>();
    auto key = key_for(kid);
    if (!key && db != nullptr) {
        bool may_reload = false;
        {
            std::lock_guard<std::mutex> lock(reload_mutex_);
            may_reload = std::chrono::steady_clock::now() - last_reload_ > std::chrono::seconds(1);
        }
        if (may_reload) {
            refresh(*db);
            key = key_for(kid);
        }
    }
    if (!key || !key->verify_rs256(parts->signing_input, parts->signature)) return std::nullopt;

    auto claims = nlohmann::json::parse(parts->payload_json, nullptr, false);
    if (claims.is_discarded() || !claims.is_object()) return std::nullopt;
    if (!claims.contains("iss") || claims["iss"] != issuer_) return std::nullopt;
    if (!is_number(claims, "exp") || !is_number(claims, "iat")) return std::nullopt;
    // nbf is optional; when present it must be a number (RFC 7519 4.1.5).
    if (claims.contains("nbf") && !is_number(claims, "nbf")) return std::nullopt;
    if (!claims.contains("jti") || !claims["jti"].is_string()) return std::nullopt;
    if (!claims.contains("sub") || !claims["sub"].is_string()) return std::nullopt;
    Verified out;
    out.exp = claims["exp"].get<std::int64_t>();
    out.iat = claims["iat"].get<std::int64_t>();
    if (claims.contains("nbf")) out.nbf = claims["nbf"].get<std::int64_t>();
    out.token.jti = claims["jti"].get<std::string>();
    out.token.subject = claims["sub"].get<std::string>();
    out.token.is_client_token = claims.contains("token_type") && claims["token_type"] == "client";
    out.token.claims = std::make_shared<const nlohmann::json>(std::move(claims));
    return out;
}

std::optional<VerifiedToken> TokenVerifier::check_clock(const Verified& verified, std::int64_t now_unix) {
    if (verified.exp <= now_unix) return std::nullopt;
    if (verified.iat > now_unix + token_clock_skew_s) return std::nullopt;
    // When present, the token is not valid before nbf (RFC 7519 4.1.5).
    if (verified.nbf && *verified.nbf > now_unix + token_clock_skew_s) return std::nullopt;
    return verified.token;
}

void TokenVerifier::remember(std::string digest, Verified verified, std::int64_t now_unix, std::uint64_t generation) {
    auto entry = std::make_shared<const Verified>(std::move(verified));
    std::unique_lock<std::shared_mutex> lock(mutex_);
    // The key set changed while this token was being verified (perhaps its
    // key was removed): it is answered this once, but not remembered.
    if (generation != key_generation_) return;
    if (verified_.size() >= verified_max_) {
        for (auto it = verified_.begin(); it != verified_.end();) {
            it = it->second->exp <= now_unix ? verified_.erase(it) : std::next(it);
        }
        if (verified_.size() >= verified_max_) verified_.clear();
    }
    verified_.emplace(std::move(digest), std::move(entry));
    assert(verified_.size() <= verified_max_);
}

}  // namespace corebank::httpd
