// statements.hpp: every SQL statement the identity service runs. Each calls
// one function of the extension (docs/design/identity-db-api.md) with bound
// parameters; jsonb comes back as text.
#pragma once

#include "db.hpp"

namespace corebank::httpd::auth::sql {

inline const Statement register_user{
    "auth_register",
    "SELECT corebank.auth_register($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::bytea)::text", 10};
inline const Statement login_begin{"auth_login_begin", "SELECT corebank.auth_login_begin($1, $2, $3)::text", 3};
inline const Statement login_finish{
    "auth_login_finish", "SELECT corebank.auth_login_finish($1::uuid, $2::bytea, $3, $4, $5, $6, $7::bytea)::text", 7};
inline const Statement refresh{"auth_refresh", "SELECT corebank.auth_refresh($1::bytea, $2::bytea, $3, $4)::text", 4};
inline const Statement authenticate{"auth_authenticate", "SELECT corebank.auth_authenticate($1::uuid)::text", 1};
// A re-entered password (change, deactivate): begin answers the hash's
// parameters and salt, finish compares the proof and counts the outcome as a
// login would (auth_guessing.cpp).
inline const Statement password_reenter_begin{"auth_password_reenter_begin",
                                              "SELECT corebank.auth_password_reenter_begin($1::uuid)::text", 1};
inline const Statement password_reenter_finish{
    "auth_password_reenter_finish", "SELECT corebank.auth_password_reenter_finish($1::uuid, $2::bytea, $3)::text", 3};
inline const Statement password_change{"auth_password_change",
                                       "SELECT corebank.auth_password_change($1::uuid, $2)", 2};
inline const Statement password_forgot{"auth_password_forgot",
                                       "SELECT corebank.auth_password_forgot($1, $2, $3, $4::bytea)::text", 4};
inline const Statement mail_enqueue{"auth_mail_enqueue", "SELECT corebank.auth_mail_enqueue($1, $2, $3::bytea)", 3};
inline const Statement mail_claim{
    "auth_mail_claim", "SELECT id, recipient, subject, body_sealed, attempts FROM corebank.auth_mail_claim($1::int)", 1};
inline const Statement mail_done{"auth_mail_done", "SELECT corebank.auth_mail_done($1::uuid, $2::bool, $3)", 3};
inline const Statement reset_begin{"auth_password_reset_begin",
                                   "SELECT corebank.auth_password_reset_begin($1::bytea)::text", 1};
inline const Statement reset_finish{"auth_password_reset_finish",
                                    "SELECT corebank.auth_password_reset_finish($1::bytea, $2, $3::bytea)", 3};
inline const Statement deactivate{"auth_deactivate", "SELECT corebank.auth_deactivate($1::uuid)", 1};
inline const Statement logout{"auth_logout", "SELECT corebank.auth_logout($1::uuid, $2::uuid)", 2};
inline const Statement logout_all{"auth_logout_all", "SELECT corebank.auth_logout_all($1::uuid)", 1};
inline const Statement me{"auth_me", "SELECT corebank.auth_me($1::uuid)::text", 1};
inline const Statement sessions_list{"auth_sessions_list", "SELECT corebank.auth_sessions_list($1::uuid)::text", 1};
// A client's authentication: begin answers the hash's parameters and salt,
// finish compares the proof and counts the outcome.
inline const Statement client_auth_begin{"auth_client_auth_begin", "SELECT corebank.auth_client_auth_begin($1)::text",
                                         1};
inline const Statement client_auth_finish{"auth_client_auth_finish",
                                          "SELECT corebank.auth_client_auth_finish($1, $2::bytea)::text", 2};
inline const Statement client_token{"auth_client_token", "SELECT corebank.auth_client_token($1, $2::text[])::text", 2};
inline const Statement introspect{"auth_introspect", "SELECT corebank.auth_introspect($1::uuid)::text", 1};
inline const Statement jwks{"auth_jwks_doc", "SELECT corebank.auth_jwks()::text", 0};
inline const Statement ensure_signing_key{"auth_ensure_signing_key", "SELECT corebank.auth_ensure_signing_key()", 0};
inline const Statement maintenance{"auth_maintenance", "SELECT corebank.auth_maintenance()::text", 0};
inline const Statement ping{"ping", "SELECT 1", 0};

}  // namespace corebank::httpd::auth::sql
