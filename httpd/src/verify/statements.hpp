// statements.hpp: the SQL the verification service runs, one extension
// function per operation (sql/releases/corebank--1.2--1.3.sql.in). Names carry the
// verify_ prefix: prepared statements share one namespace per connection
// with the other services' statements.
#pragma once

#include "db.hpp"

namespace corebank::httpd::verify::sql {

inline const Statement ping{"verify_ping", "SELECT 1", 0};
inline const Statement api_key_authenticate{
    "verify_api_key_authenticate", "SELECT corebank.core_api_key_authenticate($1::bytea, $2)::text", 2};

inline const Statement session_create{
    "verify_session_create",
    "SELECT corebank.verify_session_create($1::uuid, $2, $3::bytea, $4::uuid, $5, $6, $7::bytea, $8::bytea, $9, "
    "$10::jsonb, $11::bytea, $12::bytea, $13::int, $14::int)::text",
    14};
inline const Statement session_get{"verify_session_get", "SELECT corebank.verify_session_get($1::uuid)::text", 1};
inline const Statement session_cancel{
    "verify_session_cancel", "SELECT corebank.verify_session_cancel($1::uuid, $2, $3::bytea, $4::uuid, $5)::text", 5};
inline const Statement session_consent{
    "verify_session_consent",
    "SELECT corebank.verify_session_consent($1::uuid, $2, $3::bytea, $4::uuid, $5::bool, $6, $7::bytea, $8, $9)::text",
    9};
inline const Statement session_report{"verify_session_report",
                                      "SELECT corebank.verify_session_report($1::uuid)::text", 1};
inline const Statement sessions_find{
    "verify_sessions_find",
    "SELECT corebank.verify_sessions_find($1, $2::bytea, $3, $4::timestamptz, $5::int)::text", 5};

inline const Statement hosted_state{"verify_hosted_state",
                                    "SELECT corebank.verify_hosted_state($1::uuid, $2::bytea)::text", 2};
inline const Statement hosted_consent{
    "verify_hosted_consent",
    "SELECT corebank.verify_hosted_consent($1::uuid, $2::bytea, $3, $4::bytea, $5::bool, $6, $7::bytea, $8, $9)::text",
    9};
inline const Statement hosted_capture{
    "verify_hosted_capture",
    "SELECT corebank.verify_hosted_capture($1::uuid, $2::bytea, $3, $4::bytea, $5, $6::bytea, $7, $8::int, $9::int, "
    "$10::int, $11::bytea)::text",
    11};
inline const Statement hosted_submit_begin{
    "verify_hosted_submit_begin",
    "SELECT corebank.verify_hosted_submit_begin($1::uuid, $2::bytea, $3, $4::bytea)::text", 4};
inline const Statement hosted_images{
    "verify_hosted_images", "SELECT kind, format, image_sealed FROM corebank.verify_hosted_images($1::uuid, $2::bytea)",
    2};
inline const Statement hosted_submit_finish{
    "verify_hosted_submit_finish",
    "SELECT corebank.verify_hosted_submit_finish($1::uuid, $2::bytea, $3, $4, $5::jsonb)::text", 5};
inline const Statement hosted_submit_abort{
    "verify_hosted_submit_abort", "SELECT corebank.verify_hosted_submit_abort($1::uuid, $2::bytea, $3, $4)::text", 4};

inline const Statement maintenance{"verify_maintenance", "SELECT corebank.verify_maintenance($1::int)::text", 1};
inline const Statement webhook_claim{
    "verify_webhook_claim",
    "SELECT delivery_id, event_id, endpoint_id, url, secret_sealed, body, attempts, previous_secret_sealed "
    "FROM corebank.verify_webhook_claim($1::int, $2::int)",
    2};
inline const Statement webhook_done{
    "verify_webhook_done",
    "SELECT corebank.verify_webhook_done($1::uuid, $2::bool, $3::int, $4, $5::int, $6::int, $7::int)", 7};
inline const Statement webhook_endpoint_add{"verify_webhook_endpoint_create",
                                            "SELECT corebank.verify_webhook_endpoint_create($1, $2, $3::text[], $4::bytea)::text", 4};
inline const Statement webhook_endpoints_list{"verify_webhook_endpoints_list",
                                              "SELECT corebank.verify_webhook_endpoints_list()::text", 0};
inline const Statement webhook_endpoint_disable{
    "verify_webhook_endpoint_disable", "SELECT corebank.verify_webhook_endpoint_disable($1::uuid)::text", 1};
// Single checks (check_handlers.cpp).
inline const Statement check_create{
    "verify_check_create",
    "SELECT corebank.verify_check_create($1::uuid, $2, $3::bytea, $4::uuid, $5, $6, $7::jsonb, $8, $9::jsonb, $10::bool, "
    "$11, $12::bytea, $13, $14)::text",
    14};
inline const Statement check_get{"verify_check_get", "SELECT corebank.verify_check_get($1::uuid)::text", 1};
// Webhook management over HTTP (webhook_endpoint_handlers.cpp).
inline const Statement webhook_endpoint_get{"verify_webhook_endpoint_get",
                                            "SELECT corebank.verify_webhook_endpoint_get($1::uuid)::text", 1};
inline const Statement webhook_endpoints_page{
    "verify_webhook_endpoints_page", "SELECT corebank.verify_webhook_endpoints_page($1::int, $2::uuid)::text", 2};
inline const Statement webhook_endpoint_rotate{
    "verify_webhook_endpoint_rotate",
    "SELECT corebank.verify_webhook_endpoint_rotate($1::uuid, $2::bytea, $3::int)::text", 3};
inline const Statement webhook_ping{"verify_webhook_ping", "SELECT corebank.verify_webhook_ping($1::uuid)::text", 1};
inline const Statement webhook_deliveries_page{
    "verify_webhook_deliveries_page",
    "SELECT corebank.verify_webhook_deliveries_page($1::uuid, $2::int, $3::uuid)::text", 3};
inline const Statement webhook_delivery_retry{
    "verify_webhook_delivery_retry", "SELECT corebank.verify_webhook_delivery_retry($1::uuid, $2::uuid)::text", 2};

}  // namespace corebank::httpd::verify::sql
