// percent_decode.hpp: RFC 3986 percent-decoding, for query strings, path
// segments and form bodies (Pistache 0.0.5 hands all three over undecoded).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace corebank::httpd {

// nullopt on a malformed escape or a decoded NUL byte. plus_is_space: the
// application/x-www-form-urlencoded rule, used for query strings and forms.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

}  // namespace corebank::httpd
