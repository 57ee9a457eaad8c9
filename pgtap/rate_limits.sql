-- rate_limits.sql: login attempts per identifier, reset requests per IP.
--
-- Goal: the limit+1-th login attempt for one identifier answers
-- rate_limited, whatever its spelling (case, '+'), while other identifiers
-- are unaffected; the limit+1-th forgot request from one IP is rate limited
-- while another IP is not; the counters persist (outcomes, not errors).
-- Method: small limits via SET LOCAL; the transaction's now() keeps every
-- hit in one window.
BEGIN;
SELECT plan(14);
\ir helpers/identity.sql

SET LOCAL corebank.login_rate_limit = 3;
SET LOCAL corebank.reset_rate_limit = 2;

SELECT pg_temp.register('rate@example.com', '+263772220000', 'rate-0');

-- Login per identifier.
SELECT is(corebank.auth_login_begin('email', 'rate@example.com', NULL) ->> 'outcome', 'proceed',
          'login attempt ' || n || ' of 3 proceeds')
FROM generate_series(1, 3) AS n;
SELECT is(corebank.auth_login_begin('email', 'RATE@example.com ', NULL), '{"outcome": "rate_limited"}'::jsonb,
          'the 4th attempt for the same (normalised) email is rate limited');
SELECT is(corebank.auth_login_begin('email', 'nobody@example.com', NULL) ->> 'outcome', 'unknown',
          'another identifier has its own budget');
SELECT is((SELECT hits FROM corebank.auth_rate_counters WHERE bucket = 'login' AND key = 'email:rate@example.com'),
          4, 'the counter records every attempt, the refused one included');

SELECT corebank.auth_login_begin('phone', '263772220000', NULL) FROM generate_series(1, 3);
SELECT is(corebank.auth_login_begin('phone', '+263772220000', NULL), '{"outcome": "rate_limited"}'::jsonb,
          'a phone with and without + shares one budget');

-- Reset per IP.
SELECT is(corebank.auth_password_forgot('rate@example.com', NULL, '192.0.2.1', pg_temp.tok('reset-' || n)) ->> 'rateLimited',
          'false', 'reset request ' || n || ' of 2 from one IP is served')
FROM generate_series(1, 2) AS n;
SELECT is(corebank.auth_password_forgot('other@example.com', NULL, '192.0.2.1', pg_temp.tok('reset-3')),
          '{"rateLimited": true}'::jsonb, 'the 3rd request from the same IP is rate limited');
SELECT is((SELECT count(*) FROM corebank.auth_reset_tokens WHERE token_hash = pg_temp.tok('reset-3')), 0::bigint,
          'a rate-limited request stores no reset token');
SELECT is(corebank.auth_password_forgot('rate@example.com', NULL, '192.0.2.2', pg_temp.tok('reset-4')) ->> 'rateLimited',
          'false', 'another IP is not limited');

-- The internal counter.
SELECT is(ARRAY(SELECT corebank_internal.rate_hit('test', 'k', 2, 60) FROM generate_series(1, 3)),
          ARRAY[true, true, false], 'rate_hit allows hit_limit hits per window, then refuses');
SELECT throws_ok($$SELECT corebank_internal.rate_hit('test', 'k', 0, 60)$$, 'CBV00', 'hit_limit: must be positive',
                 'rate_hit refuses a non-positive limit');

SELECT * FROM finish();
ROLLBACK;
