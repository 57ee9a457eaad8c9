-- hot_path.sql: the database side of the tier's hot path (issue 12, part 2;
-- docs/design/hot-path.md).
--
-- Goal: every committed change of what the tier caches fires a notifying
-- trigger (a key revoked or changed, a session revoked, a user's or a client's
-- status changed) and a last_used_at stamp does not; core_api_key_verify
-- answers like core_api_key_authenticate without counting; core_authorize_lookup
-- asks only what it is given; core_api_key_usage_flush adds a process's counts
-- for many keys in one call, stamps last_used_at and reads the totals back.
-- Method: NOTIFY is delivered only at commit, which a pgTAP transaction never
-- reaches, so the triggers are observed through the function-call statistics
-- of the current transaction (track_functions = 'pl',
-- pg_stat_get_xact_function_calls); the delivery itself is tested with two
-- corebankd processes in tests/faults/test_hot_path.py.
BEGIN;
SELECT plan(34);
\ir helpers/identity.sql

SET LOCAL track_functions = 'pl';
CREATE FUNCTION pg_temp.h(plaintext text) RETURNS bytea LANGUAGE sql IMMUTABLE
    AS $f$ SELECT sha256(convert_to(plaintext, 'UTF8')) $f$;
-- How often a trigger function ran in this transaction.
CREATE FUNCTION pg_temp.calls(fn regprocedure) RETURNS bigint LANGUAGE sql
    AS $f$ SELECT coalesce(pg_stat_get_xact_function_calls(fn), 0) $f$;

SELECT has_trigger('corebank', 'api_keys', 'api_keys_hot_path_update', 'api_keys notifies on update');
SELECT has_trigger('corebank', 'api_keys', 'api_keys_hot_path_delete', 'api_keys notifies on delete');
SELECT has_trigger('corebank', 'auth_sessions', 'auth_sessions_hot_path', 'auth_sessions notifies on revocation');
SELECT has_trigger('corebank', 'auth_users', 'auth_users_hot_path', 'auth_users notifies on a status change');
SELECT has_trigger('corebank', 'auth_oauth_clients', 'auth_oauth_clients_hot_path',
                   'auth_oauth_clients notifies on a status change');

-- API keys.
CREATE TEMP TABLE k AS
    SELECT (corebank.core_api_key_create('core', 'Hot key', ARRAY['read'], NULL, 5, pg_temp.h('hot_1'), 'cbk_hot',
                                         NULL) ->> 'id')::uuid AS id;
SELECT is(pg_temp.calls('corebank_internal.core_api_key_notify()'), 0::bigint, 'creating a key notifies nothing');
UPDATE corebank.api_keys SET last_used_at = now() - interval '1 hour' WHERE id = (SELECT id FROM k);
SELECT is(pg_temp.calls('corebank_internal.core_api_key_notify()'), 0::bigint, 'a last_used_at stamp notifies nothing');
UPDATE corebank.api_keys SET rate_limit_per_minute = 6 WHERE id = (SELECT id FROM k);
SELECT is(pg_temp.calls('corebank_internal.core_api_key_notify()'), 1::bigint, 'a new rate limit notifies');
UPDATE corebank.api_keys SET scopes = ARRAY['read', 'write'] WHERE id = (SELECT id FROM k);
SELECT is(pg_temp.calls('corebank_internal.core_api_key_notify()'), 2::bigint, 'new scopes notify');

-- core_api_key_verify and core_authorize_lookup, as the tier.
SET LOCAL ROLE corebank_app;
SELECT is((corebank.core_authorize_lookup(pg_temp.h('hot_1'), 'core', NULL) -> 'key')
              - ARRAY['id', 'windowStartS'],
          '{"name": "Hot key", "scopes": ["read", "write"], "callerId": null, "rateLimitPerMinute": 6,
            "windowHits": 0}'::jsonb, 'a cache miss answers the key without counting');
SELECT is((corebank.core_authorize_lookup(pg_temp.h('hot_1'), 'core', NULL) -> 'key' ->> 'windowStartS')::bigint,
          extract(epoch FROM date_trunc('minute', now()))::bigint, 'with the minute it counted in');
SELECT is(corebank.core_authorize_lookup(NULL, 'core', NULL), '{"key": null, "staff": null}'::jsonb,
          'nothing asked, nothing answered');
SELECT is(corebank.core_authorize_lookup(pg_temp.h('nope'), 'core', NULL) -> 'key', 'null'::jsonb,
          'an unknown key answers null');
SELECT is(corebank.core_authorize_lookup(pg_temp.h('hot_1'), 'events', NULL) -> 'key', 'null'::jsonb,
          'a key of another service answers null');
SELECT is(corebank.core_authorize_lookup(NULL, 'core', gen_random_uuid()) -> 'staff', '{"active": false}'::jsonb,
          'an unknown token is not active');
RESET ROLE;
SELECT is((SELECT count(*) FROM corebank.api_key_rate_counters WHERE api_key_id = (SELECT id FROM k)), 0::bigint,
          'a cache miss writes no counter');

-- core_api_key_usage_flush, as the tier.
CREATE TEMP TABLE k2 AS
    SELECT (corebank.core_api_key_create('core', 'Other key', ARRAY['read'], NULL, 5, pg_temp.h('hot_2'), 'cbk_hot2',
                                         NULL) ->> 'id')::uuid AS id;
GRANT SELECT ON k, k2 TO corebank_app;
SET LOCAL ROLE corebank_app;
SELECT is(corebank.core_api_key_usage_flush(ARRAY[(SELECT id FROM k), (SELECT id FROM k2)],
                                            ARRAY[now(), now()], ARRAY[3, 0]),
          '[3, 0]'::jsonb, 'a flush adds the counts and answers the totals in input order');
SELECT is(corebank.core_api_key_usage_flush(ARRAY[(SELECT id FROM k2), (SELECT id FROM k)],
                                            ARRAY[now(), now()], ARRAY[1, 2]),
          '[1, 5]'::jsonb, 'a second flush adds to the same minute');
SELECT is(corebank.core_api_key_usage_flush(ARRAY[(SELECT id FROM k)], ARRAY[now() - interval '1 minute'], ARRAY[4]),
          '[4]'::jsonb, 'counts of the minute before go to that minute');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('hot_1'), 'core') ->> 'allowed', 'true',
          'the database-counted path adds to the flushed counts: 5 + 1 is within 6');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('hot_1'), 'core') ->> 'allowed', 'false',
          'and 5 + 2 is over it');
SELECT is(corebank.core_authorize_lookup(pg_temp.h('hot_1'), 'core', NULL) -> 'key' -> 'windowHits', '7'::jsonb,
          'a cache miss reads the minute''s global count (flushed and database-counted)');
SELECT is(corebank.core_api_key_usage_flush('{}', '{}', '{}'), '[]'::jsonb, 'an empty flush answers an empty array');
SELECT throws_ok($$SELECT corebank.core_api_key_usage_flush(ARRAY[gen_random_uuid()], ARRAY[now()], ARRAY[1, 2])$$,
                 'CBV00', NULL, 'arrays of different lengths are refused');
SELECT throws_ok($$SELECT corebank.core_api_key_usage_flush(ARRAY[gen_random_uuid()], ARRAY[now()], ARRAY[-1])$$,
                 'CBV00', NULL, 'a negative count is refused');
SELECT throws_ok($$SELECT corebank.core_api_key_usage_flush(ARRAY[NULL::uuid], ARRAY[now()], ARRAY[1])$$,
                 'CBV00', NULL, 'a NULL key is refused');
RESET ROLE;
SELECT isnt((SELECT last_used_at FROM corebank.api_keys WHERE id = (SELECT id FROM k)) < now() - interval '1 minute',
            true, 'a flush stamps last_used_at of a key it counted');
SELECT is(pg_temp.calls('corebank_internal.core_api_key_notify()'), 2::bigint, 'and the stamp notifies nothing');
SELECT is(corebank.core_api_key_revoke((SELECT id FROM k), NULL) ->> 'status', 'REVOKED', 'the key is revoked');
SELECT is(pg_temp.calls('corebank_internal.core_api_key_notify()'), 3::bigint, 'a revocation notifies');
SELECT is(corebank.core_authorize_lookup(pg_temp.h('hot_1'), 'core', NULL) -> 'key', 'null'::jsonb,
          'a revoked key answers null');

-- Sessions and users.
CREATE TEMP TABLE u AS SELECT pg_temp.uid(pg_temp.register('hot@example.com', NULL, 'h0')) AS id;
SELECT pg_temp.login((SELECT id FROM u), 'h1');
SELECT is(pg_temp.calls('corebank_internal.auth_hot_path_notify()'), 0::bigint, 'registering and logging in notify nothing');
SELECT corebank.auth_logout_all((SELECT id FROM u));
SELECT is(pg_temp.calls('corebank_internal.auth_hot_path_notify()'), 2::bigint,
          'logging out everywhere notifies once per revoked session');
SELECT corebank.auth_deactivate((SELECT id FROM u));
SELECT cmp_ok(pg_temp.calls('corebank_internal.auth_hot_path_notify()'), '>=', 3::bigint, 'deactivation notifies');

SELECT * FROM finish();
ROLLBACK;
