-- auth_login.sql: corebank.auth_login_begin and corebank.auth_login_finish.
--
-- Goal: begin resolves the identifier (email case-insensitively, phone with
-- or without '+') and answers unknown / locked / proceed; finish compares the
-- proof (pgtap/auth_password_proof.sql tests the proof itself) and applies the
-- lockout rule: exactly the 5th consecutive failure locks for 30 minutes
-- (still answering invalid), the next attempts answer locked even with the
-- right password, a success resets the counter, the lock expires by itself,
-- deactivated accounts answer locked, and suspended ones only after the password.
BEGIN;
SELECT plan(33);
\ir helpers/identity.sql

SELECT pg_temp.register('lock@example.com', '+263771110000', 'login-0');
CREATE TEMP TABLE u AS SELECT id FROM corebank.auth_users WHERE email = 'lock@example.com';

-- begin
SELECT is(corebank.auth_login_begin('email', 'nobody@example.com', NULL) ->> 'outcome', 'unknown',
          'an unknown email answers unknown');
SELECT is(corebank.auth_login_begin('email', ' LOCK@Example.com', NULL),
          jsonb_build_object('outcome', 'proceed', 'userId', (SELECT id FROM u),
                             'argon2', '{"m": 19456, "t": 2, "p": 1, "salt": "c2FsdHNhbHQ"}'::jsonb),
          'a known email (any case, untrimmed) answers proceed with the user id and the hash''s parameters and salt');
SELECT is(corebank.auth_login_begin('phone', '263771110000', NULL) ->> 'userId', (SELECT id::text FROM u),
          'the phone without + finds the account');
SELECT is(corebank.auth_login_begin('phone', '+263771110000', NULL) ->> 'userId', (SELECT id::text FROM u),
          'the phone with + finds the account');
SELECT throws_ok($$SELECT corebank.auth_login_begin('email', 'lock@example.com', 'no-such-client')$$,
                 'CB400', 'Unknown clientId', 'begin refuses an unknown clientId');
SELECT throws_ok($$SELECT corebank.auth_login_begin('username', 'lock', NULL)$$,
                 'CBV00', 'identifier_kind: must be email or phone', 'begin refuses an unknown identifier kind');
SELECT throws_ok($$SELECT corebank.auth_login_begin('email', NULL, NULL)$$,
                 'CBV00', 'identifier: is required', 'begin requires an identifier');

-- finish: four failures, then a success resets the counter.
SELECT is(corebank.auth_login_finish((SELECT id FROM u), pg_temp.wrong_proof(), NULL, 'web', '10.0.0.9', 'pgtap', NULL),
          '{"outcome": "invalid"}'::jsonb, 'failure 1 answers invalid');
SELECT corebank.auth_login_finish((SELECT id FROM u), pg_temp.wrong_proof(), NULL, 'web', '10.0.0.9', 'pgtap', NULL)
FROM generate_series(2, 4);
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM u)), 4,
          'four consecutive failures are counted');
SELECT is(pg_temp.login((SELECT id FROM u), 'login-1') ->> 'outcome', 'ok', 'the right password still logs in');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM u)), 0,
          'a successful login resets the counter');

-- Lockout at exactly 5 consecutive failures.
SELECT is(corebank.auth_login_finish((SELECT id FROM u), pg_temp.wrong_proof(), NULL, 'web', '10.0.0.9', 'pgtap', NULL),
          '{"outcome": "invalid"}'::jsonb, 'failure ' || n || ' answers invalid')
FROM generate_series(1, 4) AS n;
SELECT is((SELECT locked_until FROM corebank.auth_users WHERE id = (SELECT id FROM u)), NULL,
          'four failures do not lock');
SELECT is(corebank.auth_login_finish((SELECT id FROM u), pg_temp.wrong_proof(), NULL, 'web', '10.0.0.9', 'pgtap', NULL),
          '{"outcome": "invalid"}'::jsonb, 'the 5th failure still answers invalid');
SELECT is((SELECT locked_until FROM corebank.auth_users WHERE id = (SELECT id FROM u)),
          now() + interval '30 minutes', 'the 5th failure locks the account for 30 minutes');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM u)), 0,
          'locking resets the counter');
SELECT is(corebank.auth_login_begin('email', 'lock@example.com', NULL), '{"outcome": "locked"}'::jsonb,
          'begin answers locked while locked');
SELECT is(pg_temp.login((SELECT id FROM u), 'login-2'), '{"outcome": "locked"}'::jsonb,
          'the 6th attempt answers locked even with the right password');
SELECT is(corebank.auth_login_finish((SELECT id FROM u), pg_temp.wrong_proof(), NULL, 'web', '10.0.0.9', 'pgtap', NULL),
          '{"outcome": "locked"}'::jsonb, 'a wrong password while locked answers locked');
SELECT is((SELECT count(*) FROM corebank.auth_refresh_tokens WHERE token_hash = pg_temp.tok('login-2')), 0::bigint,
          'a locked login creates no refresh token');
SELECT is((SELECT count(*) FROM corebank.auth_audit WHERE user_id = (SELECT id FROM u) AND event = 'locked'),
          1::bigint, 'the lock is audited once');

-- The lock expires by itself (simulated by moving it into the past).
UPDATE corebank.auth_users SET locked_until = now() - interval '1 second' WHERE id = (SELECT id FROM u);
SELECT is(corebank.auth_login_begin('email', 'lock@example.com', NULL) ->> 'outcome', 'proceed',
          'begin answers proceed once the lock has expired');
SELECT is(pg_temp.login((SELECT id FROM u), 'login-3') ->> 'outcome', 'ok',
          'login succeeds once the lock has expired');
SELECT is((SELECT locked_until FROM corebank.auth_users WHERE id = (SELECT id FROM u)), NULL,
          'a successful login clears the expired lock');

-- Deactivated and suspended accounts answer locked.
UPDATE corebank.auth_users SET status = 'DEACTIVATED' WHERE id = (SELECT id FROM u);
SELECT is(corebank.auth_login_begin('email', 'lock@example.com', NULL), '{"outcome": "locked"}'::jsonb,
          'begin answers locked for a deactivated account');
SELECT is(pg_temp.login((SELECT id FROM u), 'login-4'), '{"outcome": "locked"}'::jsonb,
          'finish answers locked for a deactivated account, right password or not');
UPDATE corebank.auth_users SET status = 'SUSPENDED' WHERE id = (SELECT id FROM u);
-- A suspended account proves the password first: finish tells it of the
-- suspension only after the right one (auth_suspension.sql).
SELECT is(corebank.auth_login_begin('email', 'lock@example.com', NULL) ->> 'outcome', 'proceed',
          'begin lets a suspended account prove its password');

-- Other finish inputs.
SELECT is(pg_temp.login(gen_random_uuid(), 'login-5'), '{"outcome": "invalid"}'::jsonb,
          'an unknown user id answers invalid');
SELECT throws_ok($$SELECT pg_temp.login((SELECT id FROM u), 'login-6', 'no-such-client')$$,
                 'CB400', 'Unknown clientId', 'finish refuses an unknown clientId');
SELECT pg_temp.register('fresh@example.com', NULL, 'login-7');
SELECT throws_ok($$SELECT corebank.auth_login_finish((SELECT id FROM corebank.auth_users WHERE email = 'fresh@example.com'),
                                                     pg_temp.proof(), NULL, NULL, NULL, NULL, NULL)$$,
                 'CBV00', 'refresh_token_hash: is required', 'a successful finish needs the refresh token hash');

SELECT * FROM finish();
ROLLBACK;
