-- verify_schema.sql: the shape of the verification service (1.3) and who may
-- touch it.
--
-- Goal: the tables exist with the keys and checks docs/verification.md
-- describes; the tier's role executes exactly the verify_* API functions and
-- reads no table; every API function is SECURITY DEFINER with a pinned
-- search_path; the helpers have no grant; the session timeline is
-- append-only. Method: catalog checks, then SET ROLE corebank_app and try.
BEGIN;
SELECT plan(23);

SELECT has_table('corebank', t, 'table corebank.' || t)
FROM unnest(ARRAY['verify_sessions', 'verify_consents', 'verify_captures', 'verify_session_events',
                  'verify_idempotency_keys', 'verify_webhook_endpoints', 'verify_webhook_events',
                  'verify_webhook_deliveries']) AS t;

SELECT col_is_pk('corebank', 'verify_idempotency_keys', ARRAY['scope', 'idem_key'],
                 'an idempotency key is unique per scope (the API key, or the session)');
SELECT col_is_pk('corebank', 'verify_captures', ARRAY['session_id', 'kind'], 'one stored image per session and kind');
SELECT has_index('corebank', 'verify_webhook_deliveries', 'verify_webhook_deliveries_due',
                 'due deliveries are indexed for the sender');
SELECT is((SELECT count(*) FROM pg_constraint
           WHERE conrelid = 'corebank.verify_webhook_events'::regclass AND contype = 'u'), 1::bigint,
          'one webhook event per session and type (UNIQUE)');

-- The API: SECURITY DEFINER, pinned search_path, executable by the tier only.
SELECT is((SELECT count(*) FROM pg_proc p
           WHERE p.pronamespace = 'corebank'::regnamespace AND p.proname LIKE 'verify\_%'
             AND NOT (p.prosecdef AND 'search_path=pg_catalog, pg_temp' = ANY (p.proconfig))),
          0::bigint, 'every verify_* API function is SECURITY DEFINER with search_path pg_catalog, pg_temp');
SELECT set_eq(
    $$SELECT p.oid::regprocedure::text FROM pg_proc p
      WHERE p.pronamespace = 'corebank'::regnamespace AND p.proname LIKE 'verify\_%'
        AND has_function_privilege('corebank_app', p.oid, 'EXECUTE')$$,
    ARRAY[
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
      'corebank.verify_webhook_done(uuid,boolean,integer,text,integer,integer,integer)'],
    'corebank_app executes exactly the verify_* API functions');
SELECT is((SELECT count(*) FROM pg_proc p
           WHERE p.pronamespace = 'corebank_internal'::regnamespace AND p.proname LIKE 'verify\_%'
             AND has_function_privilege('corebank_app', p.oid, 'EXECUTE')),
          0::bigint, 'no verify_* helper in corebank_internal is executable by corebank_app');
SELECT is((SELECT count(*) FROM pg_class c
           WHERE c.relnamespace = 'corebank'::regnamespace AND c.relname LIKE 'verify\_%' AND c.relkind IN ('r', 'S')
             AND (has_table_privilege('corebank_app', c.oid, 'SELECT') OR has_table_privilege('corebank_app', c.oid, 'INSERT')
               OR has_table_privilege('corebank_app', c.oid, 'UPDATE') OR has_table_privilege('corebank_app', c.oid, 'DELETE'))),
          0::bigint, 'corebank_app has no privilege on any verify_* table');

-- The rules are C++: the state changes and idempotency live in corebank.so.
SELECT is((SELECT count(*) FROM pg_proc p
           WHERE p.oid = ANY (ARRAY['corebank.verify_session_create(uuid,text,bytea,uuid,text,text,bytea,bytea,text,jsonb,bytea,bytea,int,int)'::regprocedure,
                                    'corebank.verify_session_cancel(uuid,text,bytea,uuid,text)'::regprocedure,
                                    'corebank.verify_hosted_capture(uuid,bytea,text,bytea,text,bytea,text,int,int,int,bytea)'::regprocedure,
                                    'corebank.verify_hosted_submit_finish(uuid,bytea,text,text,jsonb)'::regprocedure,
                                    'corebank.verify_maintenance(int)'::regprocedure])
             AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')),
          5::bigint, 'create, cancel, capture, finish and maintenance are C++ (LANGUAGE C)');

SET ROLE corebank_app;
SELECT throws_ok('SELECT * FROM corebank.verify_sessions', '42501', NULL, 'corebank_app cannot SELECT verify_sessions');
SELECT throws_ok('SELECT secret_sealed FROM corebank.verify_webhook_endpoints', '42501', NULL,
                 'corebank_app cannot read webhook secrets');
SELECT throws_ok($$SELECT corebank_internal.verify_session_json(gen_random_uuid())$$, '42501', NULL,
                 'corebank_app cannot call the JSON helpers');
SELECT is(corebank.verify_session_get(gen_random_uuid()), NULL, 'corebank_app can call verify_session_get');
RESET ROLE;

-- The timeline is append-only, even for the owner.
\ir helpers/verify.sql
SELECT pg_temp.vsession('liveness', 'schema-token');
SELECT throws_ok('UPDATE corebank.verify_session_events SET event = ''expired''', '42501',
                 'corebank.verify_session_events is append-only', 'the session timeline refuses UPDATE');
SELECT throws_ok('DELETE FROM corebank.verify_session_events', '42501',
                 'corebank.verify_session_events is append-only', 'the session timeline refuses DELETE');

SELECT * FROM finish();
ROLLBACK;
