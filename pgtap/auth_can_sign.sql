-- auth_can_sign.sql: what the identity service's GET /health asks the
-- database (issue 13, "a database without the root key file cannot sign and
-- says so clearly").
--
-- Goal: corebank.auth_can_sign() is true exactly when the root key loads
-- (auth_root_key_problem() is NULL), the tier's role may call it, and it
-- answers a boolean only (why the key does not load stays with the
-- superuser). The false case needs a server without the key, which no
-- session can arrange (corebank.root_key_file is PGC_SIGHUP): the faults
-- test tests/faults/test_health_root_key.py takes the key away and reads
-- GET /health.
BEGIN;
SELECT plan(4);

SELECT is(corebank.auth_can_sign(), corebank_internal.auth_root_key_problem() IS NULL,
          'auth_can_sign is true exactly when the root key loads');
SELECT is(corebank.auth_can_sign(), true, 'this server can sign');
SELECT is((SELECT prorettype::regtype::text FROM pg_proc WHERE oid = 'corebank.auth_can_sign()'::regprocedure),
          'boolean', 'it answers yes or no, never the problem');

SET ROLE corebank_app;
SELECT lives_ok('SELECT corebank.auth_can_sign()', 'corebank_app can call it');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
