-- auth_user_lock_active.sql: corebank_internal.auth_user_lock_active (1.7),
-- the first step of deactivation and of a password change.
--
-- Goal: an unknown or DEACTIVATED user is CBU01 "Account is not active", an
-- ACTIVE one passes; deactivation and password change still answer so; the
-- tier cannot call it. Method: direct calls, then through the callers.
BEGIN;
SELECT plan(9);
\ir helpers/identity.sql

CREATE TEMP TABLE ut AS SELECT pg_temp.uid(pg_temp.register('lock@example.com', NULL, 'k1')) AS user_id;
SELECT pg_temp.login((SELECT user_id FROM ut), 'k2');

SELECT throws_ok(format('SELECT corebank_internal.auth_user_lock_active(%L)', gen_random_uuid()),
                 'CBU01', 'Account is not active', 'an unknown user is not active');
SELECT lives_ok(format('SELECT corebank_internal.auth_user_lock_active(%L)', (SELECT user_id FROM ut)),
                'an ACTIVE user is locked');
SELECT lives_ok(format('SELECT corebank.auth_password_change(%L, %L)', (SELECT user_id FROM ut), pg_temp.hash(9)),
                'a password change of the ACTIVE user succeeds');
SELECT is(pg_temp.live_sessions((SELECT user_id FROM ut)), 0::bigint, 'every session was revoked');
SELECT lives_ok(format('SELECT corebank.auth_deactivate(%L)', (SELECT user_id FROM ut)),
                'deactivation of the ACTIVE user succeeds');
SELECT is((SELECT status FROM corebank.auth_users WHERE id = (SELECT user_id FROM ut)), 'DEACTIVATED',
          'the user is DEACTIVATED');
SELECT throws_ok(format('SELECT corebank_internal.auth_user_lock_active(%L)', (SELECT user_id FROM ut)),
                 'CBU01', 'Account is not active', 'a DEACTIVATED user is not active');
SELECT throws_ok(format('SELECT corebank.auth_password_change(%L, %L)', (SELECT user_id FROM ut), pg_temp.hash(8)),
                 'CBU01', 'Account is not active', 'a DEACTIVATED user cannot change the password');

SELECT is(has_function_privilege('corebank_app', 'corebank_internal.auth_user_lock_active(uuid)'::regprocedure, 'EXECUTE'),
          false,
          'the tier cannot call it');

SELECT * FROM finish();
ROLLBACK;
