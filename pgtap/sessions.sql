-- sessions.sql: me, sessions list, logout, logout all, password change,
-- deactivation.
--
-- Goal: a user sees only their live sessions, newest first; logout revokes
-- one of their own sessions (another user's is "not found"); logout-all,
-- password change and deactivation revoke every live session; a deactivated
-- account has no password hash to verify against.
BEGIN;
SELECT plan(23);
\ir helpers/identity.sql

CREATE TEMP TABLE reg AS SELECT pg_temp.register('me@example.com', NULL, 's0') AS block;
CREATE TEMP TABLE u AS SELECT pg_temp.uid(block) AS id FROM reg;
SELECT pg_temp.login((SELECT id FROM u), 's1');
CREATE TEMP TABLE newest AS SELECT (pg_temp.login((SELECT id FROM u), 's2') -> 'tokens' ->> 'sessionId')::uuid AS id;
CREATE TEMP TABLE other AS SELECT pg_temp.register('other@example.com', NULL, 'o0') AS block;

-- me
SELECT is(corebank.auth_me((SELECT id FROM u)) - ARRAY['id', 'createdAt'],
          '{"email": "me@example.com", "phone": null, "firstName": "Test", "lastName": "User", "kycTier": "NONE", "roles": ["customer"], "status": "ACTIVE", "branchCode": null, "emailVerified": false, "phoneVerified": false}'::jsonb,
          'auth_me answers the user object with status and branchCode');
SELECT is(corebank.auth_me((SELECT id FROM u)) ->> 'createdAt' IS NOT NULL, true, 'auth_me includes createdAt');
SELECT throws_ok($$SELECT corebank.auth_me(gen_random_uuid())$$, 'CB404', 'User not found', 'an unknown user is not found');

-- sessions list
SELECT is(jsonb_array_length(corebank.auth_sessions_list((SELECT id FROM u))), 3, 'three live sessions are listed');
SELECT is(corebank.auth_sessions_list((SELECT id FROM u)) -> 0 ->> 'id', (SELECT id::text FROM newest),
          'the newest session comes first');
SELECT is((SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(corebank.auth_sessions_list((SELECT id FROM u)) -> 0) AS k),
          ARRAY['audience', 'channel', 'createdAt', 'expiresAt', 'id', 'ip', 'lastUsedAt', 'userAgent'],
          'a listed session has the contract fields');
SELECT is((corebank.auth_sessions_list((SELECT id FROM u)) -> 0) - ARRAY['id', 'createdAt', 'lastUsedAt', 'expiresAt'],
          '{"channel": "mobile", "ip": "10.0.0.2", "userAgent": "pgtap", "audience": "corebank"}'::jsonb,
          'a listed session shows channel, ip, user agent and audience');
SELECT is(corebank.auth_sessions_list(gen_random_uuid()), '[]'::jsonb, 'a user without sessions has an empty list');

-- logout
SELECT throws_ok($$SELECT corebank.auth_logout((SELECT pg_temp.uid(block) FROM other), (SELECT id FROM newest))$$,
                 'CB404', 'Session not found', 'another user''s session is not found');
SELECT throws_ok($$SELECT corebank.auth_logout((SELECT id FROM u), gen_random_uuid())$$,
                 'CB404', 'Session not found', 'an unknown session is not found');
SELECT lives_ok($$SELECT corebank.auth_logout((SELECT id FROM u), (SELECT id FROM newest))$$, 'a user logs out a session');
SELECT is((SELECT revoked_reason FROM corebank.auth_sessions WHERE id = (SELECT id FROM newest)), 'logout',
          'the session is revoked with reason logout');
SELECT lives_ok($$SELECT corebank.auth_logout((SELECT id FROM u), (SELECT id FROM newest))$$,
                'logging out a revoked session again is a no-op');
SELECT is(jsonb_array_length(corebank.auth_sessions_list((SELECT id FROM u))), 2, 'a revoked session is not listed');

-- logout all
SELECT is(corebank.auth_logout_all((SELECT id FROM u)), 2, 'logout all answers how many sessions it revoked');
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 0::bigint, 'logout all leaves no live session');
SELECT is(pg_temp.live_sessions((SELECT pg_temp.uid(block) FROM other)), 1::bigint, 'other users keep their sessions');

-- password change
SELECT pg_temp.login((SELECT id FROM u), 's3');
SELECT pg_temp.login((SELECT id FROM u), 's4');
SELECT lives_ok($$SELECT corebank.auth_password_change((SELECT id FROM u), pg_temp.hash(5))$$, 'a password change succeeds');
SELECT is((SELECT password_hash FROM corebank.auth_users WHERE id = (SELECT id FROM u)), pg_temp.hash(5),
          'the new hash is current');
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 0::bigint, 'a password change revokes every session');

-- deactivate
SELECT pg_temp.login((SELECT id FROM u), 's5');
SELECT corebank.auth_deactivate((SELECT id FROM u));
SELECT is((SELECT status FROM corebank.auth_users WHERE id = (SELECT id FROM u)), 'DEACTIVATED',
          'deactivation sets the status');
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 0::bigint, 'deactivation revokes every session');
SELECT is(corebank.auth_password_reenter_begin((SELECT id FROM u)), '{"outcome": "locked"}'::jsonb,
          'a deactivated account has no password to re-enter against');

SELECT * FROM finish();
ROLLBACK;
