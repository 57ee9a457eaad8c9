// statements.hpp: the SQL the event service runs, one extension function per
// operation (sql/releases/corebank--1.1--1.2.sql.in); jsonb comes back as text.
#pragma once

#include "db.hpp"

namespace corebank::httpd::events::sql {

inline const Statement api_key_authenticate{
    "events_api_key_authenticate", "SELECT corebank.core_api_key_authenticate($1::bytea, 'events')::text", 1};
inline const Statement configure{"events_configure",
                                 "SELECT corebank.events_configure($1::text[], $2::text[], $3)::text", 3};
// The request body goes as it came (payload numbers stay exactly as sent);
// the extension takes its "events" array.
inline const Statement ingest{"events_ingest", "SELECT corebank.events_ingest($1, ($2::jsonb) -> 'events')::text", 2};
inline const Statement platforms_list{"events_platforms_list", "SELECT corebank.events_platforms_list()::text", 0};
inline const Statement customer_lookup{"events_customer_lookup",
                                       "SELECT corebank.events_customer_lookup($1, $2, $3)::text", 3};
inline const Statement customer_get{"events_customer_get", "SELECT corebank.events_customer_get($1)::text", 1};
inline const Statement customer_events{
    "events_customer_events", "SELECT corebank.events_customer_events($1, $2::bigint, $3::bigint, $4::int)::text", 4};
inline const Statement customer_consents{"events_customer_consents",
                                         "SELECT corebank.events_customer_consents($1)::text", 1};
inline const Statement customer_traits{"events_customer_traits", "SELECT corebank.events_customer_traits($1)::text",
                                       1};
inline const Statement feed{"events_feed", "SELECT corebank.events_feed($1::bigint, $2::bigint, $3::int)::text", 3};
inline const Statement loyalty_get{"events_loyalty_member_get",
                                   "SELECT corebank.events_loyalty_member_get($1)::text", 1};
inline const Statement loyalty_map{"events_loyalty_member_map",
                                   "SELECT corebank.events_loyalty_member_map($1, $2)::text", 2};
// Parity and insights read the rollups only (docs/events.md, "Parity", "Insights").
inline const Statement parity{"events_parity",
                              "SELECT corebank.events_parity($1, $2::timestamptz, $3::timestamptz, $4, $5)::text", 5};
inline const Statement customer_insights{"events_customer_insights",
                                         "SELECT corebank.events_customer_insights($1, $2::date, $3::date)::text", 3};
inline const Statement ping{"events_ping", "SELECT 1", 0};

}  // namespace corebank::httpd::events::sql
