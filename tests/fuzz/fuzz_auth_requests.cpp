// fuzz_auth_requests: the identity service's JSON bodies
// (httpd/src/auth/requests.hpp). The only documented failure is ApiError
// with status 400; anything else escaping, or a sanitizer report, is a bug.
#include "api_error.hpp"
#include "auth/requests.hpp"
#include "fuzz_common.hpp"

using namespace corebank::httpd;
using namespace corebank::httpd::auth;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto [selector, body] = corebank::fuzz::select(data, size);
    try {
        switch (selector % 11) {
        case 0: {
            const RegisterRequest r = parse_register(body);
            FUZZ_CHECK(r.email || r.phone);
            if (r.email) FUZZ_CHECK(is_valid_email(*r.email));
            break;
        }
        case 1: {
            const LoginRequest r = parse_login(body);
            FUZZ_CHECK(r.identifier_kind == "email" || r.identifier_kind == "phone");
            break;
        }
        case 2: (void)parse_refresh(body); break;
        case 3: (void)parse_password_change(body); break;
        case 4: (void)parse_password_forgot(body); break;
        case 5: (void)parse_password_reset(body); break;
        case 6: (void)parse_deactivate(body); break;
        case 7: (void)is_valid_email(body); (void)normalise_email(body); break;
        case 8: {
            if (is_valid_phone(body)) (void)phone_key(body);
            break;
        }
        case 9: (void)phone_key(body); break;
        default: (void)parse_register(body); (void)parse_login(body); break;
        }
    } catch (const ApiError& error) {
        FUZZ_CHECK(error.status == 400);
    }
    return 0;
}
