-- auth_client_admin.sql: OAuth client administration (docs/identity.md,
-- "Client administration and suspension"): who may (admin, with a second
-- factor when staff_mfa_roles names admin), create through the function
-- ./corebank client create calls, change scopes, audiences and name, rotate
-- the secret with an overlap during which both secrets authenticate and
-- after which the old one is refused, disable, and the audit rows.
--
-- The transaction's now() does not move, so the end of an overlap is
-- reached by moving the row's previous_secret_expires_at into the past.
BEGIN;
SELECT plan(47);
\ir helpers/identity.sql

CREATE TEMP TABLE a AS SELECT * FROM pg_temp.actor('admin@example.com', '{admin}', '{pwd,otp,mfa}');
CREATE TEMP TABLE weak AS SELECT * FROM pg_temp.actor('weak-admin@example.com', '{admin}', '{pwd}');
CREATE TEMP TABLE t AS SELECT * FROM pg_temp.actor('teller@example.com', '{teller}', '{pwd,otp,mfa}');
SELECT (SELECT user_id FROM a) AS aid, (SELECT session_id FROM a) AS asid,
       (SELECT user_id FROM weak) AS wid, (SELECT session_id FROM weak) AS wsid,
       (SELECT user_id FROM t) AS tid, (SELECT session_id FROM t) AS tsid \gset

-- Who may.
SELECT throws_ok(format('SELECT corebank.auth_client_admin_list(%L, %L)', :'tid', :'tsid'),
                 'CB403', 'Requires the role admin', 'a teller may not list clients');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_list(%L, %L)', :'wid', :'wsid'), 'CB403',
                 'A second factor is required for the role admin: sign in with a one-time code (enrol at POST /auth/mfa/totp on the identity service)',
                 'an admin signed in without a second factor may not');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_list(%L, %L)', :'aid', :'tsid'),
                 'CB403', 'The acting user or session is not active', 'a session that is not the actor''s is refused');
SELECT lives_ok(format('SELECT corebank.auth_client_admin_list(%L, %L)', :'aid', :'asid'),
                'an admin signed in with a second factor may');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_create(%L, %L, %L, %L, %L, %L, %L)', :'tid', :'tsid',
                        'by-teller', pg_temp.hash(11), '{a}', '{}', NULL),
                 'CB403', 'Requires the role admin', 'a teller may not create one');

-- Create: the row auth_client_create makes, audiences set, nothing secret answered.
CREATE TEMP TABLE created AS
SELECT corebank.auth_client_admin_create(:'aid', :'asid', 'svc-admin', pg_temp.hash(11), '{kyc:screen,introspect}',
                                         '{web-app}', 'Service') AS c;
SELECT is((SELECT c - 'createdAt' - 'updatedAt' FROM created),
          '{"clientId": "svc-admin", "name": "Service", "status": "ACTIVE", "scopes": ["kyc:screen", "introspect"],
            "audiences": ["web-app"], "resetLinkBase": null, "appName": null, "secretRotatedAt": null,
            "previousSecretExpiresAt": null}'::jsonb,
          'create answers the client');
SELECT is((SELECT position(split_part(pg_temp.hash(11), '$', 6) IN c::text) FROM created), 0,
          'the answer holds no secret hash');
SELECT is((SELECT secret_hash FROM corebank.auth_oauth_clients WHERE client_id = 'svc-admin'), pg_temp.hash(11),
          'the hash the tier made is stored');
SELECT is((SELECT detail FROM corebank.auth_audit WHERE event = 'client_created'),
          '{"clientId": "svc-admin", "scopes": ["kyc:screen", "introspect"], "audiences": ["web-app"]}'::jsonb,
          'the creation is audited');
SELECT is((SELECT user_id FROM corebank.auth_audit WHERE event = 'client_created'), :'aid'::uuid,
          '... on the acting admin');
SELECT is(corebank.auth_client_auth_finish('svc-admin', pg_temp.proof(11)), '{"outcome": "ok"}'::jsonb,
          'its secret authenticates');

-- Bad input is refused and writes nothing.
SELECT throws_ok(format('SELECT corebank.auth_client_admin_create(%L, %L, %L, %L, %L, %L, %L)', :'aid', :'asid',
                        'svc-admin', pg_temp.hash(12), '{}', '{}', NULL),
                 'CB409', 'An OAuth client with this id already exists', 'a taken id is 409');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_create(%L, %L, %L, %L, %L, %L, %L)', :'aid', :'asid',
                        'bad id', pg_temp.hash(12), '{}', '{}', NULL),
                 'CBV00', NULL, 'a malformed id is refused');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_create(%L, %L, %L, %L, %L, %L, %L)', :'aid', :'asid',
                        'svc-2', pg_temp.hash(12), '{}', '{"bad aud"}', NULL),
                 'CBV00', 'audiences: must be at most 20 ids of 1 to 100 of A-Z a-z 0-9 . _ -',
                 'a malformed audience is refused');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_create(%L, %L, %L, %L, %L, %L, %L)', :'aid', :'asid',
                        'svc-2', 'plaintext', '{}', '{}', NULL),
                 'CBV00', 'secret_hash: must be an argon2id encoded hash', 'a secret that is not a hash is refused');
SELECT is((SELECT count(*) FROM corebank.auth_oauth_clients), 1::bigint, 'no refused create wrote a client');
SELECT is((SELECT count(*) FROM corebank.auth_audit WHERE event LIKE 'client_%' AND event <> 'client_token'), 1::bigint,
          '... or an audit row');

-- List and get.
SELECT is(jsonb_array_length(corebank.auth_client_admin_list(:'aid', :'asid')), 1, 'the list holds the client');
SELECT is(corebank.auth_client_admin_list(:'aid', :'asid', 'svc-admin') ->> 'clientId', 'svc-admin',
          'one client is read by id');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_list(%L, %L, %L)', :'aid', :'asid', 'ghost'),
                 'CB404', 'No OAuth client has this id', 'an unknown id is 404');

-- Update.
SELECT is(corebank.auth_client_admin_update(:'aid', :'asid', 'svc-admin', '{kyc:validate}', NULL, NULL)
              - 'createdAt' - 'updatedAt',
          '{"clientId": "svc-admin", "name": "Service", "status": "ACTIVE", "scopes": ["kyc:validate"],
            "audiences": ["web-app"], "resetLinkBase": null, "appName": null, "secretRotatedAt": null,
            "previousSecretExpiresAt": null}'::jsonb,
          'scopes change; what was not given stays');
SELECT is(corebank.auth_client_admin_update(:'aid', :'asid', 'svc-admin', NULL, '{}', 'Renamed') -> 'audiences',
          '[]'::jsonb, 'audiences can be emptied');
SELECT is((SELECT detail FROM corebank.auth_audit WHERE event = 'client_updated' ORDER BY id LIMIT 1),
          '{"clientId": "svc-admin", "before": {"scopes": ["kyc:screen", "introspect"], "audiences": ["web-app"], "name": "Service"},
            "after": {"scopes": ["kyc:validate"], "audiences": ["web-app"], "name": "Service"}}'::jsonb,
          'an update is audited with before and after');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_update(%L, %L, %L, %L, NULL, NULL)', :'aid', :'asid',
                        'svc-admin', '{"two words"}'),
                 'CBV00', NULL, 'a scope with a space is refused');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_update(%L, %L, %L, %L, NULL, NULL)', :'aid', :'asid',
                        'ghost', '{a}'),
                 'CB404', 'No OAuth client has this id', 'updating an unknown client is 404');
SELECT is((SELECT scopes FROM corebank.auth_oauth_clients WHERE client_id = 'svc-admin'), '{kyc:validate}'::text[],
          'refused updates changed nothing');

-- Rotation: the new hash shares the current parameters and salt.
SELECT is(corebank.auth_client_admin_rotate_begin(:'aid', :'asid', 'svc-admin'),
          corebank.auth_client_auth_begin('svc-admin') -> 'argon2',
          'rotate_begin answers the parameters and salt client authentication uses');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_rotate(%L, %L, %L, %L, 60)', :'aid', :'asid', 'svc-admin',
                        replace(pg_temp.hash(12), 'c2FsdHNhbHQ', 'b3RoZXJzYWx0')),
                 'CBV00', 'secret_hash: must use the current hash''s parameters and salt', 'another salt is refused');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_rotate(%L, %L, %L, %L, 60)', :'aid', :'asid', 'svc-admin',
                        pg_temp.hash(11)),
                 'CBV00', 'secret_hash: must be a new secret', 'the same secret is refused');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_rotate(%L, %L, %L, %L, 604801)', :'aid', :'asid',
                        'svc-admin', pg_temp.hash(12)),
                 'CBV00', 'overlapSeconds: must be 0 to 604800 (7 days)', 'an overlap over 7 days is refused');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_rotate(%L, %L, %L, %L, 60)', :'wid', :'wsid', 'svc-admin',
                        pg_temp.hash(12)),
                 'CB403', NULL, 'an admin without a second factor may not rotate');
SELECT ok(corebank.auth_client_admin_rotate(:'aid', :'asid', 'svc-admin', pg_temp.hash(12), 3600)
              ->> 'previousSecretExpiresAt' IS NOT NULL, 'a rotation with an overlap says when the old secret ends');
SELECT is(corebank.auth_client_auth_finish('svc-admin', pg_temp.proof(12)), '{"outcome": "ok"}'::jsonb,
          'the new secret authenticates');
SELECT is(corebank.auth_client_auth_finish('svc-admin', pg_temp.proof(11)), '{"outcome": "ok"}'::jsonb,
          'the old secret still authenticates during the overlap');
SELECT is(corebank.auth_client_auth_finish('svc-admin', pg_temp.wrong_proof()), '{"outcome": "invalid"}'::jsonb,
          'a wrong secret is still refused');
SELECT is((SELECT failed_attempts FROM corebank.auth_login_failures WHERE identifier = 'client:svc-admin'), 1,
          '... and counted');
UPDATE corebank.auth_oauth_clients SET previous_secret_expires_at = now() - interval '1 second'
WHERE client_id = 'svc-admin';
SELECT is(corebank.auth_client_auth_finish('svc-admin', pg_temp.proof(11)), '{"outcome": "invalid"}'::jsonb,
          'after the overlap the old secret is refused');
SELECT is(corebank.auth_client_auth_finish('svc-admin', pg_temp.proof(12)), '{"outcome": "ok"}'::jsonb,
          '... and the new one authenticates');
SELECT is(corebank.auth_client_admin_list(:'aid', :'asid', 'svc-admin') -> 'previousSecretExpiresAt', 'null'::jsonb,
          'an ended overlap is not shown');
SELECT is(corebank.auth_client_admin_rotate(:'aid', :'asid', 'svc-admin', pg_temp.hash(13), 0)
              -> 'previousSecretExpiresAt', 'null'::jsonb, 'an overlap of 0 ends the old secret at once');
SELECT is(corebank.auth_client_auth_finish('svc-admin', pg_temp.proof(12)), '{"outcome": "invalid"}'::jsonb,
          '... which is refused');
SELECT is((SELECT count(*) FROM corebank.auth_audit WHERE event = 'client_secret_rotated' AND user_id = :'aid'),
          2::bigint, 'each rotation is audited');

-- Disable.
SELECT is(corebank.auth_client_admin_disable(:'aid', :'asid', 'svc-admin') ->> 'status', 'DISABLED',
          'disable answers the disabled client');
SELECT is(corebank.auth_client_auth_begin('svc-admin') ->> 'status', 'DISABLED',
          'client authentication sees it disabled (so /oauth/token refuses it)');
SELECT throws_ok(format('SELECT corebank.auth_client_admin_disable(%L, %L, %L)', :'aid', :'asid', 'svc-admin'),
                 'CB409', 'The client is already disabled', 'disabling twice is 409');
SELECT is((SELECT detail FROM corebank.auth_audit WHERE event = 'client_disabled'), '{"clientId": "svc-admin"}'::jsonb,
          'disabling is audited');
SELECT ok(NOT has_function_privilege('corebank_app', 'corebank_internal.auth_client_admin_actor(uuid, uuid, text[])',
                                     'EXECUTE'), 'the app role cannot call the actor check by itself');

SELECT * FROM finish();
ROLLBACK;
