-- auth_login_unknown.sql: lockout that never reveals an account (issue 13).
--
-- Goal: an identifier no account has fails like a real account with a wrong
-- password: the first four attempts answer unknown (the tier: 401), the 5th
-- still answers unknown and locks it for 30 minutes, the next attempts answer
-- locked (the tier: 403 ACCOUNT_LOCKED), exactly what a locked account
-- answers; the lock expires by itself; email and phone are normalised as for
-- a real account; auth_maintenance drops only rows that count nothing.
-- Method: auth_login_begin in one transaction (now() is fixed), the rows of
-- corebank.auth_login_failures read directly, expiry by moving timestamps.
BEGIN;
SELECT plan(15);
\ir helpers/identity.sql

SELECT is(corebank.auth_login_begin('email', 'ghost@example.com', NULL) ->> 'outcome', 'unknown',
          'unknown attempt ' || n || ' answers unknown')
FROM generate_series(1, 4) AS n;
SELECT is((SELECT failed_attempts FROM corebank.auth_login_failures WHERE identifier = 'email:ghost@example.com'),
          4, 'four attempts on an unknown email are counted, under its normalised key');
SELECT is((SELECT locked_until FROM corebank.auth_login_failures WHERE identifier = 'email:ghost@example.com'),
          NULL, 'four attempts do not lock');
SELECT is(corebank.auth_login_begin('email', 'ghost@example.com', NULL) ->> 'outcome', 'unknown',
          'the 5th attempt still answers unknown');
SELECT is((SELECT (failed_attempts, locked_until) FROM corebank.auth_login_failures
           WHERE identifier = 'email:ghost@example.com'),
          (0, now() + interval '30 minutes'), 'the 5th attempt locks the unknown email for 30 minutes');
SELECT is(corebank.auth_login_begin('email', '  GHOST@Example.COM', NULL), '{"outcome": "locked"}'::jsonb,
          'the 6th attempt (any case, untrimmed) answers locked');

-- The same answer as a real account locked by five wrong passwords.
SELECT pg_temp.register('real-locked@example.com', NULL, 'unknown-1');
SELECT corebank.auth_login_finish(id, pg_temp.wrong_proof(), NULL, 'web', '10.0.0.9', 'pgtap', NULL)
FROM corebank.auth_users, generate_series(1, 5) WHERE email = 'real-locked@example.com';
SELECT is(corebank.auth_login_begin('email', 'real-locked@example.com', NULL),
          corebank.auth_login_begin('email', 'ghost@example.com', NULL),
          'a locked account and a locked unknown email answer the same');

-- Phones: with or without '+' is one identifier, and not the email's.
SELECT corebank.auth_login_begin('phone', '+263770000123', NULL) FROM generate_series(1, 5);
SELECT is(corebank.auth_login_begin('phone', '263770000123', NULL), '{"outcome": "locked"}'::jsonb,
          'five attempts on an unknown phone lock it, with or without +');
SELECT is(corebank.auth_login_begin('email', 'other-ghost@example.com', NULL) ->> 'outcome', 'unknown',
          'another unknown email is not locked by them');

-- The lock expires by itself, and counting starts again.
UPDATE corebank.auth_login_failures SET locked_until = now() - interval '1 second'
WHERE identifier = 'email:ghost@example.com';
SELECT is(corebank.auth_login_begin('email', 'ghost@example.com', NULL) ->> 'outcome', 'unknown',
          'after the lock expires the unknown email answers unknown again');
SELECT is((SELECT (failed_attempts, locked_until) FROM corebank.auth_login_failures
           WHERE identifier = 'email:ghost@example.com'),
          (1, NULL::timestamptz), 'and that attempt is the first of a new count');

-- Maintenance drops rows that count nothing, or untouched for 30 days, never a live lock.
INSERT INTO corebank.auth_login_failures (identifier, failed_attempts, locked_until, updated_at) VALUES
    ('email:spent@example.com', 0, now() - interval '1 minute', now() - interval '31 minutes'),
    ('email:old@example.com', 3, NULL, now() - interval '31 days'),
    ('email:recent@example.com', 3, NULL, now() - interval '29 days');
SELECT corebank.auth_maintenance();
SELECT is((SELECT array_agg(identifier ORDER BY identifier) FROM corebank.auth_login_failures
           WHERE identifier IN ('email:spent@example.com', 'email:old@example.com', 'email:recent@example.com',
                                'phone:263770000123')),
          '{email:recent@example.com,phone:263770000123}'::text[],
          'maintenance keeps counting rows and live locks, and drops spent or 30-day-old ones');

SELECT * FROM finish();
ROLLBACK;
