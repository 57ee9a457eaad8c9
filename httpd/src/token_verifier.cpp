#include "token_verifier.hpp"

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

std::shared_ptr<const core::RsaPublicKey> TokenVerifier::key_for(const std::string& kid) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    const auto it = keys_.find(kid);
    return it == keys_.end() ? nullptr : it->second;
}

std::optional<VerifiedToken> TokenVerifier::verify(const std::string& token, Db* db, std::int64_t now_unix) {
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

    const auto claims = nlohmann::json::parse(parts->payload_json, nullptr, false);
    if (claims.is_discarded() || !claims.is_object()) return std::nullopt;
    if (!claims.contains("iss") || claims["iss"] != issuer_) return std::nullopt;
    if (!is_number(claims, "exp") || claims["exp"].get<std::int64_t>() <= now_unix) return std::nullopt;
    if (!is_number(claims, "iat") || claims["iat"].get<std::int64_t>() > now_unix + token_clock_skew_s)
        return std::nullopt;
    // nbf is optional; when present the token is not valid before it (RFC 7519 4.1.5).
    if (claims.contains("nbf") &&
        (!is_number(claims, "nbf") || claims["nbf"].get<std::int64_t>() > now_unix + token_clock_skew_s))
        return std::nullopt;
    if (!claims.contains("jti") || !claims["jti"].is_string()) return std::nullopt;
    if (!claims.contains("sub") || !claims["sub"].is_string()) return std::nullopt;
    VerifiedToken out;
    out.jti = claims["jti"].get<std::string>();
    out.subject = claims["sub"].get<std::string>();
    out.is_client_token = claims.contains("token_type") && claims["token_type"] == "client";
    out.claims = claims;
    return out;
}

}  // namespace corebank::httpd
