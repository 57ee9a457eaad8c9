// utf8.hpp: the one count of characters every length limit uses.
//
// The database encoding is UTF8 and the specifications give limits in
// characters, so a limit counts the bytes that do not continue a UTF-8
// sequence (0b10xxxxxx). Input is not validated here: PostgreSQL and the JSON
// parsers refuse invalid UTF-8 before a length is checked.
#pragma once

#include <cstddef>
#include <string_view>

namespace corebank::core {

inline std::size_t utf8_length(std::string_view text) {
    std::size_t characters = 0;
    for (const char c : text) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;
    }
    return characters;
}

}  // namespace corebank::core
