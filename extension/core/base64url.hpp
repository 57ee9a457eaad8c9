// base64url.hpp: RFC 4648 section 5 encoding without padding (JWT, JWK, tokens).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace corebank::core {

std::string base64url_encode(std::string_view bytes);
// Accepts input with or without '=' padding; nullopt on any invalid character.
std::optional<std::string> base64url_decode(std::string_view text);

std::string base64_encode(std::string_view bytes);   // standard alphabet, padded
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace corebank::core
