#include "percent_decode.hpp"

#include "hex_digit.hpp"

namespace corebank::httpd {

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+' && plus_is_space) {
            out.push_back(' ');
        } else if (c == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int high = hex_digit_value(text[i + 1]), low = hex_digit_value(text[i + 2]);
            if (high < 0 || low < 0) return std::nullopt;
            out.push_back(static_cast<char>(high * 16 + low));
            i += 2;
        } else {
            out.push_back(c);
        }
    }
    if (out.find('\0') != std::string::npos) return std::nullopt;
    return out;
}

}  // namespace corebank::httpd
