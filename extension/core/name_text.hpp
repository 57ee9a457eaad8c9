// name_text.hpp: the one character set of the short names a client chooses
// and the database stores verbatim: an event source, a consent version.
//
// A-Z a-z 0-9 . _ : - (no space, nothing to quote or escape in a URL, a log
// line or a JSON string), so the refusals read "must be 1 to N of
// A-Z a-z 0-9 . _ : -" wherever such a name is checked.
#pragma once

#include <cstddef>
#include <string_view>

namespace corebank::core {

inline bool is_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == ':' || c == '-';
}

// 1 to length_max characters, each is_name_char.
inline bool is_name_text(std::string_view text, std::size_t length_max) {
    if (text.empty() || text.size() > length_max) return false;
    for (const char c : text) {
        if (!is_name_char(c)) return false;
    }
    return true;
}

}  // namespace corebank::core
