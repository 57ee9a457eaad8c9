-- events_schema.sql: the shape of the event service (1.2) and who may touch it.
--
-- Goal: the tables exist with the keys docs/events.md describes (dedupe is
-- the unique constraint on (source, event_id)); the tier's role executes
-- exactly the events_* API functions and reads no table; every API function
-- is SECURITY DEFINER with a pinned search_path; helpers have no grant;
-- stored events are append-only except for a merge's customer_id; the
-- platform registry starts with the six documented names.
-- Method: catalog checks, then SET ROLE corebank_app and try.
BEGIN;
SELECT plan(27);
\ir helpers/events.sql

SELECT has_table('corebank', t, 'table corebank.' || t)
FROM unnest(ARRAY['event_platforms', 'event_settings', 'customers_graph', 'customer_identifiers', 'events',
                  'customer_merges', 'consents', 'loyalty_members']) AS t;

SELECT col_is_unique('corebank', 'events', ARRAY['source', 'event_id'],
                     'events: (source, event_id) is unique (the dedupe key)');
SELECT col_is_pk('corebank', 'customer_identifiers', ARRAY['kind', 'value'],
                 'customer_identifiers: one owner per (kind, value)');
SELECT col_is_pk('corebank', 'consents', ARRAY['customer_id', 'purpose'], 'consents: one decision per customer and purpose');
SELECT col_is_pk('corebank', 'loyalty_members', 'member_id', 'loyalty_members: a member id maps to one customer');
SELECT has_index('corebank', 'events', 'events_feed', 'the feed is indexed by (occurred_at, id)');
SELECT has_index('corebank', 'events', 'events_by_customer', 'a customer''s events are indexed');

-- The API.
SELECT is((SELECT count(*) FROM pg_proc p
           WHERE p.pronamespace = 'corebank'::regnamespace AND p.proname LIKE 'events\_%'
             AND NOT (p.prosecdef AND 'search_path=pg_catalog, pg_temp' = ANY (p.proconfig))),
          0::bigint, 'every events_* API function is SECURITY DEFINER with search_path pg_catalog, pg_temp');
SELECT set_eq(
    $$SELECT p.oid::regprocedure::text FROM pg_proc p
      WHERE p.pronamespace = 'corebank'::regnamespace AND p.proname LIKE 'events\_%'
        AND has_function_privilege('corebank_app', p.oid, 'EXECUTE')$$,
    ARRAY[
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
      'corebank.events_customer_insights(text,date,date)'],
    'corebank_app can execute exactly the events_* API functions');
SELECT is((SELECT count(*) FROM pg_class c
           WHERE c.relnamespace = 'corebank'::regnamespace
             AND c.relname IN ('event_platforms', 'event_settings', 'customers_graph', 'customer_identifiers', 'events',
                               'customer_merges', 'consents', 'loyalty_members', 'event_parity_hourly')
             AND (has_table_privilege('corebank_app', c.oid, 'SELECT') OR has_table_privilege('corebank_app', c.oid, 'INSERT')
               OR has_table_privilege('corebank_app', c.oid, 'UPDATE') OR has_table_privilege('corebank_app', c.oid, 'DELETE'))),
          0::bigint, 'corebank_app has no privilege on any event table');
SELECT is((SELECT count(*) FROM pg_proc p
           WHERE p.pronamespace = 'corebank_internal'::regnamespace AND p.proname LIKE 'events\_%'
             AND (has_function_privilege('corebank_app', p.oid, 'EXECUTE')
               OR has_function_privilege('public', p.oid, 'EXECUTE'))),
          0::bigint, 'nobody but the owner executes the events_* helpers');

-- Behaviour as the tier's role.
SET ROLE corebank_app;
SELECT throws_ok('SELECT * FROM corebank.events', '42501', NULL, 'corebank_app cannot SELECT corebank.events');
SELECT is(corebank.events_ingest('schema-test', '[{"eventId":"s1","type":"identity.registered",'
                                                '"occurredAt":"2026-11-21T10:00:00Z","identity":{"platform":"web","userId":"schema-u1"}}]')
          ->> 'accepted', '1', 'corebank_app can ingest through corebank.events_ingest');
SELECT is(jsonb_array_length(corebank.events_platforms_list() -> 'platforms'), 6,
          'corebank_app can read the platform registry');
RESET ROLE;

-- Stored events are append-only; a merge may move customer_id.
SELECT throws_ok($$UPDATE corebank.events SET payload = '{"x":1}' WHERE source = 'schema-test'$$, '42501',
                 'corebank.events is append-only', 'an event''s payload cannot be changed');
SELECT throws_ok($$DELETE FROM corebank.events WHERE source = 'schema-test'$$, '42501',
                 'corebank.events is append-only', 'an event cannot be deleted');
SELECT throws_ok('TRUNCATE corebank.events CASCADE', '42501', 'corebank.events is append-only',
                 'the stream cannot be truncated');
SELECT lives_ok($$UPDATE corebank.events SET customer_id = customer_id WHERE source = 'schema-test'$$,
                'customer_id may be re-pointed (what a merge does)');

SELECT is((SELECT array_agg(name ORDER BY name) FROM corebank.event_platforms WHERE active),
          ARRAY['android', 'ios', 'pos', 'ussd', 'web', 'whatsapp'], 'the default registry has the six documented platforms');
SELECT is((SELECT home_country_calling_code FROM corebank.event_settings), '263',
          'the default home country calling code is 263');

SELECT * FROM finish();
ROLLBACK;
