// settings.hpp: the corebank.* GUCs (docs/design/identity-db-api.md, Settings).
//
// Which GUCs exist, with their defaults and ranges, is the settings table
// (core/settings_table.hpp, the rows of Side::both); entry/module.cpp
// registers them in _PG_init. They are PGC_USERSET: the tier sets them per
// connection from corebank.conf. Code reads them through current(), which
// copies them into C++ values at the start of a call, so a SET inside a
// nested query cannot change them halfway.
#pragma once

#include <string>

namespace corebank::settings {

// The identity (auth) rules' settings.
struct Auth {
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

Auth current();

}  // namespace corebank::settings
