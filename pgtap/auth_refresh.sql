-- auth_refresh.sql: corebank.auth_refresh, rotation and replay.
--
-- Goal: a refresh token is single use: using it marks it used and issues a
-- new one in the same session (same audience); presenting a used one again
-- is a replay that revokes every live session of the user; unknown, expired
-- and revoked ones are invalid; locked or inactive users answer locked.
BEGIN;
SELECT plan(24);
\ir helpers/identity.sql

SELECT corebank.auth_client_create('mobile-app', pg_temp.hash(), '{}', 'Mobile', NULL, NULL);
CREATE TEMP TABLE reg AS SELECT pg_temp.register('rot@example.com', NULL, 'r1', 'mobile-app') AS block;
CREATE TEMP TABLE u AS SELECT pg_temp.uid(block) AS id FROM reg;
SELECT pg_temp.login((SELECT id FROM u), 'other-session');

-- Rotation.
CREATE TEMP TABLE first_refresh AS
    SELECT corebank.auth_refresh(pg_temp.tok('r1'), pg_temp.tok('r2'), '10.0.0.3', 'pgtap') AS answer;
SELECT is((SELECT answer ->> 'outcome' FROM first_refresh), 'ok', 'a fresh refresh token refreshes');
SELECT is((SELECT answer -> 'tokens' ->> 'sessionId' FROM first_refresh), (SELECT block ->> 'sessionId' FROM reg),
          'the new tokens belong to the same session');
SELECT is((SELECT answer -> 'tokens' -> 'user' ->> 'id' FROM first_refresh), (SELECT id::text FROM u),
          'the token block carries the user');
SELECT is((SELECT pg_temp.jwt_part(answer -> 'tokens' ->> 'accessToken', 2) ->> 'aud' FROM first_refresh),
          'mobile-app', 'the audience (clientId) is carried over to the new access token');
SELECT isnt((SELECT used_at FROM corebank.auth_refresh_tokens WHERE token_hash = pg_temp.tok('r1')), NULL,
            'the old refresh token is marked used');
SELECT is((SELECT s.id FROM corebank.auth_refresh_tokens rt JOIN corebank.auth_sessions s ON s.id = rt.session_id
           WHERE rt.token_hash = pg_temp.tok('r2')), (SELECT (block ->> 'sessionId')::uuid FROM reg),
          'the new refresh token joins the same session');
SELECT is((SELECT expires_at FROM corebank.auth_refresh_tokens WHERE token_hash = pg_temp.tok('r2')),
          (SELECT expires_at FROM corebank.auth_sessions WHERE id = (SELECT (block ->> 'sessionId')::uuid FROM reg)),
          'the new refresh token expires with its session');
SELECT is(corebank.auth_refresh(pg_temp.tok('r2'), pg_temp.tok('r3'), NULL, NULL) ->> 'outcome', 'ok',
          'the new refresh token refreshes in turn');
SELECT is((SELECT count(*) FROM corebank.auth_audit WHERE user_id = (SELECT id FROM u) AND event = 'refresh'),
          2::bigint, 'each refresh is audited');

-- Replay: the first token again.
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 2::bigint, 'two sessions are live before the replay');
SELECT is(corebank.auth_refresh(pg_temp.tok('r1'), pg_temp.tok('r4'), NULL, NULL), '{"outcome": "replayed"}'::jsonb,
          'a used refresh token presented again is a replay');
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 0::bigint, 'a replay revokes every session of the user');
SELECT is((SELECT count(*) FROM corebank.auth_sessions WHERE user_id = (SELECT id FROM u)
           AND revoked_reason = 'refresh_replay'), 2::bigint, 'the sessions are revoked with reason refresh_replay');
SELECT is((SELECT count(*) FROM corebank.auth_refresh_tokens WHERE token_hash = pg_temp.tok('r4')), 0::bigint,
          'a replay issues no refresh token');
SELECT is(corebank.auth_refresh(pg_temp.tok('r3'), pg_temp.tok('r5'), NULL, NULL), '{"outcome": "invalid"}'::jsonb,
          'the latest token of a revoked session is invalid');
SELECT is((SELECT count(*) FROM corebank.auth_audit WHERE user_id = (SELECT id FROM u) AND event = 'replay'),
          1::bigint, 'the replay is audited');

-- Unknown and expired tokens.
SELECT is(corebank.auth_refresh(pg_temp.tok('never-issued'), pg_temp.tok('r6'), NULL, NULL),
          '{"outcome": "invalid"}'::jsonb, 'an unknown refresh token is invalid');
SELECT pg_temp.register('expired@example.com', NULL, 'e1');
UPDATE corebank.auth_refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = pg_temp.tok('e1');
SELECT is(corebank.auth_refresh(pg_temp.tok('e1'), pg_temp.tok('e2'), NULL, NULL), '{"outcome": "invalid"}'::jsonb,
          'an expired refresh token is invalid');
SELECT is((SELECT used_at FROM corebank.auth_refresh_tokens WHERE token_hash = pg_temp.tok('e1')), NULL,
          'an expired refresh token is not consumed');

-- Locked and deactivated users.
SELECT pg_temp.register('locked-refresh@example.com', NULL, 'l1');
UPDATE corebank.auth_users SET locked_until = now() + interval '10 minutes' WHERE email = 'locked-refresh@example.com';
SELECT is(corebank.auth_refresh(pg_temp.tok('l1'), pg_temp.tok('l2'), NULL, NULL), '{"outcome": "locked"}'::jsonb,
          'a locked user cannot refresh');
UPDATE corebank.auth_users SET locked_until = NULL, status = 'SUSPENDED' WHERE email = 'locked-refresh@example.com';
SELECT is(corebank.auth_refresh(pg_temp.tok('l1'), pg_temp.tok('l2'), NULL, NULL), '{"outcome": "locked"}'::jsonb,
          'a suspended user cannot refresh');
SELECT is((SELECT used_at FROM corebank.auth_refresh_tokens WHERE token_hash = pg_temp.tok('l1')), NULL,
          'a refused refresh does not consume the token');

-- Input checks.
SELECT throws_ok($$SELECT corebank.auth_refresh(pg_temp.tok('x'), pg_temp.tok('x'), NULL, NULL)$$, 'CBV00',
                 'new_refresh_token_hash: must differ from refresh_token_hash', 'the new token must differ');
SELECT throws_ok($$SELECT corebank.auth_refresh(NULL, pg_temp.tok('x'), NULL, NULL)$$, 'CBV00',
                 'refresh_token_hash: is required', 'the token is required');

SELECT * FROM finish();
ROLLBACK;
