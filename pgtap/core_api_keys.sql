-- core_api_keys.sql: API keys (create, list, revoke, authenticate).
--
-- Goal: only the SHA-256 of a key is stored; authenticate answers the key's
-- scopes for its own service and NULL for unknown, revoked or other-service
-- keys; the per-minute limit counts every call across the stripes (allowed
-- turns false past it). Method: create keys with known hashes and call
-- authenticate as the tier's role.
BEGIN;
SELECT plan(21);

CREATE FUNCTION pg_temp.h(plaintext text) RETURNS bytea LANGUAGE sql IMMUTABLE
    AS $f$ SELECT sha256(convert_to(plaintext, 'UTF8')) $f$;

CREATE TEMP TABLE k AS
    SELECT corebank.core_api_key_create('core', 'Admin key', ARRAY['admin', 'read', 'write', 'read'], NULL, 3,
                                        pg_temp.h('cbk_secret_1'), 'cbk_abcd', NULL) AS r;
SELECT is((SELECT r - 'id' - 'createdAt' FROM k),
          '{"service": "core", "name": "Admin key", "prefix": "cbk_abcd", "scopes": ["admin", "read", "write"],
            "callerId": null, "rateLimitPerMinute": 3, "status": "ACTIVE", "createdBy": null, "lastUsedAt": null,
            "revokedAt": null, "expiresAt": null, "rotatedFrom": null}'::jsonb, 'an ApiKeyResponse (scopes sorted and distinct)');
SELECT is((SELECT count(*) FROM corebank.api_keys WHERE key_hash = pg_temp.h('cbk_secret_1')), 1::bigint,
          'the key is stored by its hash');
SELECT throws_ok($$SELECT corebank.core_api_key_create('core', 'Dup', ARRAY['read'], NULL, 10, pg_temp.h('cbk_secret_1'), 'cbk_x', NULL)$$,
                 'CB409', 'An API key with this hash already exists', 'a duplicate hash');
SELECT throws_ok($$SELECT corebank.core_api_key_create('events', 'Ingest', ARRAY['ingest'], NULL, 10, pg_temp.h('e'), 'evk_x', NULL)$$,
                 'CBV00', 'callerId: is required for an events key', 'an events key names its caller');
SELECT throws_ok($$SELECT corebank.core_api_key_create('mail', 'X', ARRAY['read'], NULL, 10, pg_temp.h('m'), 'x', NULL)$$,
                 'CBV00', 'service: must be core, events or verify', 'an unknown service');
SELECT throws_ok($$SELECT corebank.core_api_key_create('core', 'X', ARRAY['read'], NULL, 10, 'short'::bytea, 'x', NULL)$$,
                 'CBV00', 'key_hash: must be a SHA-256 hash (32 bytes)', 'the hash is 32 bytes');
SELECT throws_ok($$SELECT corebank.core_api_key_create('core', 'X', ARRAY['Read Me'], NULL, 10, pg_temp.h('y'), 'x', NULL)$$,
                 'CBV00', NULL, 'scope names are validated');
SELECT is(corebank.core_api_key_create('events', NULL, ARRAY['ingest'], 'bank-app', NULL, pg_temp.h('evk_1'), 'evk_1', NULL) ->> 'rateLimitPerMinute',
          '6000', 'the default limit is 6000 per minute');

-- Authenticate, as the tier.
SET ROLE corebank_app;
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('cbk_secret_1'), 'core') - 'id',
          '{"name": "Admin key", "scopes": ["admin", "read", "write"], "callerId": null, "rateLimitPerMinute": 3, "allowed": true}'::jsonb,
          'a known key authenticates');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('evk_1'), 'events') ->> 'callerId', 'bank-app',
          'an events key carries its caller');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('cbk_secret_1'), 'events'), NULL, 'a key of another service is unknown');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('nope'), 'core'), NULL, 'an unknown key answers NULL');
SELECT is(corebank.core_api_key_authenticate('x'::bytea, 'core'), NULL, 'a malformed hash answers NULL');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('cbk_secret_1'), 'core') ->> 'allowed', 'true', 'call 2 of 3');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('cbk_secret_1'), 'core') ->> 'allowed', 'true', 'call 3 of 3');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('cbk_secret_1'), 'core') ->> 'allowed', 'false', 'call 4 is over the limit');
RESET ROLE;
SELECT is((SELECT sum(hits)::int FROM corebank.api_key_rate_counters), 5, 'every call was counted (4 + 1 events)');

-- Revoke (a second admin key first: the last one cannot be revoked, see
-- api_key_rotation.sql).
SELECT ok(corebank.core_api_key_create('core', 'Admin 2', ARRAY['admin'], NULL, NULL, pg_temp.h('cbk_secret_2'), 'cbk_2', NULL) IS NOT NULL,
          'a second admin key');
SELECT is(corebank.core_api_key_revoke((SELECT (r ->> 'id')::uuid FROM k), NULL) ->> 'status', 'REVOKED', 'a key is revoked');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('cbk_secret_1'), 'core'), NULL, 'a revoked key answers NULL');
SELECT throws_ok($$SELECT corebank.core_api_key_revoke((SELECT (r ->> 'id')::uuid FROM k), NULL)$$, 'CB409',
                 'API key is already revoked', 'revoking twice is a conflict');

SELECT * FROM finish();
ROLLBACK;
