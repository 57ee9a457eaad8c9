-- api_key_rotation.sql: rotation, PUT, expiry and the last-admin rule (issue 15).
--
-- Goal: a rotation makes a successor with the old key's scopes and leaves the
-- old key valid for its overlap only; an expired key is refused like a
-- revoked one; PUT changes name, limit and expiry; the last valid core admin
-- key can be neither revoked nor given an earlier expiry (422); every
-- refusal writes nothing; every move leaves an api_key_events row. Method:
-- keys with known hashes, called as the tier's role; the overlap's end is
-- reached by moving expires_at into the past as the owner.
BEGIN;
SELECT plan(46);

CREATE FUNCTION pg_temp.h(plaintext text) RETURNS bytea LANGUAGE sql IMMUTABLE
    AS $f$ SELECT sha256(convert_to(plaintext, 'UTF8')) $f$;
-- What a refusal must leave untouched.
CREATE FUNCTION pg_temp.state() RETURNS text LANGUAGE sql SECURITY DEFINER
    AS $f$ SELECT (SELECT count(*) FROM corebank.api_keys)::text || '/' ||
                  (SELECT count(*) FROM corebank.api_key_events)::text || '/' ||
                  (SELECT md5(string_agg(k::text, ',' ORDER BY k.id)) FROM corebank.api_keys k) $f$;

-- Other files' keys do not count here: revoke every core admin key first.
UPDATE corebank.api_keys SET status = 'REVOKED', revoked_at = now() WHERE status = 'ACTIVE';

CREATE TEMP TABLE ids (name text PRIMARY KEY, id uuid);
INSERT INTO ids SELECT 'admin1', (corebank.core_api_key_create('core', 'Ops', ARRAY['admin', 'read'], NULL, 50,
                                  pg_temp.h('rot_admin_1'), 'cbk_a1', NULL) ->> 'id')::uuid;
INSERT INTO ids SELECT 'app', (corebank.core_api_key_create('core', 'App', ARRAY['read', 'write'], NULL, 70,
                               pg_temp.h('rot_app_1'), 'cbk_p1', NULL) ->> 'id')::uuid;
GRANT SELECT ON ids TO corebank_app;
SELECT is((SELECT count(*) FROM corebank.api_key_events e JOIN ids ON e.api_key_id = ids.id WHERE e.event = 'CREATED'),
          2::bigint, 'a creation is audited');

SET ROLE corebank_app;

-- Rotation.
CREATE TEMP TABLE rot AS
    SELECT corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'app'), 'core', NULL,
                                        pg_temp.h('rot_app_2'), 'cbk_p2', '00000000-0000-0000-0000-0000000000aa') AS r;
SELECT is((SELECT r - 'id' - 'createdAt' - 'previous' - 'rotatedFrom' FROM rot),
          '{"service": "core", "name": "App", "prefix": "cbk_p2", "scopes": ["read", "write"], "callerId": null,
            "rateLimitPerMinute": 70, "status": "ACTIVE", "createdBy": "00000000-0000-0000-0000-0000000000aa",
            "lastUsedAt": null, "revokedAt": null, "expiresAt": null}'::jsonb,
          'the successor has the old key''s name, scopes and limit');
SELECT is((SELECT (r ->> 'rotatedFrom')::uuid FROM rot), (SELECT id FROM ids WHERE name = 'app'), 'rotatedFrom names the old key');
SELECT ok((SELECT ((r -> 'previous' ->> 'expiresAt')::timestamptz - now()) BETWEEN interval '23 hours 59 minutes' AND interval '24 hours' FROM rot),
          'the old key expires after the default overlap of 24 hours');
SELECT is(corebank.core_api_key_verify(pg_temp.h('rot_app_1'), 'core') ->> 'name', 'App', 'the old key still verifies in the overlap');
SELECT is(corebank.core_api_key_verify(pg_temp.h('rot_app_2'), 'core') ->> 'name', 'App', 'the new key verifies');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('rot_app_1'), 'core') ->> 'allowed', 'true', 'authenticate takes the old key in the overlap');
RESET ROLE;
INSERT INTO ids SELECT 'app2', (r ->> 'id')::uuid FROM rot;
SELECT is((SELECT string_agg(e.event, ',' ORDER BY e.id) FROM corebank.api_key_events e
           WHERE e.api_key_id = (SELECT id FROM ids WHERE name = 'app')), 'CREATED,ROTATED', 'the rotation is audited on the old key');
SELECT is((SELECT string_agg(e.event, ',' ORDER BY e.id) FROM corebank.api_key_events e
           WHERE e.api_key_id = (SELECT id FROM ids WHERE name = 'app2')), 'CREATED', 'and the successor''s creation on the new one');
SELECT is((SELECT before ->> 'expiresAt' IS NULL AND after ->> 'expiresAt' IS NOT NULL FROM corebank.api_key_events
           WHERE event = 'ROTATED'), true, 'the rotation''s row holds the expiry before and after');
SET ROLE corebank_app;

-- Refusals of a rotation: nothing written.
SELECT pg_temp.state() AS before \gset
SELECT throws_ok($$SELECT corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'app'), 'core', NULL, pg_temp.h('rot_x1'), 'cbk_x', NULL)$$,
                 'CB409', 'API key has already been rotated: rotate its successor instead', 'a second rotation during the overlap is 409');
SELECT throws_ok($$SELECT corebank.core_api_key_rotate(gen_random_uuid(), 'core', NULL, pg_temp.h('rot_x2'), 'cbk_x', NULL)$$,
                 'CB404', 'API key not found', 'an unknown id is 404');
SELECT throws_ok($$SELECT corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'app2'), 'verify', NULL, pg_temp.h('rot_x3'), 'cbk_x', NULL)$$,
                 'CB404', 'API key not found', 'a key of another service is 404');
SELECT throws_ok($$SELECT corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'app2'), 'core', 2592001, pg_temp.h('rot_x4'), 'cbk_x', NULL)$$,
                 'CBV00', 'overlapSeconds: must be from 0 to 2592000', 'an overlap over 30 days is 400');
SELECT throws_ok($$SELECT corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'app2'), 'core', -1, pg_temp.h('rot_x5'), 'cbk_x', NULL)$$,
                 'CBV00', 'overlapSeconds: must be from 0 to 2592000', 'a negative overlap is 400');
SELECT throws_ok($$SELECT corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'app2'), 'core', 0, pg_temp.h('rot_app_1'), 'cbk_x', NULL)$$,
                 'CB409', 'An API key with this hash already exists', 'a hash in use is 409');
SELECT is(pg_temp.state(), :'before', 'the refused rotations wrote nothing');

-- The overlap's end: the old key is refused like a revoked one.
RESET ROLE;
UPDATE corebank.api_keys SET expires_at = now() - interval '1 second' WHERE id = (SELECT id FROM ids WHERE name = 'app');
SET ROLE corebank_app;
SELECT is(corebank.core_api_key_verify(pg_temp.h('rot_app_1'), 'core'), NULL, 'after the overlap the old key does not verify');
SELECT is(corebank.core_api_key_authenticate(pg_temp.h('rot_app_1'), 'core'), NULL, 'nor authenticate');
SELECT is((corebank.core_authorize_lookup(pg_temp.h('rot_app_1'), 'core', NULL) -> 'key'), 'null'::jsonb, 'nor pass the tier''s lookup');
SELECT is(corebank.core_api_key_verify(pg_temp.h('rot_app_2'), 'core') ->> 'name', 'App', 'the successor still verifies');
SELECT is((SELECT e ->> 'status' FROM jsonb_array_elements(corebank.core_api_keys_list('core')) e
           WHERE (e ->> 'id')::uuid = (SELECT id FROM ids WHERE name = 'app')), 'EXPIRED', 'the list shows it EXPIRED');
SELECT pg_temp.state() AS before \gset
SELECT throws_ok($$SELECT corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'app'), 'core', NULL, pg_temp.h('rot_x6'), 'cbk_x', NULL)$$,
                 'CB409', 'API key has expired: create a new key instead', 'rotating an expired key is 409');
SELECT throws_ok($$SELECT corebank.core_api_key_update((SELECT id FROM ids WHERE name = 'app'), 'core', NULL, NULL, true, NULL, NULL)$$,
                 'CB409', 'API key has expired', 'an expired key''s expiry is not lifted (409)');
SELECT is(pg_temp.state(), :'before', 'those refusals wrote nothing');

-- Overlap 0: the old key stops at once.
SELECT is(corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'app2'), NULL, 0, pg_temp.h('rot_app_3'), 'cbk_p3', NULL)
          -> 'previous' ->> 'status', 'EXPIRED', 'overlap 0 expires the old key at once');
SELECT is(corebank.core_api_key_verify(pg_temp.h('rot_app_2'), 'core'), NULL, 'and it no longer verifies');

-- PUT.
SELECT is(corebank.core_api_key_update((SELECT id FROM ids WHERE name = 'admin1'), 'core', '  Ops 2 ', 120, false, NULL, NULL)
          - 'id' - 'createdAt' - 'rotatedFrom',
          '{"service": "core", "name": "Ops 2", "prefix": "cbk_a1", "scopes": ["admin", "read"], "callerId": null,
            "rateLimitPerMinute": 120, "status": "ACTIVE", "createdBy": null, "lastUsedAt": null, "revokedAt": null,
            "expiresAt": null}'::jsonb, 'PUT changes the name (trimmed) and the limit');
SELECT is(corebank.core_api_key_verify(pg_temp.h('rot_admin_1'), 'core') ->> 'rateLimitPerMinute', '120', 'the new limit is verified');
SELECT pg_temp.state() AS before \gset
SELECT throws_ok($$SELECT corebank.core_api_key_update((SELECT id FROM ids WHERE name = 'admin1'), 'core', NULL, NULL, false, NULL, NULL)$$,
                 'CBV00', 'body: give at least one of name, rateLimitPerMinute, expiresAt', 'nothing to change is 400');
SELECT throws_ok($$SELECT corebank.core_api_key_update((SELECT id FROM ids WHERE name = 'admin1'), 'core', NULL, 0, false, NULL, NULL)$$,
                 'CBV00', NULL, 'a limit of 0 is 400');
SELECT throws_ok($$SELECT corebank.core_api_key_update((SELECT id FROM ids WHERE name = 'admin1'), 'core', '   ', NULL, false, NULL, NULL)$$,
                 'CBV00', 'name: must be 1 to 100 characters', 'a blank name is 400');
SELECT throws_ok($$SELECT corebank.core_api_key_update((SELECT id FROM ids WHERE name = 'admin1'), 'core', NULL, NULL, true, now() - interval '1 minute', NULL)$$,
                 'CB422', 'expiresAt: must be in the future (revoke the key to stop it now)', 'an expiry in the past is 422');
SELECT throws_ok($$SELECT corebank.core_api_key_update((SELECT id FROM ids WHERE name = 'admin1'), 'core', NULL, NULL, true, now() + interval '11 years', NULL)$$,
                 'CBV00', 'expiresAt: must be at most 10 years ahead', 'an expiry past 10 years is 400');
SELECT throws_ok($$SELECT corebank.core_api_key_update(gen_random_uuid(), 'core', 'X', NULL, false, NULL, NULL)$$,
                 'CB404', 'API key not found', 'PUT of an unknown id is 404');

-- The last admin key: admin1 is the only valid core admin key now.
SELECT throws_ok($$SELECT corebank.core_api_key_revoke((SELECT id FROM ids WHERE name = 'admin1'), NULL)$$,
                 'CB422', 'This is the last active admin-scope key: create or rotate another admin key first',
                 'revoking the last admin key is 422');
SELECT throws_ok($$SELECT corebank.core_api_key_update((SELECT id FROM ids WHERE name = 'admin1'), 'core', NULL, NULL, true, now() + interval '1 day', NULL)$$,
                 'CB422', 'This is the last active admin-scope key: create or rotate another admin key first',
                 'giving the last admin key an expiry is 422');
SELECT is(pg_temp.state(), :'before', 'the refused PUTs and revocation wrote nothing');
-- Rotating it is allowed (its successor is an admin key), and then the old
-- one may be revoked; the successor may not.
SELECT is(corebank.core_api_key_rotate((SELECT id FROM ids WHERE name = 'admin1'), 'core', 3600, pg_temp.h('rot_admin_2'), 'cbk_a2', NULL)
          ->> 'scopes', '["admin", "read"]', 'the last admin key can be rotated');
SELECT is(corebank.core_api_key_revoke((SELECT id FROM ids WHERE name = 'admin1'), NULL) ->> 'status', 'REVOKED',
          'with a successor, the old admin key can be revoked');
SELECT throws_ok($$SELECT corebank.core_api_key_revoke(NULL, NULL)$$, 'CBV00', NULL, 'a missing id is 400');
SELECT throws_ok($$SELECT corebank.core_api_key_revoke((SELECT (e ->> 'id')::uuid FROM jsonb_array_elements(corebank.core_api_keys_list('core')) e WHERE e ->> 'prefix' = 'cbk_a2'), NULL)$$,
                 'CB422', NULL, 'the successor, now the last admin key, cannot be revoked');
SELECT throws_ok($$SELECT corebank.core_api_key_revoke((SELECT id FROM ids WHERE name = 'admin1'), NULL)$$,
                 'CB409', 'API key is already revoked', 'revoking a revoked key is still 409');
SELECT is(corebank.core_api_key_revoke((SELECT id FROM ids WHERE name = 'app2'), NULL) ->> 'status', 'REVOKED',
          'an expired key can still be revoked');
RESET ROLE;

-- A changed expiry is announced to the tier processes like a revocation.
SELECT ok((SELECT pg_get_triggerdef(t.oid) ILIKE '%old.expires_at%' FROM pg_trigger t
           WHERE t.tgrelid = 'corebank.api_keys'::regclass AND t.tgname = 'api_keys_hot_path_update'),
          'the update trigger notifies a changed expires_at');
SELECT throws_ok($$UPDATE corebank.api_key_events SET event = 'UPDATED'$$, NULL, NULL, 'api_key_events is append-only');

SELECT * FROM finish();
ROLLBACK;
