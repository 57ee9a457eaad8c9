// deposits/statements.hpp: the SQL of the deposits endpoints: one extension
// function per operation (docs/design/deposits.md, Functions for the tier);
// jsonb comes back as text and goes to the client as it is.
#pragma once

#include "db.hpp"

namespace corebank::httpd::core_banking::sql {

inline const Statement customers_create{
    "core_customers_create", "SELECT corebank.core_customers_create($1::jsonb, $2::uuid)::text", 2};
inline const Statement customers_get{"core_customers_get", "SELECT corebank.core_customers_get($1::uuid)::text", 1};
inline const Statement customers_list{"core_customers_list", "SELECT corebank.core_customers_list($1::jsonb)::text", 1};
inline const Statement customers_signing_mandate_set{
    "core_customers_signing_mandate_set", "SELECT corebank.core_customers_signing_mandate_set($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_profile_get{
    "core_customers_profile_get", "SELECT corebank.core_customers_profile_get($1::uuid)::text", 1};
inline const Statement customers_profile_patch{
    "core_customers_profile_patch", "SELECT corebank.core_customers_profile_patch($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_interaction_add{
    "core_customers_interaction_add", "SELECT corebank.core_customers_interaction_add($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_interactions_list{
    "core_customers_interactions_list", "SELECT corebank.core_customers_interactions_list($1::uuid, $2::int, $3::int)::text", 3};
inline const Statement customers_case_open{
    "core_customers_case_open", "SELECT corebank.core_customers_case_open($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_cases_list{
    "core_customers_cases_list", "SELECT corebank.core_customers_cases_list($1::uuid)::text", 1};
inline const Statement customers_case_resolve{
    "core_customers_case_resolve", "SELECT corebank.core_customers_case_resolve($1::uuid, $2::uuid, $3::jsonb, $4::uuid)::text", 4};
inline const Statement customers_beneficial_owner_add{
    "core_customers_beneficial_owner_add", "SELECT corebank.core_customers_beneficial_owner_add($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_beneficial_owners_list{
    "core_customers_beneficial_owners_list", "SELECT corebank.core_customers_beneficial_owners_list($1::uuid)::text", 1};
inline const Statement customers_beneficial_owner_remove{
    "core_customers_beneficial_owner_remove", "SELECT corebank.core_customers_beneficial_owner_remove($1::uuid, $2::uuid, $3::uuid)::text", 3};
inline const Statement customers_beneficiary_add{
    "core_customers_beneficiary_add", "SELECT corebank.core_customers_beneficiary_add($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_beneficiaries_list{
    "core_customers_beneficiaries_list", "SELECT corebank.core_customers_beneficiaries_list($1::uuid)::text", 1};
inline const Statement customers_beneficiary_remove{
    "core_customers_beneficiary_remove", "SELECT corebank.core_customers_beneficiary_remove($1::uuid, $2::uuid, $3::uuid)::text", 3};
inline const Statement customers_profitability{
    "core_customers_profitability", "SELECT corebank.core_customers_profitability($1::uuid, $2::date, $3::date)::text", 3};
inline const Statement customers_kyc_get{
    "core_customers_kyc_get", "SELECT corebank.core_customers_kyc_get($1::uuid)::text", 1};
inline const Statement customers_kyc_risk_set{
    "core_customers_kyc_risk_set", "SELECT corebank.core_customers_kyc_risk_set($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_kyc_review_record{
    "core_customers_kyc_review_record", "SELECT corebank.core_customers_kyc_review_record($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_kyc_reviews_due{
    "core_customers_kyc_reviews_due", "SELECT corebank.core_customers_kyc_reviews_due($1::date)::text", 1};
inline const Statement customers_kyc_document_add{
    "core_customers_kyc_document_add", "SELECT corebank.core_customers_kyc_document_add($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_kyc_document_verify{
    "core_customers_kyc_document_verify_request", "SELECT corebank.core_customers_kyc_document_verify_request($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement customers_kyc_checks_run{
    "core_customers_kyc_checks_run", "SELECT corebank.core_customers_kyc_checks_run($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement deposit_products_list{
    "core_deposit_products_list", "SELECT corebank.core_deposit_products_list($1::jsonb)::text", 1};
inline const Statement deposit_products_get{
    "core_deposit_products_get", "SELECT corebank.core_deposit_products_get($1::uuid)::text", 1};
inline const Statement deposit_products_get_by_code{
    "core_deposit_products_get_by_code", "SELECT corebank.core_deposit_products_get_by_code($1)::text", 1};
inline const Statement deposit_products_update{
    "core_deposit_products_update", "SELECT corebank.core_deposit_products_update($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement accounts_open{
    "core_accounts_open", "SELECT corebank.core_accounts_open($1::jsonb, $2::uuid)::text", 2};
inline const Statement accounts_get{"core_accounts_get", "SELECT corebank.core_accounts_get($1::uuid)::text", 1};
inline const Statement accounts_list{"core_accounts_list", "SELECT corebank.core_accounts_list($1::jsonb)::text", 1};
inline const Statement accounts_activate{
    "core_accounts_activate", "SELECT corebank.core_accounts_activate($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement accounts_freeze{
    "core_accounts_freeze", "SELECT corebank.core_accounts_freeze($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement accounts_unfreeze{
    "core_accounts_unfreeze", "SELECT corebank.core_accounts_unfreeze($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement accounts_reactivate{
    "core_accounts_reactivate", "SELECT corebank.core_accounts_reactivate($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement accounts_close{
    "core_accounts_close", "SELECT corebank.core_accounts_close($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement accounts_status_history{
    "core_accounts_status_history", "SELECT corebank.core_accounts_status_history($1::uuid)::text", 1};
inline const Statement accounts_balance{
    "core_accounts_balance", "SELECT corebank.core_accounts_balance($1::uuid, $2::date)::text", 2};
// One keyset page: account, from, to, limit, then the cursor's direction,
// value date, entry id and running balance (all NULL for the first page).
inline const Statement accounts_statement{
    "core_statement_page",
    "SELECT corebank.core_statement($1::uuid, $2::date, $3::date, $4::integer, $5::text, $6::date, $7::bigint,"
    " $8::bigint)::text",
    8};
inline const Statement accounts_interest_post{
    "core_accounts_interest_post", "SELECT corebank.core_accounts_interest_post($1::uuid, $2::uuid)::text", 2};
inline const Statement interest_accruals_list{
    "core_interest_accruals_list", "SELECT corebank.core_interest_accruals_list($1::uuid, $2::date, $3::date)::text", 3};
inline const Statement interest_run{
    "core_interest_run", "SELECT corebank.core_interest_run($1::date, $2::uuid)::text", 2};
inline const Statement dormancy_run{
    "core_dormancy_run", "SELECT corebank.core_dormancy_run($1::date, $2::uuid)::text", 2};
// Postings are not branch scoped (docs/core-banking.md "Branch scoping": any
// branch serves any customer) and read no branch's records: they skip the
// scope's lookup on the hot path.
inline const Statement money_deposit{"core_deposit", "SELECT corebank.core_deposit($1::jsonb, $2::uuid)::text", 2, unscoped};
inline const Statement money_withdraw{"core_withdraw", "SELECT corebank.core_withdraw($1::jsonb, $2::uuid)::text", 2, unscoped};
inline const Statement money_transfer{"core_transfer", "SELECT corebank.core_transfer($1::jsonb, $2::uuid)::text", 2, unscoped};
// A group of concurrent single postings in one transaction (banking/posting_group.hpp):
// [{"operation", "request"}, ...] and each request's acting staff member, as a text array.
// One row per request, in order (core_postings_rows returns them so): its
// status, its response as jsonb's text (what the single function's ::text
// prints for the same value) and the reason of an ALONE answer, so that the
// tier reads columns instead of parsing JSON.
inline const Statement money_postings{
    "core_postings_rows",
    "SELECT r.status, r.response, r.reason FROM corebank.core_postings_rows($1::jsonb, $2::uuid[]) AS r",
    2,
    unscoped};
inline const Statement money_transfer_batch{"core_transfer_batch",
                                            "SELECT corebank.core_transfer_batch($1::jsonb, $2::uuid)::text", 2, unscoped};
inline const Statement money_fee{"core_fee", "SELECT corebank.core_fee($1::jsonb, $2::uuid)::text", 2, unscoped};
inline const Statement fx_rates_list{"core_fx_rates_list", "SELECT corebank.core_fx_rates_list($1::jsonb)::text", 1};
inline const Statement fx_rates_get{
    "core_fx_rates_get", "SELECT corebank.core_fx_rates_get($1, $2, $3::date)::text", 3};
inline const Statement fx_rates_set{
    "core_fx_rates_set", "SELECT corebank.core_fx_rates_set($1::jsonb, $2::uuid)::text", 2};
inline const Statement passbook_issue{
    "core_passbook_issue", "SELECT corebank.core_passbook_issue($1::uuid, $2::uuid)::text", 2};
inline const Statement passbook_list{"core_passbook_list", "SELECT corebank.core_passbook_list($1::uuid)::text", 1};
inline const Statement passbook_get{"core_passbook_get", "SELECT corebank.core_passbook_get($1::uuid)::text", 1};
inline const Statement passbook_reprint{
    "core_passbook_reprint", "SELECT corebank.core_passbook_reprint($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement passbook_unprinted{
    "core_passbook_unprinted", "SELECT corebank.core_passbook_unprinted($1::uuid, $2::int)::text", 2};
inline const Statement passbook_print_confirm{
    "core_passbook_print_confirm", "SELECT corebank.core_passbook_print_confirm($1::uuid, $2::jsonb, $3::uuid)::text", 3};
inline const Statement standing_orders_create{
    "core_standing_orders_create", "SELECT corebank.core_standing_orders_create($1::jsonb, $2::uuid)::text", 2};
inline const Statement standing_orders_list{
    "core_standing_orders_list", "SELECT corebank.core_standing_orders_list($1::uuid)::text", 1};
inline const Statement standing_orders_get{
    "core_standing_orders_get", "SELECT corebank.core_standing_orders_get($1::uuid)::text", 1};
inline const Statement standing_orders_pause{
    "core_standing_orders_pause", "SELECT corebank.core_standing_orders_pause($1::uuid, $2::uuid)::text", 2};
inline const Statement standing_orders_resume{
    "core_standing_orders_resume", "SELECT corebank.core_standing_orders_resume($1::uuid, $2::uuid)::text", 2};
inline const Statement standing_orders_cancel{
    "core_standing_orders_cancel", "SELECT corebank.core_standing_orders_cancel($1::uuid, $2::uuid)::text", 2};
inline const Statement standing_orders_execute{
    "core_standing_orders_execute", "SELECT corebank.core_standing_orders_execute($1::date, $2::uuid)::text", 2};

}  // namespace corebank::httpd::core_banking::sql
