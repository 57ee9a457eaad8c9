-- session_cap.sql: at most 3 live sessions per user.
--
-- Goal: a 4th login revokes the oldest live session (reason session_cap),
-- leaving exactly 3 live, the newest ones; further logins keep it at 3;
-- expired or revoked sessions do not count.
BEGIN;
SELECT plan(10);
\ir helpers/identity.sql

SELECT pg_temp.register('cap@example.com', NULL, 'cap-0');
CREATE TEMP TABLE u AS SELECT id FROM corebank.auth_users WHERE email = 'cap@example.com';
CREATE TEMP TABLE first_session AS
    SELECT s.id FROM corebank.auth_sessions s WHERE s.user_id = (SELECT id FROM u);

SELECT pg_temp.login((SELECT id FROM u), 'cap-1');
SELECT pg_temp.login((SELECT id FROM u), 'cap-2');
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 3::bigint, 'three sessions are live after three logins');

SELECT is(pg_temp.login((SELECT id FROM u), 'cap-3') ->> 'outcome', 'ok', 'the 4th login succeeds');
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 3::bigint, 'exactly 3 sessions are live after the 4th login');
SELECT is((SELECT revoked_reason FROM corebank.auth_sessions WHERE id = (SELECT id FROM first_session)),
          'session_cap', 'the oldest session was revoked by the cap');
SELECT set_eq(
    $$SELECT rt.token_hash FROM corebank.auth_refresh_tokens rt
      JOIN corebank.auth_sessions s ON s.id = rt.session_id
      WHERE s.user_id = (SELECT id FROM u) AND s.revoked_at IS NULL$$,
    $$VALUES (pg_temp.tok('cap-1')), (pg_temp.tok('cap-2')), (pg_temp.tok('cap-3'))$$,
    'the three newest sessions are the live ones');

SELECT pg_temp.login((SELECT id FROM u), 'cap-' || n) FROM generate_series(4, 7) AS n;
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 3::bigint, 'more logins keep exactly 3 live');
SELECT is((SELECT count(*) FROM corebank.auth_sessions
           WHERE user_id = (SELECT id FROM u) AND revoked_reason = 'session_cap'), 5::bigint,
          'each login past the cap revoked one session');

-- A refresh of a capped session is refused.
SELECT is(corebank.auth_refresh(pg_temp.tok('cap-0'), pg_temp.tok('cap-0b'), NULL, NULL),
          '{"outcome": "invalid"}'::jsonb, 'the refresh token of a capped session is invalid');

-- Expired sessions do not count against the cap.
UPDATE corebank.auth_sessions SET expires_at = now() - interval '1 second'
WHERE user_id = (SELECT id FROM u) AND revoked_at IS NULL;
SELECT pg_temp.login((SELECT id FROM u), 'cap-8');
SELECT is(pg_temp.live_sessions((SELECT id FROM u)), 1::bigint, 'expired sessions are not live');
SELECT is((SELECT count(*) FROM corebank.auth_sessions
           WHERE user_id = (SELECT id FROM u) AND revoked_reason = 'session_cap'), 5::bigint,
          'expired sessions are not revoked by the cap');

SELECT * FROM finish();
ROLLBACK;
