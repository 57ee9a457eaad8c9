-- settings_locked.sql: the settings that decide security inside the database
-- (token lifetimes, rate limits, signing-key age) are superuser-only
-- (issue 13, "Settings"; docs/architecture.md, "Trust boundary").
--
-- Goal: no session of the app role (corebankd's, or anyone's who holds its
-- password) can change them, in any of the ways a session sets a GUC: SET,
-- set_config(), ALTER ROLE ... SET, and a placeholder set before the module
-- is loaded; a superuser stores them with ALTER DATABASE (what `corebankd
-- settings apply` does). The issuer and the default audience stay settable
-- (the tier passes its own on each connection; docs/configuration.md).
-- Method: SET ROLE corebank_app and try each way; before the extension's
-- module is loaded, so the placeholder case is real.
BEGIN;
SET ROLE corebank_app;
-- The module is not loaded yet: this only makes a placeholder.
SET corebank.login_rate_limit = 99999;
RESET ROLE;
CREATE EXTENSION IF NOT EXISTS pgtap;
SELECT plan(23);

-- Loading drops the placeholder with a WARNING (permission denied); quiet here.
SET client_min_messages = error;
LOAD 'corebank';
RESET client_min_messages;
SELECT is(current_setting('corebank.login_rate_limit'), '20',
          'a value the app role set before the module was loaded is dropped when it loads');

SELECT is((SELECT context FROM pg_settings WHERE name = 'corebank.' || s), 'superuser', s || ' is superuser-only')
FROM unnest(ARRAY['access_token_ttl_s', 'refresh_token_ttl_s', 'reset_token_ttl_s', 'login_rate_limit',
                  'login_rate_window_s', 'reset_rate_limit', 'reset_rate_window_s', 'signing_key_rotation_days']) s;

SET ROLE corebank_app;
SELECT throws_ok(format('SET corebank.%s = %s', s, v), '42501', NULL, 'the app role cannot SET ' || s)
FROM (VALUES ('access_token_ttl_s', '86400'), ('refresh_token_ttl_s', '31536000'), ('login_rate_limit', '100000'),
             ('login_rate_window_s', '1'), ('reset_rate_limit', '100000'), ('signing_key_rotation_days', '365'))
     AS t(s, v);
SELECT throws_ok($$SELECT set_config('corebank.login_rate_limit', '100000', false)$$, '42501', NULL,
                 'nor through set_config()');
SELECT throws_ok($$SELECT set_config('corebank.access_token_ttl_s', '86400', true)$$, '42501', NULL,
                 'nor for its transaction only');
SELECT throws_ok($$ALTER ROLE corebank_app SET corebank.access_token_ttl_s = 86400$$, '42501', NULL,
                 'nor store one for its own sessions (ALTER ROLE ... SET)');
SELECT lives_ok($$SET corebank.issuer = 'http://127.0.0.1:8081'$$,
                'the issuer stays the tier''s to pass: a session that changes it only mints tokens no service accepts');
SELECT is(current_setting('corebank.login_rate_limit'), '20', 'the app role still reads the value');
RESET ROLE;

-- A superuser stores them for the database: settings apply.
SELECT lives_ok(format('ALTER DATABASE %I SET corebank.login_rate_limit = 30', current_database()),
                'a superuser stores a value with ALTER DATABASE (corebankd settings apply)');
SELECT ok(EXISTS (SELECT FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
                  WHERE d.datname = current_database() AND s.setrole = 0
                    AND 'corebank.login_rate_limit=30' = ANY (s.setconfig)),
          'the value is kept for every new session of the database');
SELECT throws_ok(format('ALTER DATABASE %I SET corebank.login_rate_limit = 1000000', current_database()), '22023',
                 NULL, 'out of its range it is refused, as in corebank.conf');

SELECT * FROM finish();
ROLLBACK;
