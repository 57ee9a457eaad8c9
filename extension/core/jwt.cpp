// jwt.cpp: compact JWS serialisation for RS256.
#include "core/jwt.hpp"

#include <cassert>

#include "core/base64url.hpp"
#include "core/errors.hpp"

namespace corebank::core {

namespace {

// A kid is a base64url thumbprint; refuse anything that would need JSON escaping.
bool kid_is_safe(std::string_view kid) {
    if (kid.empty() || kid.size() > 128) return false;
    for (char c : kid) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || c == '.';
        if (!ok) return false;
    }
    return true;
}

}  // namespace

std::string jwt_sign_rs256(std::string_view kid, std::string_view claims_json, const RsaPrivateKey& key) {
    if (!kid_is_safe(kid)) throw CoreError(sqlstate_internal, "signing key id is not a safe token");
    if (claims_json.empty() || claims_json.front() != '{')
        throw CoreError(sqlstate_internal, "JWT claims must be a JSON object");
    std::string header = "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"";
    header.append(kid).append("\"}");
    std::string token = base64url_encode(header);
    token.push_back('.');
    token.append(base64url_encode(claims_json));
    const std::string signature = key.sign_rs256(token);
    token.push_back('.');
    token.append(base64url_encode(signature));
    assert(token.size() <= jwt_length_max);
    return token;
}

std::optional<JwtParts> jwt_split(std::string_view token) {
    if (token.empty() || token.size() > jwt_length_max) return std::nullopt;
    const std::size_t first = token.find('.');
    if (first == std::string_view::npos) return std::nullopt;
    const std::size_t second = token.find('.', first + 1);
    if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) return std::nullopt;
    auto header = base64url_decode(token.substr(0, first));
    auto payload = base64url_decode(token.substr(first + 1, second - first - 1));
    auto signature = base64url_decode(token.substr(second + 1));
    if (!header || !payload || !signature || header->empty() || payload->empty() || signature->empty())
        return std::nullopt;
    JwtParts parts;
    parts.header_json = std::move(*header);
    parts.payload_json = std::move(*payload);
    parts.signing_input = std::string(token.substr(0, second));
    parts.signature = std::move(*signature);
    return parts;
}

}  // namespace corebank::core
