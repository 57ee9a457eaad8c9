// hex_digit.hpp: the value of one hexadecimal digit, for percent-escapes and
// hex-encoded bytes alike.
#pragma once

namespace corebank::httpd {

// 0 to 15, or -1 when c is not a hexadecimal digit (either case).
constexpr int hex_digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace corebank::httpd
