// jwt.hpp: compact JWS (RFC 7515) with RS256. JSON stays text here: the
// extension builds claims with jsonb, the tier parses them with nlohmann.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/rsa_key.hpp"

namespace corebank::core {

inline constexpr std::size_t jwt_length_max = 8192;

// header {"alg":"RS256","typ":"JWT","kid":<kid>} . claims . signature
std::string jwt_sign_rs256(std::string_view kid, std::string_view claims_json, const RsaPrivateKey& key);

struct JwtParts {
    std::string header_json;
    std::string payload_json;
    std::string signing_input;  // the first two segments with their dot, as received
    std::string signature;      // raw bytes
};

// Splits and decodes without verifying; nullopt when the shape is wrong.
std::optional<JwtParts> jwt_split(std::string_view token);

}  // namespace corebank::core
