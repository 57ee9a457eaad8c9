-- auth_guessing.sql: every secret guess is counted (issue 13, online guessing).
--
-- Goal: OAuth client authentication counts wrong secrets per client id in
-- corebank.auth_login_failures ('client:<id>'), locks the id on the 5th
-- consecutive one for 30 minutes (the right secret is then refused too), a
-- right secret resets the count, an unknown id is counted and locked alike
-- (same answers), the lock expires by itself; a password re-entered by
-- change or deactivate is a failed login of its user (the auth_users counter
-- and lock that login uses, shared with login), a locked user is refused
-- before any hash is handed out, and re-entry counts against the login rate
-- limit per user. Method: the SQL faces in one transaction (now() is fixed),
-- the rows read directly, expiry by moving timestamps.
BEGIN;
SELECT plan(40);
\ir helpers/identity.sql

/*---- clients ----*/

SELECT corebank.auth_client_create('guess-svc', pg_temp.hash(7), '{kyc:screen}', 'Guess', NULL, NULL);

SELECT is(corebank.auth_client_auth_begin('guess-svc'),
          jsonb_build_object('outcome', 'proceed', 'clientId', 'guess-svc', 'status', 'ACTIVE',
                             'scopes', '["kyc:screen"]'::jsonb, 'audiences', '[]'::jsonb,
                             'argon2', '{"m": 19456, "t": 2, "p": 1, "salt": "c2FsdHNhbHQ"}'::jsonb),
          'begin answers the status, scopes, audiences and hash parameters (never the hash) of a client that is not locked');
SELECT is(corebank.auth_client_auth_finish('guess-svc', pg_temp.wrong_proof()), '{"outcome": "invalid"}'::jsonb,
          'wrong secret ' || n || ' answers invalid')
FROM generate_series(1, 4) AS n;
SELECT is((SELECT (failed_attempts, locked_until) FROM corebank.auth_login_failures WHERE identifier = 'client:guess-svc'),
          (4, NULL::timestamptz), 'four wrong secrets are counted under client:<id>, not locked');
SELECT is(corebank.auth_client_auth_finish('guess-svc', pg_temp.proof(7)), '{"outcome": "ok"}'::jsonb,
          'the right secret after four wrong ones answers ok');
SELECT is((SELECT failed_attempts FROM corebank.auth_login_failures WHERE identifier = 'client:guess-svc'),
          0, 'and resets the count');

SELECT corebank.auth_client_auth_finish('guess-svc', pg_temp.wrong_proof()) FROM generate_series(1, 4);
SELECT is(corebank.auth_client_auth_finish('guess-svc', pg_temp.wrong_proof()), '{"outcome": "invalid"}'::jsonb,
          'the 5th consecutive wrong secret still answers invalid');
SELECT is((SELECT (failed_attempts, locked_until) FROM corebank.auth_login_failures WHERE identifier = 'client:guess-svc'),
          (0, now() + interval '30 minutes'), 'and locks the client id for 30 minutes');
SELECT is(corebank.auth_client_auth_begin('guess-svc'), '{"outcome": "locked"}'::jsonb,
          'a locked client is refused before any hash is handed out');
SELECT is(corebank.auth_client_auth_finish('guess-svc', pg_temp.proof(7)), '{"outcome": "locked"}'::jsonb,
          'even the right secret is refused while locked');
SELECT is(corebank.auth_client_auth_finish('guess-svc', pg_temp.wrong_proof()), '{"outcome": "locked"}'::jsonb,
          'a wrong one while locked answers locked');
SELECT is((SELECT array_agg(event ORDER BY id) FROM corebank.auth_audit
           WHERE detail ->> 'clientId' = 'guess-svc' AND event IN ('login_failed', 'locked')),
          '{login_failed,login_failed,login_failed,login_failed,login_failed,login_failed,login_failed,login_failed,login_failed,locked}'::text[],
          'each counted failure of a real client is audited, and the lock');

-- An id no client has: counted and locked alike, so the answers never tell.
SELECT is(corebank.auth_client_auth_begin('ghost-svc') - 'argon2', '{"outcome": "proceed"}'::jsonb,
          'an unknown id proceeds (to hashing under its own salt) with no client row');
SELECT is(corebank.auth_client_auth_finish('ghost-svc', pg_temp.wrong_proof()), '{"outcome": "invalid"}'::jsonb,
          'unknown id attempt ' || n || ' answers invalid')
FROM generate_series(1, 5) AS n;
SELECT is(corebank.auth_client_auth_begin('ghost-svc'), corebank.auth_client_auth_begin('guess-svc'),
          'a locked unknown id and a locked real client answer the same');
SELECT is((SELECT count(*) FROM corebank.auth_audit WHERE detail ->> 'clientId' = 'ghost-svc'), 0::bigint,
          'made-up ids leave no audit rows');

-- The lock expires by itself, and the count starts again.
UPDATE corebank.auth_login_failures SET locked_until = now() - interval '1 second'
WHERE identifier = 'client:guess-svc';
SELECT is(corebank.auth_client_auth_begin('guess-svc') ->> 'outcome', 'proceed',
          'after the lock expires the client proceeds');
SELECT is(corebank.auth_client_auth_finish('guess-svc', pg_temp.proof(7)), '{"outcome": "ok"}'::jsonb,
          'and its right secret answers ok');

SELECT throws_ok($$SELECT corebank.auth_client_auth_begin(repeat('x', 101))$$, 'CBV00', NULL,
                 'an id longer than any client id can be is refused');

/*---- re-entered passwords ----*/

SELECT pg_temp.register('reenter@example.com', NULL, 'reenter-0');
CREATE TEMP TABLE u AS SELECT id FROM corebank.auth_users WHERE email = 'reenter@example.com';

SELECT is(corebank.auth_password_reenter_begin((SELECT id FROM u)),
          '{"outcome": "proceed", "argon2": {"m": 19456, "t": 2, "p": 1, "salt": "c2FsdHNhbHQ"}}'::jsonb,
          'begin answers the hash parameters (never the hash) of an active, unlocked user');
SELECT is(corebank.auth_password_reenter_finish((SELECT id FROM u), pg_temp.wrong_proof(), '10.0.0.7'), '{"outcome": "invalid"}'::jsonb,
          'a wrong re-entered password ' || n || ' answers invalid')
FROM generate_series(1, 4) AS n;
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM u)), 4,
          'four wrong re-entered passwords count as four failed logins');
SELECT is(corebank.auth_password_reenter_finish((SELECT id FROM u), pg_temp.proof(), '10.0.0.7'), '{"outcome": "ok"}'::jsonb,
          'the right one answers ok');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM u)), 0,
          'and resets the counter, as a successful login does');

-- Login and re-entry share the counter: 3 wrong logins + 2 wrong re-entries lock.
SELECT corebank.auth_login_finish((SELECT id FROM u), pg_temp.wrong_proof(), NULL, 'web', '10.0.0.7', 'pgtap', NULL)
FROM generate_series(1, 3);
SELECT corebank.auth_password_reenter_finish((SELECT id FROM u), pg_temp.wrong_proof(), '10.0.0.7') FROM generate_series(1, 2);
SELECT is((SELECT locked_until FROM corebank.auth_users WHERE id = (SELECT id FROM u)), now() + interval '30 minutes',
          'three wrong logins and two wrong re-entered passwords lock the account for 30 minutes');
SELECT is(corebank.auth_login_begin('email', 'reenter@example.com', NULL), '{"outcome": "locked"}'::jsonb,
          'login then answers locked');
SELECT is(corebank.auth_password_reenter_begin((SELECT id FROM u)), '{"outcome": "locked"}'::jsonb,
          'a locked user gets no hash to re-enter against');
SELECT is(corebank.auth_password_reenter_finish((SELECT id FROM u), pg_temp.proof(), '10.0.0.7'), '{"outcome": "locked"}'::jsonb,
          'even the right password is refused while locked');
SELECT is((SELECT count(*) FROM corebank.auth_audit
           WHERE user_id = (SELECT id FROM u) AND detail ->> 'reason' = 'reentered_password'
             AND event IN ('login_failed', 'locked')), 7::bigint,
          'each wrong re-entered password is audited as a failed login, and the lock');

-- Rate limit: the login limit, per user.
SELECT pg_temp.register('reenter-rate@example.com', NULL, 'reenter-1');
SET LOCAL corebank.login_rate_limit = 2;
SELECT corebank.auth_password_reenter_begin(id) FROM corebank.auth_users, generate_series(1, 2)
WHERE email = 'reenter-rate@example.com';
SELECT is(corebank.auth_password_reenter_begin(id), '{"outcome": "rate_limited"}'::jsonb,
          'the re-entry past the login rate limit answers rate_limited')
FROM corebank.auth_users WHERE email = 'reenter-rate@example.com';
SELECT is((SELECT hits FROM corebank.auth_rate_counters
           WHERE bucket = 'reenter' AND key = 'user:' || (SELECT id FROM corebank.auth_users
                                                           WHERE email = 'reenter-rate@example.com')),
          3, 'the counter records every re-entry, per user');

SELECT * FROM finish();
ROLLBACK;
