// statements.hpp: the SQL every part of the core-banking service runs: the
// caller's authorization, API keys and the health ping. Each domain's own
// statements are in its folder (ledger/statements.hpp, deposits/statements.hpp);
// jsonb comes back as text and goes to the client as it is.
#pragma once

#include "db.hpp"

namespace corebank::httpd::core_banking::sql {

// Both checks in one round trip: {"key": <core_api_key_authenticate>, "staff": <auth_authenticate or null>}.
inline const Statement authorize{"core_authorize", "SELECT corebank.core_authorize($1::bytea, $2, $3::uuid)::text", 3};

// The hot path's cache miss (docs/design/hot-path.md): {"key": <core_api_key_verify, uncounted, or null>,
// "staff": <auth_authenticate or null>}; either argument may be NULL (not asked).
inline const Statement authorize_lookup{"core_authorize_lookup",
                                        "SELECT corebank.core_authorize_lookup($1::bytea, $2, $3::uuid)::text", 3};
// This process's API key request counts, every key in one call, minutes as
// epoch minutes; answers the global count of each entry after the flush.
inline const Statement api_key_usage_flush{
    "core_api_key_usage_flush",
    "SELECT corebank.core_api_key_usage_flush($1::uuid[], "
    "ARRAY(SELECT to_timestamp(m * 60) FROM unnest($2::bigint[]) WITH ORDINALITY AS u(m, i) ORDER BY i), "
    "$3::int[])::text",
    3};

inline const Statement api_key_create{
    "core_api_key_create",
    "SELECT corebank.core_api_key_create($1, $2, $3::text[], $4, $5::int, $6::bytea, $7, $8::uuid)::text", 8};
inline const Statement api_keys_list{"core_api_keys_list", "SELECT corebank.core_api_keys_list($1)::text", 1};
inline const Statement api_key_revoke{"core_api_key_revoke",
                                      "SELECT corebank.core_api_key_revoke($1::uuid, $2::uuid)::text", 2};

inline const Statement ping{"core_ping", "SELECT 1", 0};

// The public bank list (GET /v1/platform/banks), institution data.
inline const Statement platform_banks{"core_platform_banks", "SELECT corebank.core_platform_banks()::text", 0};

}  // namespace corebank::httpd::core_banking::sql
