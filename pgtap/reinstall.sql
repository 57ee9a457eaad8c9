-- reinstall.sql: DROP EXTENSION / CREATE EXTENSION, twice, in one backend.
--
-- Goal: the install script works when its roles already exist, and the
-- backend's cached plans and signing-key cache follow the new objects (plans
-- are revalidated by PostgreSQL; the key cache is keyed by kid). Method: in
-- one transaction, drop and create twice, then register and sign.
BEGIN;
SELECT plan(6);

SELECT corebank.auth_jwks();   -- warm this backend's plan cache on the old objects
SELECT lives_ok('DROP EXTENSION corebank', 'DROP EXTENSION corebank');
SELECT lives_ok('CREATE EXTENSION corebank', 'CREATE EXTENSION corebank with the roles already present');
SELECT lives_ok('DROP EXTENSION corebank', 'DROP EXTENSION corebank again');
SELECT lives_ok('CREATE EXTENSION corebank', 'CREATE EXTENSION corebank again');
SELECT is(corebank.auth_register('again@example.com', NULL, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', NULL, NULL,
                                 NULL, NULL, NULL, NULL, sha256('again'::bytea)) -> 'user' ->> 'email',
          'again@example.com', 'the recreated extension registers users');
SELECT is(jsonb_array_length(corebank.auth_jwks() -> 'keys'), 1, 'the recreated extension publishes its new key');

SELECT * FROM finish();
ROLLBACK;
