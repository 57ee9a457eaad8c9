-- maintenance.sql: corebank.auth_maintenance.
--
-- Goal: expired access tokens, ended rate windows, used or expired reset
-- tokens and expired refresh tokens are pruned; live ones are kept; a signing
-- key exists afterwards.
BEGIN;
SELECT plan(8);
\ir helpers/identity.sql

CREATE TEMP TABLE reg AS SELECT pg_temp.register('maint@example.com', NULL, 'm0') AS block;
CREATE TEMP TABLE u AS SELECT pg_temp.uid(block) AS id FROM reg;
SELECT pg_temp.login((SELECT id FROM u), 'm1');
UPDATE corebank.auth_access_tokens SET issued_at = now() - interval '1 hour', expires_at = now() - interval '1 minute'
WHERE jti = (SELECT (pg_temp.jwt_part(block ->> 'accessToken', 2) ->> 'jti')::uuid FROM reg);
UPDATE corebank.auth_refresh_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = pg_temp.tok('m0');
INSERT INTO corebank.auth_rate_counters VALUES ('login', 'old', now() - interval '2 days', 3),
                                               ('login', 'current', now(), 1);
SELECT corebank.auth_password_forgot('maint@example.com', NULL, '192.0.2.9', pg_temp.tok('reset-used'));
SELECT corebank.auth_password_forgot('maint@example.com', NULL, '192.0.2.9', pg_temp.tok('reset-live'));
UPDATE corebank.auth_reset_tokens SET used_at = now() WHERE token_hash = pg_temp.tok('reset-used');

CREATE TEMP TABLE report AS SELECT corebank.auth_maintenance() AS r;
SELECT is((SELECT r - 'signingKey' FROM report),
          '{"accessTokensPruned": 1, "rateCountersPruned": 1, "resetTokensPruned": 1, "refreshTokensPruned": 1}'::jsonb,
          'maintenance reports what it pruned');
SELECT is((SELECT r ->> 'signingKey' FROM report), (SELECT kid FROM corebank.auth_signing_keys WHERE retired_at IS NULL),
          'maintenance answers the active signing key');
SELECT is((SELECT count(*) FROM corebank.auth_access_tokens WHERE user_id = (SELECT id FROM u)), 1::bigint,
          'the live access token is kept');
SELECT is((SELECT count(*) FROM corebank.auth_refresh_tokens WHERE token_hash = pg_temp.tok('m1')), 1::bigint,
          'the live refresh token is kept');
SELECT is((SELECT array_agg(key) FROM corebank.auth_rate_counters WHERE bucket = 'login'), '{current}'::text[],
          'the current rate window is kept');
SELECT is((SELECT count(*) FROM corebank.auth_reset_tokens WHERE token_hash = pg_temp.tok('reset-live')), 1::bigint,
          'the unused reset token is kept');
SELECT is(corebank.auth_maintenance() - 'signingKey',
          '{"accessTokensPruned": 0, "rateCountersPruned": 0, "resetTokensPruned": 0, "refreshTokensPruned": 0}'::jsonb,
          'a second run finds nothing to prune');
SELECT is(corebank.auth_refresh(pg_temp.tok('m0'), pg_temp.tok('m2'), NULL, NULL), '{"outcome": "invalid"}'::jsonb,
          'a pruned refresh token answers invalid');

SELECT * FROM finish();
ROLLBACK;
