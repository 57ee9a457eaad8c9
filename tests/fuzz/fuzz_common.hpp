// fuzz_common.hpp: helpers shared by the libFuzzer targets of tests/fuzz.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

namespace corebank::fuzz {

// The first byte picks which function a multi-function target calls; the
// rest is the input. Returns {selector, rest}.
inline std::pair<unsigned, std::string> select(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return {0, std::string()};
    return {data[0], std::string(reinterpret_cast<const char*>(data) + 1, size - 1)};
}

// Splits at the first '\n' (the rest when there is none is empty).
inline std::pair<std::string, std::string> split_line(const std::string& text) {
    const std::size_t at = text.find('\n');
    if (at == std::string::npos) return {text, std::string()};
    return {text.substr(0, at), text.substr(at + 1)};
}

// A property that must hold: abort (a libFuzzer crash) when it does not.
#define FUZZ_CHECK(condition)                                                            \
    do {                                                                                 \
        if (!(condition)) {                                                              \
            std::fprintf(stderr, "fuzz property failed: %s (%s:%d)\n", #condition,        \
                         __FILE__, __LINE__);                                            \
            std::abort();                                                                \
        }                                                                                \
    } while (0)

}  // namespace corebank::fuzz
