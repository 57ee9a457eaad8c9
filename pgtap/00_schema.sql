-- 00_schema.sql: the shape of the installed extension and who may touch it.
--
-- Goal: the tier's role (corebank_app) can execute exactly the API functions
-- and cannot read or write any table, nor call the internal helpers; every
-- API function is SECURITY DEFINER with a pinned search_path; the audit trail
-- is append-only. Method: catalog checks, then SET ROLE corebank_app and try.
BEGIN;
SELECT plan(40);

SELECT has_schema('corebank', 'schema corebank exists');
SELECT has_schema('corebank_internal', 'schema corebank_internal exists');

SELECT tables_are('corebank', ARRAY[
    'auth_users', 'auth_oauth_clients', 'auth_sessions', 'auth_refresh_tokens', 'auth_access_tokens',
    'auth_signing_keys', 'auth_reset_tokens', 'auth_rate_counters', 'auth_login_failures', 'auth_mail_outbox', 'auth_audit',
    'auth_role_scopes', 'auth_kyc_tier_changes', 'auth_mfa_totp', 'auth_mfa_recovery_codes', 'auth_contact_claims',
    'currencies', 'platform_config', 'branches', 'numbering_config', 'gl_accounts', 'ledger_accounts',
    'accounting_periods', 'parked_changes', 'transactions', 'transaction_lines_proposed', 'journal_entries',
    'gl_balance_stripes', 'chain_heads', 'account_day_totals', 'gl_day_totals', 'account_credit_stripes', 'idempotency_keys', 'gl_budgets', 'api_keys', 'api_key_rate_counters', 'api_key_events',
    'event_platforms', 'event_settings', 'customers_graph', 'customer_identifiers', 'events', 'customer_merges',
    'consents', 'loyalty_members', 'event_parity_hourly',
    'customers', 'customer_profiles', 'customer_interactions', 'customer_cases', 'beneficial_owners', 'beneficiaries',
    'kyc_documents', 'kyc_checks', 'kyc_reviews', 'deposit_products', 'deposit_product_tiers', 'deposit_accounts',
    'account_status_history', 'exchange_rates', 'interest_accruals', 'interest_accrual_journals', 'account_month_ends',
    'passbooks', 'passbook_marks', 'standing_orders', 'standing_order_executions',
    'verify_sessions', 'verify_consents', 'verify_captures', 'verify_session_events', 'verify_idempotency_keys',
    'verify_webhook_endpoints', 'verify_webhook_events', 'verify_webhook_deliveries', 'verify_checks',
    'data_migrations', 'banks',
    'eod_job_kinds', 'eod_runner', 'eod_jobs', 'eod_job_units',
    'staff_permissions', 'staff_roles', 'staff_role_permissions', 'staff_audit', 'staff_parked_operations',
    'staff_sql_logins'],
    'corebank holds exactly the identity, ledger and event tables of the contracts');

SELECT col_is_pk('corebank', 'auth_users', 'id', 'auth_users: id is the primary key');
SELECT col_is_pk('corebank', 'auth_oauth_clients', 'client_id', 'auth_oauth_clients: client_id is the primary key');
SELECT col_is_pk('corebank', 'auth_sessions', 'id', 'auth_sessions: id is the primary key');
SELECT col_is_pk('corebank', 'auth_refresh_tokens', 'token_hash', 'auth_refresh_tokens: token_hash is the primary key');
SELECT col_is_pk('corebank', 'auth_access_tokens', 'jti', 'auth_access_tokens: jti is the primary key');
SELECT col_is_pk('corebank', 'auth_signing_keys', 'kid', 'auth_signing_keys: kid is the primary key');
SELECT col_is_pk('corebank', 'auth_reset_tokens', 'token_hash', 'auth_reset_tokens: token_hash is the primary key');
SELECT col_is_pk('corebank', 'auth_rate_counters', ARRAY['bucket', 'key', 'window_start'],
                 'auth_rate_counters: (bucket, key, window_start) is the primary key');
SELECT col_is_pk('corebank', 'auth_mail_outbox', 'id', 'auth_mail_outbox: id is the primary key');
SELECT col_is_pk('corebank', 'auth_audit', 'id', 'auth_audit: id is the primary key');
SELECT col_is_pk('corebank', 'auth_role_scopes', 'role', 'auth_role_scopes: role is the primary key');
SELECT col_is_unique('corebank', 'auth_users', 'email', 'auth_users: email is unique');
SELECT col_is_unique('corebank', 'auth_users', 'phone_key', 'auth_users: phone_key is unique');
SELECT col_type_is('corebank', 'auth_refresh_tokens', 'token_hash', 'bytea', 'refresh tokens are stored as bytea hashes');
SELECT has_index('corebank', 'auth_signing_keys', 'auth_signing_keys_one_active', 'at most one active signing key (index)');
SELECT has_index('corebank', 'auth_sessions', 'auth_sessions_live_by_user', 'live sessions are indexed by user');
SELECT has_index('corebank', 'auth_access_tokens', 'auth_access_tokens_expiry', 'access tokens are indexed by expiry');
SELECT has_sequence('corebank', 'transaction_numbers', 'TRANSACTION numbers come from sequence corebank.transaction_numbers');

-- Roles.
SELECT has_role('corebank_app', 'role corebank_app exists');
SELECT is((SELECT rolcanlogin AND NOT rolsuper FROM pg_roles WHERE rolname = 'corebank_app'), true,
          'corebank_app can log in and is not a superuser');
SELECT is((SELECT count(*) FROM pg_roles WHERE rolname IN ('corebank_auditor', 'corebank_reporting') AND NOT rolcanlogin),
          2::bigint, 'corebank_auditor and corebank_reporting exist and cannot log in');

-- Every API function: SECURITY DEFINER with search_path pinned.
SELECT is((SELECT count(*) FROM pg_proc WHERE pronamespace = 'corebank'::regnamespace AND NOT prosecdef),
          0::bigint, 'every function in schema corebank is SECURITY DEFINER');
-- Except branch scoping's three C functions (docs/core-banking.md "Branch
-- scoping"): row-level security calls branch_visible once per row, and a SET
-- clause costs a GUC save and restore per call (measured: a count over a
-- million rows went from 90 ms to 650-980 ms). They name every object and
-- operator of their two statements in full, so no search_path can redirect them.
SELECT is((SELECT count(*) FROM pg_proc
           WHERE pronamespace = 'corebank'::regnamespace
             AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (proconfig), false)
             AND oid NOT IN ('corebank.actor_scope_set(uuid)'::regprocedure, 'corebank.scope_branch()'::regprocedure,
                             'corebank.branch_visible(uuid)'::regprocedure)),
          0::bigint, 'every function in schema corebank pins search_path = pg_catalog, pg_temp');

-- Exactly the API functions are executable by corebank_app.
SELECT set_eq(
    $$SELECT p.oid::regprocedure::text FROM pg_proc p
      WHERE p.pronamespace = 'corebank'::regnamespace AND has_function_privilege('corebank_app', p.oid, 'EXECUTE')$$,
    ARRAY[
      'corebank.auth_register(text,text,text,text,text,text,text,text,text,bytea)',
      'corebank.auth_login_begin(text,text,text)',
      'corebank.auth_login_finish(uuid,bytea,text,text,text,text,bytea)',
      'corebank.auth_refresh(bytea,bytea,text,text)',
      'corebank.auth_authenticate(uuid)',
      'corebank.auth_password_change(uuid,text)',
      'corebank.auth_password_forgot(text,text,text,bytea)',
      'corebank.auth_mail_enqueue(text,text,bytea)',
      'corebank.auth_mail_claim(integer)',
      'corebank.auth_mail_done(uuid,boolean,text)',
      'corebank.auth_password_reset_begin(bytea)',
      'corebank.auth_password_reset_finish(bytea,text,bytea)',
      'corebank.auth_deactivate(uuid)',
      'corebank.auth_logout(uuid,uuid)',
      'corebank.auth_logout_all(uuid)',
      'corebank.auth_me(uuid)',
      'corebank.auth_sessions_list(uuid)',
      'corebank.auth_kyc_get(uuid)',
      'corebank.auth_me_update(uuid,text,text)',
      'corebank.auth_contact_claim_start(uuid,text,text,bytea,bytea,text,text)',
      'corebank.auth_contact_claim_confirm(uuid,text,bytea)',
      'corebank.auth_kyc_session_start(uuid,text,bytea,uuid,text,bytea,bytea,integer,integer)',
      'corebank.auth_client_auth_begin(text)',
      'corebank.auth_client_auth_finish(text,bytea)',
      'corebank.auth_password_reenter_begin(uuid)',
      'corebank.auth_password_reenter_finish(uuid,bytea,text)',
      'corebank.auth_client_token(text,text[])',
      'corebank.auth_introspect(uuid)',
      'corebank.auth_client_create(text,text,text[],text,text,text)',
      'corebank.auth_client_admin_list(uuid,uuid,text)',
      'corebank.auth_client_admin_create(uuid,uuid,text,text,text[],text[],text)',
      'corebank.auth_client_admin_update(uuid,uuid,text,text[],text[],text)',
      'corebank.auth_client_admin_rotate_begin(uuid,uuid,text)',
      'corebank.auth_client_admin_rotate(uuid,uuid,text,text,integer)',
      'corebank.auth_client_admin_disable(uuid,uuid,text)',
      'corebank.auth_user_suspend(uuid,uuid,uuid,text)',
      'corebank.auth_user_reinstate(uuid,uuid,uuid,text)',
      'corebank.auth_user_admin_get(uuid,uuid,uuid)',
      'corebank.auth_staff_create(text,text,text,text,text,text[],text)',
      'corebank.auth_mfa_state(uuid)',
      'corebank.auth_mfa_totp_begin(uuid,text)',
      'corebank.auth_mfa_totp_confirm(uuid,text)',
      'corebank.auth_mfa_totp_disable(uuid,text)',
      'corebank.auth_mfa_recovery_codes(uuid,text)',
      'corebank.auth_mfa_staff_enrol(uuid,text)',
      'corebank.auth_login_finish_with_factor(uuid,bytea,text,text,text,text,bytea,text,text)',
      'corebank.auth_jwks()',
      'corebank.auth_ensure_signing_key()',
      'corebank.auth_can_sign()',
      'corebank.auth_rotate_signing_key()',
      'corebank.auth_maintenance()',
      'corebank.policy_load(jsonb)',
      'corebank.ledger_post(jsonb)',
      'corebank.next_number(text)',
      'corebank.ledger_verify_chain()',
      'corebank.parked_change_create(text,text,text,jsonb,text,uuid)',
      'corebank.parked_change_approve(uuid,uuid,text)',
      'corebank.parked_change_reject(uuid,uuid,text)',
      'corebank.parked_changes_lapse()',
      'corebank.core_approval_approve(uuid,uuid,text)',
      'corebank.core_approval_reject(uuid,uuid,text)',
      'corebank.core_transaction_capture(jsonb,uuid)',
      'corebank.core_transaction_post(uuid,uuid)',
      'corebank.core_transaction_abandon(uuid,uuid)',
      'corebank.business_today()',
      'corebank.ledger_account_open(jsonb)',
      'corebank.ledger_check_balances()',
      'corebank.trial_balance_as_of(date)',
      'corebank.gl_balances_as_of(date)',
      'corebank.account_statement(uuid,date,date)',
      'corebank.core_transaction_get(uuid)',
      'corebank.core_transaction_search(jsonb)',
      'corebank.core_transaction_reverse_request(uuid,text,uuid)',
      'corebank.core_approvals_list(text,integer,integer)',
      'corebank.core_approval_get(uuid)',
      'corebank.core_periods_list()',
      'corebank.core_period_close_request(text,uuid)',
      'corebank.core_period_reopen_request(text,uuid)',
      'corebank.core_platform_config_get()',
      'corebank.core_platform_banks()',
      'corebank.core_platform_config_update(jsonb,uuid)',
      'corebank.core_branch_scoping_get()',
      'corebank.core_branch_scoping_update_request(jsonb,uuid)',
      'corebank.core_numbering_list()',
      'corebank.core_numbering_update(text,jsonb,uuid)',
      'corebank.core_gl_accounts_list(jsonb)',
      'corebank.core_gl_account_get(uuid)',
      'corebank.core_gl_account_create(jsonb,uuid)',
      'corebank.core_gl_account_update(uuid,jsonb,uuid)',
      'corebank.core_gl_budgets_list(text)',
      'corebank.core_gl_budget_upsert(jsonb,uuid)',
      'corebank.core_branches_list()',
      'corebank.core_branch_get(uuid)',
      'corebank.core_branch_create(jsonb,uuid)',
      'corebank.core_branch_update(uuid,jsonb,uuid)',
      'corebank.core_api_key_create(text,text,text[],text,integer,bytea,text,uuid)',
      'corebank.core_api_keys_list(text)',
      'corebank.core_api_key_revoke(uuid,uuid)',
      'corebank.core_api_key_rotate(uuid,text,integer,bytea,text,uuid)',
      'corebank.core_api_key_update(uuid,text,text,integer,boolean,timestamp with time zone,uuid)',
      'corebank.core_api_key_authenticate(bytea,text)',
      'corebank.core_authorize(bytea,text,uuid)',
      'corebank.core_authorize_lookup(bytea,text,uuid)',
      'corebank.core_api_key_verify(bytea,text)',
      'corebank.core_api_key_usage_flush(uuid[],timestamp with time zone[],integer[])',
      'corebank.core_maintenance()',
      'corebank.core_customers_create(jsonb,uuid)',
      'corebank.core_customers_get(uuid)',
      'corebank.core_customers_list(jsonb)',
      'corebank.core_customers_signing_mandate_set(uuid,jsonb,uuid)',
      'corebank.core_customers_profile_get(uuid)',
      'corebank.core_customers_profile_patch(uuid,jsonb,uuid)',
      'corebank.core_customers_interaction_add(uuid,jsonb,uuid)',
      'corebank.core_customers_interactions_list(uuid,integer,integer)',
      'corebank.core_customers_case_open(uuid,jsonb,uuid)',
      'corebank.core_customers_cases_list(uuid)',
      'corebank.core_customers_case_resolve(uuid,uuid,jsonb,uuid)',
      'corebank.core_customers_beneficial_owner_add(uuid,jsonb,uuid)',
      'corebank.core_customers_beneficial_owners_list(uuid)',
      'corebank.core_customers_beneficial_owner_remove(uuid,uuid,uuid)',
      'corebank.core_customers_beneficiary_add(uuid,jsonb,uuid)',
      'corebank.core_customers_beneficiaries_list(uuid)',
      'corebank.core_customers_beneficiary_remove(uuid,uuid,uuid)',
      'corebank.core_customers_kyc_get(uuid)',
      'corebank.core_customers_kyc_risk_set(uuid,jsonb,uuid)',
      'corebank.core_customers_kyc_review_record(uuid,jsonb,uuid)',
      'corebank.core_customers_kyc_reviews_due(date)',
      'corebank.core_customers_kyc_document_add(uuid,jsonb,uuid)',
      'corebank.core_customers_kyc_document_verify_request(uuid,jsonb,uuid)',
      'corebank.core_customers_kyc_checks_run(uuid,jsonb,uuid)',
      'corebank.core_customers_kyc_identity_link_request(uuid,jsonb,uuid)',
      'corebank.kyc_identity_tier_request(uuid,jsonb,uuid)',
      'corebank.core_customers_profitability(uuid,date,date)',
      'corebank.core_deposit_products_list(jsonb)',
      'corebank.core_deposit_products_get(uuid)',
      'corebank.core_deposit_products_get_by_code(text)',
      'corebank.core_deposit_products_update(uuid,jsonb,uuid)',
      'corebank.core_accounts_open(jsonb,uuid)',
      'corebank.core_accounts_get(uuid)',
      'corebank.core_accounts_get_by_number(text)',
      'corebank.core_accounts_list(jsonb)',
      'corebank.core_accounts_activate(uuid,jsonb,uuid)',
      'corebank.core_accounts_freeze(uuid,jsonb,uuid)',
      'corebank.core_accounts_unfreeze(uuid,jsonb,uuid)',
      'corebank.core_accounts_reactivate(uuid,jsonb,uuid)',
      'corebank.core_accounts_close(uuid,jsonb,uuid)',
      'corebank.core_accounts_status_history(uuid)',
      'corebank.core_accounts_balance(uuid,date)',
      'corebank.core_statement(uuid,date,date)',
      'corebank.core_statement(uuid,date,date,integer,text,date,bigint,bigint)',
      'corebank.core_deposit(jsonb,uuid)',
      'corebank.core_withdraw(jsonb,uuid)',
      'corebank.core_transfer(jsonb,uuid)',
      'corebank.core_transfer_batch(jsonb,uuid)',
      'corebank.core_postings(jsonb,uuid[])',
      'corebank.core_postings_rows(jsonb,uuid[])',
      'corebank.eod_step(text)',
      'corebank.core_jobs_list(date,text,text,integer,integer)',
      'corebank.core_jobs_get(uuid)',
      'corebank.core_jobs_runner()',
      'corebank.core_fee(jsonb,uuid)',
      'corebank.core_fx_rates_set(jsonb,uuid)',
      'corebank.core_fx_rates_get(text,text,date)',
      'corebank.core_fx_rates_list(jsonb)',
      'corebank.core_passbook_issue(uuid,uuid)',
      'corebank.core_passbook_get(uuid)',
      'corebank.core_passbook_list(uuid)',
      'corebank.core_passbook_reprint(uuid,jsonb,uuid)',
      'corebank.core_passbook_unprinted(uuid,integer)',
      'corebank.core_passbook_print_confirm(uuid,jsonb,uuid)',
      'corebank.core_standing_orders_create(jsonb,uuid)',
      'corebank.core_standing_orders_get(uuid)',
      'corebank.core_standing_orders_list(uuid)',
      'corebank.core_standing_orders_pause(uuid,uuid)',
      'corebank.core_standing_orders_resume(uuid,uuid)',
      'corebank.core_standing_orders_cancel(uuid,uuid)',
      'corebank.core_standing_orders_execute(date,uuid)',
      'corebank.core_interest_run(date,uuid)',
      'corebank.core_interest_accruals_list(uuid,date,date)',
      'corebank.core_accounts_interest_post(uuid,uuid)',
      'corebank.core_dormancy_run(date,uuid)',
      'corebank.events_ingest(text,jsonb)',
      'corebank.events_configure(text[],text[],text)',
      'corebank.events_platforms_list()',
      'corebank.events_customer_lookup(text,text,text)',
      'corebank.events_customer_get(text)',
      'corebank.events_customer_events(text,bigint,bigint,integer)',
      'corebank.events_customer_consents(text)',
      'corebank.events_customer_traits(text)',
      'corebank.events_feed(bigint,bigint,integer)',
      'corebank.events_loyalty_member_get(text)',
      'corebank.events_loyalty_member_map(text,text)',
      'corebank.events_parity(text,timestamp with time zone,timestamp with time zone,text,text)',
      'corebank.events_customer_insights(text,date,date)',
      'corebank.verify_session_create(uuid,text,bytea,uuid,text,text,bytea,bytea,text,jsonb,bytea,bytea,integer,integer)',
      'corebank.verify_session_cancel(uuid,text,bytea,uuid,text)',
      'corebank.verify_session_consent(uuid,text,bytea,uuid,boolean,text,bytea,text,text)',
      'corebank.verify_session_get(uuid)',
      'corebank.verify_session_report(uuid)',
      'corebank.verify_sessions_find(text,bytea,text,timestamp with time zone,integer)',
      'corebank.verify_hosted_state(uuid,bytea)',
      'corebank.verify_hosted_consent(uuid,bytea,text,bytea,boolean,text,bytea,text,text)',
      'corebank.verify_hosted_capture(uuid,bytea,text,bytea,text,bytea,text,integer,integer,integer,bytea)',
      'corebank.verify_hosted_submit_begin(uuid,bytea,text,bytea)',
      'corebank.verify_hosted_images(uuid,bytea)',
      'corebank.verify_hosted_submit_finish(uuid,bytea,text,text,jsonb)',
      'corebank.verify_hosted_submit_abort(uuid,bytea,text,text)',
      'corebank.verify_maintenance(integer)',
      'corebank.verify_webhook_endpoint_add(text,bytea)',
      'corebank.verify_webhook_endpoint_create(text,text,text[],bytea)',
      'corebank.verify_webhook_endpoint_get(uuid)',
      'corebank.verify_webhook_endpoints_page(integer,uuid)',
      'corebank.verify_webhook_endpoint_rotate(uuid,bytea,integer)',
      'corebank.verify_webhook_ping(uuid)',
      'corebank.verify_webhook_deliveries_page(uuid,integer,uuid)',
      'corebank.verify_webhook_delivery_retry(uuid,uuid)',
      'corebank.verify_check_create(uuid,text,bytea,uuid,text,text,jsonb,text,jsonb,boolean,text,bytea,text,text)',
      'corebank.verify_check_get(uuid)',
      'corebank.verify_webhook_endpoints_list()',
      'corebank.verify_webhook_endpoint_disable(uuid)',
      'corebank.verify_webhook_claim(integer,integer)',
      'corebank.verify_webhook_done(uuid,boolean,integer,text,integer,integer,integer)',
      'corebank.core_staff_permissions_list()', 'corebank.core_staff_roles_list()',
      'corebank.core_staff_role_create(jsonb,uuid)', 'corebank.core_staff_role_update(text,jsonb,uuid)',
      'corebank.core_staff_identities_list()', 'corebank.core_staff_identity_create(jsonb,uuid,bytea)',
      'corebank.core_staff_identity_update(text,jsonb,uuid)', 'corebank.core_staff_branch_get(uuid)',
      'corebank.core_staff_branch_set(uuid,jsonb,uuid)',
      'corebank.actor_scope_set(uuid)', 'corebank.scope_branch()', 'corebank.branch_visible(uuid)'],
    'corebank_app can execute exactly the API functions');

SELECT is((SELECT count(*) FROM pg_proc p
           WHERE p.pronamespace = 'corebank'::regnamespace
             AND NOT has_function_privilege('corebank_app', p.oid, 'EXECUTE')),
          0::bigint, 'every function in schema corebank is an API function');

-- PUBLIC: a role with no grant can execute nothing and read nothing.
CREATE ROLE cb_pgtap_nobody NOLOGIN;
SELECT is((SELECT count(*) FROM pg_proc p
           WHERE p.pronamespace IN ('corebank'::regnamespace, 'corebank_internal'::regnamespace)
             AND has_function_privilege('cb_pgtap_nobody', p.oid, 'EXECUTE')),
          0::bigint, 'PUBLIC can execute no corebank function');
SELECT is((SELECT count(*) FROM pg_proc p
           WHERE p.pronamespace = 'corebank_internal'::regnamespace
             AND has_function_privilege('corebank_app', p.oid, 'EXECUTE')),
          0::bigint, 'corebank_app can execute no internal helper');
SELECT is(has_schema_privilege('corebank_app', 'corebank_internal', 'USAGE'), false,
          'corebank_app has no USAGE on corebank_internal');
SELECT is((SELECT count(*) FROM pg_class c
           WHERE c.relnamespace = 'corebank'::regnamespace AND c.relkind IN ('r', 'S', 'v')
             AND (has_table_privilege('corebank_app', c.oid, 'SELECT')
               OR has_table_privilege('corebank_app', c.oid, 'INSERT')
               OR has_table_privilege('corebank_app', c.oid, 'UPDATE')
               OR has_table_privilege('corebank_app', c.oid, 'DELETE'))),
          0::bigint, 'corebank_app has no privilege on any corebank table');

-- Behaviour as the tier's role.
SET ROLE corebank_app;
SELECT throws_ok('SELECT * FROM corebank.auth_users', '42501', NULL, 'corebank_app cannot SELECT auth_users');
SELECT throws_ok('SELECT private_key_sealed FROM corebank.auth_signing_keys', '42501', NULL,
                 'corebank_app cannot SELECT auth_signing_keys');
SELECT throws_ok($$UPDATE corebank.auth_users SET roles = '{admin}'$$, '42501', NULL,
                 'corebank_app cannot UPDATE auth_users');
SELECT throws_ok($$SELECT corebank_internal.sign_jwt('{"sub":"x"}')$$, '42501', NULL,
                 'corebank_app cannot call corebank_internal.sign_jwt');
SELECT lives_ok('SELECT corebank.auth_jwks()', 'corebank_app can call corebank.auth_jwks');
SELECT is(corebank.auth_authenticate(gen_random_uuid()), '{"active": false}'::jsonb,
          'corebank_app can call corebank.auth_authenticate');
RESET ROLE;

-- The audit trail is append-only, even for the owner.
SELECT corebank_internal.audit(NULL, 'register');
SELECT throws_ok('UPDATE corebank.auth_audit SET event = ''logout''', '42501', 'corebank.auth_audit is append-only',
                 'auth_audit refuses UPDATE');
SELECT throws_ok('DELETE FROM corebank.auth_audit', '42501', 'corebank.auth_audit is append-only',
                 'auth_audit refuses DELETE');

SELECT * FROM finish();
ROLLBACK;
