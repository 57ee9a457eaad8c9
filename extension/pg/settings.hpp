// settings.hpp: the corebank.* GUCs (docs/design/identity-db-api.md, Settings).
//
// The variables are defined and registered in entry/module.cpp (_PG_init).
// They are PGC_USERSET: the tier sets them per connection from corebank.conf.
// Code reads them through current(), which copies them into C++ values at the
// start of a call, so a SET inside a nested query cannot change them halfway.
#pragma once

#include <string>

namespace corebank::settings {

// Registered with PostgreSQL in _PG_init; the addresses must stay stable.
extern char* issuer;
extern char* default_audience;
extern int access_token_ttl_s;
extern int refresh_token_ttl_s;
extern int reset_token_ttl_s;
extern int login_rate_limit;
extern int login_rate_window_s;
extern int reset_rate_limit;
extern int reset_rate_window_s;
extern int signing_key_rotation_days;

struct Identity {
    std::string issuer;
    std::string default_audience;
    int access_token_ttl_s;
    int refresh_token_ttl_s;
    int reset_token_ttl_s;
    int login_rate_limit;
    int login_rate_window_s;
    int reset_rate_limit;
    int reset_rate_window_s;
    int signing_key_rotation_days;
};

Identity current();

}  // namespace corebank::settings
