// fuzz_percent_decode: RFC 3986 percent-decoding (httpd/src/percent_decode.hpp).
#include "fuzz_common.hpp"
#include "percent_decode.hpp"

using corebank::httpd::percent_decode;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const bool plus_is_space : {false, true}) {
        const auto decoded = percent_decode(text, plus_is_space);
        if (!decoded) continue;
        FUZZ_CHECK(decoded->size() <= text.size());
        FUZZ_CHECK(decoded->find('\0') == std::string::npos);
        if (text.find_first_of(plus_is_space ? "%+" : "%") == std::string_view::npos) FUZZ_CHECK(*decoded == text);
    }
    return 0;
}
