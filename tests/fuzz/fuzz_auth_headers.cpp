// fuzz_auth_headers: x-www-form-urlencoded bodies, HTTP Basic and Bearer
// Authorization values (httpd/src/auth/requests.hpp).
#include "api_error.hpp"
#include "auth/requests.hpp"
#include "fuzz_common.hpp"

using namespace corebank::httpd;
using namespace corebank::httpd::auth;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto [selector, text] = corebank::fuzz::select(data, size);
    try {
        switch (selector % 3) {
        case 0: {
            const FormFields form = parse_form(text);
            for (const auto& [name, value] : form.fields) {
                const auto got = form.get(name);
                FUZZ_CHECK(got && *got == value);  // no repeated field
            }
            break;
        }
        case 1: (void)parse_basic_authorization(text); break;
        default: {
            const auto token = parse_bearer(text);
            if (token) FUZZ_CHECK(token->size() < text.size());
            break;
        }
        }
    } catch (const ApiError& error) {
        FUZZ_CHECK(error.status == 400 || error.status == 401);
    }
    return 0;
}
