// fuzz_base64url_jwt: base64url / base64 decoding and jwt_split
// (extension/core/base64url.hpp, jwt.hpp), with round-trip properties.
#include "core/base64url.hpp"
#include "core/jwt.hpp"
#include "fuzz_common.hpp"

using namespace corebank::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    // Any bytes encode, and decode back to themselves.
    FUZZ_CHECK(base64url_decode(base64url_encode(text)) == std::string(text));
    FUZZ_CHECK(base64_decode(base64_encode(text)) == std::string(text));

    if (const auto decoded = base64url_decode(text)) {
        const auto again = base64url_decode(base64url_encode(*decoded));
        FUZZ_CHECK(again && *again == *decoded);
    }
    if (const auto decoded = base64_decode(text)) {
        const auto again = base64_decode(base64_encode(*decoded));
        FUZZ_CHECK(again && *again == *decoded);
    }

    if (const auto parts = jwt_split(text)) {
        FUZZ_CHECK(text.size() <= jwt_length_max);
        FUZZ_CHECK(text.compare(0, parts->signing_input.size(), parts->signing_input) == 0);
    }
    return 0;
}
