// module.cpp: the corebank module: PG_MODULE_MAGIC and _PG_init.
//
// _PG_init registers the corebank.* settings of the identity contract
// (docs/design/identity-db-api.md) with bounds that keep a typo from
// disabling a rule (a zero TTL, a negative limit), and reserves the prefix so
// a misspelt corebank.* setting is reported instead of silently ignored.
// It runs inside PostgreSQL with no C++ object alive, so it may ereport.
#include <cstring>

#include "pg/postgres.hpp"
#include "pg/settings.hpp"

extern "C" {
PG_MODULE_MAGIC;
void _PG_init(void);
}

namespace corebank::settings {

/*---- GUC variables ----*/
char* issuer = nullptr;
char* default_audience = nullptr;
int access_token_ttl_s = 900;
int refresh_token_ttl_s = 2592000;
int reset_token_ttl_s = 1800;
int login_rate_limit = 20;
int login_rate_window_s = 60;
int reset_rate_limit = 5;
int reset_rate_window_s = 3600;
int signing_key_rotation_days = 30;

Identity current() {
    return Identity{issuer != nullptr ? issuer : "",
                    default_audience != nullptr ? default_audience : "",
                    access_token_ttl_s,
                    refresh_token_ttl_s,
                    reset_token_ttl_s,
                    login_rate_limit,
                    login_rate_window_s,
                    reset_rate_limit,
                    reset_rate_window_s,
                    signing_key_rotation_days};
}

}  // namespace corebank::settings

namespace {

constexpr int day_s = 86400;
constexpr int text_setting_length_max = 255;

// Text settings end up in every token: non-empty, bounded, printable ASCII.
bool check_token_text(char** new_value, void** /*extra*/, GucSource /*source*/) {
    const char* value = *new_value;
    if (value == nullptr || value[0] == '\0') {
        GUC_check_errdetail("The value must not be empty.");
        return false;
    }
    const std::size_t length = std::strlen(value);
    if (length > static_cast<std::size_t>(text_setting_length_max)) {
        GUC_check_errdetail("The value must be at most %d characters.", text_setting_length_max);
        return false;
    }
    for (std::size_t index = 0; index < length; ++index) {
        const unsigned char c = static_cast<unsigned char>(value[index]);
        if (c < 0x21 || c > 0x7E) {
            GUC_check_errdetail("The value must be printable ASCII without spaces.");
            return false;
        }
    }
    return true;
}

void define_int(const char* name, const char* description, int* variable, int boot_value, int minimum,
                int maximum) {
    DefineCustomIntVariable(name, description, nullptr, variable, boot_value, minimum, maximum, PGC_USERSET, 0,
                            nullptr, nullptr, nullptr);
}

}  // namespace

void _PG_init(void) {
    using namespace corebank::settings;

    DefineCustomStringVariable("corebank.issuer", "Issuer (iss) of every token.", nullptr, &issuer,
                               "http://127.0.0.1:8081", PGC_USERSET, 0, check_token_text, nullptr, nullptr);
    DefineCustomStringVariable("corebank.default_audience", "Audience (aud) of user tokens issued without a clientId.",
                               nullptr, &default_audience, "corebank", PGC_USERSET, 0, check_token_text, nullptr,
                               nullptr);
    define_int("corebank.access_token_ttl_s", "Access token lifetime, seconds.", &access_token_ttl_s, 900, 60,
               day_s);
    define_int("corebank.refresh_token_ttl_s", "Refresh token (session) lifetime, seconds.", &refresh_token_ttl_s,
               2592000, 300, 365 * day_s);
    define_int("corebank.reset_token_ttl_s", "Password reset token lifetime, seconds.", &reset_token_ttl_s, 1800, 60,
               day_s);
    define_int("corebank.login_rate_limit", "Login attempts allowed per identifier per window.", &login_rate_limit, 20,
               1, 100000);
    define_int("corebank.login_rate_window_s", "Login rate-limit window, seconds.", &login_rate_window_s, 60, 1,
               day_s);
    define_int("corebank.reset_rate_limit", "Password reset requests allowed per client IP per window.",
               &reset_rate_limit, 5, 1, 100000);
    define_int("corebank.reset_rate_window_s", "Password reset rate-limit window, seconds.", &reset_rate_window_s,
               3600, 1, 7 * day_s);
    define_int("corebank.signing_key_rotation_days", "Age in days after which a new signing key is made.",
               &signing_key_rotation_days, 30, 1, 365);

    MarkGUCPrefixReserved("corebank");
}
